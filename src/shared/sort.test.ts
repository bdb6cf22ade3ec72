import { describe, expect, it } from 'vitest';
import { dedupeByStore, entryPricePerDozen, entryUnitPrice, selectListing, sortEntries } from './sort.ts';
import { DEFAULT_FILTERS } from './filters.ts';
import type { LooseEntry } from './types.ts';

type Entry = LooseEntry & { id: string };
const e = (id: string, fields: Partial<Omit<LooseEntry, 'id'>> = {}): Entry => ({
  store_id: id,
  price: 0,
  ...fields,
  id,
});
const ids = (entries: readonly Entry[]) => entries.map((entry) => entry.id);

describe('entryUnitPrice', () => {
  it('uses unit_price when present and numeric', () => {
    expect(entryUnitPrice(e('a', { price: 6, count: 12, unit_price: 0.4 }))).toBe(0.4);
    expect(entryUnitPrice(e('a', { price: 6, count: 12, unit_price: '0.45' }))).toBe(0.45);
  });

  it('otherwise divides price by count, 12 when missing', () => {
    expect(entryUnitPrice(e('a', { price: 6, count: 6 }))).toBe(1);
    expect(entryUnitPrice(e('a', { price: '6', count: null, unit_price: null }))).toBe(0.5);
    expect(entryUnitPrice(e('a', { price: 6, unit_price: 'n/a' }))).toBe(0.5);
  });
});

describe('sortEntries', () => {
  it('sorts by price ascending, numeric strings and non-numeric (0) included', () => {
    const entries = [
      e('a', { price: '4.10' }),
      e('b', { price: 2.5 }),
      e('c', { price: 'n/a' }),
      e('d', { price: 10 }),
    ];
    expect(ids(sortEntries(entries, 'price'))).toEqual(['c', 'b', 'a', 'd']);
  });

  it('sorts by price per dozen, like with like: a 60-pack is not dearer than a 6-pack for holding more eggs', () => {
    const entries = [
      e('sixty', { price: 26.29, count: 60 }), // 5.26 a dozen
      e('six', { price: 2.79, count: 6 }), // 5.58 a dozen
      e('eighteen', { price: 5.24, count: 18 }), // 3.49 a dozen
      e('dozen', { price: '3.49', count: 12 }), // 3.49 a dozen, the cheaper pack to buy
      e('nocount', { price: 4 }), // a dozen when the count is missing
    ];
    expect(ids(sortEntries(entries, 'price'))).toEqual(['dozen', 'eighteen', 'nocount', 'sixty', 'six']);
    expect(entryPricePerDozen(entries[0]!)).toBeCloseTo(5.258, 4);
  });

  it('returns a new array and leaves the input alone', () => {
    const entries = [e('a', { price: 2 }), e('b', { price: 1 })];
    const sorted = sortEntries(entries, 'price');
    expect(sorted).not.toBe(entries);
    expect(ids(entries)).toEqual(['a', 'b']);
  });

  it('sorts by unit price ascending', () => {
    const entries = [
      e('dozen', { price: 3.6, count: 12 }), // 0.30
      e('thirty', { price: 7.5, count: 30 }), // 0.25
      e('given', { price: 100, count: 12, unit_price: '0.20' }), // 0.20
      e('nocount', { price: 4.2 }), // 0.35
    ];
    expect(ids(sortEntries(entries, 'unit-price'))).toEqual(['given', 'thirty', 'dozen', 'nocount']);
  });

  it('sorts by freshness newest first, invalid or missing dates last', () => {
    const entries = [
      e('old', { last_updated: '2025-01-01T00:00:00Z' }),
      e('bad', { last_updated: 'yesterday-ish' }),
      e('new', { last_updated: '2025-03-01T00:00:00Z' }),
      e('none'),
      e('mid', { last_updated: '2025-02-01' }),
    ];
    expect(ids(sortEntries(entries, 'freshness'))).toEqual(['new', 'mid', 'old', 'bad', 'none']);
  });

  it('sorts by absolute trend value, largest first', () => {
    const entries = [
      e('a', { trend_value: 1.5 }),
      e('b', { trend_value: '-4' }),
      e('c', { trend_value: null }),
      e('d', { trend_value: 3 }),
    ];
    expect(ids(sortEntries(entries, 'trend'))).toEqual(['b', 'd', 'a', 'c']);
  });

  it('keeps ties in input order for every sort', () => {
    const entries = [
      e('a', { price: 3, trend_value: 2, last_updated: '2025-01-01' }),
      e('b', { price: '3.00', trend_value: -2, last_updated: '2025-01-01' }),
      e('c', { price: 3, trend_value: '2', last_updated: '2025-01-01' }),
    ];
    for (const sortBy of ['price', 'unit-price', 'freshness', 'trend'] as const) {
      expect(ids(sortEntries(entries, sortBy))).toEqual(['a', 'b', 'c']);
    }
  });
});

