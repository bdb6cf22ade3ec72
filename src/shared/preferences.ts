// A shopper's local preferences (SPEC §3 "Local preferences", §5 validation), saved in the
// browser under one key. The preferences form validates with preferencesSchema; every reader of
// saved data (the form, the dashboard's price cards) goes through parseStoredPreferences, which
// keeps each usable field and falls back to the default for the rest, so an old or hand-edited
// value never breaks a screen. The key, the defaults and that reader are in stored-preferences.ts
// (without zod, for the dashboard's first paint) and re-exported here.
import { z } from 'zod';
import { CARD_COUNTS, DEFAULT_COUNT } from './vocabulary.ts';

export { DEFAULT_PREFERENCES, PREFERENCES_KEY, parseStoredPreferences } from './stored-preferences.ts';

export const ZIP_MIN_MESSAGE = 'ZIP code must be at least 5 characters';
export const ZIP_MAX_MESSAGE = 'ZIP code must be at most 10 characters';

export const preferencesSchema = z.object({
  zipCode: z.string().trim().min(5, ZIP_MIN_MESSAGE).max(10, ZIP_MAX_MESSAGE),
  /** A region (northeast, midwest, south, west) or '' for none; SPEC §5 keeps it a free string. */
  region: z.string().default(''),
  /** An egg type in the URL spelling (cage-free) or '' for none; a free string per SPEC §5. */
  preferredEggType: z.string().default(''),
  /** A pack size from the price cards' list (SPEC §3); 12 by default (SPEC §5). */
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
