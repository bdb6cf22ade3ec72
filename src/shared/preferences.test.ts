import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, ZIP_MIN_MESSAGE, parseStoredPreferences, preferencesSchema } from './preferences.ts';

describe('preferencesSchema (SPEC §5)', () => {
  it('requires a ZIP code of 5 to 10 characters', () => {
    const short = preferencesSchema.safeParse({ zipCode: '1234' });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe(ZIP_MIN_MESSAGE);
    expect(preferencesSchema.safeParse({ zipCode: '12345-67890' }).success).toBe(false);
    expect(preferencesSchema.safeParse({ zipCode: '12345-6789' }).success).toBe(true);
  });

  it('defaults the flags to false and the pack size to 12', () => {
    expect(preferencesSchema.parse({ zipCode: '10001' })).toEqual({ ...DEFAULT_PREFERENCES, zipCode: '10001' });
  });

  it('accepts the price cards\' pack sizes only', () => {
    expect(preferencesSchema.parse({ zipCode: '10001', preferredCount: '36' }).preferredCount).toBe(36);
    expect(preferencesSchema.safeParse({ zipCode: '10001', preferredCount: 7 }).success).toBe(false);
  });
});

describe('parseStoredPreferences', () => {
  it('gives the defaults when nothing usable is saved', () => {
    for (const text of [null, '', 'not json', '[]', 'null', '42']) {
      expect(parseStoredPreferences(text)).toEqual(DEFAULT_PREFERENCES);
    }
  });

  it('keeps each usable field and defaults the rest', () => {
    const saved = JSON.stringify({ zipCode: '60611', region: 'midwest', preferredCount: 99, favoriteStores: ['aldi', 3], notifyPriceDrops: true });
    expect(parseStoredPreferences(saved)).toEqual({
      ...DEFAULT_PREFERENCES,
      zipCode: '60611',
      region: 'midwest',
      notifyPriceDrops: true,
    });
  });
});
