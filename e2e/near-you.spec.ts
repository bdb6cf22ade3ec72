// The dashboard's Near you section: the saved ZIP code searched at once, a search applied on submit and
// kept in the URL with the radius, egg type and pack size, rows ranked by price per dozen with
// distances, the widened and region labels, a bad and an unknown ZIP code, the CSV link, and a
// row opening the product's price history. The e2e server seeds the sample catalogue, whose
// locations are at 10001 (New York), 60611 (Chicago), 30301 (Atlanta) and 90210 (Beverly Hills).
import type { Locator, Page } from '@playwright/test';
import type { NearResult } from '../src/shared/near.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { expectConsoleErrors, screenshot } from './ui.ts';

const expect = baseExpect.configure({ timeout: 20_000 });

/** Hackensack, about 10 miles from the sample locations at 10001: nothing within 5 miles, some within 25. */
const WIDENED_ZIP = '07601';
/** Seattle: no sample location within 50 miles; the West's cheapest instead. */
const REGION_ZIP = '89101'; // Las Vegas: nothing within 50 miles, Los Angeles' stores within 500

const section = (page: Page) => page.getByRole('region', { name: 'Near you' });
const zipBox = (page: Page) => section(page).getByRole('textbox', { name: 'ZIP code' });
const select = (page: Page, label: string) => section(page).getByRole('combobox', { name: label, exact: true });
const isDesktop = (page: Page) => page.viewportSize()!.width >= 1024;

/** The result rows: table rows from 1024 px, cards below. */
function rows(page: Page): Locator {
  return isDesktop(page)
    ? section(page).getByRole('table').locator('tbody tr')
    : section(page)
        .getByRole('list', { name: /^Egg prices near / })
        .getByRole('article');
}

