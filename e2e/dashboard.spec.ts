// The shopper's dashboard at /: Price Trends, the Filters panel, the Egg Prices list with its
// pagination and views, and the price cards' overrides, at phone, tablet and desktop widths.
// The seeded catalogue has six stores and the list keeps one entry per store, so at
// 4 per page (phones) there are two pages, and one page at 6 (tablet) or 9 (desktop).
import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { loadWholePage, openDashboard, screenshot, settled } from './ui.ts';
import { estimatePrice } from '../src/shared/estimate.ts';
import { formatPackPrice, formatPrice } from '../src/shared/format.ts';
import { pageSizeForWidth } from '../src/shared/pagination.ts';
import { EGG_TYPES, REGION_LABELS, REGIONS, type EggType, type Region } from '../src/shared/vocabulary.ts';

interface ApiEntry {
  store_id: string;
  store_name: string;
  region: string;
  egg_type: string;
  count: number;
  price: number;
}

// The journeys are long (several page loads each); allow for a busy machine.
test.describe.configure({ timeout: 60_000 });

const PACK_PRICE = /^\$\d+\.\d\d \/ \d+ ct$/;

function widthOf(page: Page): number {
  return page.viewportSize()!.width;
}

const isPhone = (page: Page) => widthOf(page) < 768;

/** The price cards of the Egg Prices list. */
function cards(page: Page): Locator {
  return page.getByRole('list', { name: 'Egg prices', exact: true }).getByRole('article');
}

/**
 * The Filters panel's controls: the inline card from 768 px, else the slide-in panel, opened by
 * the Filter toggle (checking its state and focus handling on the way).
 */
async function openFilters(page: Page): Promise<Locator> {
  if (!isPhone(page)) return page.getByRole('region', { name: 'Filters' });
  const toggle = page.getByRole('button', { name: 'Filter', exact: true });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  const panel = page.getByRole('dialog', { name: 'Filters' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Close filters' })).toBeFocused();
  return panel;
}

/** On phones a filter section is collapsible: open it before using its control. */
async function openSection(page: Page, panel: Locator, title: string): Promise<void> {
  if (!isPhone(page)) return;
  const trigger = panel.getByRole('button', { name: title, exact: true });
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') await trigger.click();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
}

async function applyFilters(page: Page, panel: Locator): Promise<void> {
  await panel.getByRole('button', { name: 'Apply Filters' }).click();
  if (isPhone(page)) {
    // Applying closes the panel and gives focus back to its toggle.
    await expect(panel).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Filter', exact: true });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
  }
}

/** A full-page screenshot from the top, so the sticky header sits where it belongs (none in CI). */
async function fullScreenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, info, name);
}

