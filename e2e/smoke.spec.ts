import { expect, test } from './fixtures.ts';

test('the dashboard loads with the page frame and statistics from the data', async ({ page }, info) => {
  await page.goto('/');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('link', { name: /EggWatch/ }).first()).toBeVisible();
  await expect(page.getByText('All data updated daily.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'National Average' })).toBeVisible();
  // The card's value comes from /api/stats once it has loaded.
  const stats = await (await page.request.get('/api/stats')).json();
  await expect(page.getByText(`$${stats.national_average.price_per_dozen.toFixed(2)}`).first()).toBeVisible();
  // The ticker shows the price events the API computes (or says prices are steady).
  const events: Array<{ text: string }> = await (await page.request.get('/api/ticker')).json();
  const news = page.getByRole('region', { name: 'Egg price news' });
  for (const event of events) await expect(news.getByText(event.text).first()).toBeAttached();
  if (events.length === 0) await expect(news.getByText('Egg prices steady: no notable moves today').first()).toBeAttached();
  await page.screenshot({ path: info.outputPath('dashboard.png'), fullPage: true });
});

test('an unknown path shows the not-found page', async ({ page }, info) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await page.screenshot({ path: info.outputPath('not-found.png'), fullPage: true });
});
