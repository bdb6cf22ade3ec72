// The store page's Price Trends chart: the store's daily average price per dozen for each egg
// type over the last 30 days, in the egg-type colours.
import { EGG_TYPE_LABELS, type EggType } from '#shared/vocabulary.ts';
import { EGG_TYPE_COLORS, money, shortDay, utcMidnight } from './chartTheme.ts';
import { TimeLineChart } from './TimeLineChart.tsx';

export interface StoreTrendChartProps {
  storeName: string;
  days: readonly string[];
  lines: ReadonlyArray<{ egg_type: EggType; values: ReadonlyArray<number | null> }>;
}

export default function StoreTrendChart({ storeName, days, lines }: StoreTrendChartProps) {
  const series = lines.map((line) => ({
    id: EGG_TYPE_LABELS[line.egg_type],
    color: EGG_TYPE_COLORS[line.egg_type],
    data: days.map((day, i) => ({ x: utcMidnight(day), y: line.values[i] ?? null })),
  }));
  const latest = lines
    .map((line) => {
      const last = [...line.values].reverse().find((v): v is number => v !== null);
      return last === undefined ? null : `${EGG_TYPE_LABELS[line.egg_type]} ${money(last)}`;
    })
    .filter(Boolean)
    .join(', ');
  return (
    <TimeLineChart
      series={series}
      ariaLabel={`${storeName}: daily average price per dozen by egg type, ${shortDay(days[0]!)} to ${shortDay(days.at(-1)!)}. Latest: ${latest}.`}
      formatDate={shortDay}
      formatTick={shortDay}
      tickValues="every 7 days"
      precision="day"
    />
  );
}
