// Egress at phone and desktop width (the tablet shows the same components): an administrator sees
// Target's tiers on the Data Scrapers tab, its proxy by host and port only, tests the connection
// for a ZIP code and reads what happened: the stand-in walls this machine's address for Target
// (Akamai's "Access Denied"), so the locator's first call is walled direct and the calls go on
// through the local proxy (e2e/serve.ts). The Coverage tab shows the same card for its retailer.
import type { Page } from '@playwright/test';
import { createAccount, expect, signInDirectly, test, uniqueName, type Db } from './db.ts';
import { E2E_PROXY_PASSWORD, E2E_PROXY_USER } from './secrets.ts';
import { expectAccessible, snap } from './ui.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

async function signIn(page: Page, db: Db, baseURL: string, project: string) {
  const name = uniqueName('egress', project);
  const admin = await createAccount(db, {
    username: name,
    email: `${name}@example.test`,
    password: 'Adm1n!e2e-Pass',
    role: 'admin',
  });
  await signInDirectly(page, db, admin, baseURL);
}

test.describe('egress and Test connection', () => {
  test("tests Target's connection: walled direct, read through the proxy", async ({ page, db, baseURL }, info) => {
    await signIn(page, db, baseURL!, info.project.name);
    // Target starts at its first tier, so the test meets the wall (a cool-off from another journey is forgotten).
    await db`delete from egress_tiers where store_id = 'target'`;
    await page.goto('/admin/dashboard');
    const card = page.getByRole('region', { name: 'Target egress' });
    await page
      .getByRole('region', { name: 'Walmart egress' })
      .getByRole('combobox', { name: 'Store' })
      .selectOption('target');
    await expect(card.getByText(/^residential: 1 proxy, 127\.0\.0\.1:\d+ \(http, with credentials\)$/)).toBeVisible();
    await expect(card.getByText('direct: no proxy')).toBeVisible();
    await expect(card.getByText('Requests go through the direct tier.')).toBeVisible();

    const zip = card.getByRole('textbox', { name: 'ZIP code' });
    await zip.fill('1000');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByText('zipCode must be a 5-digit ZIP code')).toBeVisible();
    await zip.fill('10001');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByText('Connected')).toBeVisible({ timeout: 60_000 });

    const requests = card.getByRole('table', { name: 'Requests of the connection test' });
    const rows = requests.getByRole('row');
    // The first call met Akamai's wall direct; the next went through the proxy, by host and port.
    await expect(rows.nth(1)).toContainText('Store locator');
    await expect(rows.nth(1)).toContainText('direct');
    await expect(rows.nth(1)).toContainText('walled by Akamai');
    await expect(rows.nth(2)).toContainText('residential');
    await expect(rows.nth(2)).toContainText(/127\.0\.0\.1:\d+/);
    await expect(rows.nth(2)).toContainText('HTTP 200');
    await expect(rows.last()).toContainText('Product list');
    await expect(
      card.getByText(
        /through residential \(127\.0\.0\.1:\d+\) with got-scraping; 1 walled; 1 store and \d+ listings read/,
      ),
    ).toBeVisible();
    // The last 24 hours by tier count the wall, and the tier in use is the proxy's.
    const lastDay = card.getByRole('table', { name: 'Target requests in the last 24 hours by tier' });
    await expect(lastDay.getByRole('row', { name: /^direct/ })).toBeVisible();
    await expect(card.getByText(/^Requests go through the residential tier until/)).toBeVisible();
    // The proxy's user and password are nowhere on the page.
    const text = await page.locator('body').innerText();
    expect(text).not.toContain(E2E_PROXY_PASSWORD);
    expect(text).not.toContain(E2E_PROXY_USER);
    // (the pointer leaves the button it clicked: a hovered button's colours are not its resting ones)
    await page.mouse.move(0, 0);
    await snap(page, info, 'egress-test-connection');
    await expectAccessible(page, 'Data Scrapers tab with a connection test');
  });

  test('the Coverage tab shows the egress of its retailer', async ({ page, db, baseURL }, info) => {
    await signIn(page, db, baseURL!, info.project.name);
    await page.goto('/admin/dashboard?tab=coverage');
    await page.getByRole('combobox', { name: 'Retailer' }).selectOption('target');
    const card = page.getByRole('region', { name: 'Target egress' });
    await expect(card.getByText(/^residential: 1 proxy, 127\.0\.0\.1:\d+/)).toBeVisible();
    await expect(card.getByRole('button', { name: 'Test connection' })).toBeEnabled();
  });
});
