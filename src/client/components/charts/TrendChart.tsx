// The dashboard's Price Trends line chart. Loaded lazily (React.lazy) by
// TrendChartCard, so nivo is not part of the dashboard's first paint.
import type { TrendRange } from '#shared/types.ts';
import { money, shortDay } from './chartTheme.ts';
import { TimeLineChart } from './TimeLineChart.tsx';
import { rangeHistoryNote, trendSeries, type TrendRangeKey } from './TrendChartData.ts';

export interface TrendChartProps {
  range: TrendRange;
  rangeKey: TrendRangeKey;
  /** Narrow screens label every other day (7 days) or every other week (30 days). */
  narrow?: boolean;
}

const TICKS: Record<TrendRangeKey, { wide: string; narrow: string }> = {
  '7d': { wide: 'every 1 day', narrow: 'every 2 days' },
  '30d': { wide: 'every 7 days', narrow: 'every 14 days' },
};

function describe(range: TrendRange): string {
  const first = range.days[0];
  const last = range.days.at(-1);
  const { average, high, low } = range.summary;
  const span = first && last ? `${shortDay(first)} to ${shortDay(last)}` : 'no days';
  const figures = [
    average !== null && `average ${money(average)}`,
    high !== null && `high ${money(high)}`,
    low !== null && `low ${money(low)}`,
  ]
    .filter(Boolean)
    .join(', ');
  const note = rangeHistoryNote(range);
  return `Price per dozen of the national average, organic and standard eggs, ${span}${figures ? `: ${figures}` : ''}.${note ? ` National average: ${note}.` : ''}`;
}

export default function TrendChart({ range, rangeKey, narrow = false }: TrendChartProps) {
  return (
    <TimeLineChart
      series={trendSeries(range)}
      ariaLabel={describe(range)}
      formatDate={shortDay}
      formatTick={shortDay}
      tickValues={TICKS[rangeKey][narrow ? 'narrow' : 'wide']}
      precision="day"
      height="16rem"
    />
  );
}
