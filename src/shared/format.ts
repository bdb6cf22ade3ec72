// Number coercion and display formatting for prices, unit prices, trends and times.
import { DEFAULT_COUNT, REGIONS, REGION_LABELS, type Region, type TrendDirection } from './vocabulary.ts';

/** A value the API or an integrator may send where a number is expected. */
export type NumberLike = number | string | null | undefined;

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** The number in a number or numeric string, or null when there is none. */
export function parseNumber(value: NumberLike): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const parsed = NUMERIC.test(text) ? Number(text) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : null;
}

/** A price or trend is a number or numeric string; anything else counts as 0. */
export function toNumber(value: NumberLike): number {
  return parseNumber(value) ?? 0;
}

/** A missing count means 12; a count that is not a positive number is treated as missing. */
export function packCount(count: number | null | undefined): number {
  return typeof count === 'number' && Number.isFinite(count) && count > 0 ? count : DEFAULT_COUNT;
}

/**
 * Rounds to whole cents, half away from zero. Going through toFixed(6) first drops binary noise,
 * so 1.005 (stored as 1.00499999...) rounds to 1.01 as a shopper expects.
 */
export function roundCents(value: number): number {
  const cents = Math.round(Number((Math.abs(value) * 100).toFixed(6)));
  return (Math.sign(value) * cents) / 100 || 0;
}

/** '$3.75' (two decimals with a dollar sign). */
export function formatPrice(price: NumberLike): string {
  const value = roundCents(toNumber(price));
  return `${value < 0 ? '-' : ''}$${Math.abs(value).toFixed(2)}`;
}

function isPackCount(count: number | null | undefined): count is number {
  return typeof count === 'number' && Number.isFinite(count) && count > 0;
}

/** '$3.75 / 12 ct', or the plain price when the count is missing. */
export function formatPackPrice(price: NumberLike, count: number | null | undefined): string {
  return isPackCount(count) ? `${formatPrice(price)} / ${count} ct` : formatPrice(price);
}

/** Price per egg, or null when the count is missing or zero. Not rounded. */
export function unitPrice(price: NumberLike, count: number | null | undefined): number | null {
  return isPackCount(count) ? toNumber(price) / count : null;
}

/** The price of 12 eggs at the pack's price per egg, or null when the count is missing or zero. Not rounded. */
export function pricePerDozen(price: NumberLike, count: number | null | undefined): number | null {
  const perEgg = unitPrice(price, count);
  return perEgg === null ? null : perEgg * 12;
}

/** '$3.49 per dozen', or '' when the count is missing or zero. */
export function formatDozenPrice(price: NumberLike, count: number | null | undefined): string {
  const perDozen = pricePerDozen(price, count);
  return perDozen === null ? '' : `${formatPrice(perDozen)} per dozen`;
}

/**
 * '$3.49 per dozen ($5.24 / 18 ct)': how lists and summaries compare packs of different sizes,
 * with the shelf price the figure comes from beside it so a shopper can check it. The plain pack
 * price when the count is missing.
 */
export function formatDozenWithPack(price: NumberLike, count: number | null | undefined): string {
  const perDozen = formatDozenPrice(price, count);
  return perDozen ? `${perDozen} (${formatPackPrice(price, count)})` : formatPrice(price);
}

/**
 * Which regions figures span, for their labels: 'in the West' within one region, 'across all
 * regions' or 'across the Midwest and South' when they compare prices of several; '' for none.
 */
export function formatRegionScope(regions: readonly Region[]): string {
  if (regions.length === 0) return '';
  if (regions.length === 1) return `in the ${REGION_LABELS[regions[0]!]}`;
  if (regions.length === REGIONS.length) return 'across all regions';
  const labels = regions.map((region) => REGION_LABELS[region]);
  return `across the ${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** '$0.31 per egg', or '' when the count is missing or zero. */
export function formatUnitPrice(price: NumberLike, count: number | null | undefined): string {
  const perEgg = unitPrice(price, count);
  return perEgg === null ? '' : `${formatPrice(perEgg)} per egg`;
}

/** '0%' when empty or not numeric, else the absolute value with two decimals: -2.4 -> '2.40%'. */
export function formatTrend(value: NumberLike): string {
  const parsed = parseNumber(value);
  return parsed === null ? '0%' : `${Math.abs(parsed).toFixed(2)}%`;
}

/**
 * What a series too short for its change says instead of a percentage (docs/decisions/008):
 * '1 day of prices so far', '2 days of prices so far'.
 */
export function formatHistoryDays(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'} of prices so far`;
}

