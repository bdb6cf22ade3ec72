// The price history page's pure parts: its URL (/products/:productId/history?location=&days=),
// the chart's lines (the product's price per dozen by day, and the BLS national average per dozen
// as a step, one level per month, within the span) and the words that describe them. Free of
// zod and nivo, so the page can use it before the chart's chunk loads.
import type { HistoryResult, HistorySpan } from '#shared/near.ts';
import { formatHistoryDays, formatPrice } from '#shared/format.ts';

/** HISTORY_SPANS and DEFAULT_HISTORY_SPAN of the contract (a test holds them equal). */
export const SPANS: readonly HistorySpan[] = [30, 90, 365];
export const DEFAULT_SPAN: HistorySpan = 90;

/** A positive whole id as the API accepts it, or null. */
export function parseId(raw: string | null | undefined): number | null {
  const value = raw?.trim() ?? '';
  if (!/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** The span in the URL, or the default when it is missing or not one of the spans. */
export function parseSpan(raw: string | null): HistorySpan {
  const value = raw === null ? Number.NaN : Number(raw.trim());
  return (SPANS as readonly number[]).includes(value) ? (value as HistorySpan) : DEFAULT_SPAN;
}

const DAY_MS = 86_400_000;

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(day: string, days: number): string {
  return dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** The last day of a 'YYYY-MM' month. */
function monthEnd(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return dayOf(new Date(Date.UTC(year, month, 0)));
}

/** The span's first and last day: the `days` days that end with the latest price (or today). */
export function spanWindow(
  result: Pick<HistoryResult, 'days' | 'points'>,
  today: Date = new Date(),
): { from: string; to: string } {
  const to = result.points.at(-1)?.day ?? dayOf(today);
  return { from: addDays(to, -(result.days - 1)), to };
}

export interface ChartPoint {
  day: string;
  value: number | null;
}

/**
 * The BLS national average as steps: each published month is a level from its first to its last
 * day, cut to the window; a month BLS did not publish (or has not yet) is a gap.
 */
export function blsSteps(bls: HistoryResult['bls'], window: { from: string; to: string }): ChartPoint[] {
  const points: ChartPoint[] = [];
  const sorted = [...bls].sort((a, b) => a.period.localeCompare(b.period));
  let previousEnd: string | null = null;
  for (const month of sorted) {
    const start = `${month.period}-01` < window.from ? window.from : `${month.period}-01`;
    const end = monthEnd(month.period) > window.to ? window.to : monthEnd(month.period);
    if (start > end) continue;
    if (previousEnd !== null && addDays(previousEnd, 1) !== start)
      points.push({ day: addDays(previousEnd, 1), value: null });
    points.push({ day: start, value: month.price }, { day: end, value: month.price });
    previousEnd = end;
  }
  return points;
}

/**
 * The latest published BLS month when it ends before the span does (BLS publishes a month or more
 * late): drawn as a dashed level across the chart, so the shelf prices of the latest days still
 * have the benchmark beside them. Null when the span's own months reach its end, or without BLS.
 */
export function blsReference(
  bls: HistoryResult['bls'],
  window: { from: string; to: string },
): { period: string; price: number } | null {
  const latest = [...bls].sort((a, b) => a.period.localeCompare(b.period)).at(-1);
  if (!latest) return null;
  return monthEnd(latest.period) < window.to && window.to.slice(0, 7) !== latest.period ? latest : null;
}

/** The BLS month a day falls in, for the table beside each day. */
export function blsOfDay(bls: HistoryResult['bls'], day: string): number | null {
  return bls.find((month) => month.period === day.slice(0, 7))?.price ?? null;
}

const LONG_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** 'Apr 7, 2025' from 'YYYY-MM-DD'. */
export function formatDay(day: string): string {
  return LONG_DAY.format(new Date(`${day}T00:00:00Z`));
}

/** 'April 2025' from 'YYYY-MM'. */
export function formatMonth(period: string): string {
  return MONTH.format(new Date(`${period}-01T00:00:00Z`));
}

export type ChangeView = { direction: 'up' | 'down' | 'same'; text: string; description: string } | null;

/** The latest price against the one before it: '▲ $0.20 (6.1%)', with words for screen readers. */
export function historyChange(change: HistoryResult['change']): ChangeView {
  if (!change) return null;
  const cents = Math.round(change.value * 100);
  const since = `since ${formatDay(change.since)}`;
  if (cents === 0) return { direction: 'same', text: 'No change', description: `No change ${since}` };
  const amount = formatPrice(Math.abs(cents) / 100);
  const percent = `${Math.abs(change.percent).toFixed(1)}%`;
  return cents > 0
    ? { direction: 'up', text: `▲ ${amount} (${percent})`, description: `Up ${amount} (${percent}) ${since}` }
    : { direction: 'down', text: `▼ ${amount} (${percent})`, description: `Down ${amount} (${percent}) ${since}` };
}

/** The chart's description for screen readers: what it shows, over which days, and its extremes. */
export function chartSummary(result: HistoryResult): string {
  const { points } = result;
  if (points.length === 0) return 'No prices in this span.';
  const perDozen = points.map((point) => point.price_per_dozen);
  const low = Math.min(...perDozen);
  const high = Math.max(...perDozen);
  const last = points.at(-1)!;
  const bls = [...result.bls].sort((a, b) => a.period.localeCompare(b.period)).at(-1);
  return (
    `Price per dozen of ${result.product.title} at ${result.product.store_name}, ${formatDay(points[0]!.day)} to ${formatDay(last.day)}, ` +
    `${points.length} ${points.length === 1 ? 'day' : 'days'}: lowest ${formatPrice(low)}, highest ${formatPrice(high)}, latest ${formatPrice(last.price_per_dozen)}.` +
    (bls ? ` BLS national average ${formatPrice(bls.price)} in ${formatMonth(bls.period)}.` : '')
  );
}

/**
 * '1 day of prices so far' when the product's whole history lies inside the span (it is newer than
 * the span), so a short line or a single point reads as what it is; null otherwise.
 */
export function historyNote(result: Pick<HistoryResult, 'days' | 'history_days' | 'points'>): string | null {
  const { history_days: days, points } = result;
  return days > 0 && days === points.length && days < result.days ? formatHistoryDays(days) : null;
}
