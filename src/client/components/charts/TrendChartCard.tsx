// The dashboard's Price Trends card: 7 Days / 30 Days toggle (7 Days first), the
// lazily loaded line chart on the brand's light green background, and the Average, High, Low and
// Trend summary from stats.trends. 'Loading chart' while the data or the chart code loads,
// 'Unable to load chart data' when the stats call fails or has nothing, and a 'Chart Error'
// boundary when drawing fails.
import {
  Box,
  ButtonGroup,
  Button,
  Card,
  Center,
  HStack,
  Heading,
  Icon,
  SimpleGrid,
  Skeleton,
  Spinner,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { Suspense, lazy, useId, useRef, useState, type ReactNode } from 'react';
import { LuArrowDown, LuArrowUp, LuChartLine } from 'react-icons/lu';
import { trpc } from '#client/lib/trpc.ts';
import { useNearViewport } from '#client/lib/useNearViewport.ts';
import { useIsMobile } from '#client/lib/useViewportWidth.ts';
import { SampleBadge } from '#client/components/SampleBadge.tsx';
import { ChartLegend } from './ChartLegend.tsx';
import { TrendChartBoundary } from './TrendChartBoundary.tsx';
import {
  DEFAULT_TREND_RANGE,
  TREND_RANGES,
  hasTrendData,
  trendSeries,
  trendSummary,
  type SummaryItem,
  type TrendRangeKey,
} from './TrendChartData.ts';

const TrendChart = lazy(() => import('./TrendChart.tsx'));

/** The chart's background, rgba(52, 199, 89, 0.1); the chart is 16rem high. */
const CHART_BG = 'rgba(52, 199, 89, 0.1)';
const CHART_HEIGHT = '16rem';

export const LOADING_CHART = 'Loading chart';
export const NO_CHART_DATA = 'Unable to load chart data';

function ChartPlaceholder({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <Center
      height={CHART_HEIGHT}
      borderRadius="md"
      style={{ background: CHART_BG }}
      role="status"
      aria-busy={busy || undefined}
    >
      {children}
    </Center>
  );
}

function LoadingChart() {
  return (
    <ChartPlaceholder busy>
      <HStack gap="2" color="fg.muted">
        <Spinner size="sm" color="brand.solid" />
        <Text>{LOADING_CHART}</Text>
      </HStack>
    </ChartPlaceholder>
  );
}

function SummaryValue({ item }: { item: SummaryItem }) {
  if (item.note) {
    return (
      <Text fontSize="sm" fontWeight="medium" color="fg.muted" lineHeight="short" pt="1">
        {item.value}
      </Text>
    );
  }
  if (!item.direction) {
    return (
      <Text fontSize="xl" fontWeight="bold">
        {item.value}
      </Text>
    );
  }
  const down = item.direction === 'down';
  return (
    <HStack gap="1" color={down ? 'trend.down' : 'trend.up'}>
      <Icon size="md" aria-hidden>
        {down ? <LuArrowDown /> : <LuArrowUp />}
      </Icon>
      <VisuallyHidden>{down ? 'Down' : 'Up'}</VisuallyHidden>
      <Text fontSize="xl" fontWeight="bold">
        {item.value}
      </Text>
    </HStack>
  );
}

/**
 * While stats load: the chart placeholder with the legend and the summary row as skeleton bars of
 * their real size, so the card does not grow, and push what follows down, when the data arrives.
 */
function LoadingBody() {
  return (
    <Stack gap="4">
      <Box borderRadius="md" px="1" pt="2" style={{ background: CHART_BG }}>
        <LoadingChart />
      </Box>
      <Skeleton loading aria-hidden width="fit-content" maxW="full">
        <ChartLegend
          label="Chart lines"
          items={[
            { label: 'National Average', color: 'transparent' },
            { label: 'Organic', color: 'transparent' },
            { label: 'Standard', color: 'transparent' },
          ]}
        />
      </Skeleton>
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="3" aria-hidden>
        {['Average', 'High', 'Low', 'Trend'].map((label) => (
          <Skeleton key={label} loading borderRadius="md">
            <Box borderWidth="1px" px="3" py="2">
              <Text textStyle="xs">{label}</Text>
              <Text fontSize="xl" fontWeight="bold">
                $0.00
              </Text>
            </Box>
          </Skeleton>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** What the summary's figures are, beside the Lowest Price card's single pack. */
export const SUMMARY_NOTE = 'Average, high and low of the national average per dozen by day, not of single packs.';

export function TrendChartCard() {
  const [rangeKey, setRangeKey] = useState<TrendRangeKey>(DEFAULT_TREND_RANGE);
  const stats = trpc.stats.get.useQuery();
  const narrow = useIsMobile();
  const headingId = useId();
  const range = stats.data?.trends[rangeKey];
  // The chart (nivo) is loaded and drawn once the card comes on screen: it sits just below the
  // fold on phones, where drawing it right away would hold up the page's first seconds.
  const cardRef = useRef<HTMLDivElement>(null);
  const nearScreen = useNearViewport(cardRef);

  let body: ReactNode;
  if (stats.isPending) {
    body = <LoadingBody />;
  } else if (stats.isError || !hasTrendData(range)) {
    body = (
      <ChartPlaceholder>
        <Stack align="center" gap="3">
          <Text color="fg.muted">{NO_CHART_DATA}</Text>
          {stats.isError && (
            <Button size="sm" variant="outline" colorPalette="gray" onClick={() => void stats.refetch()}>
              Retry
            </Button>
          )}
        </Stack>
      </ChartPlaceholder>
    );
  } else {
    body = (
      <Stack gap="4">
        <Box borderRadius="md" px="1" pt="2" style={{ background: CHART_BG }}>
          <TrendChartBoundary resetKey={rangeKey}>
            {nearScreen ? (
              <Suspense fallback={<LoadingChart />}>
                <TrendChart range={range} rangeKey={rangeKey} narrow={narrow} />
              </Suspense>
            ) : (
              <LoadingChart />
            )}
          </TrendChartBoundary>
        </Box>
        <HStack justify="space-between" align="center" gap="2" wrap="wrap">
          <ChartLegend
            label="Chart lines"
            items={trendSeries(range).map((series) => ({ label: series.id, color: series.color }))}
          />
          {range.sample && <SampleBadge figure />}
        </HStack>
        <SimpleGrid as="dl" columns={{ base: 2, md: 4 }} gap="3">
          {trendSummary(range).map((item) => (
            <Box key={item.label} borderWidth="1px" borderColor="border" borderRadius="md" px="3" py="2">
              <Text as="dt" textStyle="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
                {item.label}
              </Text>
              <Box as="dd">
                <SummaryValue item={item} />
              </Box>
            </Box>
          ))}
        </SimpleGrid>
        <Text textStyle="xs" color="fg.muted">
          {SUMMARY_NOTE}
        </Text>
      </Stack>
    );
  }

  return (
    <Card.Root as="section" aria-labelledby={headingId} variant="outline" ref={cardRef}>
      <Card.Header>
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Stack gap="0.5">
            <Heading as="h2" size="lg" id={headingId}>
              <HStack gap="2">
                <LuChartLine aria-hidden />
                Price Trends
              </HStack>
            </Heading>
            <Text textStyle="sm" color="fg.muted">
              Average price per dozen across stores, by day
            </Text>
          </Stack>
          <ButtonGroup size="sm" variant="outline" attached role="group" aria-label="Time range">
            {TREND_RANGES.map((option) => {
              const active = option.key === rangeKey;
              return (
                <Button
                  key={option.key}
                  variant={active ? 'solid' : 'outline'}
                  colorPalette={active ? 'brand' : 'gray'}
                  aria-pressed={active}
                  onClick={() => setRangeKey(option.key)}
                >
                  {option.label}
                </Button>
              );
            })}
          </ButtonGroup>
        </HStack>
      </Card.Header>
      <Card.Body pt="0">{body}</Card.Body>
    </Card.Root>
  );
}
