// Saved preferences as the browser stores them: the storage key, the
// defaults and the lenient reader every screen uses. Kept free of zod because the dashboard's
// price cards read saved preferences on the first paint of /; the form's validating schema
// (preferencesSchema) is in preferences.ts, which re-exports everything here.
import type { Preferences } from './preferences.ts';
import { CARD_COUNTS, DEFAULT_COUNT } from './vocabulary.ts';

/** The browser storage key (localStorage) holding the saved preferences as JSON. */
export const PREFERENCES_KEY = 'eggwatch.preferences';

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({
  zipCode: '',
  region: '',
  preferredEggType: '',
  preferredCount: DEFAULT_COUNT,
  favoriteStores: [],
  notifyPriceDrops: false,
  weeklyReport: false,
});

const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const flag = (value: unknown): boolean => (typeof value === 'boolean' ? value : false);

/**
 * The pack size as preferencesSchema accepts it (a number or numeric text naming one of the
 * price cards' pack sizes; missing means 12), or 12 when it is unusable.
 */
function packSize(value: unknown): number {
  if (value === undefined) return DEFAULT_COUNT;
  const count = typeof value === 'symbol' || typeof value === 'bigint' ? Number.NaN : Number(value);
  return (CARD_COUNTS as readonly number[]).includes(count) ? count : DEFAULT_COUNT;
}

/**
 * Saved preferences from their stored JSON text (or null when nothing is saved). Lenient: each
 * field that is unusable takes its default, so an old or hand-edited value never breaks a screen.
 */
export function parseStoredPreferences(stored: string | null | undefined): Preferences {
  if (!stored) return { ...DEFAULT_PREFERENCES, favoriteStores: [] };
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    value = {};
  }
  const saved: Record<string, unknown> =
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const stores = saved.favoriteStores;
  return {
    zipCode: text(saved.zipCode, DEFAULT_PREFERENCES.zipCode),
    region: text(saved.region, DEFAULT_PREFERENCES.region),
    preferredEggType: text(saved.preferredEggType, DEFAULT_PREFERENCES.preferredEggType),
    preferredCount: packSize(saved.preferredCount),
    favoriteStores:
      Array.isArray(stores) && stores.every((store) => typeof store === 'string') ? [...(stores as string[])] : [],
    notifyPriceDrops: flag(saved.notifyPriceDrops),
    weeklyReport: flag(saved.weeklyReport),
  };
}
