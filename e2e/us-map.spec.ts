// The shoppers' map of egg prices by state (/map) and its compact version on the dashboard:
// states with prices and "No data" states on the map, its legend and its table; the egg type in
// the URL; a state's cheapest stores with a link to a product's history there; axe on each
// screen. Phone and desktop widths. Read-only: nothing here writes prices.
import type { Page, TestInfo } from '@playwright/test';
import { STATE_NAMES } from '../src/client/components/charts/usStates.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { networkQuiet } from './network.ts';
import { axeBuilder } from './ui.ts';

const expect = baseExpect.configure({ timeout: 20_000 });

interface StateFigures {
  state: string;
  median_per_dozen: number | null;
}
interface ByState {
  egg_type: string;
  states: StateFigures[];
}
interface Cheapest {
  entries: Array<{
    store_name: string;
    location_name: string | null;
    price_per_dozen: number;
    product_id: number;
    location_id: number;
  }>;
}

const money = (value: number) => `$${value.toFixed(2)}`;
const name = (state: string) => STATE_NAMES[state]!;

async function byState(page: Page, eggType: string): Promise<ByState> {
  const response = await page.request.get(`/api/egg-prices/by-state?egg_type=${eggType}`);
  expect(response.ok()).toBe(true);
  return response.json();
}

