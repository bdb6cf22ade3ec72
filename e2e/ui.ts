// Page helpers the journeys share: form fields, toasts, the header's signed-in state, axe checks
// and loading a whole page.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures.ts';
import { networkQuiet } from './network.ts';

/**
 * A form control by its label. Chakra marks required fields with an asterisk inside the label
 * (hidden from screen readers, but part of the label's text), and "Password" must not also
 * match "Confirm password" or the "Show password" button.
 */
export function field(scope: Page | Locator, label: string) {
  return scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`));
}

/**
 * Chromium logs every expected 4xx answer as a console error ('Failed to load resource: the
 * server responded with a status of 401 ...'). The fixtures fail a test on console errors, so a
 * test that provokes one on purpose takes exactly those entries back out, and only those.
 */
export async function expectConsoleErrors(problems: string[], status: number, count = 1): Promise<void> {
  const expected = (problem: string) =>
    problem.startsWith(`console error: Failed to load resource: the server responded with a status of ${status}`);
  await expect
    .poll(() => problems.filter(expected).length, { message: `${count} console error(s) for HTTP ${status}` })
    .toBe(count);
  for (let i = 0; i < count; i++) problems.splice(problems.findIndex(expected), 1);
}

/** A toast by its title, wherever the toaster placed it. */
export function toast(page: Page, title: string) {
  return page.locator('[data-scope="toast"][data-part="root"]').filter({ has: page.getByText(title, { exact: true }) });
}

/** Phones (< 768 px) keep the header's links in a menu. */
export async function expectHeaderSignedIn(page: Page, signedIn: boolean): Promise<void> {
  const phone = (page.viewportSize()?.width ?? 1024) < 768;
  const name = signedIn ? 'My Account' : 'Login';
  const other = signedIn ? 'Login' : 'My Account';
  if (phone) {
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    await expect(page.getByRole('menuitem', { name, exact: true })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: other, exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
  } else {
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(banner.getByRole('link', { name: other, exact: true })).toHaveCount(0);
  }
}

/**
 * Whether the journeys keep screenshots of what they saw, for a person to look at in test-results/.
 * A CI run (CI set) keeps only the text it prints, so it takes none (a full-page screenshot of a
 * long screen costs up to a second); a failing journey's screenshot is taken either way
 * (playwright.config.ts).
 */
export const KEEP_SCREENSHOTS = !process.env.CI;

/** A screenshot of the whole page, or of one part of it, in the test's output (none in CI). */
export async function screenshot(target: Page | Locator, info: TestInfo, name: string): Promise<void> {
  if (!KEEP_SCREENSHOTS) return;
  const path = info.outputPath(`${name}.png`);
  if ('goto' in target) await target.screenshot({ path, fullPage: true });
  else await target.screenshot({ path });
}

/** Checks that nothing on the page scrolls sideways, then takes its screenshot (none in CI). */
export async function snap(page: Page, info: TestInfo, name: string): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${name}: the page is wider than the viewport`).toBeLessThanOrEqual(0);
  await screenshot(page, info, name);
}

/**
 * Playwright runs its own scripts in every frame, and Chromium logs each one it blocks in a frame
 * sandboxed without scripts (the admin Outbox's email preview) as a console error; a browser
 * without Playwright logs nothing (microsoft/playwright#33343). Only those entries are taken out.
 */
export function dropSandboxedFrameNoise(problems: string[]): void {
  const noise = (problem: string) =>
    problem.startsWith(
      "console error: Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed",
    );
  for (let i = problems.length - 1; i >= 0; i--) if (noise(problems[i]!)) problems.splice(i, 1);
}

/**
 * Waits until every animation and transition that ends has ended (a dialog fading and sliding in,
 * a colour changing): axe reads the colours a shopper is left with, not a blend on the way there.
 * Endless ones (a spinner) are left running.
 */