async function apiEntries(page: Page, query: string): Promise<ApiEntry[]> {
  const response = await page.request.get(`/api/egg-prices?${query}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as ApiEntry[];
}

test(
  'the dashboard shows Price Trends, the filters and the price list',
  { tag: ['@phone', '@tablet'] },
  async ({ page }, info) => {
    const chunks: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) chunks.push(new URL(response.url()).pathname);
    });
    await openDashboard(page);

    const trends = page.getByRole('region', { name: 'Price Trends' });
    // The chart is drawn once its card comes on screen (below the fold on phones).
    await trends.scrollIntoViewIfNeeded();
    await expect(
      trends.getByRole('img', { name: /^Price per dozen of the national average, organic and standard eggs/ }),
    ).toBeVisible();
    // nivo arrives in its own chunk, after the page's first paint.
    expect(chunks.some((path) => /\/TrendChart-[\w-]+\.js$/.test(path))).toBe(true);
    for (const label of ['National Average', 'Organic', 'Standard'])
      await expect(trends.getByRole('listitem').filter({ hasText: label })).toBeVisible();
    for (const label of ['Average', 'High', 'Low', 'Trend'])
      await expect(trends.getByText(label, { exact: true })).toBeVisible();

    const sevenDays = trends.getByRole('button', { name: '7 Days' });
    const thirtyDays = trends.getByRole('button', { name: '30 Days' });
    await expect(sevenDays).toHaveAttribute('aria-pressed', 'true');
    const stats = await (await page.request.get('/api/stats')).json();
    const summary = (range: '7d' | '30d') => stats.trends[range].summary;
    await expect(trends.getByText(`$${summary('7d').high.toFixed(2)}`, { exact: true }).first()).toBeVisible();
    await thirtyDays.click();
    await expect(thirtyDays).toHaveAttribute('aria-pressed', 'true');
    await expect(sevenDays).toHaveAttribute('aria-pressed', 'false');
    await expect(trends.getByText(`$${summary('30d').high.toFixed(2)}`, { exact: true }).first()).toBeVisible();
    await expect(trends.getByText(`$${summary('30d').low.toFixed(2)}`, { exact: true }).first()).toBeVisible();

    // The list: one card per store, cheapest first, at the screen's page size.
    const size = pageSizeForWidth(widthOf(page));
    await expect(cards(page)).toHaveCount(Math.min(size, 6));
    const first = cards(page).first();
    await expect(first.getByText('Sample data')).toBeVisible();
    await expect(first.getByText(PACK_PRICE)).toBeVisible();
    await expect(first.getByText(/^\$\d+\.\d\d per dozen · \$\d+\.\d\d per egg$/)).toBeVisible();
    await expect(first.getByRole('img', { name: /^Price over the last 7 days: / })).toBeVisible();
    await expect(first.getByText(/^Updated /)).toBeVisible();
    await expect(first.getByRole('heading').getByRole('link')).toHaveAttribute('href', /^\/store\/[a-z-]+$/);
    await expect(first.getByRole('link', { name: /^Price history of / })).toHaveAttribute(
      'href',
      /^\/products\/\d+\/history\?location=\d+$/,
    );

    if (isPhone(page)) await expect(page.getByRole('region', { name: 'Filters' })).toHaveCount(0);
    else
      await expect(
        page.getByRole('region', { name: 'Filters' }).getByRole('button', { name: 'Apply Filters' }),
      ).toBeVisible();

    await fullScreenshot(page, info, `dashboard-${info.project.name}`);
  },
);

test('filter changes wait for Apply Filters, then narrow the list and go into the URL', async ({ page }, info) => {
  await openDashboard(page);
  const before = await cards(page).getByRole('heading').allTextContents();
  expect(before.length).toBeGreaterThan(1);

  let panel = await openFilters(page);
  await openSection(page, panel, 'Store');
  await panel.getByRole('combobox', { name: 'Store', exact: true }).selectOption('aldi');
  await openSection(page, panel, 'Egg Count');
  const eighteen = panel.getByRole('button', { name: '18 eggs' });
  // A single choice: picking it again clears it.
  await eighteen.click();
  await expect(eighteen).toHaveAttribute('aria-pressed', 'true');
  await eighteen.click();
  await expect(eighteen).toHaveAttribute('aria-pressed', 'false');
  await eighteen.click();
  // Nothing changes before Apply.
  if (!isPhone(page)) {
    await expect(panel.getByText('Changes not applied yet')).toBeVisible();
    await expect(cards(page).getByRole('heading')).toHaveText(before);
  }
  await applyFilters(page, panel);

  await expect(page).toHaveURL(/[?&]store=aldi(&|$)/);
  await expect(page).toHaveURL(/[?&]count=18(&|$)/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).getByRole('heading')).toHaveText(['Aldi']);
  await expect(cards(page).first().getByText(PACK_PRICE)).toHaveText(/ \/ 18 ct$/);
  await expect(page.getByText('Showing 1 to 1 of 1 results')).toBeVisible();
  if (isPhone(page)) await expect(page.getByText('2 applied')).toBeVisible();

  // A combination with no prices shows the empty state: an egg type ALDI has no 18-pack of, found in
  // the data (the scraper journeys may have added some).
  let emptyType: EggType | undefined;
  for (const type of EGG_TYPES)
    if ((await apiEntries(page, `store=aldi&count=18&egg_type=${type}`)).length === 0) {
      emptyType = type;
      break;
    }
  expect(emptyType, 'an egg type without an ALDI 18-pack').toBeDefined();
  panel = await openFilters(page);
  await openSection(page, panel, 'Egg Type');
  await panel.getByRole('combobox', { name: 'Egg Type', exact: true }).selectOption(emptyType!);
  await applyFilters(page, panel);
  await expect(page).toHaveURL(new RegExp(`[?&]type=${emptyType}(&|$)`));
  await expect(page.getByText('No prices available for the selected filters.')).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
  await fullScreenshot(page, info, `empty-${info.project.name}`);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/type=|store=|count=/);
  await expect(cards(page)).toHaveCount(Math.min(pageSizeForWidth(widthOf(page)), 6));

  // Hiding the region is a display option: cards keep their prices and drop the region line.
  await openDashboard(page);
  await expect(
    cards(page)
      .first()
      .getByText(/ region$/),
  ).toBeVisible();
  panel = await openFilters(page);
  await openSection(page, panel, 'Display Options');
  await panel.getByText('Show region').click();
  await applyFilters(page, panel);
  await expect(page).toHaveURL(/[?&]showRegion=false(&|$)/);
  await expect(
    cards(page)
      .first()
      .getByText(/ region$/),
  ).toHaveCount(0);

  // Closing the phone panel without applying drops the draft.
  if (isPhone(page)) {
    panel = await openFilters(page);
    await openSection(page, panel, 'Region');
    await panel.getByRole('combobox', { name: 'Region', exact: true }).selectOption('west');
    await panel.getByRole('button', { name: 'Close filters' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByRole('button', { name: 'Filter', exact: true })).toBeFocused();
    await expect(page).not.toHaveURL(/region=west/);
  }
});

test(
  'Apply Filters shows at once that it is working, until the new page of prices is drawn',
  { tag: '@phone' },
  async ({ page }) => {
    await openDashboard(page);
    // The new page waits here until let through, so the state in between can be looked at.
    let letThrough = () => {};
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    await page.route(
      (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('prices.dashboard'),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    const panel = await openFilters(page);
    await openSection(page, panel, 'Egg Type');
    await panel.getByRole('combobox', { name: 'Egg Type', exact: true }).selectOption('organic');
    // Right after the click (before any new prices, and before the page has re-rendered for the new
    // filters) the list is marked busy and says so, and the button shows that it is working.
    // While it works, the button reads 'Applying...'.
    const apply = panel.locator('button[type="submit"]');
    await expect(apply).toHaveText('Apply Filters');
    const at = await apply.evaluate(async (button: HTMLButtonElement) => {
      button.click();
      await Promise.resolve();
      await Promise.resolve();
      const list = [...document.querySelectorAll('section')].find(
        (section) => section.querySelector('h2')?.textContent === 'Egg Prices',
      )!;
      return {
        busy: list.querySelector('[aria-busy]')?.getAttribute('aria-busy') ?? null,
        status: list.querySelector('[role="status"]')?.textContent ?? '',
        buttonBusy: button.hasAttribute('data-loading'),
      };
    });
    expect(at).toMatchObject({ busy: 'true', status: 'Updating prices...' });
    if (!isPhone(page)) {
      expect(at.buttonBusy).toBe(true);
      await expect(apply).toHaveAttribute('data-loading');
    }
    await expect(page).toHaveURL(/[?&]type=organic(&|$)/);
    await expect(page.getByRole('status').filter({ hasText: 'Updating prices...' })).toBeVisible();
    letThrough();
    await expect(page.getByRole('status').filter({ hasText: 'Updating prices...' })).toHaveCount(0);
    await expect(cards(page).first()).toContainText('Organic');
    if (!isPhone(page)) await expect(apply).not.toHaveAttribute('data-loading');
  },
);

test('pagination follows the screen page size and resets when filters change', async ({ page }) => {
  const size = pageSizeForWidth(widthOf(page));
  await openDashboard(page, '?sort=unit-price');
  const total = 6;
  const pages = Math.ceil(total / size);
  const nav = page.getByRole('navigation', { name: 'Egg prices pages' });
  await expect(page.getByText(`Showing 1 to ${Math.min(size, total)} of ${total} results`)).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Previous' })).toBeDisabled();

  if (pages === 1) {
    await expect(nav.getByRole('button', { name: 'Next' })).toBeDisabled();
    await expect(nav.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    // A page past the end shows the last page.
    await openDashboard(page, '?sort=unit-price&page=2');
    await expect(page.getByText(`Showing 1 to ${total} of ${total} results`)).toBeVisible();
    return;
  }

  // Phones: 'Page N of M' in place of numbered buttons.
  await expect(nav.getByText(`Page 1 of ${pages}`)).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Page 1' })).toHaveCount(0);
  const firstPage = await cards(page).getByRole('heading').allTextContents();
  await nav.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(page.getByText(`Showing ${size + 1} to ${total} of ${total} results`)).toBeVisible();
  await expect(nav.getByText(`Page 2 of ${pages}`)).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect(cards(page)).toHaveCount(total - size);
  const secondPage = await cards(page).getByRole('heading').allTextContents();
  expect(secondPage.filter((name) => firstPage.includes(name))).toEqual([]);

  // The page survives a reload; Previous goes back.
  await page.reload();
  await expect(nav.getByText(`Page 2 of ${pages}`)).toBeVisible();
  await nav.getByRole('button', { name: 'Previous' }).click();
  await expect(nav.getByText(`Page 1 of ${pages}`)).toBeVisible();
  await expect(cards(page).getByRole('heading')).toHaveText(firstPage);

  // Any applied filter change goes back to page 1.
  await nav.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  const panel = await openFilters(page);
  await openSection(page, panel, 'Sort By');
  await panel.getByRole('combobox', { name: 'Sort By', exact: true }).selectOption('price');
  await applyFilters(page, panel);
  await expect(page).not.toHaveURL(/page=/);
  await expect(nav.getByText(`Page 1 of ${pages}`)).toBeVisible();
});

test('grid and list views; phones always get cards', { tag: '@phone' }, async ({ page }, info) => {
  await openDashboard(page);
  if (isPhone(page)) {
    await expect(page.getByRole('group', { name: 'View' })).toHaveCount(0);
    await openDashboard(page, '?view=list');
    await expect(cards(page)).toHaveCount(4);
    await expect(page.getByRole('table')).toHaveCount(0);
    return;
  }
  const list = page.getByRole('button', { name: 'List View' });
  await expect(page.getByRole('button', { name: 'Grid View' })).toHaveAttribute('aria-pressed', 'true');
  await list.click();
  await expect(list).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/[?&]view=list(&|$)/);
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(1 + 6);
  await expect(table.getByRole('columnheader', { name: 'Price', exact: true })).toBeVisible();
  const wide = widthOf(page) >= 1024;
  await expect(table.getByRole('columnheader', { name: 'Last 7 Days' })).toHaveCount(wide ? 1 : 0);
  await expect(page.getByText('Swipe the table sideways to see every column.')).toHaveCount(wide ? 0 : 1);
  await expect(table.getByRole('row').nth(1).getByText(PACK_PRICE)).toBeVisible();
  await fullScreenshot(page, info, `list-${info.project.name}`);

  await page.reload();
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(7);
  await page.getByRole('button', { name: 'Grid View' }).click();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(cards(page)).toHaveCount(6);
});

test('a card re-prices for another egg type (observed) and count (Estimate)', async ({ page }, info) => {
  await openDashboard(page);
  // The sections drawn once near the screen (the map of prices by state above the list among
  // them) change the page's height as they load: they load first, so that no shift moves a card's
  // open menu under the pointer (the click then missed its option now and then).
  await loadWholePage(page);
  const card = cards(page).first();
  const storeId = (await card.getByRole('heading').getByRole('link').getAttribute('href'))!.replace('/store/', '');
  const storeName = (await card.getByRole('heading').textContent())!;
  const regionTrigger = card.getByRole('button', { name: new RegExp(`^Region for ${storeName}: `) });
  const region = (await regionTrigger.getAttribute('aria-label'))!.split(': ')[1]!.toLowerCase();
  // The card shows the store's cheapest pack per dozen, whatever its size.
  const countTrigger = card.getByRole('button', { name: new RegExp(`^Count for ${storeName}: `) });
  const count = parseInt((await countTrigger.getAttribute('aria-label'))!.split(': ')[1]!, 10);
  const packs = await apiEntries(page, `store=${storeId}&region=${region}&egg_type=standard&count=${count}`);
  await expect(card.getByText(PACK_PRICE)).toHaveText(formatPackPrice(Math.min(...packs.map((e) => e.price)), count));

  /**
   * Opens one of the card's menus, its trigger in the middle of the window (room below it, so the
   * menu opens there and no later scroll flips it above), and waits for the menu to stand still.
   */
  async function openMenu(caption: string) {
    const trigger = card.getByRole('button', { name: new RegExp(`^${caption} for ${storeName}: `) });
    await trigger.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await trigger.click();
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('dialog', { name: `${caption} for ${storeName}` });
    await expect(menu).toBeVisible();
    await settled(menu);
    return menu;
  }

  /** Opens one of the card's menus and picks an option: on click on phones, else via Apply. */
  async function choose(caption: string, option: string) {
    const menu = await openMenu(caption);
    const pick = menu.getByRole('button', { name: option, exact: true });
    if (isPhone(page)) {
      await expect(menu.getByRole('button', { name: 'Apply', exact: true })).toHaveCount(0);
      await pick.click();
    } else {
      const apply = menu.getByRole('button', { name: 'Apply', exact: true });
      await expect(apply).toBeDisabled();
      await pick.click();
      await expect(pick).toHaveAttribute('aria-pressed', 'true');
      await expect(apply).toBeEnabled();
      await apply.click();
    }
    await expect(menu).toBeHidden();
  }

  // Back to a dozen, then a combination the store sells: its observed price, no Estimate label.
  if (count !== 12) await choose('Count', '12 eggs');
  await choose('Egg Type', 'Organic');
  const [organic] = await apiEntries(page, `store=${storeId}&region=${region}&egg_type=organic&count=12`);
  await expect(card.getByText(PACK_PRICE)).toHaveText(formatPackPrice(organic!.price, 12));
  await expect(card.getByText(/Organic Large Grade A Eggs, 12 ct$/)).toBeVisible();
  await expect(card.getByText('Estimate', { exact: true })).toHaveCount(0);

  // A pack size nobody sells: the estimate from the store's nearest observed price (its
  // organic dozen there), labelled, with its basis and sum.
  await choose('Count', '36 eggs');
  const estimate = estimatePrice(organic!, { eggType: 'organic', region, count: 36 });
  await expect(card.getByText(PACK_PRICE)).toHaveText(formatPackPrice(estimate.price, 36));
  await expect(card.getByText('Estimate', { exact: true })).toBeVisible();
  await expect(
    card.getByText(new RegExp(`^Estimate: ${storeName} has no observed price for Organic, 36 eggs`)),
  ).toHaveCount(1);
  await expect(
    card.getByText(`Estimated from its observed ${formatPrice(organic!.price)} for 12 eggs, Organic,`, {
      exact: false,
    }),
  ).toHaveCount(1);
  await expect(card.getByRole('img', { name: /^Recent prices of the pack this estimate is based on/ })).toBeVisible();

  // Another region where the store sells an organic dozen (found in the data), back at a dozen:
  // observed again.
  let other: { region: Region; entry: ApiEntry } | undefined;
  for (const candidate of REGIONS.filter((r) => r !== region)) {
    const [entry] = await apiEntries(page, `store=${storeId}&region=${candidate}&egg_type=organic&count=12`);
    if (entry) {
      other = { region: candidate, entry };
      break;
    }
  }
  expect(other, `another region with ${storeName}'s organic dozen`).toBeDefined();
  const otherRegion = REGION_LABELS[other!.region];
  await choose('Region', otherRegion);
  await choose('Count', '12 eggs');
  await expect(card.getByText(PACK_PRICE)).toHaveText(formatPackPrice(other!.entry.price, 12));
  await expect(card.getByText(`${otherRegion} region`)).toBeVisible();
  await screenshot(card, info, `card-${info.project.name}`);

  // The region menu's display toggle hides the region line; the menu closes on an outside click.
  const menu = await openMenu('Region');
  await menu.getByText('Show region').click();
  await page.getByRole('heading', { name: 'Egg Price Dashboard' }).click();
  await expect(menu).toBeHidden();
  await expect(card.getByText(`${otherRegion} region`)).toHaveCount(0);

  // The overrides are the card's own: the next card is untouched.
  await expect(cards(page).nth(1).getByText('Estimate', { exact: true })).toHaveCount(0);
});