describe('dedupeByStore', () => {
  it('keeps one entry per store id, case-insensitively', () => {
    const entries = [e('1', { store_id: 'Walmart' }), e('2', { store_id: 'aldi' }), e('3', { store_id: 'walmart' })];
    const result = dedupeByStore(entries);
    expect(result).toHaveLength(2);
    expect(ids(result)).toEqual(['1', '2']);
  });

  it("keeps the store's cheapest pack per dozen, whatever its size or type", () => {
    const entries = [
      { ...e('dozen', { egg_type: 'standard', count: 12, price: 2.49 }), store_id: 'aldi' }, // 2.49 a dozen
      { ...e('eighteen', { egg_type: 'standard', count: 18, price: 3.09 }), store_id: 'aldi' }, // 2.06 a dozen
      { ...e('six', { egg_type: 'standard', count: 6, price: 1.19 }), store_id: 'aldi' }, // 2.38 a dozen
      { ...e('organic', { egg_type: 'organic', count: 12, price: 4.99 }), store_id: 'Aldi' },
    ];
    expect(ids(dedupeByStore(entries))).toEqual(['eighteen']);
  });

  it('at an equal price per dozen, the cheaper pack, then standard eggs, then a 12-count (a missing count is 12)', () => {
    const pack = [
      { ...e('thirty', { egg_type: 'standard', count: 30, price: 6 }), store_id: 'aldi' },
      { ...e('six', { egg_type: 'standard', count: 6, price: 1.2 }), store_id: 'aldi' },
    ];
    expect(ids(dedupeByStore(pack))).toEqual(['six']);
    const type = [
      { ...e('organic', { egg_type: 'organic', count: 12, price: 3 }), store_id: 'kroger' },
      { ...e('standard', { egg_type: 'Standard', count: 12, price: 3 }), store_id: 'kroger' },
    ];
    expect(ids(dedupeByStore(type))).toEqual(['standard']);
    const missing = [
      { ...e('organic', { egg_type: 'organic', count: 12, price: 3 }), store_id: 'kroger' },
      { ...e('missing', { egg_type: 'organic', price: 3 }), store_id: 'kroger' },
    ];
    expect(ids(dedupeByStore(missing))).toEqual(['organic']);
  });

  it('keeps the first entry on a full tie', () => {
    const entries = [
      { ...e('first', { egg_type: 'standard', count: 12 }), store_id: 'target' },
      { ...e('second', { egg_type: 'standard', count: 12 }), store_id: 'target' },
    ];
    expect(ids(dedupeByStore(entries))).toEqual(['first']);
  });
});

describe('selectListing', () => {
  const entries: Entry[] = [
    { id: 'w-std', store_id: 'walmart', egg_type: 'standard', region: 'south', count: 12, price: 3.1 },
    { id: 'w-org', store_id: 'Walmart', egg_type: 'organic', region: 'south', count: 12, price: 5.2 },
    { id: 'a-std', store_id: 'aldi', egg_type: 'standard', region: 'midwest', count: 12, price: 2.2 },
    { id: 'k-org', store_id: 'kroger', egg_type: 'Organic', region: 'South', count: 18, price: 6.9 },
    { id: 'k-cf', store_id: 'kroger', egg_type: 'cage-free', region: 'south', count: 12, price: 4.4 },
  ];

  it('dedupes and sorts with the defaults', () => {
    // Kroger's cheapest per dozen is its cage-free dozen ($4.40), under its organic 18-pack ($4.60).
    expect(ids(selectListing(entries, DEFAULT_FILTERS))).toEqual(['a-std', 'w-std', 'k-cf']);
  });

  it('filters before deduping, so the filtered type is kept', () => {
    const organic = { ...DEFAULT_FILTERS, eggType: 'organic' as const };
    // By price per dozen: Kroger's 18-pack at $6.90 is $4.60 a dozen, under Walmart's $5.20 dozen.
    expect(ids(selectListing(entries, organic))).toEqual(['k-org', 'w-org']);
  });

  it('applies region, count and sort', () => {
    const south = { ...DEFAULT_FILTERS, region: 'south' as const, sortBy: 'price' as const };
    expect(ids(selectListing(entries, south))).toEqual(['w-std', 'k-cf']);
    const eighteen = { ...DEFAULT_FILTERS, countRange: 18 as const };
    expect(ids(selectListing(entries, eighteen))).toEqual(['k-org']);
    const byUnit = { ...DEFAULT_FILTERS, sortBy: 'unit-price' as const, eggType: 'organic' as const };
    expect(ids(selectListing(entries, byUnit))).toEqual(['k-org', 'w-org']); // 0.383 < 0.433
  });
});
