// Code that no first paint needs (the header's menus, the toaster) is loaded once the page has
// loaded and the browser is idle, or at once when the user reaches for it first. Keeping it out of
// the entry keeps the JavaScript needed for the first paint of / within its budget (bench/bundle.ts).
import { useCallback, useEffect, useState } from 'react';

/** Runs `callback` after the window's load event, when the browser is next idle. */
export function afterPageIdle(callback: () => void): () => void {
  let cancelled = false;
  let cancelIdle = () => {};
  const schedule = () => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(callback, { timeout: 3000 });
      cancelIdle = () => window.cancelIdleCallback(id);
    } else {
      const id = window.setTimeout(callback, 200);
      cancelIdle = () => window.clearTimeout(id);
    }
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    cancelIdle();
  };
}

/**
 * Whether deferred code may be rendered now: false until the page is idle after loading, or
 * until `load()` is called (e.g. when the user hovers, focuses or clicks a placeholder control).
 */
export function useLoadWhenIdle(): [ready: boolean, load: () => void] {
  const [ready, setReady] = useState(false);
  useEffect(() => (ready ? undefined : afterPageIdle(() => setReady(true))), [ready]);
  const load = useCallback(() => setReady(true), []);
  return [ready, load];
}
