// Compare one egg type across stores: region and count filters (kept in the
// URL), three summary cards by price per dozen (labelled with the regions they span, and within
// each region when there are several), the per-region Price Chart and the Price Listing (one page
// of entries at a time, paged by the server like the dashboard's list, the page in the URL),
// links to the other egg types, and the BLS long-run benchmark.
import { cheapestHeading } from '#shared/cheapest.ts';
import {
  Badge,
  Box,
  Button,
  Card,
  Flex,
  Grid,
  HStack,
  Heading,
  Link,
  SimpleGrid,
  Skeleton,
  Spinner,
  Stack,
  Tabs,
  Text,
} from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import { LuArrowLeft, LuArrowRight, LuTrendingDown, LuTrendingUp } from 'react-icons/lu';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useNearViewport } from '#client/lib/useNearViewport.ts';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';
import { useViewportWidth } from '#client/lib/useViewportWidth.ts';
import { BREAKPOINTS, pageSizeForWidth } from '#shared/pagination.ts';
import { formatDozenWithPack, formatPackPrice, formatPrice, formatRegionScope } from '#shared/format.ts';
import {
  EGG_TYPES,
  EGG_TYPE_LABELS,
  REGIONS,
  REGION_LABELS,
  parseEggType,
  parseRegion,
  type EggType,
} from '#shared/vocabulary.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { FilterSelect } from '#client/components/FilterSelect.tsx';
import { Pagination } from '#client/components/Pagination.tsx';
import { StatCard } from '#client/components/StatCard.tsx';
import { ChartLegend } from '#client/components/charts/ChartLegend.tsx';
import { REGION_COLORS } from '#client/components/charts/chartTheme.ts';
import { ChartPlaceholder, ChartSlot, RegionChart } from '#client/components/charts/lazyCharts.tsx';
import { compareHref } from '#client/lib/links.ts';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';

// The listing tab (price cards with their menus) and the benchmark below the fold come in chunks
// of their own, so the first paint of the page waits for neither.
const PriceCardGrid = lazy(() =>
  import('#client/components/PriceCardGrid.tsx').then((module) => ({ default: module.PriceCardGrid })),
);
const ShelfAdvertisedWholesale = lazy(() =>
  import('./ShelfAdvertisedWholesale.tsx').then((module) => ({ default: module.ShelfAdvertisedWholesale })),
);
const BenchmarkSection = lazy(() =>
  import('./BenchmarkSection.tsx').then((module) => ({ default: module.BenchmarkSection })),
);

function SectionFallback({ label, height }: { label: string; height: string }) {
  return <Skeleton height={height} borderRadius="l3" role="status" aria-label={label} />;
}

/**
 * The benchmark, loaded and drawn once it comes within 300 px of the screen (it is below the fold
 * at every width): its range selector measures the page as it mounts, work the first seconds of
 * a phone can do without. Until then, its card with the heading and a placeholder of its size.
 */
function BenchmarkSlot({ eggType }: { eggType: EggType }) {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref, '300px');
  const placeholder = (
    <Card.Root as="section" aria-labelledby="benchmark-heading" variant="outline">
      <Card.Header pb="2">
        <Heading as="h2" size="md" id="benchmark-heading">
          Long-run benchmark
        </Heading>
      </Card.Header>
      <Card.Body pt="2">
        <Skeleton
          height={{ base: '96', md: '104' }}
          borderRadius="l2"
          role="status"
          aria-label="Loading the benchmark"
        />
      </Card.Body>
    </Card.Root>
  );
  return (
    <Box ref={ref}>
      {near ? (
        <Suspense fallback={placeholder}>
          <Stack gap="6">
            <ShelfAdvertisedWholesale eggType={eggType} />
            <BenchmarkSection eggType={eggType} />
          </Stack>
        </Suspense>
      ) : (
        placeholder
      )}
    </Box>
  );
}

type Compare = RouterOutputs['compare']['byType'];

export const INVALID_EGG_TYPE = 'Invalid egg type specified';
export const UNIT_PRICE_HINT = 'For more accurate unit pricing, select a specific egg count.';

const REGION_OPTIONS = [
  { value: '', label: 'All Regions' },
  ...REGIONS.map((r) => ({ value: r, label: REGION_LABELS[r] })),
];

