// The compare page's Price Chart: the daily average price of one egg type in each region over
// the last 30 days, per dozen or per pack of the chosen size, in the region colours.
import { REGION_LABELS, type Region } from '#shared/vocabulary.ts';
import { REGION_COLORS, money, shortDay, utcMidnight } from './chartTheme.ts';
import { TimeLineChart } from './TimeLineChart.tsx';

export interface RegionChartProps {
  days: readonly string[];
  lines: ReadonlyArray<{ region: Region; values: ReadonlyArray<number | null> }>;
  /** What a value is: the price per dozen, or the price of one pack of `count` eggs. */
  unitLabel: string;
}

export default function RegionChart({ days, lines, unitLabel }: RegionChartProps) {
  const series = lines.map((line) => ({
    id: REGION_LABELS[line.region],
    color: REGION_COLORS[line.region],
    data: days.map((day, i) => ({ x: utcMidnight(day), y: line.values[i] ?? null })),
  }));
  const latest = lines
    .map((line) => {
      const last = [...line.values].reverse().find((v): v is number => v !== null);
      return last === undefined ? null : `${REGION_LABELS[line.region]} ${money(last)}`;
    })
    .filter(Boolean)
    .join(', ');
  return (
    <TimeLineChart
      series={series}
      ariaLabel={`Daily average price ${unitLabel} by region, ${shortDay(days[0]!)} to ${shortDay(days.at(-1)!)}. Latest: ${latest}.`}
      formatDate={shortDay}
      formatTick={shortDay}
      tickValues="every 7 days"
      precision="day"
    />
  );
}
