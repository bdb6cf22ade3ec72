import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DEFAULT_PREFERENCES,
  ZIP_FORMAT_MESSAGE,
  ZIP_MAX_MESSAGE,
  ZIP_MIN_MESSAGE,
  alertFromPreferences,
  parseStoredPreferences,
  preferencesSchema,
} from './preferences.ts';

const messages = (input: unknown) => {
  const result = preferencesSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('preferencesSchema', () => {
  it('checks a ZIP code given: 5 to 10 characters making a US ZIP code', () => {
    expect(messages({ zipCode: '1234' })).toEqual([`zipCode: ${ZIP_MIN_MESSAGE}`]);
    expect(messages({ zipCode: '12345-67890' })).toEqual([`zipCode: ${ZIP_MAX_MESSAGE}`]);
    expect(messages({ zipCode: 'abcde' })).toEqual([`zipCode: ${ZIP_FORMAT_MESSAGE}`]);
    expect(preferencesSchema.parse({ zipCode: ' 12345-6789 ' }).zipCode).toBe('12345-6789');
  });

  it('saves an egg type, a pack size or favourite stores without a ZIP code', () => {
    for (const zipCode of [undefined, '', '   ']) {
      const parsed = preferencesSchema.safeParse({
        zipCode,
        preferredEggType: 'organic',
        preferredCount: 18,
        favoriteStores: ['aldi'],
      });
      expect(parsed.success).toBe(true);
      expect(parsed.data).toMatchObject({
        zipCode: '',
        preferredEggType: 'organic',
        preferredCount: 18,
        favoriteStores: ['aldi'],
      });
    }
  });

  it('defaults the flags to false and the pack size to 12', () => {
    expect(preferencesSchema.parse({ zipCode: '10001' })).toEqual({ ...DEFAULT_PREFERENCES, zipCode: '10001' });
  });

  it("accepts the price cards' pack sizes only", () => {
    expect(preferencesSchema.parse({ zipCode: '10001', preferredCount: '36' }).preferredCount).toBe(36);
    expect(preferencesSchema.safeParse({ zipCode: '10001', preferredCount: 7 }).success).toBe(false);
  });
});

describe('alertFromPreferences: what a Notifications switch subscribes to', () => {
  const preferences = {
    ...DEFAULT_PREFERENCES,
    zipCode: '60611',
    preferredEggType: 'cage-free',
    favoriteStores: ['aldi', 'kroger', 'costco'],
  };

  it("price drops: at once, in the chosen region (else the ZIP code's), of the egg type, at the favourite stores", () => {
    expect(alertFromPreferences(preferences, 'notifyPriceDrops')).toEqual({
      region: 'midwest',
      egg_type: 'cage_free',
      preferred_stores: ['aldi', 'kroger'],
      notification_frequency: 'immediately',
    });
    expect(alertFromPreferences({ ...preferences, region: 'west' }, 'notifyPriceDrops').region).toBe('west');
  });

  it('the weekly report: every store of the region, weekly', () => {
    expect(alertFromPreferences(preferences, 'weeklyReport')).toEqual({
      region: 'midwest',
      egg_type: 'cage_free',
      preferred_stores: [],
      notification_frequency: 'weekly',
    });
  });

  it('without a region, a ZIP code or an egg type: every region and type', () => {
    expect(alertFromPreferences(DEFAULT_PREFERENCES, 'notifyPriceDrops')).toEqual({
      region: 'all',
      egg_type: 'all',
      preferred_stores: [],
      notification_frequency: 'immediately',
    });
  });
});

describe('parseStoredPreferences', () => {
  it('gives the defaults when nothing usable is saved', () => {
    for (const text of [null, '', 'not json', '[]', 'null', '42']) {
      expect(parseStoredPreferences(text)).toEqual(DEFAULT_PREFERENCES);
    }
  });

  it('keeps each usable field and defaults the rest', () => {
    const saved = JSON.stringify({
      zipCode: '60611',
      region: 'midwest',
      preferredCount: 99,
      favoriteStores: ['aldi', 3],
      notifyPriceDrops: true,
    });
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
    {
      zipCode: '10001',
      region: 'west',
      preferredEggType: 'organic',
      preferredCount: 36,
      favoriteStores: ['aldi'],
      notifyPriceDrops: true,
      weeklyReport: true,
    },
    {
      zipCode: 10001,
      region: null,
      preferredEggType: 3,
      favoriteStores: 'aldi',
      notifyPriceDrops: 'yes',
      weeklyReport: 1,
    },
    ...[6, 12, 60, '18', ' 24 ', '', null, true, 7, 12.5, '12abc', [30], [6, 12], { n: 6 }, -12, '0x0c', 1e21].map(
      (preferredCount) => ({ preferredCount }),
    ),
    { favoriteStores: [] },
    { favoriteStores: ['walmart', 'target'] },
    { favoriteStores: ['walmart', null] },
  ];

  it('reads every field the same way', () => {
    for (const sample of samples) {
      expect({ sample, value: parseStoredPreferences(JSON.stringify(sample)) }).toEqual({
        sample,
        value: lenient.parse(sample),
      });
    }
  });
});
