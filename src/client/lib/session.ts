// Browser-stored session keys (SPEC §3). The header's logged-in state depends only on whether
// an authToken entry exists (SPEC §4).
export const AUTH_TOKEN_KEY = 'authToken';

/** True when local storage holds an authToken; false when it has none or cannot be read. */
export function hasAuthToken(): boolean {
  try {
    return window.localStorage.getItem(AUTH_TOKEN_KEY) !== null;
  } catch {
    // Storage can throw when disabled (privacy modes); treat that as logged out.
    return false;
  }
}
