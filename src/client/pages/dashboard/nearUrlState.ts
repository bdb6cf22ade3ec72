// The Near you section's state in the dashboard's query string: the applied ZIP code, the radius,
// the egg type and the pack size (zip, radius, nearType, nearCount). Only values that differ from
// the defaults are written; a malformed value falls back to its default alone, leaving the others.
// Free of zod, like the rest of the dashboard: the contract (src/shared/near.ts, built on zod) is
// imported for its types only, and its radii and ZIP rule are repeated here (a test holds them equal).
import type { NearRadius } from '#shared/near.ts';
import { PREFERENCES_KEY, parseStoredPreferences } from '#shared/stored-preferences.ts';
import { EGG_TYPE_SLUGS, FILTER_COUNTS, parseEggType, type EggType } from '#shared/vocabulary.ts';

/** NEAR_RADII and DEFAULT_NEAR_RADIUS of the contract. */
export const RADII: readonly NearRadius[] = [5, 10, 25, 50];
export const DEFAULT_RADIUS: NearRadius = 25;

/** The API's own message for a malformed ZIP code (zipParam), shown before asking it. */
export const ZIP_FORMAT_MESSAGE = 'zip must be a 5-digit US ZIP code';

/** The pack sizes offered, as the dashboard's Filters panel offers them. */
export const NEAR_COUNTS: readonly number[] = FILTER_COUNTS;

export const NEAR_PARAMS = {
  zip: 'zip',
  radius: 'radius',
  eggType: 'nearType',
  count: 'nearCount',
} as const;

export interface NearState {
  /** The applied 5-digit ZIP code, or null before one is entered. */
  zip: string | null;
  radius: NearRadius;
  eggType: EggType | 'all';
  count: number | null;
}

export const DEFAULT_NEAR_STATE: Readonly<NearState> = Object.freeze({
  zip: null,
  radius: DEFAULT_RADIUS,
  eggType: 'all',
  count: null,
});

/** Five digits, or ZIP+4 (its first five count), as the API's zipParam reads it. */
export function parseZip(raw: string | null | undefined): string | null {
  const value = raw?.trim() ?? '';
  return /^\d{5}(-\d{4})?$/.test(value) ? value.slice(0, 5) : null;
}

/**
 * The ZIP code saved in Preferences, which Near you searches when the URL names none;
 * null when none is saved, it is no ZIP code, or storage is disabled.
 */
export function savedZip(
  stored: () => string | null = () => window.localStorage.getItem(PREFERENCES_KEY),
): string | null {
  try {
    return parseZip(parseStoredPreferences(stored()).zipCode);
  } catch {
    return null;
  }
}

function parseRadius(raw: string | null): NearRadius {
  const value = raw === null ? Number.NaN : Number(raw.trim());
  return (RADII as readonly number[]).includes(value) ? (value as NearRadius) : DEFAULT_RADIUS;
}

function parseCount(raw: string | null): number | null {
  const value = raw === null || !/^\d+$/.test(raw.trim()) ? Number.NaN : Number(raw);
  return NEAR_COUNTS.includes(value) ? value : null;
}

export function parseNearParams(params: URLSearchParams): NearState {
  const type = params.get(NEAR_PARAMS.eggType);
  return {
    zip: parseZip(params.get(NEAR_PARAMS.zip)),
    radius: parseRadius(params.get(NEAR_PARAMS.radius)),
    eggType: (type !== null && parseEggType(type)) || 'all',
    count: parseCount(params.get(NEAR_PARAMS.count)),
  };
}

/** The query string for a state; parameters the section does not own are kept. */
export function toNearParams(state: NearState, keep: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(keep);
  for (const name of Object.values(NEAR_PARAMS)) params.delete(name);
  if (state.zip !== null) params.set(NEAR_PARAMS.zip, state.zip);
  if (state.radius !== DEFAULT_RADIUS) params.set(NEAR_PARAMS.radius, String(state.radius));
  if (state.eggType !== 'all') params.set(NEAR_PARAMS.eggType, EGG_TYPE_SLUGS[state.eggType]);
  if (state.count !== null) params.set(NEAR_PARAMS.count, String(state.count));
  return params;
}
