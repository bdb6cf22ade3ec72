// Scrapers, run by an administrator against the retailer stand-in (e2e/serve.ts points every
// retailer there): the dashboard's Walmart card with its toasts, progress and finished status,
// then the new prices on the dashboard; the admin tab's cards and run history; the schedule
// form; Run all with a bad ZIP code marked at the field, and a run's details per ZIP code (over ZIP
// codes that write no prices, so the later journeys keep the sample catalogue). A
// signed-in shopper sees no Administrator Controls. The stand-in's ZIP 83201 answers slowly (so
// the progress can be watched), 99501 is behind a bot wall and 59001 fails once, then answers.
import type { Page } from '@playwright/test';
import { createAccount, expect, signInDirectly, test, uniqueName, type Db } from './db.ts';
import { expectAccessible, expectConsoleErrors, snap, toast } from './ui.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

async function signInAdmin(page: Page, db: Db, baseURL: string, project: string) {
  const admin = await createAccount(db, {
    username: uniqueName('scrapes', project),
    email: `${uniqueName('scrapes', project)}@example.test`,
    password: 'Adm1n!e2e-Pass',
    role: 'admin',
  });
  await signInDirectly(page, db, admin, baseURL);
}

async function waitForIdle(db: Db, store: string) {
  await expect
    .poll(
      async () =>
        (
          await db`select count(*)::int as n from scrape_runs where store_id = ${store} and status in ('queued', 'running')`
        )[0]!.n,
      { timeout: 60_000 },
    )
    .toBe(0);
}

test('a shopper sees no Administrator Controls', async ({ page, db, baseURL }, info) => {
  const user = await createAccount(db, {
    username: uniqueName('shopper', info.project.name),
    email: `${uniqueName('shopper', info.project.name)}@example.test`,
    password: 'secret123',
    role: 'user',
  });
  await signInDirectly(page, db, user, baseURL!);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Egg Prices', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Administrator Controls' })).toHaveCount(0);
  // The server refuses the scraper calls to a shopper whatever the screen shows.
  const status = await page.request.get('/api/scrape/status');
  expect(status.status()).toBe(403);
});

