// The Data Sources page, reached from the footer: every official source with its status (USDA off
// without its key, saying why), the retailers' coverage table, and the figures the API gives.
import { expect, test } from './fixtures.ts';
import { screenshot } from './ui.ts';

test('the footer leads to every source with its status', async ({ page }, info) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Data Sources' }).click();
  await expect(page.getByRole('heading', { name: 'Data Sources', level: 1 })).toBeVisible();
  const sources = (await (await page.request.get('/api/official/sources')).json()) as Array<{
    name: string;
    status: string;
    offReason: string | null;
  }>;
  expect(sources).toHaveLength(4);
  for (const source of sources) {
    const card = page.getByRole('article', { name: source.name });
    await expect(card).toBeVisible();
    if (source.offReason) await expect(card.getByText(source.offReason)).toBeVisible();
  }
  const usda = page.getByRole('article', { name: 'USDA advertised retail prices' });
  await expect(usda.getByText('Off', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('article', { name: 'BLS average prices' }).getByRole('button', { name: 'Fetch now' }),
  ).toHaveCount(0);
  const table = page.getByRole('table', { name: /stores known/ });
  for (const retailer of ['Walmart', 'Target', 'Kroger', 'Albertsons', 'Whole Foods', 'Aldi'])
    await expect(table.getByRole('cell', { name: retailer, exact: true })).toBeVisible();
  await screenshot(page, info, 'data-sources');
});
