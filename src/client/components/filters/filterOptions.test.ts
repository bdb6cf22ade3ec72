import { describe, expect, it } from 'vitest';
import {
  EGG_TYPE_OPTIONS,
  REGION_OPTIONS,
  SORT_FILTER_OPTIONS,
  storeLabelFromId,
  storeOptions,
} from './filterOptions.ts';

describe('filter options', () => {
  it('lists every store filter value in order, labelled from the stores list when loaded', () => {
    expect(storeOptions(undefined).map((o) => o.value)).toEqual([
      'all',
      'walmart',
      'target',
      'whole-foods',
      'kroger',
      'albertsons',
      'aldi',
    ]);
    expect(storeOptions(undefined).find((o) => o.value === 'whole-foods')?.label).toBe('Whole Foods');
    const loaded = storeOptions([
      { id: 'whole-foods', store_name: 'Whole Foods Market' },
      { id: 'publix', store_name: 'Publix' },
    ]);
    expect(loaded.find((o) => o.value === 'whole-foods')?.label).toBe('Whole Foods Market');
    expect(loaded.at(-1)).toEqual({ value: 'publix', label: 'Publix' });
  });

  it('turns slugs into readable names', () => {
    expect(storeLabelFromId('aldi')).toBe('Aldi');
    expect(storeLabelFromId('whole-foods')).toBe('Whole Foods');
  });

  it('starts the egg type and region lists with all', () => {
    expect(EGG_TYPE_OPTIONS[0]).toEqual({ value: 'all', label: 'All Egg Types' });
    expect(EGG_TYPE_OPTIONS.map((o) => o.value)).toEqual(['all', 'standard', 'cage_free', 'organic', 'pasture_raised']);
    expect(REGION_OPTIONS.map((o) => o.value)).toEqual(['all', 'northeast', 'midwest', 'south', 'west']);
    expect(SORT_FILTER_OPTIONS.map((o) => o.value)).toEqual(['price', 'freshness', 'trend', 'unit-price']);
  });
});
