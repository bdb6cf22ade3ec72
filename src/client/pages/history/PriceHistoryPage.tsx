// A product's price history at one store location (/products/:productId/history?location=&days=):
// what the product is and where, its lowest, highest and latest price over 30, 90 or 365 days
// (the span lives in the URL), the daily price per dozen drawn beside the BLS national average,
// the same prices as a table, and a CSV download. A product or location that does not exist is
// the app's 404 page.
import { BenchmarkProvenance } from '#client/components/charts/BenchmarkProvenance.tsx';
import {
  Badge,
  Box,
  Button,
  ButtonGroup,
  Card,
  EmptyState,
  Flex,
  HStack,
  Heading,
  Link,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
  Wrap,
} from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useMemo, type ReactNode } from 'react';
import { LuArrowLeft, LuCalendarX, LuExternalLink } from 'react-icons/lu';
import { Link as RouterLink, useParams } from 'react-router-dom';
import type { HistoryResult, HistorySpan } from '#shared/near.ts';
import { formatPackPrice, formatPlace, formatPrice } from '#shared/format.ts';
import { EGG_TYPE_LABELS, isSampleSource } from '#shared/vocabulary.ts';
import { DownloadLink } from '#client/components/DownloadLink.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { StoreLogo } from '#client/components/StoreLogo.tsx';
import { errorCode } from '#client/components/auth/errors.ts';
import { ChartLegend } from '#client/components/charts/ChartLegend.tsx';
import {
  HISTORY_BLS_COLOR,
  HISTORY_BLS_LABEL,
  HISTORY_PRICE_COLOR,
  HISTORY_PRICE_LABEL,
} from '#client/components/charts/chartTheme.ts';
import { ChartSlot, HistoryChart } from '#client/components/charts/lazyCharts.tsx';
import { SampleBadge, storeHref } from '#client/components/price-card/PriceCard.tsx';
import { downloadHref } from '#client/lib/links.ts';
import { trpc } from '#client/lib/trpc.ts';
import { useSearchParam } from '#client/lib/useSearchParam.ts';
import { useIsMobile } from '#client/lib/useViewportWidth.ts';
import NotFoundPage from '#client/pages/not-found/NotFoundPage.tsx';
import {
  DEFAULT_SPAN,
  SPANS,
  blsOfDay,
  blsReference,
  blsSteps,
  chartSummary,
  formatDay,
  formatMonth,
  historyChange,
  historyNote,
  parseId,
  parseSpan,
  spanWindow,
} from './historyView.ts';

const CHART_HEIGHT = { base: '64', md: '80' };
const CHANGE_COLORS = { up: 'trend.up', down: 'trend.down', same: 'trend.stable' } as const;

function BackToDashboard() {
  return (
    <Link asChild color="fg.muted" fontSize="sm" _hover={{ color: 'fg' }} alignSelf="flex-start">
      <RouterLink to="/">
        <LuArrowLeft aria-hidden />
        Back to Dashboard
      </RouterLink>
    </Link>
  );
}

function ProductHeader({ data }: { data: HistoryResult | undefined }) {
  const stores = trpc.stores.list.useQuery();
  if (!data) {
    return (
      <HStack gap="4" role="status" aria-label="Loading the product">
        <Skeleton boxSize="16" borderRadius="md" />
        <Stack gap="2" flex="1">
          <Skeleton height="8" width="72" maxW="full" />
          <Skeleton height="4" width="56" maxW="full" />
          <Skeleton height="5" width="48" maxW="full" />
        </Stack>
      </HStack>
    );
  }
  const { product, location } = data;
  const logo = stores.data?.find((store) => store.id === product.store_id)?.store_logo_url;
  const where = location.name ? `${location.name}, ${formatPlace(location)}` : formatPlace(location);
  return (
    <Stack gap="3">
      <HStack gap="4" align="flex-start">
        <StoreLogo name={product.store_name} url={logo} size="2xl" decorative />
        <Box minW="0">
          <Heading as="h1" size={{ base: 'xl', md: '2xl' }} overflowWrap="anywhere">
            {product.title}
          </Heading>
          <Text color="fg.muted" mt="1">
            <Link asChild color="fg" fontWeight="medium">
              <RouterLink to={storeHref(product.store_id)}>{product.store_name}</RouterLink>
            </Link>
            {' · '}
            {where}
          </Text>
        </Box>
      </HStack>
      <Wrap gap="2" align="center" aria-label="Product details">
        <Badge variant="subtle" colorPalette="gray">
          {EGG_TYPE_LABELS[product.egg_type]}
        </Badge>
        <Badge variant="subtle" colorPalette="gray">
          {product.count} eggs
        </Badge>
        {product.size_grade && (
          <Badge variant="subtle" colorPalette="gray">
            {product.size_grade}
          </Badge>
        )}
        {product.brand && (
          <Badge variant="subtle" colorPalette="gray">
            {product.brand}
          </Badge>
        )}
        {data.source && isSampleSource(data.source) && <SampleBadge />}
      </Wrap>
      {product.url && (
        <Link
          href={product.url}
          target="_blank"
          rel="noopener noreferrer"
          fontSize="sm"
          fontWeight="medium"
          color="brand.fg"
          alignSelf="flex-start"
        >
          View at {product.store_name}
          <LuExternalLink aria-hidden />
          <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
        </Link>
      )}
    </Stack>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <Box borderWidth="1px" borderColor="border" borderRadius="md" px="3" py="2" minW="0">
      <Text as="dt" textStyle="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
        {label}
      </Text>
      <Box as="dd">
        <Text fontSize="xl" fontWeight="bold">
          {value}
        </Text>
        {children && (
          <Box textStyle="sm" color="fg.muted">
            {children}
          </Box>
        )}
      </Box>
    </Box>
  );
}

