import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, matchesFilters, toggleCount, type FilterSelection } from './filters.ts';
import { filterSelectionSchema } from './schemas.ts';
import type { LooseEntry } from './types.ts';

const filters = (overrides: Partial<FilterSelection>): FilterSelection => ({ ...DEFAULT_FILTERS, ...overrides });

const entry: LooseEntry = {
  store_id: 'Whole-Foods',
  region: 'West',
  egg_type: 'cage_free',
  count: 12,
  price: '5.49',
};

describe('DEFAULT_FILTERS', () => {
  it('is all types, all stores, all regions, cheapest first, any count, region shown', () => {
    expect(DEFAULT_FILTERS).toEqual({
      eggType: 'all',
      store: 'all',
      region: 'all',
      sortBy: 'price',
      countRange: null,
      showRegion: true,
    });
  });
});

describe('filterSelectionSchema', () => {
  it('fills every missing field with its default', () => {
    expect(filterSelectionSchema.parse({})).toEqual(DEFAULT_FILTERS);
  });

  it('normalises egg types, stores, regions and sort options', () => {
    expect(
      filterSelectionSchema.parse({
        eggType: 'Pasture-Raised',
        store: ' Whole-Foods ',
        region: 'MIDWEST',
        sortBy: 'Unit-Price',
        countRange: 18,
        showRegion: false,
      }),
    ).toEqual({
      eggType: 'pasture_raised',
      store: 'whole-foods',
      region: 'midwest',
      sortBy: 'unit-price',
      countRange: 18,
      showRegion: false,
    });
  });

  it("accepts 'all' in any case and both egg-type spellings", () => {
    expect(filterSelectionSchema.parse({ eggType: 'ALL', store: 'All', region: ' all ' })).toMatchObject({
      eggType: 'all',
      store: 'all',
      region: 'all',
    });
    expect(filterSelectionSchema.parse({ eggType: 'cage-free' }).eggType).toBe('cage_free');
    expect(filterSelectionSchema.parse({ eggType: 'cage_free' }).eggType).toBe('cage_free');
  });

  it('accepts a count as a numeric string, or null', () => {
    expect(filterSelectionSchema.parse({ countRange: '24' }).countRange).toBe(24);
    expect(filterSelectionSchema.parse({ countRange: null }).countRange).toBeNull();
  });

  it('rejects values outside the vocabulary with a readable message', () => {
    const bad = filterSelectionSchema.safeParse({ eggType: 'brown' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/Unknown egg type 'brown'/);
    expect(filterSelectionSchema.safeParse({ region: 'pacific' }).success).toBe(false);
    expect(filterSelectionSchema.safeParse({ store: 'walmart!' }).success).toBe(false);
    expect(filterSelectionSchema.safeParse({ sortBy: 'name' }).success).toBe(false);
    expect(filterSelectionSchema.safeParse({ showRegion: 'yes' }).success).toBe(false);
  });

  it('rejects a count the filter panel does not offer (36 is a card-only count)', () => {
    const bad = filterSelectionSchema.safeParse({ countRange: 36 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('Egg count must be one of 6, 12, 18, 24, 30');
    expect(filterSelectionSchema.safeParse({ countRange: '12.5' }).success).toBe(false);
  });
});

describe('matchesFilters', () => {
  it('matches everything with the defaults', () => {
    expect(matchesFilters(entry, DEFAULT_FILTERS)).toBe(true);
    expect(matchesFilters({ store_id: 'x', price: null }, DEFAULT_FILTERS)).toBe(true);
  });

  it('matches store ids case-insensitively', () => {
    expect(matchesFilters(entry, filters({ store: 'whole-foods' }))).toBe(true);
    expect(matchesFilters(entry, filters({ store: 'WHOLE-FOODS' }))).toBe(true);
    expect(matchesFilters(entry, filters({ store: 'aldi' }))).toBe(false);
  });

  it('matches egg types in either spelling and any case', () => {
    expect(matchesFilters(entry, filters({ eggType: 'cage_free' }))).toBe(true);
    expect(matchesFilters({ ...entry, egg_type: 'Cage-Free' }, filters({ eggType: 'cage_free' }))).toBe(true);
    expect(matchesFilters({ ...entry, egg_type: 'PASTURE-RAISED' }, filters({ eggType: 'pasture_raised' }))).toBe(true);
    expect(matchesFilters(entry, filters({ eggType: 'organic' }))).toBe(false);
  });

  it('does not match an entry whose type or region is missing or unknown', () => {
    expect(matchesFilters({ ...entry, egg_type: null }, filters({ eggType: 'standard' }))).toBe(false);
    expect(matchesFilters({ ...entry, egg_type: 'brown' }, filters({ eggType: 'standard' }))).toBe(false);
    expect(matchesFilters({ ...entry, region: undefined }, filters({ region: 'west' }))).toBe(false);
  });

  it('matches regions case-insensitively', () => {
    expect(matchesFilters(entry, filters({ region: 'west' }))).toBe(true);
    expect(matchesFilters(entry, filters({ region: 'south' }))).toBe(false);
  });

  it('matches the count exactly, a missing count being 12', () => {
    expect(matchesFilters(entry, filters({ countRange: 12 }))).toBe(true);
    expect(matchesFilters(entry, filters({ countRange: 18 }))).toBe(false);
    expect(matchesFilters({ ...entry, count: 18 }, filters({ countRange: 18 }))).toBe(true);
    expect(matchesFilters({ ...entry, count: undefined }, filters({ countRange: 12 }))).toBe(true);
    expect(matchesFilters({ ...entry, count: null }, filters({ countRange: 6 }))).toBe(false);
  });

  it('requires every chosen filter to match', () => {
    const all = filters({ store: 'whole-foods', eggType: 'cage_free', region: 'west', countRange: 12 });
    expect(matchesFilters(entry, all)).toBe(true);
    expect(matchesFilters({ ...entry, region: 'south' }, all)).toBe(false);
  });
});

describe('toggleCount', () => {
  it('selects a new value', () => {
    expect(toggleCount(null, 12)).toBe(12);
    expect(toggleCount(6, 30)).toBe(30);
  });

  it('clears the count when the same value is chosen again', () => {
    expect(toggleCount(12, 12)).toBeNull();
  });
});
