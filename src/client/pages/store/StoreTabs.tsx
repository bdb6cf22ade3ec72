// The store page's Price Trends and Competitive Analysis tabs, from stores.insights: figures by
// price per dozen (the pack price beside), competitors compared within one region.
import {
  Badge,
  Box,
  Card,
  Flex,
  HStack,
  Heading,
  Icon,
  SimpleGrid,
  Skeleton,
  SkeletonText,
  Stack,
  Text,
  Wrap,
} from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuArrowDown, LuArrowUp, LuMinus, LuTrendingDown, LuTrendingUp } from 'react-icons/lu';
import {
  formatDozenWithPack,
  formatHistoryDays,
  formatPackPrice,
  formatPrice,
  formatRegionScope,
} from '#shared/format.ts';
import { EGG_TYPES, EGG_TYPE_LABELS, REGION_LABELS } from '#shared/vocabulary.ts';
import { SampleBadge } from '#client/components/SampleBadge.tsx';
import { ChartLegend } from '#client/components/charts/ChartLegend.tsx';
import { EGG_TYPE_COLORS } from '#client/components/charts/chartTheme.ts';
import { ChartPlaceholder, ChartSlot, StoreTrendChart } from '#client/components/charts/lazyCharts.tsx';
import type { RouterOutputs } from '#client/lib/trpc.ts';

type Insights = RouterOutputs['stores']['insights'];
type PricePoint = NonNullable<Insights['insights']['lowest']>;
type Position = Insights['competitive']['market_position'][number];

export const NO_COMPETITIVE_DATA = 'No competitive data available';
export const NO_REGIONAL_DATA = 'No regional data available';

/** 'Prices decreased (or increased) by $X a dozen on average over the past week'. */
export function weeklyChangeSentence(change: number | null): string {
  if (change === null) return 'Not enough price history yet to compare with last week.';
  if (change < 0)
    return `Prices decreased by ${formatPrice(Math.abs(change))} per dozen on average over the past week.`;
  if (change > 0) return `Prices increased by ${formatPrice(change)} per dozen on average over the past week.`;
  return 'Prices were unchanged on average over the past week.';
}

function SectionCard({
  title,
  description,
  children,
  headerExtra,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  headerExtra?: ReactNode;
}) {
  return (
    <Card.Root variant="outline" height="full">
      <Card.Header pb="2">
        <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
          <Box>
            <Heading as="h2" size="md">
              {title}
            </Heading>
            {description && (
              <Text fontSize="sm" color="fg.muted">
                {description}
              </Text>
            )}
          </Box>
          {headerExtra}
        </Flex>
      </Card.Header>
      <Card.Body pt="2">{children}</Card.Body>
    </Card.Root>
  );
}

function LoadingCard({ title }: { title: string }) {
  return (
    <SectionCard title={title}>
      <Stack gap="3" role="status" aria-label={`Loading ${title}`}>
        <Skeleton height="6" width="40" />
        <SkeletonText noOfLines={4} gap="3" />
      </Stack>
    </SectionCard>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <Text color="fg.muted" py="6" textAlign="center" borderWidth="1px" borderStyle="dashed" borderRadius="md">
      {text}
    </Text>
  );
}

/** '$5.24 / 18 ct · Standard, South' (the region left out when the figures are within one). */
function describePoint(point: PricePoint, withRegion: boolean): string {
  return `${formatPackPrice(point.price, point.count)} · ${EGG_TYPE_LABELS[point.egg_type]}${withRegion ? `, ${REGION_LABELS[point.region]}` : ''}`;
}

function Figure({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <Box>
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="2xl" fontWeight="bold" lineHeight="short">
        {value}
      </Text>
      {detail && (
        <Text fontSize="sm" color="fg.muted">
          {detail}
        </Text>
      )}
    </Box>
  );
}

