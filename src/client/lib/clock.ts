// One clock for every relative time on screen ('Just now', '5 minutes ago'). Each reads the same
// instant, the current minute, and all move on together when a new minute starts. Read from
// Date.now() as each component rendered, a list drawn at page load said 'Just now' beside a section
// drawn a few seconds later that said '1 minute ago' for the same price, and neither moved on.
import { useSyncExternalStore } from 'react';

const MINUTE = 60_000;

/** The start of the current minute (ms since the epoch): the same for every reader within it. */
export const currentMinute = (): number => Math.floor(Date.now() / MINUTE) * MINUTE;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;

function tick(): void {
  // At the start of each minute (a few ms after, so the new minute has begun everywhere).
  timer = setTimeout(
    () => {
      for (const listener of listeners) listener();
      tick();
    },
    MINUTE - (Date.now() % MINUTE) + 5,
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) tick();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearTimeout(timer);
  };
}

/** The clock's current minute, re-rendering the caller when the next one starts. */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, currentMinute, currentMinute);
}
