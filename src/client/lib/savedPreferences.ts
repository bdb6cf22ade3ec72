// The shopper's saved browser preferences, as far as price cards use them (SPEC §3 Local
// preferences, §4: a card's initial region, egg type and count come from them when present).
import { useMemo, useSyncExternalStore } from 'react';
import { parseNumber } from '#shared/format.ts';
import { parseEggType, parseRegion, type EggType, type Region } from '#shared/vocabulary.ts';

export const PREFERENCES_KEY = 'eggwatch.preferences';

export interface CardPreferences {
  region: Region | null;
  eggType: EggType | null;
  count: number | null;
}

export const NO_CARD_PREFERENCES: Readonly<CardPreferences> = Object.freeze({ region: null, eggType: null, count: null });

/**
 * Reads { region, preferredEggType, preferredCount } from the stored JSON, in any spelling the
 * preferences form may have saved ('cage-free', 'Cage_Free', '12' or 12). Anything missing,
 * 'all', unknown or unreadable is null, so the card falls back to the entry's own value.
 */
export function parseCardPreferences(raw: string | null): CardPreferences {
  if (!raw) return NO_CARD_PREFERENCES;
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return NO_CARD_PREFERENCES;
  }
  if (typeof stored !== 'object' || stored === null) return NO_CARD_PREFERENCES;
  const record = stored as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const count = typeof record.preferredCount === 'number' || typeof record.preferredCount === 'string'
    ? parseNumber(record.preferredCount)
    : null;
  return {
    region: parseRegion(text(record.region)),
    eggType: parseEggType(text(record.preferredEggType)),
    count: count !== null && Number.isInteger(count) && count > 0 ? count : null,
  };
}

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(PREFERENCES_KEY);
  } catch {
    // Storage can be disabled (privacy modes): no saved preferences.
    return null;
  }
}

/**
 * Another tab saving preferences fires 'storage'. This tab's own form saves and then navigates
 * to the dashboard, which mounts its cards afresh and reads the new values.
 */
function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === PREFERENCES_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** The saved card preferences, following changes made in this tab or another. */
export function useCardPreferences(): CardPreferences {
  const raw = useSyncExternalStore(subscribe, readRaw, () => null);
  return useMemo(() => parseCardPreferences(raw), [raw]);
}
