// The window's width as React state, following resizes (SPEC §9 breakpoints and page sizes).
import { useSyncExternalStore } from 'react';
import { BREAKPOINTS, pageSizeForWidth } from '#shared/pagination.ts';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  window.addEventListener('orientationchange', onChange);
  return () => {
    window.removeEventListener('resize', onChange);
    window.removeEventListener('orientationchange', onChange);
  };
}

const widthNow = () => window.innerWidth;
/** Without a window (never in this SPA, but kept safe) assume a desktop. */
const serverWidth = () => BREAKPOINTS.desktop;

/** The current viewport width in CSS pixels; re-renders on resize. */
export function useViewportWidth(): number {
  return useSyncExternalStore(subscribe, widthNow, serverWidth);
}

/** Below 768 px (SPEC §9 mobile breakpoint). */
export function useIsMobile(): boolean {
  return useViewportWidth() < BREAKPOINTS.mobile;
}

/** The listing page size for the current width: 4 mobile, 6 tablet, 9 desktop (SPEC §9). */
export function usePageSize(): number {
  return pageSizeForWidth(useViewportWidth());
}
