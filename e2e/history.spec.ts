// A product's price history (/products/:productId/history?location=&days=): opened from a price
// card, the product and its location, the 30 / 90 / 365 day spans kept in the URL, the lowest,
// highest and latest prices as the API gives them, the chart with its text alternative, the CSV
// link, and the 404 page for a product that does not exist.
import type { Page } from '@playwright/test';
import type { HistoryResult } from '../src/shared/near.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { expectConsoleErrors, screenshot } from './ui.ts';

const expect = baseExpect.configure({ timeout: 20_000 });

async function history(page: Page, path: string, days: number): Promise<HistoryResult> {
  const [, id, location] = path.match(/\/products\/(\d+)\/history\?location=(\d+)/)!;
  const response = await page.request.get(`/api/products/${id}/history?location=${location}&days=${days}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as HistoryResult;
}

const money = (value: number) => `$${value.toFixed(2)}`;

test('a price card opens its product history: spans in the URL, lowest and highest, the chart, the table and the CSV', async ({
  page,
  pageProblems,
}, info) => {
  test.slow();
  await page.goto('/');
  const card = page.getByRole('list', { name: 'Egg prices', exact: true }).getByRole('article').first();
  const link = card.getByRole('link', { name: /^Price history of / });
  await expect(link).toHaveAttribute('href', /^\/products\/\d+\/history\?location=\d+$/);
  await link.click();
  await expect(page).toHaveURL(/\/products\/\d+\/history\?location=\d+$/);
  const path = new URL(page.url()).pathname + new URL(page.url()).search;

  // The product, where it is sold, and the default span of 90 days.
  const ninety = await history(page, path, 90);
  await expect(page.getByRole('heading', { level: 1, name: ninety.product.title })).toBeVisible();
  await expect(
    page.getByRole('main').getByRole('link', { name: ninety.product.store_name, exact: true }),
  ).toHaveAttribute('href', `/store/${ninety.product.store_id}`);
  await expect(page.getByText(`${ninety.product.count} eggs`, { exact: true })).toBeVisible();
  await expect(page.getByRole('main').getByText('Sample data')).toBeVisible();
  const spans = page.getByRole('group', { name: 'Span' });
  await expect(spans.getByRole('button', { name: '90 Days' })).toHaveAttribute('aria-pressed', 'true');
  const price = (point: { price: number } | null) => `${money(point!.price)} / ${ninety.product.count} ct`;
  await expect(page.locator('dt:text-is("Lowest") + dd')).toContainText(price(ninety.lowest));
  await expect(page.locator('dt:text-is("Highest") + dd')).toContainText(price(ninety.highest));
  await expect(page.locator('dt:text-is("Latest") + dd')).toContainText(price(ninety.latest));

  // The chart, drawn near the screen, with its description; the same prices as a table.
  const chart = page.getByRole('img', { name: /^Price per dozen of / });
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute(
    'aria-label',
    new RegExp(`${ninety.points.length} days: lowest \\$\\d+\\.\\d\\d, highest`),
  );
  await expect(chart.locator('svg path').first()).toBeAttached();
  await page.getByText(/^Daily prices as a table/).click();
  await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(ninety.points.length);
  await screenshot(page, info, 'history-90');

  // 30 and 365 days: the URL keeps the span, the figures follow it, a reload keeps it.
  for (const days of [30, 365] as const) {
    await spans.getByRole('button', { name: `${days} Days` }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]days=${days}$`));
    const span = await history(page, path, days);
    await expect(spans.getByRole('button', { name: `${days} Days` })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('dt:text-is("Lowest") + dd')).toContainText(
      `${money(span.lowest!.price)} / ${span.product.count} ct`,
    );
    await expect(page.locator('dt:text-is("Highest") + dd')).toContainText(
      `${money(span.highest!.price)} / ${span.product.count} ct`,
    );
    await expect(chart).toHaveAttribute('aria-label', new RegExp(`${span.points.length} days?: `));
    const csv = page.getByRole('link', { name: /^Download CSV/ });
    await expect(csv).toHaveAttribute(
      'href',
      `/api/products/${span.product.id}/history.csv?location=${span.location.id}&days=${days}`,
    );
  }
  await page.reload();
  await expect(spans.getByRole('button', { name: '365 Days' })).toHaveAttribute('aria-pressed', 'true');
  const csv = await page.request.get((await page.getByRole('link', { name: /^Download CSV/ }).getAttribute('href'))!);
  expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
  expect((await csv.text()).trim().split('\n').length).toBeGreaterThan(1);

  // A product that does not exist at that location is the 404 page.
  await page.goto('/products/2147483647/history?location=1');
  await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
  await expectConsoleErrors(pageProblems, 404);
});