export async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ending = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/**
 * Waits until something that has just opened (a popover, a menu) has stopped moving: its own
 * animations over and its box the same over two frames in a row (failing if it still moves after 240
 * frames, about 4 s at 60 frames a second). On a busy machine a menu still
 * growing into place is not "stable" to Playwright, which then retries the click with another
 * scroll, and a scroll can move the menu (flipped to the other side of its trigger) between the
 * press and the release, so the click misses.
 */
export async function settled(target: Locator): Promise<void> {
  await target.evaluate(async (element) => {
    const ending = element
      .getAnimations({ subtree: true })
      .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const box = () => JSON.stringify(element.getBoundingClientRect());
    let last = box();
    for (let pairs = 0; pairs < 120; pairs++) {
      await frame();
      await frame();
      const now = box();
      if (now === last) return;
      last = now;
    }
    throw new Error(`still moving after 240 frames: ${last}`);
  });
}

/**
 * axe-core for the page on screen, asked only for its violations (the passes would be serialised
 * for nothing). It runs in the page itself (the builder's legacy mode: `axe.run` in the page's
 * frames, no extra blank page for `axe.finishRun`), which only leaves cross-origin frames
 * unchecked, and the app has none: the journeys' fixtures fail any request to another origin. The
 * other mode opens and loads a page of its own for every check, about half of each check's time.
 */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
}

/**
 * No serious or critical axe-core finding on what the page shows now (a dialog included). The
 * email preview frame is left out: it is sandboxed without scripts, so axe cannot run in it, and
 * its content is the email, checked in src/server/email/.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await animationsEnded(page);
  const { violations } = await axeBuilder(page).exclude('iframe').analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  expect(serious, `${label}: serious or critical axe violations`).toEqual([]);
}

/** Opens the dashboard (with a query string, say '?type=organic') once its price list is drawn. */
export async function openDashboard(page: Page, query = ''): Promise<void> {
  await page.goto(`/${query}`);
  await expect(page.getByRole('heading', { name: 'Egg Prices', exact: true })).toBeVisible();
  await expect(page.getByText(/^Showing \d+ to \d+ of \d+ results$/)).toBeVisible();
}

/**
 * Brings in everything a page draws only near the screen (its lazily loaded sections and charts)
 * and waits until nothing is loading, then scrolls back to the top. A section near the screen can
 * hold a chart that itself waits to be near: when the section's code arrives after the scroll has
 * gone on, its chart stays a 'Loading chart' placeholder until someone comes back to it, and on a
 * busy machine a scroll step can pass a section before the browser has seen it near. So every
 * placeholder or busy region left after the way down (and the code asked for on it) is scrolled to
 * in turn, each waited for until it is gone, until none is left.
 */
export async function loadWholePage(page: Page): Promise<void> {
  await networkQuiet(page);
  for (let y = 0; y < (await page.evaluate(() => document.documentElement.scrollHeight)); y += 600) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(50);
  }
  // A section drawn once near the screen may still be on its way (its code was asked for as the
  // scroll went by): it arrives, and shows its own placeholders, before they are looked for.
  await networkQuiet(page);
  const loading = page
    .getByRole('status', { name: /^Loading/ })
    .or(page.getByText('Loading chart', { exact: true }))
    .or(page.locator('[aria-busy="true"]'));
  const deadline = Date.now() + 45_000;
  for (let left = await loading.count(); left > 0; left = await loading.count()) {
    if (Date.now() > deadline) await expect(loading, 'still loading after 45 s').toHaveCount(0, { timeout: 1 });
    // The first one left is brought near and waited for (one that moves away is looked for again).
    await loading
      .first()
      .scrollIntoViewIfNeeded({ timeout: 2_000 })
      .catch(() => undefined);
    await expect
      .poll(() => loading.count(), { timeout: 3_000, intervals: [50, 100, 250] })
      .toBeLessThan(left)
      .catch(() => undefined);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await networkQuiet(page);
}