async function near(page: Page, query: string): Promise<NearResult> {
  const response = await page.request.get(`/api/egg-prices/near?${query}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as NearResult;
}

const money = (value: number) => `$${value.toFixed(2)}`;

test('Near you finds the cheapest eggs around a ZIP code, keeps the search in the URL and opens a price history', async ({
  page,
  pageProblems,
}, info) => {
  test.slow();
  // The ZIP code saved in Preferences is searched at once: ranked rows with distances, cheapest
  // per dozen first, as the API ranks them.
  await page.addInitScript(() =>
    window.localStorage.setItem('eggwatch.preferences', JSON.stringify({ zipCode: '10001', preferredCount: 12 })),
  );
  await page.goto('/');
  await expect(zipBox(page)).toHaveValue('10001');
  await expect(select(page, 'Radius')).toHaveValue('25');
  const all = await near(page, 'zip=10001');
  expect(all.scope).toBe('radius');
  await expect(section(page).getByText(`${all.total} prices within 25 miles of`)).toBeVisible();
  await expect(section(page).getByText(/^Enter a ZIP code to see the cheapest eggs/)).toHaveCount(0);
  await expect(page).not.toHaveURL(/zip=/);
  // Find puts it in the URL, to keep or share.
  await section(page).getByRole('button', { name: 'Find' }).click();
  await expect(page).toHaveURL(/[?&]zip=10001(&|$)/);
  await expect(rows(page)).toHaveCount(Math.min(10, all.entries.length));
  await expect(rows(page).first()).toContainText(money(all.entries[0]!.price_per_dozen));
  // Miles, or the ZIP code of a store placed at the centre of the one searched (distance unknown).
  await expect(rows(page).first()).toContainText(/\d+\.\d mi|in \d{5}/);
  await expect(rows(page).first()).toContainText('Sample data');
  const perDozen = all.entries.map((entry) => entry.price_per_dozen);
  expect(perDozen).toEqual([...perDozen].sort((a, b) => a - b));
  await screenshot(page, info, 'near-you');

  // The radius and egg type apply at once, go into the URL and survive a reload.
  await select(page, 'Radius').selectOption('5');
  await select(page, 'Egg type').selectOption('organic');
  await expect
    .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
    .toEqual({ zip: '10001', radius: '5', nearType: 'organic' });
  const organic = await near(page, 'zip=10001&radius=5&egg_type=organic');
  await expect(rows(page)).toHaveCount(Math.min(10, organic.entries.length));
  await expect(rows(page).first()).toContainText('Organic');
  await page.reload();
  await expect(select(page, 'Radius')).toHaveValue('5');
  await expect(select(page, 'Egg type')).toHaveValue('organic');
  await expect(zipBox(page)).toHaveValue('10001');
  await expect(rows(page)).toHaveCount(Math.min(10, organic.entries.length));
  const csv = section(page).getByRole('link', { name: /^Download CSV/ });
  await expect(csv).toHaveAttribute('href', '/api/egg-prices/near.csv?zip=10001&radius=5&egg_type=organic');
  await expect(csv).toHaveAttribute('download');
  const download = await page.request.get((await csv.getAttribute('href'))!);
  expect(download.headers()['content-type']).toMatch(/^text\/csv/);
  expect((await download.text()).split('\n')[0]).toMatch(/zip|distance/i);

  // Nothing within 5 miles: the search widens, and says so.
  await zipBox(page).fill(WIDENED_ZIP);
  await zipBox(page).press('Enter');
  const widened = await near(page, `zip=${WIDENED_ZIP}&radius=5&egg_type=organic`);
  expect(widened.scope).toBe('widened');
  await expect(
    section(page).getByText(
      `No stores within 5 miles of ${WIDENED_ZIP}. Showing stores within ${widened.radius_used} miles.`,
    ),
  ).toBeVisible();
  // Miles, or the ZIP code of a store placed at the centre of the one searched (distance unknown).
  await expect(rows(page).first()).toContainText(/\d+\.\d mi|in \d{5}/);

  // Nothing within 50 miles: the region's cheapest, labelled.
  await zipBox(page).fill(REGION_ZIP);
  await section(page).getByRole('button', { name: 'Find' }).click();
  await expect(
    section(page).getByText(`No stores within 50 miles of ${REGION_ZIP}. Showing the cheapest in the West.`),
  ).toBeVisible();
  await screenshot(page, info, 'near-you-region');

  // The nearest store hundreds of miles away: no region is presented as near.
  await zipBox(page).fill('99501');
  await section(page).getByRole('button', { name: 'Find' }).click();
  await expect(section(page).getByText('No store known near Anchorage, AK 99501')).toBeVisible();
  await expect(section(page).getByText(/^The nearest store with prices is .+, [\d,]+\.\d mi away\.$/)).toBeVisible();
  await zipBox(page).fill(REGION_ZIP);
  await section(page).getByRole('button', { name: 'Find' }).click();
  await expect(page).toHaveURL(new RegExp(`zip=${REGION_ZIP}`));
  await expect(section(page).getByText(/Showing the cheapest in the West/)).toBeVisible();

  // A malformed ZIP code is refused before asking; an unknown one with the server's message.
  await zipBox(page).fill('1234');
  await zipBox(page).press('Enter');
  await expect(section(page).getByText('zip must be a 5-digit US ZIP code')).toBeVisible();
  await expect(zipBox(page)).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`zip=${REGION_ZIP}`));
  const unknown = await page.request.get('/api/egg-prices/near?zip=00000');
  expect(unknown.status()).toBe(400);
  const { message } = (await unknown.json()) as { message: string };
  await zipBox(page).fill('00000');
  await zipBox(page).press('Enter');
  await expect(section(page).getByRole('alert')).toHaveText(message);
  await expect(section(page).getByText(/^Enter a ZIP code to see the cheapest eggs/)).toBeVisible();
  await expectConsoleErrors(pageProblems, 400);

  // A row opens the product's price history at that location.
  await zipBox(page).fill('10001');
  await zipBox(page).press('Enter');
  const first = rows(page).first();
  await expect(first).toContainText(/\d+\.\d mi|in \d{5}/);
  await first.getByRole('link', { name: /^(Price )?[Hh]istory of / }).click();
  await expect(page).toHaveURL(/\/products\/\d+\/history\?location=\d+$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Price history' })).toBeVisible();
});

// The table is shown from 1024 px; the widths are set here.
test("Near you's table keeps to its box from 1024 px up: no column cut, a sign when it scrolls, full names on hover and focus", async ({
  page,
}, info) => {
  for (const width of [1024, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/?zip=10001');
    await expect(rows(page)).toHaveCount(10);
    const table = section(page).getByRole('table');
    const measured = await table.evaluate((element) => {
      const box = element.parentElement!;
      const cut = [...element.querySelectorAll('th, td')]
        .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
        .map((cell) => cell.textContent);
      return {
        table: element.scrollWidth,
        box: box.clientWidth,
        scrolls: box.scrollWidth > box.clientWidth + 1,
        cut,
        tabIndex: box.tabIndex,
      };
    });
    expect(measured.cut, `${width} px: cells whose content is cut`).toEqual([]);
    const hint = section(page).getByText('Scroll the table sideways to see every column.');
    if (measured.scrolls) {
      // Narrower than the table: it says so, and the keyboard can scroll it.
      await expect(hint).toBeVisible();
      expect(measured.tabIndex).toBe(0);
    } else {
      await expect(hint).toHaveCount(0);
    }
    // The widths the table has room for show it whole.
    if (width >= 1440) expect(measured, `${width} px`).toMatchObject({ scrolls: false });
    // In view, as the screenshot (outside CI) leaves it, for the tooltips below.
    await section(page).scrollIntoViewIfNeeded();
    await screenshot(section(page), info, `near-you-${width}`);
  }

  // A product name cut to its column shows in full on keyboard focus, and on hover.
  const tooltip = page.locator('[data-scope="tooltip"][data-part="content"]');
  const cutName = section(page).locator('tbody [tabindex="0"]').first();
  const full = (await cutName.textContent())!;
  await section(page)
    .getByRole('link', { name: /^Download CSV/ })
    .focus();
  await page.keyboard.press('Tab');
  await expect(cutName).toBeFocused();
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toHaveText(full);
  await page.keyboard.press('Tab');
  await expect(tooltip).toBeHidden();
  await rows(page).nth(3).locator('[tabindex="0"]').first().hover();
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toHaveText((await rows(page).nth(3).locator('[tabindex="0"]').first().textContent())!);
});
