import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { activeFilterCount, isSameSelection } from './draft.ts';

describe('filter draft helpers', () => {
  it('compares every field of a selection', () => {
    expect(isSameSelection({ ...DEFAULT_FILTERS }, DEFAULT_FILTERS)).toBe(true);
    expect(isSameSelection({ ...DEFAULT_FILTERS, showRegion: false }, DEFAULT_FILTERS)).toBe(false);
    expect(isSameSelection({ ...DEFAULT_FILTERS, countRange: 12 }, { ...DEFAULT_FILTERS, countRange: 12 })).toBe(true);
  });

  it('counts only the filters that narrow the list', () => {
    expect(activeFilterCount({ ...DEFAULT_FILTERS, sortBy: 'trend', showRegion: false })).toBe(0);
    expect(
      activeFilterCount({ ...DEFAULT_FILTERS, eggType: 'organic', store: 'aldi', region: 'west', countRange: 6 }),
    ).toBe(4);
  });
});
