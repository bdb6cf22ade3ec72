// The window's width as React state, following resizes.
import { useSyncExternalStore } from 'react';
import { BREAKPOINTS, pageSizeForWidth } from '#shared/pagination.ts';

// The width is read from the window when this module loads and on each resize, never while
// React renders or runs effects: reading innerWidth while the page has unapplied style changes
// makes the browser lay the whole page out there and then, which cost a phone hundreds of
// milliseconds on the dashboard.
const hasWindow = typeof window !== 'undefined';
let width: number = hasWindow ? window.innerWidth : BREAKPOINTS.desktop;
const listeners = new Set<() => void>();

if (hasWindow) {
  const update = () => {
    const next = window.innerWidth;
    if (next === width) return;
    width = next;
    for (const listener of listeners) listener();
  };
  window.addEventListener('resize', update);
  window.addEventListener('orientationchange', update);
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

const widthNow = () => width;
/** Without a window (never in this SPA, but kept safe) assume a desktop. */
const serverWidth = () => BREAKPOINTS.desktop;

/** The current viewport width in CSS pixels; re-renders on resize. */
export function useViewportWidth(): number {
  return useSyncExternalStore(subscribe, widthNow, serverWidth);
}

/** Below 768 px. */
export function useIsMobile(): boolean {
  return useViewportWidth() < BREAKPOINTS.mobile;
}

/** The listing page size for the current width: 4 mobile, 6 tablet, 9 desktop. */
export function usePageSize(): number {
  return pageSizeForWidth(useViewportWidth());
}
