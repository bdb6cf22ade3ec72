// What a page has in flight, for waiting until its network is quiet. Playwright's 'networkidle'
// waits for 500 ms without a request; a screen is settled once nothing has been in flight for
// QUIET_MS (a lazily loaded section asks for its code and data within a frame or two of being
// scrolled to), which takes a second less per screen load than two 'networkidle' waits.
import type { Page } from '@playwright/test';

const QUIET_MS = 150;
const inFlight = new WeakMap<Page, { open: number; since: number }>();

/** Counts the page's requests from now on (the journeys' fixture calls it for every page). */
export function trackRequests(page: Page): void {
  const state = { open: 0, since: Date.now() };
  inFlight.set(page, state);
  page.on('request', () => {
    state.open += 1;
    state.since = Date.now();
  });
  const ended = () => {
    state.open = Math.max(0, state.open - 1);
    state.since = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/** Resolves once the page has had no request in flight for QUIET_MS (within `timeoutMs`). */
export async function networkQuiet(page: Page, timeoutMs = 30_000): Promise<void> {
  const state = inFlight.get(page);
  if (!state) return page.waitForLoadState('networkidle', { timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const quietFor = Date.now() - state.since;
    if (state.open === 0 && quietFor >= QUIET_MS) return;
    if (Date.now() > deadline)
      throw new Error(`the page still had ${state.open} request(s) in flight after ${timeoutMs} ms`);
    await page.waitForTimeout(state.open === 0 ? QUIET_MS - quietFor : 50);
  }
}
