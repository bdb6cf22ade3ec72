// Reading and writing the shopper's saved preferences in browser storage. The
// schema and the key live in src/shared/preferences.ts.
import {
  PREFERENCE_ALERTS,
  PREFERENCES_KEY,
  parseStoredPreferences,
  type PreferenceAlert,
  type Preferences,
} from '#shared/preferences.ts';

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

/**
 * The subscriptions the Notifications switches set up for a signed-in shopper, by switch: kept
 * beside the preferences (not in them, which hold the saved form's fields) so the switch can manage the
 * same subscription later. A stale id (deleted, or another account's) is found out and dropped.
 */
const ALERT_LINKS_KEY = 'eggwatch.preference-alerts';

export type AlertLinks = Partial<Record<PreferenceAlert, number>>;

export function loadAlertLinks(): AlertLinks {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(ALERT_LINKS_KEY) ?? '{}');
    const links: AlertLinks = {};
    if (value && typeof value === 'object') {
      for (const alert of Object.keys(PREFERENCE_ALERTS) as PreferenceAlert[]) {
        const id = (value as Record<string, unknown>)[alert];
        if (typeof id === 'number' && Number.isInteger(id) && id > 0) links[alert] = id;
      }
    }
    return links;
  } catch {
    return {};
  }
}

export function saveAlertLinks(links: AlertLinks): void {
  window.localStorage.setItem(ALERT_LINKS_KEY, JSON.stringify(links));
}
