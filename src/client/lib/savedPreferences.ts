// The shopper's saved browser preferences as the dashboard applies them (the local
// preferences): the region, egg type and pack size become the Egg Prices list's filters when its
// URL names none, shown as applied in the Filters panel. They never re-price a price card.
import { useMemo, useSyncExternalStore } from 'react';
import { isFilterCount, type FilterCount } from '#shared/filters.ts';
import { PREFERENCES_KEY, parseStoredPreferences } from '#shared/stored-preferences.ts';
import { parseEggType, parseRegion, type EggType, type Region } from '#shared/vocabulary.ts';

/** The filters saved preferences set; a field is absent when they set none. */
export interface PreferenceFilters {
  eggType?: EggType;
  region?: Region;
  countRange?: FilterCount;
}

/**
 * The filters of the saved preferences, read with the preferences form's own lenient parser: the
 * region and egg type when one is chosen, the pack size when it is one of the Filters panel's
 * (36 and 60 are price-card sizes the panel does not offer). Nothing saved: no filters.
 */
export function parsePreferenceFilters(raw: string | null): PreferenceFilters {
  if (!raw) return {};
  const saved = parseStoredPreferences(raw);
  const region = parseRegion(saved.region);
  const eggType = parseEggType(saved.preferredEggType);
  return {
    ...(eggType ? { eggType } : {}),
    ...(region ? { region } : {}),
    ...(isFilterCount(saved.preferredCount) ? { countRange: saved.preferredCount } : {}),
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
 * to the dashboard, which mounts afresh and reads the new values.
 */
function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === PREFERENCES_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** The saved preferences' filters, following changes made in this tab or another. */
export function usePreferenceFilters(): PreferenceFilters {
  const raw = useSyncExternalStore(subscribe, readRaw, () => null);
  return useMemo(() => parsePreferenceFilters(raw), [raw]);
}