function perDozen(price: number, count: number): number {
  return (price * 12) / count;
}

function Figures({ data }: { data: HistoryResult }) {
  const { count } = data.product;
  const change = historyChange(data.change);
  const bls = [...data.bls].sort((a, b) => a.period.localeCompare(b.period)).at(-1);
  return (
    <SimpleGrid as="dl" columns={{ base: 2, md: 4 }} gap="3">
      {data.lowest && (
        <Figure label="Lowest" value={formatPackPrice(data.lowest.price, count)}>
          <Text>{formatPrice(perDozen(data.lowest.price, count))} per dozen</Text>
          <Text>{formatDay(data.lowest.day)}</Text>
        </Figure>
      )}
      {data.highest && (
        <Figure label="Highest" value={formatPackPrice(data.highest.price, count)}>
          <Text>{formatPrice(perDozen(data.highest.price, count))} per dozen</Text>
          <Text>{formatDay(data.highest.day)}</Text>
        </Figure>
      )}
      {data.latest && (
        <Figure label="Latest" value={formatPackPrice(data.latest.price, count)}>
          <Text>{formatDay(data.latest.day)}</Text>
          {change ? (
            <Text color={CHANGE_COLORS[change.direction]} fontWeight="semibold" title={change.description}>
              <span aria-hidden>{change.text}</span>
              <VisuallyHidden>{change.description}</VisuallyHidden>
            </Text>
          ) : (
            <Text>No earlier price to compare</Text>
          )}
        </Figure>
      )}
      <Figure label="BLS national average" value={bls ? formatPrice(bls.price) : 'Not published'}>
        <Text>{bls ? `per dozen in ${formatMonth(bls.period)}` : 'for the months of this span'}</Text>
        {bls && <Text>latest published month</Text>}
        <BenchmarkProvenance />
      </Figure>
    </SimpleGrid>
  );
}

