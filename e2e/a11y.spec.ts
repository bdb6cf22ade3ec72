// Accessibility: axe-core finds no serious or critical violation on any screen, in light and dark
// mode, at desktop width (1440x900), including the states behind a click (the header menu, the
// phone's Filters dialog, a price card's menu); the screens laid out differently on a phone
// (390x844: cards instead of tables, the navigation menu, the Filters dialog) are checked there
// too, with every rule in light mode (the colours are the same tokens at every width, checked in
// both modes at desktop width) and the phone's own menus and dialog in both modes; and the header
// and dashboard controls are reachable with the Tab key and named, at both widths. One journey
// checks a screen in both modes: it opens the screen in light mode, checks it, switches the open
// page to dark mode as a choice made in another tab of the site does, and checks it again (a
// reload costs a second or two a screen). Colour transitions are turned off before the switch, so
// axe reads the colours a shopper is left with, never a blend on the way there.
import fs from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import postgres from 'postgres';
import { createAccount, signInDirectly, uniqueName, type Account, type Db } from './db.ts';
import { expect, test } from './fixtures.ts';
import { networkQuiet } from './network.ts';
import { animationsEnded, axeBuilder, expectConsoleErrors, loadWholePage, openDashboard } from './ui.ts';

test.describe.configure({ timeout: 120_000 });

/** Impacts that fail the test; minor and moderate findings are printed but tolerated. */
const BLOCKING = new Set(['serious', 'critical']);

let db: Db;
test.beforeAll(({}, info) => {
  const port = new URL(String(info.project.use.baseURL)).port;
  db = postgres(fs.readFileSync(`.data/e2e-db-url-${port}`, 'utf8').trim(), { max: 2, onnotice: () => {} });
});
test.afterAll(async () => {
  await db.end({ timeout: 5 });
});

/**
 * Opens a screen (or a state of it) with `open` in light mode, the app's default, and checks it
 * with axe (the whole page, or only what `within` selects: a menu or dialog over a screen checked
 * on its own); then, unless only the light mode is asked for, switches the open page to dark mode
 * and checks its colours again.
 */
async function expectBothModesAccessible(
  page: Page,
  info: TestInfo,
  label: string,
  open: () => Promise<void>,
  { modes = 'both', within }: { modes?: 'both' | 'light'; within?: string } = {},
): Promise<void> {
  await open();
  await expect(page.locator('html')).toHaveClass(/\blight\b/);
  await expectNoSeriousViolations(page, info, `${label} light`, 'all', within);
  if (modes === 'light') return;
  await switchToDarkMode(page);
  await expectNoSeriousViolations(page, info, `${label} dark`, 'colour', within);
}

/**
 * Switches the page on screen to dark mode as a choice made in another tab of the site does
 * (next-themes follows the 'theme' entry's storage event), keeping whatever is open (a menu, a
 * dialog). Transitions are turned off first: a colour that changes through a transition is read
 * once it has changed.
 */
