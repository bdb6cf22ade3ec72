// The store page: header, filters built from the store's prices, the
// three tabs with their empty texts, and the no-id and unknown-store states.
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from './fixtures.ts';
import { formatPrice, pricePerDozen } from '../src/shared/format.ts';
import { pageSizeForWidth } from '../src/shared/pagination.ts';
import { screenshot } from './ui.ts';

// These journeys re-render many price cards per step; give slow machines time.
const expect = baseExpect.configure({ timeout: 20_000 });

/** A filter select of the page's Filters section (price cards have their own 'Count' menus). */
const filter = (page: Page, label: string) =>
  page.getByRole('region', { name: 'Filters' }).getByLabel(label, { exact: true });

interface ApiEntry {
  region: string;
  egg_type: string;
  count: number;
  price: number;
}

test('the store page shows its prices, trends and competitive analysis, filtered from its own values', async ({
  page,
}, info) => {
  test.slow();
  const entries: ApiEntry[] = await (await page.request.get('/api/stores/walmart/prices')).json();
  await page.goto('/store/walmart');

  await expect(page.getByRole('heading', { level: 1, name: 'Walmart' })).toBeVisible();
  await expect(page.getByText('Regions: Northeast, Midwest, South, West')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/');
  // The logo service is unreachable here: the placeholder shows the store's initial.
  await expect(page.getByRole('img', { name: 'Walmart logo' })).toContainText('W');

  // Price Data: one card per entry, a page at a time at the screen's page size (as the dashboard).
  const pageSize = pageSizeForWidth(page.viewportSize()!.width);
  const shown = (n: number) => Math.min(n, pageSize);
  await expect(page.getByRole('tab', { name: 'Price Data' })).toHaveAttribute('aria-selected', 'true');
  const cards = page.getByRole('list', { name: 'Walmart prices' }).getByRole('article');
  await expect(cards).toHaveCount(shown(entries.length));
  expect(entries.length).toBeGreaterThan(pageSize);
  await expect(page.getByText(`Showing 1 to ${pageSize} of ${entries.length} results`)).toBeVisible();
  // Cheapest per dozen first: the first card is the cheapest entry's price.
  const perDozen = (e: ApiEntry) => (e.price / e.count) * 12;
  const [cheapestOverall] = [...entries].sort((a, b) => perDozen(a) - perDozen(b) || a.price - b.price);
  await expect(cards.first()).toContainText(formatPrice(cheapestOverall!.price));
  // The next page, kept in the URL.
  const pages = page.getByRole('navigation', { name: 'Walmart prices pages' });
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(
    page.getByText(`Showing ${pageSize + 1} to ${Math.min(2 * pageSize, entries.length)} of ${entries.length} results`),
  ).toBeVisible();
  await expect(cards).toHaveCount(shown(entries.length - pageSize));

  // The filters offer exactly the values present in the store's prices.
  const counts = [...new Set(entries.map((e) => e.count))].sort((a, b) => a - b);
  await expect(filter(page, 'Count').locator('option')).toHaveText(['Any Count', ...counts.map((c) => `${c} eggs`)]);
  await expect(filter(page, 'Region').locator('option')).toHaveText([
    'All Regions',
    'Northeast',
    'Midwest',
    'South',
    'West',
  ]);
  await expect(filter(page, 'Egg Type').locator('option')).toHaveText([
    'All Egg Types',
    'Standard',
    'Cage-Free',
    'Organic',
    'Pasture-Raised',
  ]);

  // A filter goes back to the first page.
  await filter(page, 'Region').selectOption('south');
  await expect(page).toHaveURL(/region=south/);
  await expect(page).not.toHaveURL(/page=/);
  const south = entries.filter((e) => e.region === 'south').length;
  await expect(cards).toHaveCount(shown(south));
  await expect(page.getByText(`Showing 1 to ${shown(south)} of ${south} results`)).toBeVisible();
  await filter(page, 'Egg Type').selectOption('cage-free');
  await expect(cards).toHaveCount(
    shown(entries.filter((e) => e.region === 'south' && e.egg_type === 'cage_free').length),
  );
  await screenshot(page, info, 'store-price-data');

  // Price Trends: chart and Price Insights with the weekly sentence.
  await page.getByRole('tab', { name: 'Price Trends' }).click();
  await expect(page.getByRole('heading', { name: 'Price Insights' })).toBeVisible();
  await expect(page.getByText('Average price', { exact: true })).toBeVisible();
  // Lowest and highest by the price per dozen, the pack price beside.
  const southCageFree = entries.filter((e) => e.region === 'south' && e.egg_type === 'cage_free');
  const cheapest = southCageFree.reduce((a, b) => (b.price / b.count < a.price / a.count ? b : a));
  const panel = page.getByRole('tabpanel');
  await expect(
    panel.getByText(formatPrice(pricePerDozen(cheapest.price, cheapest.count)), { exact: true }).first(),
  ).toBeVisible();
  await expect(panel.getByText(`$${cheapest.price.toFixed(2)} / ${cheapest.count} ct · Cage-Free`)).toBeVisible();
  await expect(panel.getByText(/^per dozen, in the South · \d+ products?$/)).toBeVisible();
  await expect(
    page.getByText(
      /^Prices (decreased|increased) by \$\d+\.\d{2} per dozen on average over the past week\.$|^Prices were unchanged/,
    ),
  ).toBeVisible();
  await expect(page.getByRole('img', { name: /Walmart: daily average price per dozen by egg type/ })).toBeVisible();
  await expect(
    page
      .getByRole('img', { name: /daily average price per dozen/ })
      .locator('svg path')
      .first(),
  ).toBeAttached();
  await screenshot(page, info, 'store-price-trends');

  // Competitive Analysis: market position and regional analysis.
  await page.getByRole('tab', { name: 'Competitive Analysis' }).click();
  await expect(page.getByRole('heading', { name: 'Market Position' })).toBeVisible();
  await expect(page.getByText(/^Rank: \d of \d$/)).toHaveCount(1);
  await expect(page.getByText('Cheapest competitor in the South:')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Regional Analysis' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'South', level: 3 })).toBeVisible();
  await screenshot(page, info, 'store-competitive');

  // A combination the store does not sell: every tab says so.
  await filter(page, 'Count').selectOption('6');
  await expect(page.getByText('No competitive data available')).toBeVisible();
  await expect(page.getByText('No regional data available')).toBeVisible();
  await page.getByRole('tab', { name: 'Price Data' }).click();
  await expect(page.getByText('No prices available for the selected filters.')).toBeVisible();

  // The filters live in the URL, so a reload keeps them.
  await page.reload();
  await expect(filter(page, 'Count')).toHaveValue('6');
  await expect(filter(page, 'Egg Type')).toHaveValue('cage-free');
  await filter(page, 'Egg Type').selectOption('');
  await filter(page, 'Region').selectOption('');
  await expect(cards).toHaveCount(shown(entries.filter((e) => e.count === 6).length));
});

test('the store page is reachable with the keyboard', async ({ page }) => {
  await page.goto('/store/kroger');
  await expect(page.getByRole('heading', { level: 1, name: 'Kroger' })).toBeVisible();
  // The filters are disabled until the store's prices have loaded, and a disabled select takes no focus.
  await expect(filter(page, 'Count')).toBeEnabled();
  await filter(page, 'Count').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tab', { name: 'Price Data' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Price Trends' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Price Insights' })).toBeVisible();
});

test('without a store id the page says so', async ({ page }, info) => {
  await page.goto('/store');
  await expect(page.getByRole('heading', { name: 'Store ID not provided' })).toBeVisible();
  await screenshot(page, info, 'store-no-id');
});

test('an unknown store shows a not-found message', async ({ page }, info) => {
  await page.goto('/store/costco');
  await expect(page.getByRole('heading', { name: 'Store not found' })).toBeVisible();
  await expect(page.getByText("We couldn't find a store with the ID 'costco'.")).toBeVisible();
  await screenshot(page, info, 'store-unknown');
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
});
