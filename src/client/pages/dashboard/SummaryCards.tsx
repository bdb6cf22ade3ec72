import { Badge, Box, SimpleGrid, Text } from '@chakra-ui/react';
import { StatCard, type StatTrend } from '#client/components/StatCard.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';
import { formatPackPrice, formatPrice, formatTrend } from '#shared/format.ts';
import { DEFAULT_COUNT, EGG_TYPE_LABELS, isSampleSource, REGION_LABELS } from '#shared/vocabulary.ts';

type Stats = RouterOutputs['stats']['get'];
type Trend = Stats['national_average']['trend'];

const NO_DATA = 'No data yet';

/** Trend values read like every other trend in the app: two decimals (SPEC §5). */
function toTrend(trend: Trend, unit: '%' | ' pts', caption: string): StatTrend | null {
  if (!trend) return null;
  const value = unit === '%' ? formatTrend(trend.value) : `${Math.abs(trend.value).toFixed(2)} pts`;
  return { direction: trend.direction, value, caption };
}

function NationalAverageCard({ stats }: { stats: Stats }) {
  const { price_per_dozen, trend } = stats.national_average;
  return (
    <StatCard
      title="National Average"
      value={price_per_dozen === null ? NO_DATA : formatPrice(price_per_dozen)}
      subtext="per dozen, all types"
      trend={toTrend(trend, '%', 'vs last week')}
    />
  );
}

function VolatilityCard({ stats }: { stats: Stats }) {
  const { value, trend } = stats.weekly_volatility;
  return (
    <StatCard
      title="Weekly Volatility"
      value={value === null ? NO_DATA : `${value.toFixed(2)}%`}
      subtext={value === null ? 'Needs a few days of prices' : 'day-to-day swing in the national average'}
      // The change in a percentage is given in percentage points.
      trend={toTrend(trend, ' pts', 'vs previous week')}
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
          {!isDozen && (
            <Text as="span" display="block">
              {formatPrice(lowest.price_per_dozen)} per dozen
            </Text>
          )}
        </>
      }
      badge={lowest.store_name}
      extra={
        isSampleSource(lowest.source) ? (
          <Badge colorPalette="amber" variant="subtle" size="md">
            Sample data
          </Badge>
        ) : null
      }
    />
  );
}

/** While stats load: the three cards with placeholder content shaped like the real one. */
function LoadingCards() {
  const trend = (caption: string): StatTrend => ({ direction: 'stable', value: '0.00%', caption });
  return (
    <>
      <StatCard title="National Average" value="$0.00" subtext="per dozen, all types" trend={trend('vs last week')} loading />
      <StatCard title="Weekly Volatility" value="0.00%" subtext="day-to-day swing in the national average" trend={trend('vs previous week')} loading />
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
        extra={
          <Badge colorPalette="amber" variant="subtle" size="md">
            Sample data
          </Badge>
        }
        loading
      />
    </>
  );
}

/** The dashboard's three summary cards (SPEC §2), from stats.get. */
export function SummaryCards() {
  const stats = trpc.stats.get.useQuery();
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '4', lg: '6' }}>
      {stats.isPending ? (
        <LoadingCards />
      ) : stats.isError ? (
        <Box gridColumn="1 / -1">
          <ErrorCard title="Unable to load price summary" message={stats.error.message} onRetry={() => void stats.refetch()} />
        </Box>
      ) : (
        <>
          <NationalAverageCard stats={stats.data} />
          <VolatilityCard stats={stats.data} />
          <LowestPriceCard stats={stats.data} />
        </>
      )}
    </SimpleGrid>
  );
}
