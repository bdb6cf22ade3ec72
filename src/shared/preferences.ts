// A shopper's local preferences, saved in the
// browser under one key. The preferences form validates with preferencesSchema; every reader of
// saved data (the form, the dashboard's price cards) goes through parseStoredPreferences, which
// keeps each usable field and falls back to the default for the rest, so an old or hand-edited
// value never breaks a screen. The key, the defaults and that reader are in stored-preferences.ts
// (without zod, for the dashboard's first paint) and re-exported here.
import { z } from 'zod';
import type { NotificationFrequency } from './subscriptions.ts';
import {
  CARD_COUNTS,
  DEFAULT_COUNT,
  STORE_IDS,
  parseEggType,
  parseRegion,
  type EggType,
  type Region,
  type StoreId,
} from './vocabulary.ts';
import { isValidZip, zipToRegion } from './zip.ts';

export { DEFAULT_PREFERENCES, PREFERENCES_KEY, parseStoredPreferences } from './stored-preferences.ts';

export const ZIP_MIN_MESSAGE = 'ZIP code must be at least 5 characters';
export const ZIP_MAX_MESSAGE = 'ZIP code must be at most 10 characters';
export const ZIP_FORMAT_MESSAGE = 'ZIP code must be 5 digits, or ZIP+4 (12345-6789)';

export const preferencesSchema = z.object({
  /** Optional: an egg type or a favourite store can be saved without one. When given, 5 to 10 characters making a US ZIP code. */
  zipCode: z
    .string()
    .trim()
    .default('')
    .check((ctx) => {
      const zip = ctx.value;
      if (zip === '') return;
      const message =
        zip.length < 5
          ? ZIP_MIN_MESSAGE
          : zip.length > 10
            ? ZIP_MAX_MESSAGE
            : isValidZip(zip)
              ? null
              : ZIP_FORMAT_MESSAGE;
      if (message) ctx.issues.push({ code: 'custom', message, input: zip });
    }),
  /** A region (northeast, midwest, south, west) or '' for none; kept a free string. */
  region: z.string().default(''),
  /** An egg type in the URL spelling (cage-free) or '' for none; kept a free string. */
  preferredEggType: z.string().default(''),
  /** A pack size from the price cards' list; 12 by default. */
  preferredCount: z.coerce
    .number()
    .int()
    .refine((n) => (CARD_COUNTS as readonly number[]).includes(n), `Egg count must be one of ${CARD_COUNTS.join(', ')}`)
    .default(DEFAULT_COUNT),
  /** Store ids. */
  favoriteStores: z.array(z.string()).default([]),
  notifyPriceDrops: z.boolean().default(false),
  weeklyReport: z.boolean().default(false),
});

export type Preferences = z.output<typeof preferencesSchema>;
export type PreferencesField = keyof Preferences;

/** The Notifications switches that stand for a price-alert subscription, and how often each writes. */
export const PREFERENCE_ALERTS = {
  notifyPriceDrops: { frequency: 'immediately', label: 'Price drop alerts' },
  weeklyReport: { frequency: 'weekly', label: 'Weekly reports' },
} as const satisfies Record<string, { frequency: NotificationFrequency; label: string }>;
export type PreferenceAlert = keyof typeof PREFERENCE_ALERTS;

export interface PreferenceAlertValues {
  region: Region | 'all';
  egg_type: EggType | 'all';
  preferred_stores: StoreId[];
  notification_frequency: NotificationFrequency;
}

/**
 * What a switch's subscription watches, from the preferences: the region chosen, else the ZIP
 * code's, else every region; the egg type, else every type; price drops at the favourite stores
 * (every store when none is chosen); the weekly report covers every store of the region.
 */
export function alertFromPreferences(preferences: Preferences, alert: PreferenceAlert): PreferenceAlertValues {
  const stores = preferences.favoriteStores.filter((store): store is StoreId =>
    (STORE_IDS as readonly string[]).includes(store),
  );
  return {
    region: parseRegion(preferences.region) ?? zipToRegion(preferences.zipCode.trim()) ?? 'all',
    egg_type: parseEggType(preferences.preferredEggType) ?? 'all',
    preferred_stores: alert === 'notifyPriceDrops' ? [...new Set(stores)] : [],
    notification_frequency: PREFERENCE_ALERTS[alert].frequency,
  };
}