// Phone and desktop: the panel differs, the rule does not.
test(
  'saved preferences apply as filters the panel shows, and never re-price the cards',
  { tag: '@phone' },
  async ({ page }, info) => {
    // A 36-pack is a price-card size the Filters panel does not offer: not applied.
    await page.goto('/preferences');
    await page.evaluate(() =>
      window.localStorage.setItem(
        'eggwatch.preferences',
        JSON.stringify({ zipCode: '60611', region: 'midwest', preferredEggType: 'organic', preferredCount: 36 }),
      ),
    );
    await openDashboard(page);
    const note = page.getByText('Filtered by your saved preferences: Organic · Midwest.');
    await expect(note).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    const organic = await apiEntries(page, 'region=midwest&egg_type=organic');
    const size = pageSizeForWidth(widthOf(page));
    await expect(cards(page)).toHaveCount(Math.min(size, new Set(organic.map((e) => e.store_id)).size));
    // Each card shows its observed price: no Estimate, no 36-pack.
    await expect(cards(page).getByText('Estimate', { exact: true })).toHaveCount(0);
    await expect(cards(page).getByText(/ \/ 36 ct$/)).toHaveCount(0);
    const first = cards(page).first();
    const name = (await first.getByRole('heading').textContent())!;
    const own = organic.find((e) => e.store_name === name)!;
    await expect(first.getByText(PACK_PRICE)).toHaveText(formatPackPrice(own.price, own.count));
    await expect(first.getByText('Midwest region')).toBeVisible();
    // The Filters panel shows them applied.
    if (isPhone(page)) await expect(page.getByText('2 applied')).toBeVisible();
    else {
      const panel = page.getByRole('region', { name: 'Filters' });
      await expect(panel.getByRole('combobox', { name: 'Egg Type', exact: true })).toHaveValue('organic');
      await expect(panel.getByRole('combobox', { name: 'Region', exact: true })).toHaveValue('midwest');
    }
    await fullScreenshot(page, info, `preferences-applied-${info.project.name}`);

    // Show all prices: All, kept in the URL against the preferences, and kept on reload.
    await page.getByRole('button', { name: 'Show all prices' }).click();
    await expect(page).toHaveURL(/[?&]type=all(&|$)/);
    await expect(page).toHaveURL(/[?&]region=all(&|$)/);
    await expect(note).toHaveCount(0);
    await expect(cards(page)).toHaveCount(Math.min(size, 6));
    await page.reload();
    await expect(page.getByText(/^Showing 1 to \d+ of 6 results$/)).toBeVisible();
    await expect(page.getByText(/^Filtered by your saved preferences/)).toHaveCount(0);
    await expect(cards(page).getByText('Estimate', { exact: true })).toHaveCount(0);
  },
);