/** A trend_direction is up, down, or anything else, which reads as stable. */
export function parseTrendDirection(direction: string | null | undefined): TrendDirection {
  const key = typeof direction === 'string' ? direction.trim().toLowerCase() : '';
  return key === 'up' || key === 'down' ? key : 'stable';
}

/** Direction implied by the sign of a trend value (0 or not numeric: stable). */
export function trendDirectionFromValue(value: NumberLike): TrendDirection {
  const parsed = toNumber(value);
  return parsed > 0 ? 'up' : parsed < 0 ? 'down' : 'stable';
}

/**
 * An entry's trend direction: its trend_direction when one is given, otherwise the sign of its
 * trend_value (older payloads carry only the value).
 */
export function trendDirection(entry: { trend_direction?: string | null; trend_value?: NumberLike }): TrendDirection {
  return typeof entry.trend_direction === 'string' && entry.trend_direction.trim() !== ''
    ? parseTrendDirection(entry.trend_direction)
    : trendDirectionFromValue(entry.trend_value);
}

export type TrendColor = 'red' | 'green' | 'gray';

/** Trend colours: up red (prices rising is bad for shoppers), down green, other grey. */
export function trendColor(direction: string | null | undefined): TrendColor {
  const parsed = parseTrendDirection(direction);
  return parsed === 'up' ? 'red' : parsed === 'down' ? 'green' : 'gray';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function ago(amount: number, unit: string): string {
  return `${amount} ${unit}${amount === 1 ? '' : 's'} ago`;
}

/**
 * 'Just now', '5 minutes ago', '3 hours ago', 'Yesterday', '4 days ago', '2 weeks ago',
 * '3 months ago' (30-day months), '1 year ago' (365-day years). Counted in elapsed time, not
 * calendar days, so the result does not depend on the time zone. A date in the future (clock
 * skew) reads 'Just now'; a missing or invalid date reads 'Recently'.
 */
export function formatRelativeTime(iso: string | null | undefined, now: Date = new Date()): string {
  const time = typeof iso === 'string' ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(time) || Number.isNaN(now.getTime())) return 'Recently';
  const elapsed = now.getTime() - time;
  if (elapsed < MINUTE) return 'Just now';
  if (elapsed < HOUR) return ago(Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return ago(Math.floor(elapsed / HOUR), 'hour');
  const days = Math.floor(elapsed / DAY);
  if (days === 1) return 'Yesterday';
  if (days < 7) return ago(days, 'day');
  if (days < 30) return ago(Math.floor(days / 7), 'week');
  if (days < 365) return ago(Math.floor(days / 30), 'month');
  return ago(Math.floor(days / 365), 'year');
}

const EXACT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** 'Apr 7, 2025, 3:04 PM' in the reader's time zone (the title of a relative time), or the text as given when it is no date. */
export function formatExactTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : EXACT.format(time);
}

/** 'New York, NY 10001', or the ZIP code alone when the city is unknown. */
export function formatPlace(place: { city: string | null; state: string | null; zip: string }): string {
  const town = [place.city, place.state].filter(Boolean).join(', ');
  return town ? `${town} ${place.zip}` : place.zip;
}

/**
 * Where one location's price is: 'Aldi #62, Chicago, IL 60611', its name (with the store number
 * that tells two apart) then its place; without a name, its place alone.
 */
export function formatLocation(location: {
  location_name?: string | null;
  city: string | null;
  state: string | null;
  zip: string;
}): string {
  const name = location.location_name?.trim();
  const place = formatPlace(location);
  return name ? `${name}, ${place}` : place;
}

/**
 * 'was $5.19' when a promotion lowers the shelf price below the regular price the retailer shows,
 * else null (no promotion, or no regular price known).
 */
export function formatWasPrice(regularPrice: NumberLike, price: NumberLike): string | null {
  const regular = parseNumber(regularPrice);
  const shelf = parseNumber(price);
  return regular !== null && shelf !== null && roundCents(regular) > roundCents(shelf)
    ? `was ${formatPrice(regular)}`
    : null;
}

export type StockState = 'in-stock' | 'out-of-stock' | 'unknown';

/** A price entry's in_stock (true, false, or null when the retailer did not say) as one of three states. */
export function stockState(inStock: boolean | null | undefined): StockState {
  return inStock === true ? 'in-stock' : inStock === false ? 'out-of-stock' : 'unknown';
}

export const STOCK_LABELS: Record<StockState, string> = {
  'in-stock': 'In stock',
  'out-of-stock': 'Out of stock',
  unknown: 'Stock unknown',
};

/** '1 store', '2 stores', '1,234 stores': a count and its word, singular for exactly one. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The UTC day of an instant (a Date or epoch milliseconds, now by default), 'YYYY-MM-DD'. */
export function utcDay(at: Date | number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 10);
}