function PriceTable({ data }: { data: HistoryResult }) {
  const rows = [...data.points].reverse();
  return (
    <Box as="details" borderWidth="1px" borderColor="border" borderRadius="md">
      <Box
        as="summary"
        cursor="pointer"
        px="3"
        py="2"
        fontSize="sm"
        fontWeight="medium"
        _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing' }}
      >
        Daily prices as a table ({rows.length} {rows.length === 1 ? 'day' : 'days'})
      </Box>
      <Table.ScrollArea maxH="96" borderTopWidth="1px" borderColor="border">
        <Table.Root size="sm" stickyHeader>
          <Table.Caption srOnly>Daily prices of {data.product.title}, newest first</Table.Caption>
          <Table.Header>
            <Table.Row bg="bg.subtle">
              <Table.ColumnHeader>Day</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Pack price</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Per dozen</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">BLS average that month</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((point) => {
              const bls = blsOfDay(data.bls, point.day);
              return (
                <Table.Row key={point.day}>
                  <Table.Cell whiteSpace="nowrap">{formatDay(point.day)}</Table.Cell>
                  <Table.Cell textAlign="end">{formatPrice(point.price)}</Table.Cell>
                  <Table.Cell textAlign="end">{formatPrice(point.price_per_dozen)}</Table.Cell>
                  <Table.Cell textAlign="end">{bls === null ? '—' : formatPrice(bls)}</Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Box>
  );
}

function HistoryBody({ data, onSpan }: { data: HistoryResult; onSpan: (days: HistorySpan) => void }) {
  const narrow = useIsMobile();
  const lines = useMemo(() => {
    const window = spanWindow(data);
    return {
      window,
      points: data.points.map((point) => ({ day: point.day, value: point.price_per_dozen })),
      bls: blsSteps(data.bls, window),
      reference: blsReference(data.bls, window),
    };
  }, [data]);
  if (data.points.length === 0) {
    const longer = SPANS.filter((span) => span > data.days);
    return (
      <EmptyState.Root size="sm" borderWidth="1px" borderStyle="dashed" borderRadius="l2">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuCalendarX />
          </EmptyState.Indicator>
          <EmptyState.Title as="h3" textStyle="md">
            No prices in the last {data.days} days
          </EmptyState.Title>
          <EmptyState.Description>
            This product had no observed price at this location in that span.
          </EmptyState.Description>
          {longer.length > 0 && (
            <HStack gap="2">
              {longer.map((span) => (
                <Button key={span} size="sm" variant="outline" colorPalette="gray" onClick={() => onSpan(span)}>
                  Show {span} days
                </Button>
              ))}
            </HStack>
          )}
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  const note = historyNote(data);
  return (
    <Stack gap="4">
      <Figures data={data} />
      {note && (
        <Text textStyle="sm" color="fg.muted" fontWeight="medium">
          {note}
        </Text>
      )}
      <ChartLegend
        label="Chart lines"
        items={[
          { label: HISTORY_PRICE_LABEL, color: HISTORY_PRICE_COLOR },
          ...(lines.bls.length > 0 ? [{ label: `${HISTORY_BLS_LABEL}, by month`, color: HISTORY_BLS_COLOR }] : []),
          ...(lines.reference
            ? [
                {
                  label: `BLS latest published, ${formatMonth(lines.reference.period)}: ${formatPrice(lines.reference.price)}`,
                  color: HISTORY_BLS_COLOR,
                  dashed: true,
                },
              ]
            : []),
        ]}
      />
      <ChartSlot height={CHART_HEIGHT} resetKeys={[data]}>
        <HistoryChart
          points={lines.points}
          bls={lines.bls}
          days={data.days}
          window={lines.window}
          reference={lines.reference?.price ?? null}
          summary={chartSummary(data)}
          narrow={narrow}
        />
      </ChartSlot>
      <PriceTable data={data} />
      <Text textStyle="xs" color="fg.muted">
        BLS: U.S. Bureau of Labor Statistics, Average Price Data (“Eggs, grade A, large, per doz.”), national, by month.
        Shelf prices are per dozen at this pack size.
      </Text>
    </Stack>
  );
}

function LoadingBody() {
  return (
    <Stack gap="4" role="status" aria-label="Loading the price history">
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
        {['Lowest', 'Highest', 'Latest', 'BLS'].map((label) => (
          <Skeleton key={label} height="24" borderRadius="md" />
        ))}
      </SimpleGrid>
      <Skeleton height={CHART_HEIGHT} borderRadius="md" />
    </Stack>
  );
}

function HistoryView({ id, location }: { id: number; location: number }) {
  const [params, setParam] = useSearchParam();
  const days = parseSpan(params.get('days'));
  const headingId = useId();
  const history = trpc.prices.history.useQuery(
    { id, location, days },
    // Its own request: a product that does not exist answers 404 alone.
    { placeholderData: keepPreviousData, trpc: { context: { unbatched: true } } },
  );
  const setSpan = (span: HistorySpan) => setParam('days', span === DEFAULT_SPAN ? '' : String(span));
  const data = history.data;

  if (history.isError && !data && ['NOT_FOUND', 'BAD_REQUEST'].includes(errorCode(history.error) ?? ''))
    return <NotFoundPage />;

  let body: ReactNode;
  if (history.isError && !data) {
    body = (
      <ErrorCard
        title="Unable to load the price history"
        message={history.error.message}
        onRetry={() => void history.refetch()}
      />
    );
  } else if (!data) {
    body = <LoadingBody />;
  } else {
    body = <HistoryBody data={data} onSpan={setSpan} />;
  }
  const busy = history.isFetching && history.isPlaceholderData;

  return (
    <Stack gap={{ base: '5', md: '6' }}>
      <BackToDashboard />
      <ProductHeader data={data} />
      <Card.Root as="section" aria-labelledby={headingId} variant="outline">
        <Card.Header>
          <Flex
            justify="space-between"
            align={{ base: 'flex-start', md: 'center' }}
            gap="3"
            direction={{ base: 'column', md: 'row' }}
          >
            <Box>
              <Heading as="h2" size="lg" id={headingId}>
                Price history
              </Heading>
              <Text textStyle="sm" color="fg.muted">
                The price per dozen each day, with the government's national average beside it for scale
              </Text>
            </Box>
            <HStack gap="3" wrap="wrap">
              <ButtonGroup size="sm" variant="outline" attached role="group" aria-label="Span">
                {SPANS.map((span) => {
                  const active = span === days;
                  return (
                    <Button
                      key={span}
                      variant={active ? 'solid' : 'outline'}
                      colorPalette={active ? 'brand' : 'gray'}
                      aria-pressed={active}
                      onClick={() => setSpan(span)}
                    >
                      {span} Days
                    </Button>
                  );
                })}
              </ButtonGroup>
              <DownloadLink
                href={downloadHref(`/api/products/${id}/history.csv`, { location, days })}
                context={`of the daily prices over ${days} days`}
              />
            </HStack>
          </Flex>
        </Card.Header>
        <Card.Body pt="2" gap="4">
          <Box aria-busy={busy || undefined} opacity={busy ? 0.6 : 1} transition="opacity 0.2s">
            {body}
          </Box>
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

export default function PriceHistoryPage() {
  const { productId } = useParams();
  const [params] = useSearchParam();
  const id = parseId(productId);
  const location = parseId(params.get('location'));
  if (id === null || location === null) return <NotFoundPage />;
  return <HistoryView key={`${id}:${location}`} id={id} location={location} />;
}
