// Browser-stored session keys: authToken, userId and, for administrators, userData.
// The session itself is the httpOnly cookie auth.login sets; authToken only holds a marker
// value, never the token, so script-readable storage has nothing worth stealing
// (docs/decisions/003-browser-session.md). The header's logged-in state depends only on whether
// an authToken entry exists.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';

export const AUTH_TOKEN_KEY = 'authToken';
export const USER_ID_KEY = 'userId';
export const USER_DATA_KEY = 'userData';
/** What authToken holds: a marker that a cookie session exists, not a credential. */
export const SESSION_MARKER = 'cookie-session';

/** Fired on window when this tab changes the keys (the storage event only reaches other tabs). */
const SESSION_EVENT = 'eggwatch:session';

export interface StoredUser {
  id: string;
  username: string;
  email: string;
  role: 'user' | 'admin';
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage can throw when disabled (privacy modes); treat that as logged out.
    return null;
  }
}

/** True when local storage holds an authToken; false when it has none or cannot be read. */
export function hasAuthToken(): boolean {
  try {
    return storage()?.getItem(AUTH_TOKEN_KEY) != null;
  } catch {
    return false;
  }
}

export function storedUserId(): string | null {
  try {
    return storage()?.getItem(USER_ID_KEY) ?? null;
  } catch {
    return null;
  }
}

function notify(): void {
  window.dispatchEvent(new Event(SESSION_EVENT));
}

/** After a successful login: the marker, the user's id and, for administrators, userData. */
export function storeSession(user: StoredUser): void {
  const store = storage();
  if (!store) return;
  try {
    store.setItem(AUTH_TOKEN_KEY, SESSION_MARKER);
    store.setItem(USER_ID_KEY, user.id);
    if (user.role === 'admin') {
      const { id, username, email, role } = user;
      store.setItem(USER_DATA_KEY, JSON.stringify({ id, username, email, role }));
    } else {
      store.removeItem(USER_DATA_KEY);
    }
  } catch {
    // A full or read-only storage leaves the browser looking logged out; the cookie still works.
  }
  notify();
}

/** After logout, account deletion or an expired session. */
export function clearSession(): void {
  const store = storage();
  if (!store) return;
  try {
    store.removeItem(AUTH_TOKEN_KEY);
    store.removeItem(USER_ID_KEY);
    store.removeItem(USER_DATA_KEY);
  } catch {
    // Nothing more to do: the keys cannot be read either.
  }
  notify();
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === AUTH_TOKEN_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(SESSION_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(SESSION_EVENT, onChange);
  };
}

/** Queries that belong to whoever is signed in; they must not survive a change of user. */
const PER_USER_ROUTERS = ['auth', 'users', 'admin'] as const;

function dropUserQueries(queryClient: QueryClient): void {
  for (const key of PER_USER_ROUTERS) queryClient.removeQueries({ queryKey: [[key]] });
}

function errorCode(error: unknown): string | undefined {
  const data = (error as { data?: { code?: unknown } } | null)?.data;
  return typeof data?.code === 'string' ? data.code : undefined;
}

/** tRPC keys look like [['auth', 'login'], ...]: the procedure path comes first. */
function isLoginCall(key: readonly unknown[] | undefined): boolean {
  const path = key?.[0];
  return Array.isArray(path) && path[0] === 'auth' && path[1] === 'login';
}

/** Whether the browser holds a session marker, kept current when this tab or another signs in or out. */
export function useSignedIn(): boolean {
  return useSyncExternalStore(subscribe, hasAuthToken, () => false);
}

/**
 * useSignedIn for the one component that is always mounted (the header): it also clears the
 * marker when any call answers UNAUTHORIZED while it exists, because the session cookie has
 * expired or was revoked (a wrong password at login is not such a call).
 */
export function useSessionWatch(): boolean {
  const queryClient = useQueryClient();
  useEffect(() => {
    const expire = (error: unknown, key: readonly unknown[] | undefined) => {
      if (errorCode(error) === 'UNAUTHORIZED' && !isLoginCall(key) && hasAuthToken()) clearSession();
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') expire(event.action.error, event.query.queryKey);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error')
        expire(event.action.error, event.mutation.options.mutationKey);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [queryClient]);
  return useSignedIn();
}

/**
 * Signing in: the stored keys, after dropping what was cached for the previous user, so a
 * second account on this browser never sees the first one's profile. (Signing out only needs
 * clearSession: every per-user screen sends a browser without the marker away before it asks.)
 */
export function useSignIn(): (user: StoredUser) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (user: StoredUser) => {
      dropUserQueries(queryClient);
      storeSession(user);
    },
    [queryClient],
  );
}
