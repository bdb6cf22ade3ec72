import { Box, SimpleGrid, Text } from '@chakra-ui/react';
import { SampleBadge } from '#client/components/SampleBadge.tsx';
import { StatCard, type StatTrend } from '#client/components/StatCard.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';
import { formatHistoryDays, formatPackPrice, formatPrice, formatTrend } from '#shared/format.ts';
import { DEFAULT_COUNT, EGG_TYPE_LABELS, isSampleSource, REGION_LABELS } from '#shared/vocabulary.ts';

type Stats = RouterOutputs['stats']['get'];
type Trend = Stats['national_average']['trend'];

const NO_DATA = 'No data yet';

/**
 * A change as the card shows it: the trend, two decimals like every other trend in the app,
 * or, while the series is too short for it, how many days of prices it has so far.
 */
export function toTrend(
  trend: Trend,
  historyDays: number,
  unit: '%' | ' pts',
  caption: string,
): StatTrend | string | null {
  if (!trend) return historyDays > 0 ? formatHistoryDays(historyDays) : null;
  const value = unit === '%' ? formatTrend(trend.value) : `${Math.abs(trend.value).toFixed(2)} pts`;
  return { direction: trend.direction, value, caption };
}

function sampleBadge(sample: boolean) {
  return sample ? <SampleBadge figure size="md" /> : null;
}

function NationalAverageCard({ stats }: { stats: Stats }) {
  const { price_per_dozen, trend, history_days, sample } = stats.national_average;
  return (
    <StatCard
      title="National Average"
      value={price_per_dozen === null ? NO_DATA : formatPrice(price_per_dozen)}
      subtext="per dozen, all types"
      trend={toTrend(trend, history_days, '%', 'vs last week')}
      extra={sampleBadge(sample)}
    />
  );
}

function VolatilityCard({ stats }: { stats: Stats }) {
  const { value, trend, history_days, sample } = stats.weekly_volatility;
  const waiting = value === null && history_days > 0;
  return (
    <StatCard
      title="Weekly Volatility"
      value={
        value !== null ? (
          `${value.toFixed(2)}%`
        ) : waiting ? (
          <Text as="span" fontSize="xl">
            {formatHistoryDays(history_days)}
          </Text>
        ) : (
          NO_DATA
        )
      }
      subtext={value !== null ? 'day-to-day swing in the national average' : 'Needs 7 days of prices'}
      // The change in a percentage is given in percentage points; it needs two weeks, so it waits
      // quietly while the value itself does.
      trend={waiting ? null : toTrend(trend, history_days, ' pts', 'vs previous week')}
      extra={sampleBadge(sample && history_days > 0)}
    />
  );
}

function LowestPriceCard({ stats }: { stats: Stats }) {
  const lowest = stats.lowest_price;
  if (!lowest) {
    return <StatCard title="Lowest Price" value={NO_DATA} subtext="No store prices have been collected yet" />;
  }
  const isDozen = lowest.count === DEFAULT_COUNT;
  return (
    <StatCard
      title="Lowest Price"
      value={isDozen ? formatPrice(lowest.price) : formatPackPrice(lowest.price, lowest.count)}
      subtext={
        <>
          {EGG_TYPE_LABELS[lowest.egg_type]} eggs, {REGION_LABELS[lowest.region]} region
          <Text as="span" display="block">
            {isDozen ? LOWEST_ONE_PACK : `${formatPrice(lowest.price_per_dozen)} per dozen, ${LOWEST_ONE_PACK}`}
          </Text>
        </>
      }
      badge={lowest.store_name}
      extra={isSampleSource(lowest.source) ? <SampleBadge size="md" /> : null}
    />
  );
}

/** What the Lowest Price card is: one pack on a shelf, beside the chart's daily averages. */
export const LOWEST_ONE_PACK = 'one pack, the cheapest per dozen today';

/** While stats load: the three cards with placeholder content shaped like the real one. */
function LoadingCards() {
  const trend = (caption: string): StatTrend => ({ direction: 'stable', value: '0.00%', caption });
  return (
    <>
      <StatCard
        title="National Average"
        value="$0.00"
        subtext="per dozen, all types"
        trend={trend('vs last week')}
        loading
      />
      <StatCard
        title="Weekly Volatility"
        value="0.00%"
        subtext="day-to-day swing in the national average"
        trend={trend('vs previous week')}
        loading
      />
      <StatCard
        title="Lowest Price"
        value="$0.00"
        subtext={
          <>
            Standard eggs, South region
            <Text as="span" display="block">
              $0.00 per dozen
            </Text>
          </>
        }
        badge="Store"
        extra={<SampleBadge size="md" />}
        loading
      />
    </>
  );
}

/** The three cards for the statistics. */
export function StatsCards({ stats }: { stats: Stats }) {
  return (
    <>
      <NationalAverageCard stats={stats} />
      <VolatilityCard stats={stats} />
      <LowestPriceCard stats={stats} />
    </>
  );
}

/** The dashboard's three summary cards, from stats.get. */
export function SummaryCards() {
  const stats = trpc.stats.get.useQuery();
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '4', lg: '6' }}>
      {stats.isPending ? (
        <LoadingCards />
      ) : stats.isError ? (
        <Box gridColumn="1 / -1">
          <ErrorCard
            title="Unable to load price summary"
            message={stats.error.message}
            onRetry={() => void stats.refetch()}
          />
        </Box>
      ) : (
        <StatsCards stats={stats.data} />
      )}
    </SimpleGrid>
  );
}
