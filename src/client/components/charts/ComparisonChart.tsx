// Shelf, advertised and wholesale by week on one time axis: EggWatch's shelf price, USDA's
// advertised price and the National Shell Egg Index, each per dozen; the outlook (when shown) as a
// dashed continuation of the shelf line. Weeks without a figure are gaps.
import type { Comparison } from '#shared/official.ts';
import { money, shortDay, utcMidnight } from './chartTheme.ts';
import { TimeLineChart } from './TimeLineChart.tsx';
import { COMPARISON_COLORS } from './chartTheme.ts';

export default function ComparisonChart({ comparison }: { comparison: Comparison }) {
  const weeks = comparison.weeks;
  const line = (id: string, color: string, pick: (w: Comparison['weeks'][number]) => number | null) => ({
    id,
    color,
    data: weeks.map((w) => ({ x: utcMidnight(w.week), y: pick(w) })),
  });
  // (a series without a single figure is left out: it has no line to draw)
  const series = [
    line('Shelf (EggWatch)', COMPARISON_COLORS.shelf, (w) => w.shelf),
    line('Advertised (USDA)', COMPARISON_COLORS.advertised, (w) => w.advertised),
    line('Wholesale (USDA index)', COMPARISON_COLORS.wholesale, (w) => w.wholesale),
  ].filter((s) => s.data.some((point) => point.y !== null));
  if (comparison.outlook?.shown)
    series.push({
      id: 'Shelf outlook',
      color: COMPARISON_COLORS.outlook,
      data: comparison.outlook.points.map((p) => ({ x: utcMidnight(p.week), y: p.shelf })),
    });
  const last = weeks.at(-1);
  return (
    <TimeLineChart
      series={series}
      ariaLabel={`Shelf, advertised and wholesale egg prices per dozen by week${last ? ` to the week of ${shortDay(last.week)}` : ''}${
        last?.shelf != null ? `; shelf ${money(last.shelf)}` : ''
      }${last?.wholesale != null ? `; wholesale ${money(last.wholesale)}` : ''}.`}
      formatDate={(d) => `week of ${shortDay(d)}`}
      formatTick={shortDay}
      tickValues="every 2 months"
      precision="day"
    />
  );
}
