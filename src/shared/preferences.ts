// A shopper's local preferences (SPEC §3 "Local preferences", §5 validation), saved in the
// browser under one key. The preferences form validates with preferencesSchema; every reader of
// saved data (the form, the dashboard's price cards) goes through parseStoredPreferences, which
// keeps each usable field and falls back to the default for the rest, so an old or hand-edited
// value never breaks a screen.
import { z } from 'zod';
import { CARD_COUNTS, DEFAULT_COUNT } from './vocabulary.ts';

/** The browser storage key (localStorage) holding the saved preferences as JSON. */
export const PREFERENCES_KEY = 'eggwatch.preferences';

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

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({
  zipCode: '',
  region: '',
  preferredEggType: '',
  preferredCount: DEFAULT_COUNT,
  favoriteStores: [],
  notifyPriceDrops: false,
  weeklyReport: false,
});

/** Lenient reading of saved data: each field that is unusable takes its default. */
const storedSchema = z.object({
  zipCode: z.string().catch(DEFAULT_PREFERENCES.zipCode),
  region: z.string().catch(DEFAULT_PREFERENCES.region),
  preferredEggType: z.string().catch(DEFAULT_PREFERENCES.preferredEggType),
  preferredCount: preferencesSchema.shape.preferredCount.catch(DEFAULT_PREFERENCES.preferredCount),
  favoriteStores: z.array(z.string()).catch([]),
  notifyPriceDrops: z.boolean().catch(false),
  weeklyReport: z.boolean().catch(false),
});

/** Saved preferences from their stored JSON text (or null when nothing is saved). */
export function parseStoredPreferences(text: string | null | undefined): Preferences {
  if (!text) return { ...DEFAULT_PREFERENCES, favoriteStores: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = {};
  }
  const parsed = storedSchema.safeParse(value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {});
  return parsed.success ? parsed.data : { ...DEFAULT_PREFERENCES, favoriteStores: [] };
}
