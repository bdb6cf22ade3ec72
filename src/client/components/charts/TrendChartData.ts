// The dashboard's Price Trends data: the three lines drawn from stats.trends and
// the summary row, kept apart from the chart so the rules are testable without a browser.
import type { TrendRange } from '#shared/types.ts';
import { formatHistoryDays, formatPrice } from '#shared/format.ts';
import { EGG_TYPE_COLORS, NATIONAL_COLOR, utcMidnight } from './chartTheme.ts';

export type TrendRangeKey = '7d' | '30d';

export const TREND_RANGES: ReadonlyArray<{ key: TrendRangeKey; label: string }> = [
  { key: '7d', label: '7 Days' },
  { key: '30d', label: '30 Days' },
];

export const DEFAULT_TREND_RANGE: TrendRangeKey = '7d';

export interface TrendSeries {
  id: string;
  color: string;
  data: ReadonlyArray<{ x: Date; y: number | null }>;
}

/** National Average (#34C759), Organic (#FFB300), Standard (#94A3B8). */
const LINES = [
  { id: 'National Average', key: 'national', color: NATIONAL_COLOR },
  { id: 'Organic', key: 'organic', color: EGG_TYPE_COLORS.organic },
  { id: 'Standard', key: 'standard', color: EGG_TYPE_COLORS.standard },
] as const;

/** The chart's lines; a day without a price stays null, so the line shows a gap there. */
export function trendSeries(range: TrendRange): TrendSeries[] {
  return LINES.map((line) => ({
    id: line.id,
    color: line.color,
    data: range.days.map((day, i) => ({ x: utcMidnight(day), y: range.series[line.key][i] ?? null })),
  }));
}

/** True when there is at least one price to draw. */
export function hasTrendData(range: TrendRange | null | undefined): range is TrendRange {
  return (
    !!range && range.days.length > 0 && LINES.some((line) => range.series[line.key].some((value) => value !== null))
  );
}

export interface SummaryItem {
  label: 'Average' | 'High' | 'Low' | 'Trend';
  value: string;
  /** Only on Trend: down (green) when isDown, otherwise up (red). */
  direction?: 'up' | 'down';
  /** The value is words, not a figure: the national line is shorter than the range. */
  note?: boolean;
}

const NO_VALUE = '–';

/**
 * The summary row. The trend needs the national line over the whole range; until then it says how
 * many days of prices the line has so far.
 */
export function trendSummary(range: Pick<TrendRange, 'summary' | 'history_days'>): SummaryItem[] {
  const { summary } = range;
  const money = (value: number | null) => (value === null ? NO_VALUE : formatPrice(value));
  const trend: SummaryItem = summary.trend
    ? {
        label: 'Trend',
        value: formatPrice(Math.abs(summary.trend.value)),
        direction: summary.trend.isDown ? 'down' : 'up',
      }
    : range.history_days.national > 0
      ? { label: 'Trend', value: formatHistoryDays(range.history_days.national), note: true }
      : { label: 'Trend', value: NO_VALUE };
  return [
    { label: 'Average', value: money(summary.average) },
    { label: 'High', value: money(summary.high) },
    { label: 'Low', value: money(summary.low) },
    trend,
  ];
}

/** Words for a range whose national line has less history than the range: '2 days of prices so far', else null. */
export function rangeHistoryNote(range: Pick<TrendRange, 'days' | 'history_days'>): string | null {
  const days = range.history_days.national;
  return days > 0 && days < range.days.length ? formatHistoryDays(days) : null;
}
