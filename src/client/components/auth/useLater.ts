// The redirect delays: 1.5 s after login, register and signup; 2 s after admin setup and
// password resets.
import { useCallback, useEffect, useRef } from 'react';

export const LOGIN_REDIRECT_DELAY_MS = 1500;
export const SETUP_RESET_REDIRECT_DELAY_MS = 2000;

/** Runs a callback after a delay, unless the component unmounts first (the user moved on). */
export function useLater(): (callback: () => void, delayMs: number) => void {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback((callback: () => void, delayMs: number) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(callback, delayMs);
  }, []);
}