async function switchToDarkMode(page: Page): Promise<void> {
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  await page.evaluate(() => {
    window.localStorage.setItem('theme', 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark', storageArea: localStorage }));
  });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.locator('html')).not.toHaveClass(/\blight\b/);
  // React has drawn the new mode once the header's switch offers the light mode back.
  await expect(page.locator('button[aria-label="Switch to light mode"]')).toHaveCount(1);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * Waits until nothing on the page is loading: what is drawn only near the screen (the charts)
 * brought in and no loading status left (loadWholePage), and no busy region.
 */
async function settle(page: Page): Promise<void> {
  await loadWholePage(page);
  await expect(page.locator('main')).toBeVisible();
  const busy = page.locator('[aria-busy="true"]');
  await expect(busy, 'no busy region (the first one is described if one stays)')
    .toHaveCount(0)
    .catch(async (error: unknown) => {
      const described = await busy
        .first()
        .evaluate(
          (element) =>
            `${element.outerHTML.slice(0, 300)} (in ${element.closest('section[aria-label], [role="region"]')?.getAttribute('aria-label') ?? 'no region'})`,
        )
        .catch(() => 'gone');
      throw new Error(`${String(error)}\nbusy: ${described}`);
    });
}

/**
 * The axe rules whose findings depend on colours: all that can change when only the colour mode
 * does (the page's elements, names, roles and order stay the same), so the dark mode's pass runs
 * these alone, after the light mode's pass has run every rule on the same page.
 */
// (axe's colour category, less its AAA rule, which neither pass runs.)
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function expectNoSeriousViolations(
  page: Page,
  info: TestInfo,
  label: string,
  rules: 'all' | 'colour' = 'all',
  within?: string,
): Promise<void> {
  await animationsEnded(page);
  const axe = axeBuilder(page);
  if (within) axe.include(within);
  const results = await (rules === 'colour' ? axe.withRules(COLOUR_RULES) : axe).analyze();
  const report = results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes
      .slice(0, 5)
      .map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1).join(' ')}`),
  }));
  if (report.length)
    await info.attach(`axe ${label}`, { body: JSON.stringify(report, null, 2), contentType: 'application/json' });
  expect(
    report.filter((violation) => BLOCKING.has(violation.impact ?? '')),
    `${label}: serious or critical axe violations`,
  ).toEqual([]);
}

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1024) < 768;

interface Screen {
  name: string;
  /** The path, or how to find it in the seeded data. */
  path: string | ((page: Page) => Promise<string>);
  /** What shows once the screen has rendered. */
  ready: (page: Page) => Promise<void>;
  /** Who is signed in. */
  as?: 'user' | 'admin';
  /** The HTTP status the page itself answers with, when not 200 (logged once per load). */
  status?: number;
  /** Laid out differently on a phone (cards instead of a table, columns stacked): checked there too. */
  phone?: true;
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
};

const SCREENS: readonly Screen[] = [
  {
    name: 'dashboard',
    phone: true,
    path: '/',
    ready: async (page) => {
      await expect(page.getByText(/^Showing \d+ to \d+ of \d+ results$/)).toBeVisible();
    },
  },
  {
    name: 'dashboard near you',
    phone: true,
    path: '/?zip=10001&radius=10',
    ready: async (page) => {
      const near = page.getByRole('region', { name: 'Near you' });
      await expect(near.getByText(/ within 10 miles of /)).toBeVisible();
      // A measured distance, or the ZIP code searched where the distance is unknown.
      await expect(near.getByText(/\d+\.\d mi|in 10001/).first()).toBeVisible();
    },
  },
  {
    name: 'price history',
    phone: true,
    // The first current price of the seeded catalogue: a product at one of its locations.
    path: async (page) => {
      const [entry] = (await (await page.request.get('/api/egg-prices?limit=1')).json()) as Array<{
        product_id: number;
        location_id: number;
      }>;
      return `/products/${entry!.product_id}/history?location=${entry!.location_id}&days=30`;
    },
    ready: async (page) =>
      expect(page.getByRole('group', { name: 'Span' }).getByRole('button', { name: '30 Days' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
  },
  { name: 'store', phone: true, path: '/store/walmart', ready: heading('Walmart') },
  {
    name: 'store without id',
    path: '/store',
    ready: async (page) => expect(page.getByText('Store ID not provided')).toBeVisible(),
  },
  { name: 'compare', phone: true, path: '/compare/organic', ready: heading('Compare Organic Egg Prices') },
  { name: 'compare invalid', path: '/compare/invalid', ready: heading('Invalid egg type specified') },
  { name: 'privacy policy', path: '/privacy', ready: heading('Privacy Policy') },
  { name: 'data sources', phone: true, path: '/data-sources', ready: heading('Data Sources') },
  { name: 'terms of service', path: '/terms', ready: heading('Terms of Service') },
  {
    name: 'preferences',
    path: '/preferences',
    ready: async (page) => expect(page.getByRole('button', { name: 'Save Preferences' })).toBeVisible(),
  },
  {
    name: 'auth',
    path: '/auth',
    ready: async (page) => expect(page.getByRole('button', { name: 'Log In' })).toBeVisible(),
  },
  {
    name: 'signup',
    path: '/signup',
    ready: async (page) => expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible(),
  },
  {
    name: 'forgot password',
    path: '/forgot-password',
    ready: async (page) => expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible(),
  },
  {
    name: 'profile signed out',
    path: '/profile',
    ready: async (page) => {
      await expect(page).toHaveURL(/\/auth/);
      await expect(page.getByText('Authentication required', { exact: true })).toBeVisible();
    },
  },
  { name: 'profile', path: '/profile', as: 'user', ready: heading('My Account') },
  {
    name: 'admin login',
    path: '/admin/login',
    ready: async (page) => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible(),
  },
  // Its closed state: the first-time setup journey (e2e/first-admin.spec.ts) runs before every
  // other one and checks the open form.
  {
    name: 'admin setup closed',
    path: '/admin/setup',
    ready: heading('Admin setup is closed'),
  },
  {
    name: 'admin reset password',
    path: '/admin/reset-password',
    ready: async (page) => expect(page.getByRole('button', { name: 'Request Reset' })).toBeVisible(),
  },
  {
    name: 'admin dashboard',
    phone: true,
    path: '/admin/dashboard',
    as: 'admin',
    ready: async (page) => expect(page.getByRole('status', { name: 'Aldi scraper status' })).toBeVisible(),
  },
  {
    name: 'price alerts',
    path: '/notifications/subscribe',
    ready: async (page) => expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible(),
  },
  { name: 'not found', path: '/no-such-page', ready: heading('404 Page Not Found'), status: 404 },
];

async function signIn(page: Page, info: TestInfo, role: 'user' | 'admin'): Promise<Account> {
  const username = uniqueName(`a11y-${role}`, info.project.name);
  const account = await createAccount(db, {
    username,
    email: `${username}@example.com`,
    password: 'Passw0rd!23',
    role,
  });
  await signInDirectly(page, db, account, String(info.project.use.baseURL));
  return account;
}

for (const screen of SCREENS) {
  test(
    `axe: ${screen.name} (${typeof screen.path === 'string' ? screen.path : 'from the data'})`,
    { tag: screen.phone ? '@phone' : [] },
    async ({ page, pageProblems }, info) => {
      if (screen.as) await signIn(page, info, screen.as);
      const path = typeof screen.path === 'string' ? screen.path : await screen.path(page);
      await expectBothModesAccessible(
        page,
        info,
        path,
        async () => {
          await page.goto(path);
          await screen.ready(page);
          await settle(page);
          if (screen.status) await expectConsoleErrors(pageProblems, screen.status);
        },
        { modes: isPhone(page) ? 'light' : 'both' },
      );
    },
  );
}

/** The dashboard loaded, for a menu or dialog over it (the screen itself is checked on its own). */
async function dashboardLoaded(page: Page): Promise<void> {
  await openDashboard(page);
  await networkQuiet(page);
}

test('axe: the header menu open, in light and dark mode', { tag: '@phone' }, async ({ page }, info) => {
  // On a phone this is the navigation menu that holds the header's links.
  await dashboardLoaded(page);
  await expectBothModesAccessible(
    page,
    info,
    'header menu',
    async () => {
      const trigger = isPhone(page)
        ? page.getByRole('button', { name: 'Open navigation menu' })
        : page.getByRole('button', { name: 'Egg Types' });
      await trigger.click();
      await expect(page.getByRole('menuitem', { name: 'Organic', exact: true })).toBeVisible();
    },
    { within: '[role="menu"]' },
  );
});

test(
  "axe: a price card's region menu open or, on a phone, the Filters dialog, in light and dark mode",
  { tag: '@phone' },
  async ({ page }, info) => {
    await dashboardLoaded(page);
    if (isPhone(page)) {
      // The phone's own dialog; the card's menu is the same popover at every width.
      await expectBothModesAccessible(
        page,
        info,
        'filters panel',
        async () => {
          await page.getByRole('button', { name: 'Filter', exact: true }).click();
          await expect(page.getByRole('dialog', { name: 'Filters' })).toBeVisible();
        },
        { within: '[role="dialog"]' },
      );
      return;
    }
    const regionMenu = page.getByRole('dialog', { name: /^Region for / });
    await expectBothModesAccessible(
      page,
      info,
      'price card menu',
      async () => {
        const card = page.getByRole('list', { name: 'Egg prices', exact: true }).getByRole('article').first();
        await card.getByRole('button', { name: /^Region for / }).click();
        await expect(regionMenu).toBeVisible();
      },
      { within: '[role="dialog"]' },
    );
    await page.keyboard.press('Escape');
    await expect(regionMenu).toHaveCount(0);
  },
);

/** The accessible name of the focused element, as a screen reader would announce it. */
async function focusedControl(page: Page): Promise<{ tag: string; name: string; visible: boolean } | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const labelledBy = element.getAttribute('aria-labelledby');
    const fromIds = labelledBy
      ?.split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    const labels = (element as HTMLInputElement).labels;
    const name = (
      element.getAttribute('aria-label') ??
      fromIds ??
      (labels?.length ? Array.from(labels, (label) => label.textContent).join(' ') : null) ??
      element.textContent ??
      element.getAttribute('title') ??
      ''
    ).trim();
    const box = element.getBoundingClientRect();
    return { tag: element.tagName.toLowerCase(), name, visible: box.width > 0 && box.height > 0 };
  });
}

test.describe('with motion', () => {
  // The journeys run with reduced motion asked for (playwright.config.ts); this one checks the
  // moving news strip, so it asks for none, then for less.
  test.use({ reducedMotion: 'no-preference' });

  test(
    'keyboard: every header and dashboard control is reached with Tab, named and visible',
    { tag: '@phone' },
    async ({ page }) => {
      await page.goto('/');
      await expect(page.getByText(/^Showing \d+ to \d+ of \d+ results$/)).toBeVisible();
      await settle(page);
      const reached: string[] = [];
      for (let step = 0; step < 120; step++) {
        await page.keyboard.press('Tab');
        const control = await focusedControl(page);
        if (!control) break;
        expect(control.name, `control #${step + 1} (${control.tag}) has a name`).not.toBe('');
        expect(control.visible, `${control.name} is visible when focused`).toBe(true);
        reached.push(control.name);
        if (/Terms of Service/.test(control.name)) break;
      }
      const expected = [
        'Skip to content',
        'EggWatch home',
        ...(isPhone(page) ? ['Open navigation menu'] : ['Egg Types', 'Admin', 'Login', 'Sign Up']),
        /Switch to (dark|light) mode/,
        // The moving news strip: focus pauses it.
        'Egg price news',
        '7 Days',
        '30 Days',
        ...(isPhone(page) ? ['Filter'] : ['Egg Type', 'Apply Filters']),
        /^Region for /,
        /^Egg Type for /,
        /^Count for /,
        'Terms of Service',
      ];
      for (const name of expected) {
        expect(
          reached.some((label) =>
            typeof name === 'string' ? label === name || label.startsWith(`${name} `) : name.test(label),
          ),
          `Tab reaches ${String(name)} (reached: ${reached.join(' | ')})`,
        ).toBe(true);
      }
      // Focus on the news strip stops it moving.
      const strip = page.getByRole('region', { name: 'Egg price news' });
      const playState = () =>
        strip.evaluate((element) => getComputedStyle(element.querySelector(':scope > div')!).animationPlayState);
      expect(await playState()).toBe('running');
      await strip.focus();
      expect(await playState()).toBe('paused');
      await strip.blur();
      expect(await playState()).toBe('running');
      // A shopper who asks for less motion gets a strip that stands still.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      expect(await playState()).toBe('paused');
    },
  );
});

test(
  'keyboard: the deferred header menu opens from the keyboard and keeps focus',
  { tag: '@phone' },
  async ({ page }) => {
    await dashboardLoaded(page);
    const trigger = isPhone(page)
      ? page.getByRole('button', { name: 'Open navigation menu' })
      : page.getByRole('button', { name: 'Egg Types' });
    await trigger.focus();
    await expect(trigger).toBeFocused();
    await page.keyboard.press('Enter');
    const item = page.getByRole('menuitem', { name: 'Cage-Free', exact: true });
    await expect(item).toBeVisible();
    // The menu takes the focus once it has opened (a frame after the deferred menu mounts, later on
    // a busy machine); Escape is for the open menu.
    await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="menu"]')))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(item).toHaveCount(0);
    await expect(trigger).toBeFocused();
  },
);
