// Whether the browser holds an administrator session (the session keys: authToken, and
// userData for admins; the admin role is the value 'admin'). The dashboard shows its
// Administrator Controls only then; the server still checks the role on every admin call.
import { useState } from 'react';
import { AUTH_TOKEN_KEY, USER_DATA_KEY } from './session.ts';

/** True when the stored userData JSON names the admin role. */
export function isAdminUserData(raw: string | null): boolean {
  if (!raw) return false;
  try {
    const user: unknown = JSON.parse(raw);
    return typeof user === 'object' && user !== null && (user as { role?: unknown }).role === 'admin';
  } catch {
    return false;
  }
}

export function hasAdminSession(): boolean {
  try {
    const storage = window.localStorage;
    return storage.getItem(AUTH_TOKEN_KEY) !== null && isAdminUserData(storage.getItem(USER_DATA_KEY));
  } catch {
    return false;
  }
}

/** Read once on mount, like the header's signed-in state. */
export function useHasAdminSession(): boolean {
  const [admin] = useState(hasAdminSession);
  return admin;
}