function PriceInsights({ data }: { data: Insights }) {
  const { insights } = data;
  if (insights.entries === 0) return <Empty text="No prices available for the selected filters." />;
  const change = insights.weekly_change_per_dozen;
  const TrendIcon = change === null || change === 0 ? LuMinus : change < 0 ? LuTrendingDown : LuTrendingUp;
  const color = change === null || change === 0 ? 'fg.muted' : change < 0 ? 'trend.down' : 'trend.up';
  const sample = insights.sample;
  const several = insights.regions.length > 1;
  return (
    <Stack gap="4">
      <Figure
        label="Average price"
        value={formatPrice(insights.average_per_dozen)}
        detail={`per dozen, ${formatRegionScope(insights.regions)} · ${insights.entries} ${insights.entries === 1 ? 'product' : 'products'}`}
      />
      <SimpleGrid columns={2} gap="4">
        {insights.lowest && (
          <Figure
            label="Lowest per dozen"
            value={formatPrice(insights.lowest.price_per_dozen)}
            detail={describePoint(insights.lowest, several)}
          />
        )}
        {insights.highest && (
          <Figure
            label="Highest per dozen"
            value={formatPrice(insights.highest.price_per_dozen)}
            detail={describePoint(insights.highest, several)}
          />
        )}
      </SimpleGrid>
      <HStack gap="2" align="flex-start" color={color} fontWeight="medium" borderTopWidth="1px" pt="3">
        <Icon size="md" aria-hidden mt="0.5">
          <TrendIcon />
        </Icon>
        <Text>{weeklyChangeSentence(change)}</Text>
      </HStack>
      {sample && (
        <Badge colorPalette="amber" variant="subtle" alignSelf="flex-start" whiteSpace="normal">
          Includes sample data
        </Badge>
      )}
    </Stack>
  );
}

/**
 * '2 days of prices so far' when every line of the chart is shorter than its days (they start on
 * the latest switch to scraped prices behind them), with the longest line's days; else null.
 */
export function seriesHistoryNote(series: Insights['series']): string | null {
  if (series.lines.length === 0) return null;
  const longest = Math.max(...series.lines.map((line) => line.history_days));
  return longest > 0 && longest < series.days.length ? formatHistoryDays(longest) : null;
}

export function PriceTrends({ storeName, data }: { storeName: string; data: Insights | undefined }) {
  const lines = data?.series.lines ?? [];
  const note = data ? seriesHistoryNote(data.series) : null;
  return (
    <SimpleGrid columns={{ base: 1, lg: 3 }} gap={{ base: '4', lg: '6' }}>
      <Box gridColumn={{ lg: 'span 2' }} minW="0">
        <SectionCard
          title="Price Trends"
          description="Average price per dozen by egg type, last 30 days"
          headerExtra={lines.some((line) => line.sample) ? <SampleBadge figure /> : null}
        >
          {!data ? (
            <ChartPlaceholder />
          ) : lines.length === 0 ? (
            <Empty text="No price history available for the selected filters." />
          ) : (
            <Stack gap="3">
              <ChartLegend
                label="Egg types"
                items={lines.map((l) => ({ label: EGG_TYPE_LABELS[l.egg_type], color: EGG_TYPE_COLORS[l.egg_type] }))}
              />
              {note && (
                <Text textStyle="sm" color="fg.muted" fontWeight="medium">
                  {note}
                </Text>
              )}
              <ChartSlot>
                <StoreTrendChart storeName={storeName} days={data.series.days} lines={lines} />
              </ChartSlot>
            </Stack>
          )}
        </SectionCard>
      </Box>
      {data ? (
        <SectionCard title="Price Insights">
          <PriceInsights data={data} />
        </SectionCard>
      ) : (
        <LoadingCard title="Price Insights" />
      )}
    </SimpleGrid>
  );
}

function DifferenceBadge({ storeName, position }: { storeName: string; position: Position }) {
  const competitor = position.cheapest_competitor!;
  const pct = competitor.difference_pct;
  const word = pct > 0 ? 'higher' : pct < 0 ? 'lower' : 'the same';
  const text = pct === 0 ? 'Same price' : `${Math.abs(pct).toFixed(1)}% ${word}`;
  const TrendIcon = pct > 0 ? LuArrowUp : pct < 0 ? LuArrowDown : LuMinus;
  return (
    <Badge
      colorPalette={pct > 0 ? 'red' : pct < 0 ? 'green' : 'gray'}
      variant="subtle"
      title={`${storeName} is ${pct === 0 ? 'the same price as' : `${Math.abs(pct).toFixed(1)}% ${word} than`} ${competitor.store_name} per dozen`}
    >
      <TrendIcon aria-hidden />
      {text}
    </Badge>
  );
}

