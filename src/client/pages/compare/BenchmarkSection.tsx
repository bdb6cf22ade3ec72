// Beyond the shelf prices: the government's long-run benchmark under the shelf prices. BLS monthly average
// prices of a dozen grade A large eggs (national and by region; the West only as grade AA) over
// 1, 5 or 10 years, with today's EggWatch average for standard eggs (like with like) as a dashed
// reference line.
import { Box, Card, Flex, Heading, Link, SegmentGroup, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { OFFICIAL_SOURCE_INFO } from '#shared/official.ts';
import { useState } from 'react';
import { formatPrice } from '#shared/format.ts';
import { EGG_TYPE_LABELS, type EggType } from '#shared/vocabulary.ts';
import { DownloadLink } from '#client/components/DownloadLink.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { ChartLegend } from '#client/components/charts/ChartLegend.tsx';
import { BenchmarkProvenance } from '#client/components/charts/BenchmarkProvenance.tsx';
import {
  BENCHMARK_RANGES,
  BENCHMARK_REFERENCE_COLOR,
  benchmarkLines,
  formatPeriod,
  type BenchmarkRange,
} from '#client/components/charts/benchmark.ts';
import { ChartPlaceholder, ChartSlot, MarketChart } from '#client/components/charts/lazyCharts.tsx';
import { downloadHref } from '#client/lib/links.ts';
import { trpc } from '#client/lib/trpc.ts';

/** APHIS's weekly layer-flock detections (US) summed by month. */
export function outbreakMonths(points: ReadonlyArray<{ period: string; value: number }>) {
  const byMonth = new Map<string, number>();
  for (const p of points) byMonth.set(p.period.slice(0, 7), (byMonth.get(p.period.slice(0, 7)) ?? 0) + p.value);
  return [...byMonth.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([month, birds]) => ({ month, birds }));
}

/** The markers' table alternative, linked to APHIS's page. */
function OutbreakTable({ outbreaks }: { outbreaks: ReadonlyArray<{ month: string; birds: number }> }) {
  if (outbreaks.length === 0)
    return <Text>No bird-flu detections in commercial layer flocks are held for this range.</Text>;
  return (
    <details>
      <summary>
        Bird-flu markers: layer hens affected in commercial table-egg flocks, by month (red lines on the chart)
      </summary>
      <Table.Root size="sm" mt="2" maxW="md">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Month</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Layer hens affected</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {outbreaks.map((o) => (
            <Table.Row key={o.month}>
              <Table.Cell>{formatPeriod(o.month)}</Table.Cell>
              <Table.Cell textAlign="end">{o.birds.toLocaleString('en-US')}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      <Link href={OFFICIAL_SOURCE_INFO.aphis_hpai.link} target="_blank" rel="noreferrer" fontSize="sm">
        Source: USDA APHIS, confirmed HPAI detections in commercial and backyard flocks
      </Link>
    </details>
  );
}

const RANGE_LABELS: Record<BenchmarkRange, string> = { 1: '1 Year', 5: '5 Years', 10: '10 Years' };
const CHART_HEIGHT = { base: '72', md: '80' };

/** Fetch from a little over the longest range back, so the latest month is always covered. */
function fetchFrom(): string {
  return `${new Date().getUTCFullYear() - 12}-01`;
}

export function BenchmarkSection({ eggType }: { eggType: EggType }) {
  const [years, setYears] = useState<BenchmarkRange>(5);
  const [from] = useState(fetchFrom);
  const market = trpc.market.series.useQuery({ from });
  const aphis = trpc.official.series.useQuery({ seriesId: 'aphis-layers:US', from: `${from}-01` });
  const outbreaks = outbreakMonths(aphis.data?.points ?? []);
  const stats = trpc.stats.get.useQuery();
  const benchmark = market.data ? benchmarkLines(market.data, years) : null;
  // Like with like: the benchmark is a dozen grade A large (standard) eggs, so is the reference.
  const reference = stats.data?.trends['7d'].series.standard.at(-1) ?? null;
  const typeToday = stats.data?.trends['7d'].series[eggType].at(-1) ?? null;
  const drawn = benchmark?.lines.filter((line) => line.values.some((v) => v !== null)) ?? [];
  const absent = benchmark?.lines.filter((line) => !line.values.some((v) => v !== null)) ?? [];

  return (
    <Card.Root as="section" aria-labelledby="benchmark-heading" variant="outline">
      <Card.Header pb="2">
        <Flex
          justify="space-between"
          align={{ base: 'flex-start', md: 'center' }}
          gap="3"
          direction={{ base: 'column', md: 'row' }}
        >
          <Box>
            <Heading as="h2" size="md" id="benchmark-heading">
              Long-run benchmark
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              Government average price of a dozen grade A large eggs, month by month, against today's shelf prices
            </Text>
          </Box>
          <SegmentGroup.Root
            size="sm"
            value={String(years)}
            onValueChange={(details) => details.value && setYears(Number(details.value) as BenchmarkRange)}
            aria-label="Benchmark range"
          >
            <SegmentGroup.Indicator />
            <SegmentGroup.Items items={BENCHMARK_RANGES.map((r) => ({ value: String(r), label: RANGE_LABELS[r] }))} />
          </SegmentGroup.Root>
        </Flex>
      </Card.Header>
      <Card.Body pt="2">
        {market.isError ? (
          <ErrorCard
            title="Unable to load the benchmark"
            message={market.error.message}
            onRetry={() => void market.refetch()}
          />
        ) : !benchmark ? (
          <Stack gap="3">
            <Skeleton height="5" width="72" />
            <ChartPlaceholder height={CHART_HEIGHT} />
          </Stack>
        ) : drawn.length === 0 ? (
          <Text color="fg.muted">No benchmark prices were published in this range.</Text>
        ) : (
          <Stack gap="3">
            <ChartLegend
              label="Benchmark series"
              items={[
                ...drawn.map((line) => ({ label: line.label, color: line.color })),
                ...(reference !== null
                  ? [
                      {
                        label: `EggWatch today, standard eggs ${formatPrice(reference)}`,
                        color: BENCHMARK_REFERENCE_COLOR,
                        dashed: true,
                      },
                    ]
                  : []),
              ]}
            />
            <ChartSlot height={CHART_HEIGHT}>
              <MarketChart benchmark={benchmark} years={years} reference={reference} outbreaks={outbreaks} />
            </ChartSlot>
            <Stack gap="1" fontSize="sm" color="fg.muted">
              <BenchmarkProvenance latest={market.data?.find((s) => s.series_id === 'APU0000708111')?.latest ?? null} />
              {reference !== null && (
                <Text>
                  Today's EggWatch average for standard eggs, the benchmark's kind, is {formatPrice(reference)} per
                  dozen
                  {eggType !== 'standard' && typeToday !== null && typeToday !== undefined
                    ? `; ${EGG_TYPE_LABELS[eggType].toLowerCase()} eggs average ${formatPrice(typeToday)} per dozen`
                    : ''}
                  .
                </Text>
              )}
              <Text>
                Source: U.S. Bureau of Labor Statistics, Average Price Data (“Eggs, grade A, large, per doz.”). BLS
                publishes no grade A series for the West, so the West line is its grade AA series. Months BLS did not
                publish are left as gaps.
              </Text>
              <Text>
                Latest published month:{' '}
                {benchmark.lines
                  .map((line) => `${line.label} ${line.lastPeriod ? formatPeriod(line.lastPeriod) : 'none'}`)
                  .join('; ')}
                .{absent.length > 0 && ` Not drawn in this range: ${absent.map((line) => line.label).join(', ')}.`}
              </Text>
              <OutbreakTable
                outbreaks={outbreaks.filter((o) => benchmark.months[0] !== undefined && o.month >= benchmark.months[0])}
              />
              {benchmark.months[0] && (
                <Box>
                  <DownloadLink
                    href={downloadHref('/api/market-prices.csv', { from: benchmark.months[0] })}
                    context="of the BLS average prices in this range"
                  />
                </Box>
              )}
            </Stack>
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
