// A choice remembered in this browser (localStorage) across reloads and visits, e.g. the store
// the admin's Recent runs shows. Storage may be disabled (privacy modes): the choice then lasts
// as long as the page.
import { useCallback, useState } from 'react';

export function readChoice<T extends string>(key: string, choices: readonly T[], fallback: T): T {
  try {
    const stored = window.localStorage.getItem(key);
    return choices.includes(stored as T) ? (stored as T) : fallback;
  } catch {
    return fallback;
  }
}

export function useStoredChoice<T extends string>(
  key: string,
  choices: readonly T[],
  fallback: T,
): readonly [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => readChoice(key, choices, fallback));
  const choose = useCallback(
    (next: T) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, next);
      } catch {
        // Not remembered; the choice still applies now.
      }
    },
    [key],
  );
  return [value, choose] as const;
}