/** One region's comparison of an egg type: the store's price, its rank there, the region's cheapest competitor. */
function RegionPosition({ storeName, position }: { storeName: string; position: Position }) {
  const competitor = position.cheapest_competitor;
  const region = REGION_LABELS[position.region];
  return (
    <Box borderTopWidth="1px" pt="2" mt="2" _first={{ borderTopWidth: 0, pt: 0 }}>
      <Flex justify="space-between" align="baseline" gap="2" wrap="wrap">
        <Text fontWeight="semibold">{region}</Text>
        <Badge colorPalette={position.rank === 1 ? 'green' : 'gray'} variant="outline">
          Rank: {position.rank} of {position.of}
        </Badge>
      </Flex>
      <Text fontSize="lg" fontWeight="bold">
        {formatPrice(position.price_per_dozen)} per dozen{' '}
        <Text as="span" fontSize="sm" fontWeight="normal" color="fg.muted">
          ({formatPackPrice(position.price, position.count)})
        </Text>
      </Text>
      {competitor ? (
        <Flex mt="1" gap="2" align="center" wrap="wrap" fontSize="sm">
          <Text color="fg.muted">
            Cheapest competitor in the {region}:{' '}
            <Text as="span" color="fg" fontWeight="medium">
              {competitor.store_name}
            </Text>
            , {formatDozenWithPack(competitor.price, competitor.count)}
          </Text>
          <DifferenceBadge storeName={storeName} position={position} />
        </Flex>
      ) : (
        <Text mt="1" fontSize="sm" color="fg.muted">
          No other store offers this type in the {region} under these filters.
        </Text>
      )}
    </Box>
  );
}

/** An egg type's comparisons, one per region where the store sells it. */
function MarketPositionRow({ storeName, positions }: { storeName: string; positions: Position[] }) {
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="3">
      <Heading as="h3" size="sm" mb="2">
        {EGG_TYPE_LABELS[positions[0]!.egg_type]}
      </Heading>
      {positions.map((position) => (
        <RegionPosition key={position.region} storeName={storeName} position={position} />
      ))}
    </Box>
  );
}

function MarketPosition({ storeName, data }: { storeName: string; data: Insights }) {
  const { competitive, insights } = data;
  const trend =
    insights.entries > 0 ? (
      <Badge
        colorPalette={competitive.downwardTrend ? 'green' : 'gray'}
        variant="subtle"
        title={`${competitive.down} of ${insights.entries} prices are down from a week earlier`}
      >
        {competitive.downwardTrend ? <LuTrendingDown aria-hidden /> : <LuMinus aria-hidden />}
        {competitive.downwardTrend ? 'Downward trend' : 'No downward trend'}
      </Badge>
    ) : null;
  return (
    <SectionCard
      title="Market Position"
      description="This store's price per egg type against the stores that sell it in the same region, ranked by price per dozen"
      headerExtra={trend}
    >
      {competitive.market_position.length === 0 ? (
        <Empty text={NO_COMPETITIVE_DATA} />
      ) : (
        <Stack gap="3">
          {insights.entries > 0 && (
            <Text fontSize="sm" color="fg.muted">
              {competitive.down} of {insights.entries} prices are down and {competitive.up} up from a week earlier.
            </Text>
          )}
          <Stack as="ul" gap="3" listStyleType="none">
            {EGG_TYPES.map((type) => {
              const positions = competitive.market_position.filter((position) => position.egg_type === type);
              return positions.length ? (
                <MarketPositionRow key={type} storeName={storeName} positions={positions} />
              ) : null;
            })}
          </Stack>
        </Stack>
      )}
    </SectionCard>
  );
}

function RegionalAnalysis({ data }: { data: Insights }) {
  const regional = data.competitive.regional;
  return (
    <SectionCard title="Regional Analysis" description="This store's prices in each region it serves">
      {regional.length === 0 ? (
        <Empty text={NO_REGIONAL_DATA} />
      ) : (
        <Stack as="ul" gap="3" listStyleType="none">
          {regional.map((region) => (
            <Box as="li" key={region.region} borderWidth="1px" borderRadius="md" p="3">
              <Flex justify="space-between" align="baseline" gap="2" wrap="wrap">
                <Heading as="h3" size="sm">
                  {REGION_LABELS[region.region]}
                </Heading>
                <Text fontSize="sm" color="fg.muted">
                  {region.product_count} {region.product_count === 1 ? 'product' : 'products'}
                </Text>
              </Flex>
              <Text mt="1">
                <Text as="span" fontWeight="bold" fontSize="lg">
                  {formatPrice(region.average_per_dozen)}
                </Text>{' '}
                <Text as="span" fontSize="sm" color="fg.muted">
                  average price per dozen
                </Text>
              </Text>
              <Wrap gap="1.5" mt="2" aria-label="Egg types available">
                {region.egg_types.map((type) => (
                  <Badge key={type} variant="subtle" colorPalette="gray">
                    {EGG_TYPE_LABELS[type]}
                  </Badge>
                ))}
              </Wrap>
            </Box>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}

export function CompetitiveAnalysis({ storeName, data }: { storeName: string; data: Insights | undefined }) {
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap={{ base: '4', lg: '6' }}>
      {data ? <MarketPosition storeName={storeName} data={data} /> : <LoadingCard title="Market Position" />}
      {data ? <RegionalAnalysis data={data} /> : <LoadingCard title="Regional Analysis" />}
    </SimpleGrid>
  );
}
