// Sorting, one-entry-per-store and the dashboard listing rule. 'price' sorts by the price
// per dozen, so a 60-pack never looks dearer than a 6-pack merely for holding more eggs.
import type { LooseEntry } from './types.ts';
import { DEFAULT_COUNT, parseEggType, type SortOption } from './vocabulary.ts';
import { packCount, parseNumber, toNumber } from './format.ts';
import { matchesFilters, type FilterSelection } from './filters.ts';

/** The unit_price when present and numeric, else price divided by count (12 when missing). */
export function entryUnitPrice(entry: LooseEntry): number {
  return parseNumber(entry.unit_price) ?? toNumber(entry.price) / packCount(entry.count);
}

/**
 * The 'price' sort's figure: the price of 12 eggs at the entry's price per egg (count 12 when
 * missing), so packs of different sizes compare like with like.
 */
export function entryPricePerDozen(entry: LooseEntry): number {
  return (toNumber(entry.price) / packCount(entry.count)) * DEFAULT_COUNT;
}

/** Milliseconds of last_updated, or null when missing or invalid. */
function updatedAt(entry: LooseEntry): number | null {
  const time = typeof entry.last_updated === 'string' ? Date.parse(entry.last_updated) : Number.NaN;
  return Number.isNaN(time) ? null : time;
}

type Compare = (a: LooseEntry, b: LooseEntry) => number;

/** Newest first; entries without a valid date go last. */
const newestFirst: Compare = (a, b) => {
  const ta = updatedAt(a);
  const tb = updatedAt(b);
  if (ta === null || tb === null) return ta === tb ? 0 : ta === null ? 1 : -1;
  return tb - ta;
};

const COMPARATORS: Record<SortOption, Compare> = {
  // Cheapest per dozen first; at the same price per dozen, the cheaper pack to buy first.
  price: (a, b) => entryPricePerDozen(a) - entryPricePerDozen(b) || toNumber(a.price) - toNumber(b.price),
  'unit-price': (a, b) => entryUnitPrice(a) - entryUnitPrice(b),
  freshness: newestFirst,
  trend: (a, b) => Math.abs(toNumber(b.trend_value)) - Math.abs(toNumber(a.trend_value)),
};

/** A sorted copy ('price' by the price per dozen); ties keep their input order. */
export function sortEntries<T extends LooseEntry>(entries: readonly T[], sortBy: SortOption): T[] {
  // Array.prototype.sort is stable (ES2019), so ties keep their input order.
  return [...entries].sort(COMPARATORS[sortBy]);
}

/**
 * One entry per store_id (case-insensitive): the store's cheapest pack per dozen among the
 * entries (the rule every screen uses, src/server/queries/cheapest.ts), at an equal price per
 * dozen the cheaper pack, then standard eggs, then a 12-count; on a full tie the earlier entry
 * wins. Stores keep the order of their first appearance.
 */
export function dedupeByStore<T extends LooseEntry>(entries: readonly T[]): T[] {
  const best = new Map<string, { entry: T; key: number[] }>();
  for (const entry of entries) {
    const store = entry.store_id.trim().toLowerCase();
    const count = packCount(entry.count);
    const price = toNumber(entry.price);
    const key = [
      price / count,
      price,
      parseEggType(entry.egg_type) === 'standard' ? 0 : 1,
      count === DEFAULT_COUNT ? 0 : 1,
    ];
    const current = best.get(store);
    if (current === undefined || before(key, current.key)) best.set(store, { entry, key });
  }
  return [...best.values()].map((chosen) => chosen.entry);
}

/** Whether key a orders strictly before key b, element by element. */
function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/** The dashboard listing: filter, keep one entry per store, then sort. */
export function selectListing<T extends LooseEntry>(entries: readonly T[], filters: FilterSelection): T[] {
  return sortEntries(dedupeByStore(entries.filter((entry) => matchesFilters(entry, filters))), filters.sortBy);
}
