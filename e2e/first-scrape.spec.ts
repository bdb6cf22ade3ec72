// The first retailer prices of a store and region, as a shopper sees them right after the scrape:
// the dashboard compares nothing across the switch from sample prices (the national average says
// how many days of prices it has instead of a weekly change, its chart line is one point, the cards
// resting on sample prices say so), and a product with one day of prices draws that day as a point,
// on its history, on the store's Price Trends and as a dash on its card.
import { expect, test, writeScrapedPrices, type Db } from './db.ts';
import { snap } from './ui.ts';

// Denver: no other journey has Whole Foods prices in the West, and nothing is near it. Dearer than
// any sample price, so it heads no list another journey reads.
const STORE = 'whole-foods';
const PRICE = 11.99;

interface Stats {
  national_average: { history_days: number };
}

async function scrapeFirstPrices(db: Db, project: string): Promise<void> {
  await writeScrapedPrices(db, {
    store: STORE,
    zip: '80202',
    region: 'west',
    listings: [{ id: `first-scrape-${project}`, eggType: 'pasture_raised', count: 12, price: PRICE }],
  });
}

test('right after a first scrape: no change across the switch, and one day of prices drawn as a point', async ({
  page,
  db,
}, info) => {
  test.slow();
  await scrapeFirstPrices(db, info.project.name);
  // Every switch in this database happened today, so the national series has one day of prices
  // once the worker has rolled the scrape up.
  await expect
    .poll(async () => ((await (await page.request.get('/api/stats')).json()) as Stats).national_average.history_days, {
      timeout: 20_000,
    })
    .toBe(1);

  await page.goto('/');
  const summary = page.getByRole('region', { name: 'Market summary' });
  const national = summary.locator('.chakra-card__root').filter({ hasText: 'National Average' });
  await expect(national).toContainText('1 day of prices so far');
  await expect(national).not.toContainText('vs last week');
  await expect(national.getByText('Sample data')).toBeVisible();
  const volatility = summary.locator('.chakra-card__root').filter({ hasText: 'Weekly Volatility' });
  await expect(volatility).toContainText('1 day of prices so far');
  await expect(volatility).not.toContainText('%');

  const trends = page.getByRole('region', { name: 'Price Trends' });
  await trends.scrollIntoViewIfNeeded();
  const chart = trends.getByRole('img', { name: /National average: 1 day of prices so far\.$/ });
  await expect(chart).toBeVisible();
  // The national line is one day: a point, not a line from sample prices.
  await expect(chart.locator('svg circle[fill="#34C759"]')).toHaveCount(1);
  await expect(trends.locator('dt:text-is("Trend") + dd')).toHaveText('1 day of prices so far');
  await expect(trends.getByText('Sample data')).toBeVisible();
  await snap(page, info, 'first-scrape-dashboard');

  // The product's history: one day, drawn as a point, and said.
  const entries: Array<{ product_id: number; location_id: number; price: number; source: string }> = await (
    await page.request.get(`/api/egg-prices?store=${STORE}&region=west`)
  ).json();
  // The region's sample prices gave way to the scraped ones.
  expect(entries.length).toBeGreaterThan(0);
  expect(entries.every((e) => e.source === 'scrape' && e.price === PRICE)).toBe(true);
  const entry = entries[0]!;
  await page.goto(`/products/${entry.product_id}/history?location=${entry.location_id}`);
  await expect(page.getByText('1 day of prices so far')).toBeVisible();
  const history = page.getByRole('img', { name: /^Price per dozen of .*, 1 day: / });
  await history.scrollIntoViewIfNeeded();
  await expect(history.locator('svg circle')).toHaveCount(1);
  await expect(history.locator('svg circle')).toBeVisible();
  await expect(page.getByText('Daily prices as a table (1 day)')).toBeVisible();
  await snap(page, info, 'first-scrape-history');

  // The store in that region: its card's sparkline is a dash, its Price Trends one point.
  await page.goto(`/store/${STORE}?region=west`);
  const card = page.getByRole('list', { name: 'Whole Foods prices' }).getByRole('article').first();
  await expect(card.getByRole('img', { name: `1 day of prices so far: $${PRICE}` })).toHaveText('—');
  // The store's Price Trends come from the worker's rollup of the scrape, which can land after the
  // national one waited for above: the page is opened again until it has.
  const panel = page.getByRole('tabpanel');
  await expect(async () => {
    await page.goto(`/store/${STORE}?region=west`);
    await page.getByRole('tab', { name: 'Price Trends' }).click();
    await expect(panel.getByText('1 day of prices so far')).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  const storeChart = panel.getByRole('img', { name: /Whole Foods: daily average price per dozen/ });
  await storeChart.scrollIntoViewIfNeeded();
  await expect(storeChart.locator('svg circle')).toHaveCount(1);
  await snap(page, info, 'first-scrape-store-trends');
});
