import { describe, expect, it } from 'vitest';
import { NO_CARD_PREFERENCES, parseCardPreferences } from './savedPreferences.ts';

describe('parseCardPreferences', () => {
  it('has no card preferences when nothing is saved', () => {
    expect(parseCardPreferences(null)).toEqual(NO_CARD_PREFERENCES);
    expect(parseCardPreferences('')).toEqual(NO_CARD_PREFERENCES);
  });

  it('reads region, egg type in either spelling and count from the saved form', () => {
    const raw = JSON.stringify({ zipCode: '30301', region: 'South', preferredEggType: 'cage-free', preferredCount: 18 });
    expect(parseCardPreferences(raw)).toEqual({ region: 'south', eggType: 'cage_free', count: 18 });
  });

  it('leaves empty or unknown fields to the entry, and keeps the saved pack size default', () => {
    expect(parseCardPreferences(JSON.stringify({ region: '', preferredEggType: 'brown' }))).toEqual({ region: null, eggType: null, count: 12 });
    expect(parseCardPreferences('not json')).toEqual({ region: null, eggType: null, count: 12 });
  });
});