// One width: the flows are the same at every width.
test.describe('as an administrator', () => {
  test('the dashboard card runs the Walmart scraper, shows its progress and status, then the new prices', async ({
    page,
    db,
    baseURL,
    pageProblems,
  }, info) => {
    await waitForIdle(db, 'walmart');
    await signInAdmin(page, db, baseURL!, info.project.name);
    await page.goto('/');
    const controls = page.getByRole('region', { name: 'Administrator Controls' });
    await expect(controls.getByRole('heading', { name: 'Data Scrapers' })).toBeVisible();
    const zips = controls.getByLabel('ZIP codes');
    await expect(zips).toHaveValue('10001, 60611, 90210, 30301, 77001');
    await expect(zips).toHaveAttribute('placeholder', '10001, 60611, 90210');
    const box = controls.getByRole('status', { name: 'Walmart scraper status' });
    await expect(box.getByText('No', { exact: true })).toBeVisible();

    // A bad ZIP is refused by the server with a message naming it.
    await zips.fill('1234, 10001');
    await controls.getByRole('button', { name: 'Run Walmart Scraper' }).click();
    await expect(toast(page, 'Scraper Error')).toContainText('Not 5-digit ZIP codes: "1234"');
    await expectConsoleErrors(pageProblems, 400);

    await zips.fill('10001, 83201, 99501');
    await controls.getByRole('button', { name: 'Run Walmart Scraper' }).click();
    await expect(toast(page, 'Scraper Started')).toContainText(
      'The Walmart scraper is now collecting egg prices. This may take a few minutes.',
    );
    await expect(box.getByText('Yes', { exact: true })).toBeVisible();
    await expect(controls.getByRole('progressbar', { name: 'Walmart scraper progress' })).toBeVisible();
    await expect(box).toContainText(/of 3 ZIP codes/);
    await snap(page, info, 'dashboard-scraper-running');

    // Finished: one ZIP behind the bot wall, the others written.
    await expect(box.getByText('No', { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(box).toContainText("99501: blocked by Walmart's bot protection");
    await expect(box).not.toContainText('Never');
    await snap(page, info, 'dashboard-scraper-finished');

    // The new prices: Walmart's Northeast entries now come from the stand-in (marked as sample
    // data, since no retailer published them), and the dashboard shows them after its refresh.
    const entries: Array<{ source: string; title: string }> = await (
      await page.request.get('/api/egg-prices?store=walmart&region=northeast')
    ).json();
    expect(entries.length).toBeGreaterThan(3);
    expect(entries.every((e) => e.source === 'demo')).toBe(true);
    await page.reload();
    const card = page
      .getByRole('list', { name: 'Egg prices', exact: true })
      .getByRole('article')
      .filter({ hasText: 'Walmart' });
    await expect(card.first()).toBeVisible();
  });

  test('the Data Scrapers tab runs any store, shows its run history, and the schedule saves', async ({
    page,
    db,
    baseURL,
  }, info) => {
    await waitForIdle(db, 'aldi');
    await signInAdmin(page, db, baseURL!, info.project.name);
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await page.getByLabel('ZIP codes for every scraper').fill('30301, 83201');
    const box = page.getByRole('status', { name: 'Aldi scraper status' });
    await page.getByRole('button', { name: 'Run Aldi Scraper' }).click();
    await expect(toast(page, 'Scraper Started')).toContainText('The Aldi scraper is now collecting egg prices.');
    await expect(box.getByText('Active', { exact: true })).toBeVisible();
    // A second start while it runs is refused.
    const again = await page.request.post('/api/scrape/aldi', {
      data: { zipCodes: ['30301'] },
      headers: { origin: baseURL! },
    });
    expect(again.status()).toBe(409);
    await expect(box.getByText('Idle', { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(box).toContainText('Last run succeeded: 2 ZIP codes');
    await expect(page.getByText(/Prices from (just now|\d+ minutes? ago)/).first()).toBeVisible();

    await page.getByRole('combobox', { name: 'Store of the recent runs' }).selectOption('aldi');
    const history = page.getByRole('table', { name: 'Recent Aldi runs' });
    await expect(history.getByRole('row').nth(1)).toContainText('Succeeded');
    await expect(history.getByRole('row').nth(1)).toContainText('2 of 2 ZIP codes succeeded');
    await snap(page, info, 'admin-scrapers-history');

    await page.getByRole('tab', { name: 'Settings' }).click();
    const daily = page.getByRole('checkbox', { name: /Daily scraping/ });
    await page.getByText('Daily scraping', { exact: true }).click();
    await expect(daily).toBeChecked();
    const settingsPanel = page.getByRole('tabpanel', { name: 'Settings' });
    await settingsPanel.getByLabel('Hour').selectOption('5');
    await settingsPanel.getByLabel('ZIP codes', { exact: true }).fill('10001, 30301');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page, 'Settings saved')).toContainText('Daily scraping runs at 05:00 UTC.');
    await expect(page.getByText(/^Next scheduled run: /)).not.toContainText('Not scheduled');
    await snap(page, info, 'admin-settings');
    const [settings] = await db`select daily_enabled, hour_utc, zip_codes from scrape_settings`;
    expect(settings).toEqual({ daily_enabled: true, hour_utc: 5, zip_codes: ['10001', '30301'] });
    // Back off, as the other journeys expect.
    await page.getByText('Daily scraping', { exact: true }).click();
    await expect(daily).not.toBeChecked();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page, 'Settings saved').filter({ hasText: 'Daily scraping is off.' })).toBeVisible();
    await expect.poll(async () => (await db`select daily_enabled from scrape_settings`)[0]!.daily_enabled).toBe(false);
  });
});

test.describe('Run all', () => {
  test('marks a bad ZIP code at the field, runs every store, and lists each ZIP code of a run with its retries', async ({
    page,
    db,
    baseURL,
    pageProblems,
  }, info) => {
    const idle = async () =>
      expect
        .poll(
          async () =>
            (await db`select count(*)::int as n from scrape_runs where status in ('queued', 'running')`)[0]!.n,
          { timeout: 90_000 },
        )
        .toBe(0);
    await idle();
    await signInAdmin(page, db, baseURL!, info.project.name);
    await page.goto('/admin/dashboard');
    const zips = page.getByLabel('ZIP codes for every scraper');
    await zips.fill('1234, 10001');
    await zips.blur();
    // Marked at the field itself, with the API's message.
    await expect(zips).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Not 5-digit ZIP codes: "1234"')).toBeVisible();
    await snap(page, info, 'admin-scrapers-bad-zip');
    await expectAccessible(page, 'the Data Scrapers tab with a bad ZIP code');
    await page.getByRole('button', { name: 'Run all' }).click();
    await expect(toast(page, 'Scraper Error')).toContainText('Not 5-digit ZIP codes: "1234"');
    await expectConsoleErrors(pageProblems, 400);

    // ZIP codes that write no prices (a bot wall, no store): the journeys after this one read the
    // sample catalogue of every store and region, which any price written here would replace.
    await zips.fill('99501, 05401');
    await expect(zips).not.toHaveAttribute('aria-invalid', 'true');
    const [{ last }] = (await db`select coalesce(max(id), 0)::int as last from scrape_runs`) as unknown as [
      { last: number },
    ];
    await page.getByRole('button', { name: 'Run all' }).click();
    await expect(toast(page, 'Scrapers Started')).toContainText(
      'Queued 6 scrapers for 2 ZIP codes: Walmart, Target, Kroger, Albertsons, Whole Foods, Aldi.',
    );
    expect(
      (await db`select store_id, zip_codes from scrape_runs where id > ${last} order by id`).map((r) => [
        r.store_id,
        r.zip_codes,
      ]),
    ).toEqual(
      ['walmart', 'target', 'kroger', 'albertsons', 'whole-foods', 'aldi'].map((store) => [store, ['99501', '05401']]),
    );
    await idle();
    expect((await db`select count(*)::int as n from price_observations where scrape_run_id > ${last}`)[0]!.n).toBe(0);

    // Recent runs keeps the store last chosen, across a reload.
    await page.getByRole('combobox', { name: 'Store of the recent runs' }).selectOption('aldi');
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Store of the recent runs' })).toHaveValue('aldi');
    const history = page.getByRole('table', { name: 'Recent Aldi runs' });
    await expect(history.getByRole('row').nth(1)).toContainText('0 of 2 ZIP codes succeeded');
    await expect(history.getByRole('row').nth(1)).toContainText(/[AP]M [A-Z]{2,5}/);
    await history
      .getByRole('row')
      .nth(1)
      .getByRole('button', { name: /^Details of the run/ })
      .click();
    const details = page.getByRole('dialog', { name: 'Aldi run details' });
    const zipList = details.getByRole('list', { name: 'ZIP codes of the run' });
    await expect(zipList.getByRole('listitem')).toHaveCount(2);
    for (const [zip, message] of [
      ['99501', "blocked by Aldi's bot protection"],
      ['05401', 'no Aldi store near 05401'],
    ] as const) {
      const item = zipList.getByRole('listitem', { name: `ZIP code ${zip}` });
      await expect(item).toContainText('Failed');
      await expect(item).toContainText(message);
      await expect(item).toContainText(
        /\d+ requests?: no retries, no rate-limit waits · finished [A-Z][a-z]{2} \d+, \d+:\d\d [AP]M [A-Z]{2,5}/,
      );
    }
    await snap(page, info, 'admin-run-details');
    await expectAccessible(page, "a run's details");
  });
});
