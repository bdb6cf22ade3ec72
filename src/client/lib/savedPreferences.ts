// The shopper's saved browser preferences, as far as price cards use them (SPEC §3 Local
// preferences, §4: a card's initial region, egg type and count come from them when present).
import { useMemo, useSyncExternalStore } from 'react';
import { PREFERENCES_KEY, parseStoredPreferences } from '#shared/stored-preferences.ts';
import { parseEggType, parseRegion, type EggType, type Region } from '#shared/vocabulary.ts';

export interface CardPreferences {
  region: Region | null;
  eggType: EggType | null;
  count: number | null;
}

export const NO_CARD_PREFERENCES: Readonly<CardPreferences> = Object.freeze({ region: null, eggType: null, count: null });

/**
 * The card fields of the saved preferences (region, preferredEggType, preferredCount), read with
 * the preferences form's own lenient parser. With nothing saved every field is null; a region or
 * egg type left empty (or unknown) is null, so the card falls back to the entry's own value.
 * A saved form always holds a pack size (12 unless chosen, SPEC §5).
 */
export function parseCardPreferences(raw: string | null): CardPreferences {
  if (!raw) return NO_CARD_PREFERENCES;
  const saved = parseStoredPreferences(raw);
  return {
    region: parseRegion(saved.region),
    eggType: parseEggType(saved.preferredEggType),
    count: saved.preferredCount,
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