test('the applied view survives a reload and can be shared', async ({ page }) => {
  await openDashboard(page);
  const panel = await openFilters(page);
  await openSection(page, panel, 'Egg Type');
  await panel.getByRole('combobox', { name: 'Egg Type', exact: true }).selectOption('cage_free');
  await openSection(page, panel, 'Region');
  await panel.getByRole('combobox', { name: 'Region', exact: true }).selectOption('south');
  await openSection(page, panel, 'Sort By');
  await panel.getByRole('combobox', { name: 'Sort By', exact: true }).selectOption('unit-price');
  await applyFilters(page, panel);
  await expect(page).toHaveURL(/[?&]type=cage-free(&|$)/);
  await expect(page).toHaveURL(/[?&]region=south(&|$)/);
  await expect(page).toHaveURL(/[?&]sort=unit-price(&|$)/);
  // The filtered list, not the one before it still on screen while it loads: every card is a
  // cage-free price of the South.
  await expect
    .poll(async () => {
      const texts = await cards(page).allTextContents();
      return texts.length > 0 && texts.every((text) => text.includes('South region') && /Cage-Free/.test(text));
    })
    .toBe(true);
  const shown = await cards(page).getByRole('heading').allTextContents();
  const prices = await cards(page).getByText(PACK_PRICE).allTextContents();

  // A reload, and the same link in a fresh tab, show the same view with the panel in step.
  for (const target of [page, await page.context().newPage()]) {
    if (target === page) await page.reload();
    else await target.goto(page.url());
    await expect(cards(target).getByRole('heading')).toHaveText(shown);
    await expect(cards(target).getByText(PACK_PRICE)).toHaveText(prices);
    const controls = await openFilters(target);
    await openSection(target, controls, 'Egg Type');
    await expect(controls.getByRole('combobox', { name: 'Egg Type', exact: true })).toHaveValue('cage_free');
    await openSection(target, controls, 'Region');
    await expect(controls.getByRole('combobox', { name: 'Region', exact: true })).toHaveValue('south');
    await openSection(target, controls, 'Sort By');
    await expect(controls.getByRole('combobox', { name: 'Sort By', exact: true })).toHaveValue('unit-price');
  }
});
