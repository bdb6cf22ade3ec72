// Reading and writing the shopper's saved preferences in browser storage (SPEC §3, §4). The
// schema and the key live in src/shared/preferences.ts.
import { PREFERENCES_KEY, parseStoredPreferences, type Preferences } from '#shared/preferences.ts';

/** The saved preferences, or the defaults when none are saved or storage cannot be read. */
export function loadPreferences(): Preferences {
  try {
    return parseStoredPreferences(window.localStorage.getItem(PREFERENCES_KEY));
  } catch {
    // Storage can throw when disabled (privacy modes).
    return parseStoredPreferences(null);
  }
}

/** Saves validated preferences; throws when the browser refuses to store them. */
export function savePreferences(preferences: Preferences): void {
  window.localStorage.setItem(PREFERENCES_KEY, JSON.stringify(preferences));
}
