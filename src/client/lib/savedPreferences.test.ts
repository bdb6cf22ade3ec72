import { describe, expect, it } from 'vitest';
import { parsePreferenceFilters } from './savedPreferences.ts';

describe('parsePreferenceFilters', () => {
  it('sets no filter when nothing is saved', () => {
    expect(parsePreferenceFilters(null)).toEqual({});
    expect(parsePreferenceFilters('')).toEqual({});
  });

  it('reads region, egg type in either spelling and a pack size of the Filters panel', () => {
    const raw = JSON.stringify({
      zipCode: '30301',
      region: 'South',
      preferredEggType: 'cage-free',
      preferredCount: 18,
    });
    expect(parsePreferenceFilters(raw)).toEqual({ region: 'south', eggType: 'cage_free', countRange: 18 });
  });

  it('leaves out what is not chosen or not a filter: no region, an unknown type, a 36-pack', () => {
    expect(
      parsePreferenceFilters(JSON.stringify({ region: '', preferredEggType: 'brown', preferredCount: 36 })),
    ).toEqual({});
    // A saved form always holds a pack size: 12 unless chosen.
    expect(parsePreferenceFilters(JSON.stringify({ zipCode: '10001' }))).toEqual({ countRange: 12 });
    expect(parsePreferenceFilters('not json')).toEqual({ countRange: 12 });
  });
});
