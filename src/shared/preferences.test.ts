import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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

describe('parseStoredPreferences agrees with preferencesSchema', () => {
  // The reader is written without zod (it is part of the dashboard's first paint); this is the
  // lenient schema it stands for: each field as the form's schema accepts it, else the default.
  const lenient = z.object({
    zipCode: z.string().catch(DEFAULT_PREFERENCES.zipCode),
    region: z.string().catch(DEFAULT_PREFERENCES.region),
    preferredEggType: z.string().catch(DEFAULT_PREFERENCES.preferredEggType),
    preferredCount: preferencesSchema.shape.preferredCount.catch(DEFAULT_PREFERENCES.preferredCount),
    favoriteStores: z.array(z.string()).catch([]),
    notifyPriceDrops: z.boolean().catch(false),
    weeklyReport: z.boolean().catch(false),
  });
  const samples: readonly unknown[] = [
    {},
    { zipCode: '10001', region: 'west', preferredEggType: 'organic', preferredCount: 36, favoriteStores: ['aldi'], notifyPriceDrops: true, weeklyReport: true },
    { zipCode: 10001, region: null, preferredEggType: 3, favoriteStores: 'aldi', notifyPriceDrops: 'yes', weeklyReport: 1 },
    ...[6, 12, 60, '18', ' 24 ', '', null, true, 7, 12.5, '12abc', [30], [6, 12], { n: 6 }, -12, '0x0c', 1e21].map((preferredCount) => ({ preferredCount })),
    { favoriteStores: [] },
    { favoriteStores: ['walmart', 'target'] },
    { favoriteStores: ['walmart', null] },
  ];

  it('reads every field the same way', () => {
    for (const sample of samples) {
      expect({ sample, value: parseStoredPreferences(JSON.stringify(sample)) }).toEqual({ sample, value: lenient.parse(sample) });
    }
  });
});
