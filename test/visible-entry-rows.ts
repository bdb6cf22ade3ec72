// The visible price entries as plain rows, and exact arithmetic over their prices: what the test
// oracles for the store page's and the compare page's figures compute with
// (test/store-figures-reference.ts, test/compare-reference.ts), in TypeScript, from the rules in
// docs/features/comparing.md and docs/decisions/004 and 014, sharing nothing with the SQL they check.
//
// Visibility, written out from its rule: an entry is shown when its store is active and it is not
// a sample price of a store and region that has any other (scraped or demo) price.
import { EGG_TYPES, REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { Db } from '#server/db.ts';

export interface EntryRow {
  id: number;
  price: number;
  count: number;
  egg_type: EggType;
  region: Region;
  store_id: string;
  store_name: string;
  source: string;
  reference_price: number | null;
  trend_direction: string | null;
}

/** The filters of both pages: any of region, egg type and pack size. */
export interface RowFilters {
  region?: Region | undefined;
  eggType?: EggType | undefined;
  count?: number | undefined;
}

/** Every visible entry (of one egg type, when given), in id order. */
export async function visibleEntryRows(sql: Db, eggType?: EggType): Promise<EntryRow[]> {
  const otherThanSample = await sql<{ store_id: string; region: string }[]>`
    select distinct l.store_id, l.region
    from price_entries e join store_locations l on l.id = e.location_id
    where e.source <> 'sample'`;
  const hidesSample = new Set(otherThanSample.map((pair) => `${pair.store_id}/${pair.region}`));
  const rows = await sql<Array<EntryRow & { active: boolean }>>`
    select e.id, l.store_id, s.store_name, s.active, l.region, p.egg_type, p.count, e.price, e.reference_price,
           e.trend_direction, e.source
    from price_entries e, store_locations l, stores s, products p
    where l.id = e.location_id and s.id = l.store_id and p.id = e.product_id
      ${eggType ? sql`and p.egg_type = ${eggType}` : sql``}`;
  return rows
    .filter((row) => row.active && !(row.source === 'sample' && hidesSample.has(`${row.store_id}/${row.region}`)))
    .map(({ active: _active, ...row }) => row)
    .sort((a, b) => a.id - b.id);
}

export function matching(rows: readonly EntryRow[], filters: RowFilters): EntryRow[] {
  return rows.filter(
    (row) =>
      (!filters.region || row.region === filters.region) &&
      (!filters.eggType || row.egg_type === filters.eggType) &&
      (!filters.count || row.count === filters.count),
  );
}

/**
 * The listing's order (the 'price' sort): cheapest per dozen first, the price per dozen worked out
 * in doubles as the browser does, then the cheaper pack, then the lower id.
 */
export function listingOrder(rows: readonly EntryRow[]): EntryRow[] {
  const perDozen = (row: EntryRow) => (row.price / row.count) * 12;
  return [...rows].sort((a, b) => perDozen(a) - perDozen(b) || a.price - b.price || a.id - b.id);
}

/** The regions of the rows, in the vocabulary's order. */
export const regionsOf = (rows: readonly EntryRow[]) =>
  REGIONS.filter((region) => rows.some((r) => r.region === region));

/** The egg types of the rows, in the vocabulary's order. */
export const eggTypesOf = (rows: readonly EntryRow[]) =>
  EGG_TYPES.filter((type) => rows.some((r) => r.egg_type === type));

/** An exact amount of dollars, num / den (den positive). */
export interface Exact {
  num: bigint;
  den: bigint;
}

const cents = (dollars: number) => BigInt(Math.round(dollars * 100));
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));

function reduced(num: bigint, den: bigint): Exact {
  const divisor = gcd(num, den) || 1n;
  return { num: num / divisor, den: den / divisor };
}

/** A price (or a difference of prices) per pack, per dozen eggs at its price per egg, or per egg. */
export const dollars = (price: number): Exact => reduced(cents(price), 100n);
export const perDozen = (price: number, count: number): Exact => reduced(cents(price) * 12n, 100n * BigInt(count));
export const perEgg = (price: number, count: number): Exact => reduced(cents(price), 100n * BigInt(count));

/** How much more (+) or less (-) the value is than the base, in percent of the base (positive). */
export const percentChange = (value: number, base: number): Exact =>
  reduced((cents(value) - cents(base)) * 100n, cents(base));

/** The exact mean of the amounts; null without any. */
export function mean(values: readonly Exact[]): Exact | null {
  if (values.length === 0) return null;
  let sum: Exact = { num: 0n, den: 1n };
  for (const value of values) sum = reduced(sum.num * value.den + value.num * sum.den, sum.den * value.den);
  return reduced(sum.num, sum.den * BigInt(values.length));
}

/** Negative, zero or positive as a is less than, equal to or more than b. */
export function compareExact(a: Exact, b: Exact): number {
  const difference = a.num * b.den - b.num * a.den;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/** The amount rounded to `places` decimals, halves away from zero (as PostgreSQL's round). */
export function rounded(value: Exact, places = 2): number {
  const scale = 10n ** BigInt(places);
  const magnitude = (value.num < 0n ? -value.num : value.num) * scale;
  const whole = (2n * magnitude + value.den) / (2n * value.den);
  return Number(value.num < 0n ? -whole : whole) / Number(scale) || 0;
}

/** The rounded mean of the amounts; null without any. */
export function roundedMean(values: readonly Exact[], places = 2): number | null {
  const average = mean(values);
  return average === null ? null : rounded(average, places);
}
