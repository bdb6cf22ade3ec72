// A product's price history at one location: its price per dozen day by day, with the BLS national
// average price of a dozen grade A large eggs beside it for scale (one level per month).
import {
  HISTORY_BLS_COLOR,
  HISTORY_BLS_LABEL,
  HISTORY_PRICE_COLOR,
  HISTORY_PRICE_LABEL,
  monthYear,
  shortDay,
  utcMidnight,
} from './chartTheme.ts';
import { TimeLineChart } from './TimeLineChart.tsx';

export interface HistoryChartProps {
  points: ReadonlyArray<{ day: string; value: number | null }>;
  bls: ReadonlyArray<{ day: string; value: number | null }>;
  days: number;
  /** The span's first and last day: the x axis covers them, however few days have a price. */
  window: { from: string; to: string };
  /** The latest published BLS price, drawn as a dashed level when BLS has not published the span's last months. */
  reference: number | null;
  /** What the chart shows, for screen readers (the page also offers the prices as a table). */
  summary: string;
  /** Phones: fewer ticks on the date axis, so their labels do not run into each other. */
  narrow?: boolean;
}

const TICKS: Record<number, string> = { 30: 'every 7 days', 90: 'every month', 365: 'every 2 months' };
const NARROW_TICKS: Record<number, string> = { 30: 'every 7 days', 90: 'every month', 365: 'every 4 months' };

export default function HistoryChart({
  points,
  bls,
  days,
  window,
  reference,
  summary,
  narrow = false,
}: HistoryChartProps) {
  const series = [
    {
      id: HISTORY_PRICE_LABEL,
      color: HISTORY_PRICE_COLOR,
      data: points.map((p) => ({ x: utcMidnight(p.day), y: p.value })),
    },
    ...(bls.length > 0
      ? [
          {
            id: HISTORY_BLS_LABEL,
            color: HISTORY_BLS_COLOR,
            data: bls.map((p) => ({ x: utcMidnight(p.day), y: p.value })),
          },
        ]
      : []),
  ];
  return (
    <TimeLineChart
      series={series}
      ariaLabel={summary}
      formatDate={shortDay}
      formatTick={days > 90 ? monthYear : shortDay}
      tickValues={(narrow ? NARROW_TICKS : TICKS)[days] ?? 'every month'}
      precision="day"
      include={reference !== null ? [reference] : []}
      xDomain={[utcMidnight(window.from), utcMidnight(window.to)]}
      markers={
        reference !== null
          ? [
              {
                axis: 'y',
                value: reference,
                lineStyle: { stroke: HISTORY_BLS_COLOR, strokeWidth: 2, strokeDasharray: '6 4' },
              },
            ]
          : []
      }
      height={{ base: '64', md: '80' }}
    />
  );
}