function InvalidEggType() {
  return (
    <Stack gap="4" align="center" textAlign="center" py={{ base: '10', md: '16' }}>
      <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
        {INVALID_EGG_TYPE}
      </Heading>
      <Text color="fg.muted">Choose one of these egg types to compare prices:</Text>
      <HStack gap="2" wrap="wrap" justify="center">
        {EGG_TYPES.map((type) => (
          <Button key={type} asChild variant="outline" size="sm">
            <RouterLink to={compareHref(type)}>{EGG_TYPE_LABELS[type]}</RouterLink>
          </Button>
        ))}
      </HStack>
      <Link asChild color="fg.muted" fontSize="sm" mt="2">
        <RouterLink to="/">
          <LuArrowLeft aria-hidden />
          Back to Dashboard
        </RouterLink>
      </Link>
    </Stack>
  );
}

type Summary = Compare['summary'];
type StorePrice = NonNullable<Summary['lowest']>;

/** 'Aldi, $3.49 per dozen ($5.24 / 18 ct), South' */
export function describeStorePrice(price: StorePrice, withRegion: boolean): string {
  return `${price.store_name}, ${formatDozenWithPack(price.price, price.count)}${withRegion ? `, ${REGION_LABELS[price.region]}` : ''}`;
}

function SummaryCards({ data, count }: { data: Compare | undefined; count: number | null }) {
  if (!data) {
    return (
      <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '4', lg: '6' }}>
        {['Price Range', 'Average Price', 'Unit Price Range'].map((title) => (
          <StatCard key={title} title={title} value={null} loading />
        ))}
      </SimpleGrid>
    );
  }
  const { summary } = data;
  const none = summary.products === 0;
  const scope = formatRegionScope(summary.regions);
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '4', lg: '6' }}>
      <StatCard
        title="Price Range"
        value={
          none || !summary.lowest || !summary.highest
            ? 'No prices'
            : `${formatPrice(summary.lowest.price_per_dozen)} – ${formatPrice(summary.highest.price_per_dozen)}`
        }
        subtext={
          summary.lowest && summary.highest ? (
            <>
              <Text as="span" display="block">
                per dozen, {scope}
              </Text>
              <Text as="span" display="block" mt="1">
                Lowest: {describeStorePrice(summary.lowest, true)}
              </Text>
              <Text as="span" display="block">
                Highest: {describeStorePrice(summary.highest, true)}
              </Text>
            </>
          ) : (
            'No prices for the selected filters'
          )
        }
        extra={
          summary.difference_per_dozen !== null ? (
            <Text fontSize="sm" fontWeight="medium">
              Difference: {formatPrice(summary.difference_per_dozen)} per dozen
            </Text>
          ) : null
        }
      />
      <StatCard
        title="Average Price"
        value={summary.average_per_dozen === null ? 'No prices' : formatPrice(summary.average_per_dozen)}
        subtext={
          <>
            {summary.average_per_dozen !== null && (
              <Text as="span" display="block">
                per dozen, {scope}
              </Text>
            )}
            <Text as="span" display="block">
              {`based on ${summary.products} ${summary.products === 1 ? 'product' : 'products'} from ${summary.stores} ${summary.stores === 1 ? 'store' : 'stores'}`}
            </Text>
          </>
        }
        extra={
          summary.some_decreasing || summary.some_increasing ? (
            <>
              {summary.some_decreasing && (
                <Badge colorPalette="green" variant="subtle">
                  <LuTrendingDown aria-hidden />
                  Some prices decreasing
                </Badge>
              )}
              {summary.some_increasing && (
                <Badge colorPalette="red" variant="subtle">
                  <LuTrendingUp aria-hidden />
                  Some prices increasing
                </Badge>
              )}
            </>
          ) : null
        }
      />
      <StatCard
        title="Unit Price Range"
        value={
          summary.unit_price
            ? `${formatPrice(summary.unit_price.min)} – ${formatPrice(summary.unit_price.max)}`
            : 'No prices'
        }
        subtext={
          <>
            per egg{summary.unit_price ? `, ${scope}` : ''}
            {count === null && (
              <Text as="span" display="block" mt="1">
                {UNIT_PRICE_HINT}
              </Text>
            )}
          </>
        }
      />
    </SimpleGrid>
  );
}

/** A region's figure, with the store and the pack it comes from (the pack price kept on one line). */
function RegionFigure({ label, value, from }: { label: string; value: string; from?: StorePrice | null }) {
  return (
    <Stack gap="0" minW="0">
      <Text textStyle="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontWeight="semibold">{value}</Text>
      {from && (
        <Text textStyle="xs" color="fg.muted">
          {from.store_name} ·{' '}
          <Text as="span" whiteSpace="nowrap">
            {formatPackPrice(from.price, from.count)}
          </Text>
        </Text>
      )}
    </Stack>
  );
}

