import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { networkQuiet } from './network.ts';
import { expectConsoleErrors, screenshot } from './ui.ts';

test(
  'the dashboard loads with the page frame and statistics from the data',
  { tag: ['@phone', '@tablet'] },
  async ({ page }, info) => {
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
    if (events.length === 0)
      await expect(news.getByText('Egg prices steady: no notable moves today').first()).toBeAttached();
    await screenshot(page, info, 'dashboard');
  },
);

test('an unknown path answers 404 with the not-found page', async ({ page, pageProblems }, info) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await screenshot(page, info, 'not-found');
  await expectConsoleErrors(pageProblems, 404);
});

// The fixtures fail any journey whose page asks another origin for anything; this one loads each
// main route, including those that show store logos, so every route is held to it.
const MAIN_ROUTES: Array<{ path: string; logos?: boolean; ready: (page: Page) => Promise<void> }> = [
  {
    path: '/?zip=10001',
    logos: true,
    ready: (page) =>
      expect(page.getByRole('region', { name: 'Near you' }).getByText(/prices? within 25 miles of/)).toBeVisible(),
  },
  { path: '/compare/organic', ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible() },
  {
    path: '/store/walmart',
    logos: true,
    ready: (page) => expect(page.getByRole('heading', { level: 1, name: 'Walmart' })).toBeVisible(),
  },
  {
    path: '/preferences',
    logos: true,
    ready: (page) => expect(page.getByRole('checkbox', { name: 'Aldi' })).toBeVisible(),
  },
  {
    path: '/notifications/subscribe',
    ready: (page) => expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible(),
  },
  { path: '/auth', ready: (page) => expect(page.getByRole('tab', { name: 'Login' })).toBeVisible() },
  { path: '/admin/login', ready: (page) => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible() },
  { path: '/api/docs/', ready: (page) => expect(page.locator('.swagger-ui .info')).toBeVisible() },
];

test('the main routes load everything from the site itself, store logos included', async ({ page }) => {
  test.slow();
  for (const route of MAIN_ROUTES) {
    await page.goto(route.path);
    await route.ready(page);
    await networkQuiet(page);
    if (route.logos) {
      // At least one logo drawn from the app's own file, not the initial placeholder.
      const logo = page.locator('img[src^="/logos/"]').first();
      await expect(logo).toBeVisible();
      await expect
        .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
          message: `${route.path}: a logo loaded`,
        })
        .toBe(true);
    }
  }
});
