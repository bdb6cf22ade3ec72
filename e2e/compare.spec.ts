// Compare prices by egg type: filters, summary cards, the per-region chart,
// the listing, links to the other types, the BLS benchmark and an invalid type.
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from './fixtures.ts';
import { pageSizeForWidth } from '../src/shared/pagination.ts';
import { screenshot } from './ui.ts';

// These journeys re-render many price cards per step; give slow machines time.
const expect = baseExpect.configure({ timeout: 20_000 });

interface ApiEntry {
  id: number;
  store_id: string;
  store_name: string;
  region: string;
  count: number;
  price: number;
  trend_direction: string;
}

const filter = (page: Page, label: string) =>
  page.getByRole('region', { name: 'Filters' }).getByLabel(label, { exact: true });
const money = (value: number) => `$${value.toFixed(2)}`;

test('compare shows the summary, the chart per region and the listing, for every filter', async ({ page }, info) => {
  test.slow();
  const organic: ApiEntry[] = await (await page.request.get('/api/egg-prices?egg_type=organic')).json();
  const stores = new Set(organic.map((e) => e.store_id)).size;
  await page.goto('/compare/organic');

  await expect(page.getByRole('heading', { level: 1, name: 'Compare Organic Egg Prices' })).toBeVisible();
  const summary = page.getByRole('region', { name: 'Price summary' });
  await expect(summary.getByText(`based on ${organic.length} products from ${stores} stores`)).toBeVisible();
  // Every figure by the price per dozen, labelled with the regions it spans.
  const perDozen = (e: ApiEntry) => Math.round((e.price / e.count) * 1200) / 100;
  const dozens = organic.map(perDozen);
  await expect(summary.getByText(`${money(Math.min(...dozens))} – ${money(Math.max(...dozens))}`)).toBeVisible();
  await expect(
    summary.getByText(`Difference: ${money(Math.max(...dozens) - Math.min(...dozens))} per dozen`),
  ).toBeVisible();
  await expect(summary.getByText('per dozen, across all regions')).toHaveCount(2);
  const byRegion = page.getByRole('region', { name: 'Price per dozen in each region' });
  await expect(byRegion.getByRole('heading', { level: 3 })).toHaveText(['Northeast', 'Midwest', 'South', 'West']);
  await expect(summary.getByText('Some prices decreasing')).toBeVisible({
    visible: organic.some((e) => e.trend_direction === 'down'),
  });
  await expect(summary.getByText('Some prices increasing')).toBeVisible({
    visible: organic.some((e) => e.trend_direction === 'up'),
  });
  await expect(summary.getByText('For more accurate unit pricing, select a specific egg count.')).toBeVisible();

  // Price Chart: one line per region, with the four-region legend while all regions are shown.
  await expect(page.getByRole('tab', { name: 'Price Chart' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('list', { name: 'Regions' }).getByRole('listitem')).toHaveText([
    'Northeast',
    'Midwest',
    'South',
    'West',
  ]);
  const chart = page.getByRole('img', { name: /Daily average price per dozen by region/ });
  // Charts are drawn once they come near the screen (below the fold on phones).
  await page.getByRole('list', { name: 'Regions' }).scrollIntoViewIfNeeded();
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute(
    'aria-label',
    /Northeast \$\d+\.\d{2}, Midwest \$\d+\.\d{2}, South \$\d+\.\d{2}, West \$\d+\.\d{2}/,
  );
  await screenshot(page, info, 'compare-chart');

  // Region filter: one line, no legend.
  await filter(page, 'Region').selectOption('west');
  await expect(page).toHaveURL(/region=west/);
  await expect(page.getByRole('list', { name: 'Regions' })).toHaveCount(0);
  await expect(chart).toHaveAttribute('aria-label', /Latest: West \$\d+\.\d{2}\.$/);
  const west = organic.filter((e) => e.region === 'west');
  await expect(
    summary.getByText(`based on ${west.length} products from ${new Set(west.map((e) => e.store_id)).size} stores`),
  ).toBeVisible();
  await expect(summary.getByText('per dozen, in the West')).toHaveCount(2);
  await expect(byRegion).toHaveCount(0);

  // Count filter: the counts present in the data; choosing one drops the unit-price hint.
  const counts = [...new Set(organic.map((e) => e.count))].sort((a, b) => a - b);
  await expect(filter(page, 'Count').locator('option')).toHaveText(['Any Count', ...counts.map((c) => `${c} eggs`)]);
  await filter(page, 'Count').selectOption(String(counts[0]));
  await expect(summary.getByText('For more accurate unit pricing, select a specific egg count.')).toHaveCount(0);
  await expect(
    page.getByRole('img', { name: new RegExp(`Daily average price for a ${counts[0]}-egg pack by region`) }),
  ).toBeVisible();

  // Price Listing: cards cheapest per dozen first, a page at a time (the dashboard's page sizes).
  await page.getByRole('tab', { name: 'Price Listing' }).click();
  const cards = page.getByRole('list', { name: 'Organic egg prices, cheapest per dozen first' }).getByRole('article');
  const listed = west
    .filter((e) => e.count === counts[0])
    .sort((a, b) => (a.price / a.count) * 12 - (b.price / b.count) * 12 || a.price - b.price || a.id - b.id);
  const pageSize = pageSizeForWidth(page.viewportSize()!.width);
  await expect(cards).toHaveCount(Math.min(listed.length, pageSize));
  await expect(cards.first()).toContainText(listed[0]!.store_name);
  await expect(cards.first()).toContainText(money(listed[0]!.price));
  await expect(
    page.getByText(`Showing 1 to ${Math.min(listed.length, pageSize)} of ${listed.length} results`),
  ).toBeVisible();
  const pages = Math.ceil(listed.length / pageSize);
  if (pages > 1) {
    // The last page: Next until there, then its cards are the dearest per dozen.
    const pager = page.getByRole('navigation', { name: 'Organic egg prices pages' });
    for (let n = 2; n <= pages; n++) await pager.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(new RegExp(`page=${pages}`));
    await expect(
      page.getByText(`Showing ${(pages - 1) * pageSize + 1} to ${listed.length} of ${listed.length} results`),
    ).toBeVisible();
    await expect(cards).toHaveCount(listed.length - (pages - 1) * pageSize);
    await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  }
  await expect(cards.last()).toContainText(money(listed.at(-1)!.price));
  await screenshot(page, info, 'compare-listing');
});

test('a count without prices shows the empty listing', async ({ page }, info) => {
  await page.goto('/compare/pasture-raised?count=60');
  await expect(
    page.getByRole('region', { name: 'Price summary' }).getByText('based on 0 products from 0 stores'),
  ).toBeVisible();
  await expect(page.getByText('No price history available for the selected filters.')).toBeVisible();
  await page.getByRole('tab', { name: 'Price Listing' }).click();
  await expect(page.getByText('No prices available for the selected filters.')).toBeVisible();
  await filter(page, 'Count').selectOption('');
  await expect(page.getByRole('article').first()).toBeVisible();
  // Any count: the first page of all of them, then the second; a filter goes back to the first.
  const all = await (await page.request.get('/api/egg-prices?egg_type=pasture_raised')).json();
  const pageSize = pageSizeForWidth(page.viewportSize()!.width);
  await expect(page.getByRole('article')).toHaveCount(Math.min(all.length, pageSize));
  await expect(page.getByText(`Showing 1 to ${pageSize} of ${all.length} results`)).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(
    page.getByText(`Showing ${pageSize + 1} to ${Math.min(2 * pageSize, all.length)} of ${all.length} results`),
  ).toBeVisible();
  await filter(page, 'Region').selectOption('south');
  await expect(page).not.toHaveURL(/page=/);
  await expect(page.getByText(/^Showing 1 to \d+ of \d+ results$/)).toBeVisible();
  await screenshot(page, info, 'compare-empty-then-any');
});

test('compare links to the other egg types and shows the BLS benchmark with gaps and the West as grade AA', async ({
  page,
}, info) => {
  test.slow();
  await page.goto('/compare/standard');
  const others = page.getByRole('navigation', { name: 'Compare other egg types' }).getByRole('link');
  await expect(others).toHaveText(['Cage-Free', 'Organic', 'Pasture-Raised']);

  const benchmark = page.getByRole('region', { name: 'Long-run benchmark' });
  // The benchmark is loaded once it comes near the screen (its placeholder is then replaced, so
  // scroll the page rather than the element).
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(benchmark.getByRole('list', { name: 'Benchmark series' })).toContainText('West (grade AA)');
  const stats = await (await page.request.get('/api/stats')).json();
  await expect(
    benchmark.getByText(`EggWatch today, standard eggs ${money(stats.trends['7d'].series.standard.at(-1))}`),
  ).toBeVisible();
  await benchmark.getByText('10 Years', { exact: true }).click();
  await expect(benchmark.getByRole('img', { name: /BLS average price of a dozen grade A large eggs/ })).toBeVisible();
  await expect(benchmark.getByText(/Latest published month: National \w+ \d{4}/)).toBeVisible();
  await benchmark.getByText('1 Year', { exact: true }).click();
  await expect(benchmark.getByText(/Not drawn in this range: .*West \(grade AA\)/)).toBeVisible();
  await screenshot(page, info, 'compare-benchmark');

  await others.filter({ hasText: 'Cage-Free' }).click();
  await expect(page).toHaveURL(/\/compare\/cage-free$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Compare Cage-Free Egg Prices' })).toBeVisible();
});

test('an invalid egg type says so', async ({ page }, info) => {
  await page.goto('/compare/brown');
  await expect(page.getByRole('heading', { name: 'Invalid egg type specified' })).toBeVisible();
  await screenshot(page, info, 'compare-invalid');
  await page.getByRole('main').getByRole('link', { name: 'Organic', exact: true }).click();
  await expect(page).toHaveURL(/\/compare\/organic$/);
});