/** The summary's figures within each region, when the page shows several: like with like. */
function RegionBreakdown({ summary }: { summary: Summary }) {
  if (summary.by_region.length < 2) return null;
  return (
    <Card.Root as="section" aria-labelledby="by-region-heading" variant="outline">
      <Card.Header pb="2">
        <Heading as="h2" size="md" id="by-region-heading">
          Price per dozen in each region
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          The same figures within one region at a time, where prices compare like with like.
        </Text>
      </Card.Header>
      <Card.Body pt="2">
        <Stack as="ul" gap="0" listStyleType="none">
          {summary.by_region.map((row) => (
            <Grid
              as="li"
              key={row.region}
              templateColumns={{ base: 'repeat(3, minmax(0, 1fr))', md: '9rem repeat(3, minmax(0, 1fr))' }}
              gapX="4"
              gapY="1"
              py="3"
              borderTopWidth="1px"
              _first={{ borderTopWidth: 0, pt: 0 }}
            >
              <Box gridColumn={{ base: '1 / -1', md: 'auto' }}>
                <Heading as="h3" size="sm">
                  {REGION_LABELS[row.region]}
                </Heading>
                <Text textStyle="xs" color="fg.muted">
                  {row.products} {row.products === 1 ? 'product' : 'products'}
                </Text>
              </Box>
              <RegionFigure
                label="Lowest"
                value={row.lowest ? formatPrice(row.lowest.price_per_dozen) : ''}
                from={row.lowest}
              />
              <RegionFigure
                label="Average"
                value={row.average_per_dozen === null ? '' : formatPrice(row.average_per_dozen)}
              />
              <RegionFigure
                label="Highest"
                value={row.highest ? formatPrice(row.highest.price_per_dozen) : ''}
                from={row.highest}
              />
            </Grid>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function PriceChart({ data, region }: { data: Compare | undefined; region: string }) {
  const chart = data?.chart;
  const unitLabel = chart?.unit === 'pack' && chart.count ? `for a ${chart.count}-egg pack` : 'per dozen';
  return (
    <Card.Root variant="outline">
      <Card.Header pb="2">
        <Heading as="h2" size="md">
          Average price by region
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Daily average price {unitLabel}, last 30 days
        </Text>
      </Card.Header>
      <Card.Body pt="2">
        {!chart ? (
          <ChartPlaceholder />
        ) : chart.lines.length === 0 ? (
          <Text color="fg.muted" py="6" textAlign="center" borderWidth="1px" borderStyle="dashed" borderRadius="md">
            No price history available for the selected filters.
          </Text>
        ) : (
          <Stack gap="3">
            {region === '' ? (
              <ChartLegend
                label="Regions"
                items={REGIONS.map((r) => ({ label: REGION_LABELS[r], color: REGION_COLORS[r] }))}
              />
            ) : null}
            <ChartSlot resetKeys={[chart]}>
              <RegionChart days={chart.days} lines={chart.lines} unitLabel={unitLabel} />
            </ChartSlot>
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function OtherTypes({ eggType }: { eggType: EggType }) {
  return (
    <Box as="nav" aria-labelledby="other-types-heading">
      <Heading as="h2" size="sm" id="other-types-heading" mb="2">
        Compare other egg types
      </Heading>
      <HStack gap="2" wrap="wrap">
        {EGG_TYPES.filter((t) => t !== eggType).map((type) => (
          <Button key={type} asChild variant="outline" size="sm">
            <RouterLink to={compareHref(type)}>
              {EGG_TYPE_LABELS[type]}
              <LuArrowRight aria-hidden />
            </RouterLink>
          </Button>
        ))}
      </HStack>
    </Box>
  );
}

/** The listing's page in the URL: a whole number from 1 (1 when absent or not one). */
function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

function CompareView({ eggType }: { eggType: EggType }) {
  const [params, update] = useUrlSearch();
  const [tab, setTab] = useState('chart');
  const listTop = useRef<HTMLDivElement>(null);
  const width = useViewportWidth();
  const pageSize = pageSizeForWidth(width);
  const mobile = width < BREAKPOINTS.mobile;
  const region = parseRegion(params.get('region')) ?? '';
  const countParam = Number(params.get('count'));
  const count = Number.isInteger(countParam) && countParam > 0 && countParam <= 360 ? countParam : null;
  const page = parsePage(params.get('page'));

  // A filter change goes back to the first page; filters replace the history entry.
  const setFilter = (key: 'region' | 'count', value: string) =>
    update(
      (next) => {
        if (value) next.set(key, value);
        else next.delete(key);
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  // Pages are history entries, so Back returns to the previous page of the listing.
  const goToPage = (target: number) => {
    update(
      (next) => {
        if (target > 1) next.set('page', String(target));
        else next.delete('page');
        return next;
      },
      { preventScrollReset: true },
    );
    const top = listTop.current;
    if (top && top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: 'start' });
  };

  const query = trpc.compare.byType.useQuery(
    { eggType, region: region || undefined, count: count ?? undefined, page, pageSize },
    { placeholderData: keepPreviousData },
  );
  const data = query.data;
  const counts = [...new Set([...(data?.counts ?? []), ...(count !== null ? [count] : [])])].sort((a, b) => a - b);
  const countOptions = [
    { value: '', label: 'Any Count' },
    ...counts.map((c) => ({ value: String(c), label: `${c} eggs` })),
  ];
  const label = EGG_TYPE_LABELS[eggType];
  const updating = query.isFetching && query.isPlaceholderData;

  return (
    <Stack gap={{ base: '5', md: '6' }}>
      <Link asChild color="fg.muted" fontSize="sm" _hover={{ color: 'fg' }} alignSelf="flex-start">
        <RouterLink to="/">
          <LuArrowLeft aria-hidden />
          Back to Dashboard
        </RouterLink>
      </Link>
      <Box>
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          Compare {label} Egg Prices
        </Heading>
        <Text color="fg.muted" mt="1">
          Current {label.toLowerCase()} egg prices at every store, by region and pack size.
        </Text>
      </Box>

      <Box
        as="section"
        aria-label="Filters"
        borderWidth="1px"
        borderRadius="lg"
        p={{ base: '3', md: '4' }}
        bg="bg.subtle"
      >
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap={{ base: '3', md: '4' }} maxW={{ md: '2xl' }}>
          <FilterSelect
            label="Region"
            value={region}
            options={REGION_OPTIONS}
            onChange={(v) => setFilter('region', v)}
          />
          <FilterSelect
            label="Count"
            value={count === null ? '' : String(count)}
            options={countOptions}
            onChange={(v) => setFilter('count', v)}
            disabled={!data}
          />
        </SimpleGrid>
      </Box>

      {query.isError ? (
        <ErrorCard title="Unable to load prices" message={query.error.message} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <Box as="section" aria-label="Price summary">
            <SummaryCards data={data} count={count} />
          </Box>
          {data && <RegionBreakdown summary={data.summary} />}
          <Tabs.Root
            value={tab}
            onValueChange={(details) => setTab(details.value)}
            lazyMount
            unmountOnExit
            variant="line"
            colorPalette="brand"
          >
            <Flex justify="space-between" align="flex-end" gap="2">
              <Tabs.List flex="1">
                <Tabs.Trigger value="chart">Price Chart</Tabs.Trigger>
                <Tabs.Trigger value="listing">Price Listing</Tabs.Trigger>
              </Tabs.List>
              {updating && <Spinner size="sm" color="brand.solid" aria-label="Updating" mb="2" />}
            </Flex>
            <Tabs.Content value="chart">
              <PriceChart data={data} region={region} />
            </Tabs.Content>
            <Tabs.Content value="listing">
              <Text fontSize="sm" color="fg.muted" mb="3" ref={listTop} scrollMarginTop="24">
                {cheapestHeading(count)}.
              </Text>
              <Suspense fallback={<SectionFallback label="Loading prices" height="80" />}>
                <Box aria-busy={updating || undefined} opacity={updating ? 0.6 : 1} transition="opacity 0.2s">
                  <PriceCardGrid
                    entries={data?.entries}
                    loading={query.isPending}
                    placeholders={pageSize}
                    label={`${label} egg prices, cheapest per dozen first`}
                  />
                </Box>
              </Suspense>
              {data && data.total > 0 && (
                <Box mt="6">
                  <Pagination
                    page={data.page}
                    pageCount={data.pageCount}
                    pageSize={data.pageSize}
                    total={data.total}
                    onPageChange={goToPage}
                    mobile={mobile}
                    label={`${label} egg prices pages`}
                  />
                </Box>
              )}
            </Tabs.Content>
          </Tabs.Root>
        </>
      )}

      <OtherTypes eggType={eggType} />
      <BenchmarkSlot eggType={eggType} />
    </Stack>
  );
}

export default function ComparePage() {
  const { eggType } = useParams();
  const type = parseEggType(eggType);
  if (!type) return <InvalidEggType />;
  return <CompareView key={type} eggType={type} />;
}
