// The long-run benchmark: BLS monthly average prices of a dozen grade A large eggs, national and
// by region (the West as grade AA), with today's EggWatch national average as a dashed line.
import { BENCHMARK_REFERENCE_COLOR, formatPeriod, type Benchmark } from './benchmark.ts';
import { money, monthYear, utcMidnight } from './chartTheme.ts';
import { TimeLineChart } from './TimeLineChart.tsx';

export interface MarketChartProps {
  benchmark: Benchmark;
  years: number;
  /** Today's EggWatch national average per dozen, drawn as a reference line. */
  reference: number | null;
  /** Months with bird-flu detections in commercial layer flocks (APHIS), drawn as markers. */
  outbreaks?: ReadonlyArray<{ month: string; birds: number }>;
}

const TICKS: Record<number, string> = { 1: 'every 2 months', 5: 'every year', 10: 'every 2 years' };

export const OUTBREAK_COLOR = '#C53030';

export default function MarketChart({ benchmark, years, reference, outbreaks = [] }: MarketChartProps) {
  const { months, lines } = benchmark;
  const drawn = lines.filter((line) => line.values.some((v) => v !== null));
  const series = drawn.map((line) => ({
    id: line.label,
    color: line.color,
    data: months.map((month, i) => ({ x: utcMidnight(`${month}-01`), y: line.values[i] ?? null })),
  }));
  const formatTick = years === 1 ? monthYear : (date: Date) => String(date.getUTCFullYear());
  const national = drawn.find((line) => line.area === 'national');
  const lastNational = national ? [...national.values].reverse().find((v): v is number => v !== null) : undefined;
  return (
    <TimeLineChart
      series={series}
      ariaLabel={`BLS average price of a dozen grade A large eggs, ${formatPeriod(months[0]!)} to ${formatPeriod(months.at(-1)!)}${
        lastNational !== undefined ? `; latest national ${money(lastNational)}` : ''
      }${reference !== null ? `; EggWatch national average today ${money(reference)}` : ''}.`}
      formatDate={monthYear}
      formatTick={formatTick}
      tickValues={TICKS[years] ?? 'every year'}
      precision="month"
      include={reference !== null ? [reference] : []}
      markers={[
        ...(reference !== null
          ? [
              {
                axis: 'y' as const,
                value: reference,
                lineStyle: { stroke: BENCHMARK_REFERENCE_COLOR, strokeWidth: 2, strokeDasharray: '6 4' },
              },
            ]
          : []),
        ...outbreaks
          .filter((o) => months.length > 0 && o.month >= months[0]! && o.month <= months.at(-1)!)
          .map((o) => ({
            axis: 'x' as const,
            value: utcMidnight(`${o.month}-01`),
            lineStyle: {
              stroke: OUTBREAK_COLOR,
              strokeWidth: Math.min(6, 1 + Math.log10(Math.max(1, o.birds / 100_000))),
              strokeOpacity: 0.35,
            },
          })),
      ]}
      height={{ base: '72', md: '80' }}
    />
  );
}