async function axe(page: Page, info: TestInfo, label: string) {
  await networkQuiet(page);
  const results = await axeBuilder(page).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} ${n.failureSummary ?? ''}`),
    }));
  if (results.violations.length)
    await info.attach(`axe ${label}`, {
      body: JSON.stringify(results.violations, null, 2),
      contentType: 'application/json',
    });
  expect(blocking, `${label}: serious or critical axe violations`).toEqual([]);
}

/** A table row of the states table, by the state's name. */
const row = (page: Page, state: string) =>
  page
    .getByRole('region', { name: 'Every state' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: new RegExp(`^${name(state)}`) }) });

test('the map and table show states with prices and No data; the egg type is in the URL; a state lists its cheapest stores', async ({
  page,
}, info) => {
  test.slow();
  const standard = await byState(page, 'standard');
  expect(standard.states).toHaveLength(51);
  const priced = standard.states.filter((s) => s.median_per_dozen !== null);
  const missing = standard.states.filter((s) => s.median_per_dozen === null);
  expect(priced.length, 'the test database has standard prices in some state').toBeGreaterThan(0);
  expect(missing.length, 'and no prices in some other').toBeGreaterThan(0);

  await page.goto('/map');
  await expect(page.getByRole('heading', { level: 1, name: 'Egg prices by state' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Egg type' })).toHaveValue('standard');
  const map = page.getByRole('img', { name: /^US map of today's median price of a dozen standard eggs by state/ });
  await map.scrollIntoViewIfNeeded();
  await expect(map).toBeVisible();
  await expect(map).toHaveAttribute('aria-label', new RegExp(`${priced.length} states? with prices`));
  await expect(map.locator('svg path').first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Median price of a dozen today' }).getByText('No data')).toBeVisible();
  await expect(page.getByRole('link', { name: /Download CSV/ })).toHaveAttribute(
    'href',
    '/api/egg-prices/by-state.csv?egg_type=standard',
  );

  // The table: every state, a priced one with its median and a No data one.
  const table = page.getByRole('region', { name: 'Every state' });
  await expect(table.getByRole('row')).toHaveCount(52);
  const first = priced[0]!;
  await expect(row(page, first.state).getByRole('cell').nth(1)).toHaveText(money(first.median_per_dozen!));
  await expect(row(page, missing[0]!.state).getByRole('cell').nth(1)).toHaveText('No data');
  // Sorted by price: the cheapest state comes first.
  await table.getByRole('button', { name: 'Median a dozen' }).click();
  const cheapest = [...priced].sort(
    (a, b) => a.median_per_dozen! - b.median_per_dozen! || name(a.state).localeCompare(name(b.state)),
  )[0]!;
  await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toContainText(name(cheapest.state));

  // Another egg type: the URL and the figures follow.
  const organic = await byState(page, 'organic');
  await page.getByRole('combobox', { name: 'Egg type' }).selectOption('organic');
  await expect(page).toHaveURL(/[?&]type=organic/);
  await expect(page.getByRole('img', { name: /a dozen organic eggs by state/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Download CSV/ })).toHaveAttribute(
    'href',
    '/api/egg-prices/by-state.csv?egg_type=organic',
  );
  const organicPriced = organic.states.filter((s) => s.median_per_dozen !== null);
  expect(organicPriced.length).toBeGreaterThan(0);
  const state = organicPriced[0]!;
  await expect(row(page, state.state).getByRole('cell').nth(1)).toHaveText(money(state.median_per_dozen!));

  // A state's cheapest stores, chosen from the table with the keyboard.
  const stores: Cheapest = await (
    await page.request.get(`/api/egg-prices/by-state/${state.state}?egg_type=organic`)
  ).json();
  expect(stores.entries.length).toBeGreaterThan(0);
  await row(page, state.state).getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]state=${state.state}`));
  const panel = page.getByRole('region', { name: `Cheapest in ${name(state.state)} today` });
  const list = panel.getByRole('list', { name: `Cheapest stores in ${name(state.state)}` });
  await expect(list.getByRole('listitem')).toHaveCount(stores.entries.length);
  const top = stores.entries[0]!;
  await expect(list.getByRole('listitem').first()).toContainText(top.store_name);
  await expect(list.getByRole('listitem').first()).toContainText(money(top.price_per_dozen));
  await axe(page, info, '/map with a state chosen');

  await list
    .getByRole('link', { name: /^Price history/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/products/${top.product_id}/history\\?location=${top.location_id}$`));
});

test('the dashboard shows the compact map, linking to the full page', async ({ page }, info) => {
  await page.goto('/');
  const card = page.getByRole('region', { name: 'Egg prices by state' });
  // Below the fold, the card loads once it comes near the screen; until then its placeholder has
  // the loaded card's size, so nothing below it moves when the map comes.
  const placeholderHeight = (await card.boundingBox())!.height;
  // Scrolled in the page: the placeholder's elements give way to the card's while it loads.
  await page.evaluate(() => document.getElementById('us-map-heading')?.scrollIntoView({ block: 'center' }));
  await expect(
    card.getByRole('img', { name: /^US map of today's median price of a dozen standard eggs by state/ }),
  ).toBeVisible();
  expect(Math.abs((await card.boundingBox())!.height - placeholderHeight)).toBeLessThanOrEqual(4);
  await expect(card.getByText('No data')).toBeVisible();
  await axe(page, info, 'dashboard with the map');
  await card.getByRole('link', { name: 'See every state and its cheapest stores' }).click();
  await expect(page).toHaveURL(/\/map$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Egg prices by state' })).toBeVisible();
});

test('the header links to the map', { tag: '@phone' }, async ({ page }, info) => {
  await page.goto('/');
  if (info.project.name === 'phone') {
    await page.getByRole('button', { name: /menu/i }).first().click();
    await page.getByRole('menuitem', { name: 'Prices by State' }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Prices by State' }).click();
  }
  await expect(page).toHaveURL(/\/map$/);
});

test('the map page is clean for axe in dark mode too', async ({ page }, info) => {
  await page.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
  const standard = await byState(page, 'standard');
  const state = standard.states.find((s) => s.median_per_dozen !== null)!;
  await page.goto(`/map?state=${state.state}`);
  await expect(
    page
      .getByRole('region', { name: `Cheapest in ${name(state.state)} today` })
      .getByRole('listitem')
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('img', { name: /^US map of today's median price/ })).toBeVisible();
  await axe(page, info, '/map in dark mode');
});
