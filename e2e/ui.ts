// Page helpers for the account and admin journeys.
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect } from './fixtures.ts';

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
  const expected = (problem: string) => problem.startsWith(`console error: Failed to load resource: the server responded with a status of ${status}`);
  await expect.poll(() => problems.filter(expected).length, { message: `${count} console error(s) for HTTP ${status}` }).toBe(count);
  for (let i = 0; i < count; i++) problems.splice(problems.findIndex(expected), 1);
}

/** A toast by its title (SPEC §8), wherever the toaster placed it. */
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

/** A full-page screenshot in the test's output, after checking that nothing scrolls sideways. */
export async function snap(page: Page, info: TestInfo, name: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name}: the page is wider than the viewport`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });
}
