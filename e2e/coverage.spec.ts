// The admin Coverage tab at phone and desktop width (the tablet shows the same components): an
// administrator sees Visit now disabled with its reason before any plan, discovers Walmart's
// stores in Vermont against the stand-in's store network (those found across the state line
// counted apart), finds the plan form's draft kept across a reload, saves a plan for Vermont with
// its cost shown before saving, starts a visit day and watches its progress and the map's table
// fill in, then starts another the same day: nothing is due, and the last day's result stays. Vermont because what the visit writes must not change what
// the later journeys read: Walmart's Northeast prices already come from the stand-in after the
// scrapers journey, and Vermont is far from every ZIP code the Near you journey asks about
// (07601 must have nothing within 5 miles, 98101 nothing within 50). The journey waits for its runs
// to finish, so Walmart's queue is empty for the scrapers journey.
import type { Page } from '@playwright/test';
import { createAccount, expect, signInDirectly, test, uniqueName, type Db } from './db.ts';
import { expectAccessible, snap, toast } from './ui.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

/** The worker tasks the journey needs (the discovery and visit parts of the coverage work). */

async function waitForNoCoverageRun(db: Db) {
  await expect
    .poll(
      async () =>
        (
          await db`select count(*)::int as n from coverage_runs where store_id = 'walmart' and status in ('queued', 'running')`
        )[0]!.n,
      { timeout: 180_000 },
    )
    .toBe(0);
}

async function openCoverage(page: Page, db: Db, baseURL: string, project: string) {
  const name = uniqueName('coverage', project);
  const admin = await createAccount(db, {
    username: name,
    email: `${name}@example.test`,
    password: 'Adm1n!e2e-Pass',
    role: 'admin',
  });
  await signInDirectly(page, db, admin, baseURL);
  await page.goto('/admin/dashboard?tab=coverage');
  await expect(page.getByRole('tab', { name: 'Coverage' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('combobox', { name: 'Retailer' }).selectOption('walmart');
  await expect(page.getByLabel('Walmart coverage figures').getByRole('definition').first()).toBeVisible();
}

test.describe('the Coverage tab', () => {
  test('disables Visit now without a plan, with the reason, and shows the empty map', async ({
    page,
    db,
    baseURL,
  }, info) => {
    await waitForNoCoverageRun(db);
    await db`delete from coverage_plans where store_id = 'walmart'`;
    await openCoverage(page, db, baseURL!, info.project.name);
    const plan = page.getByRole('region', { name: 'Coverage plan' });
    await expect(plan.getByText('No plan saved yet.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Next planned chunk' })).toContainText(
      'No plan yet: save a plan to schedule visits.',
    );
    const visitNow = page.getByRole('button', { name: 'Visit now' });
    await expect(visitNow).toBeDisabled();
    await expect(visitNow).toHaveAccessibleDescription("Save a plan first: a visit day visits the plan's stores.");
    // The server refuses a shopper whatever the screen shows.
    const anonymous = await page.context().browser()!.newContext();
    expect((await anonymous.request.get(`${baseURL}/api/coverage`)).status()).toBe(401);
    await anonymous.close();
    // A bad scope is marked at the field before anything is sent.
    await plan.getByText('States', { exact: true }).click();
    await plan.getByRole('button', { name: 'Discover stores in this scope' }).click();
    await expect(plan.getByText('Choose at least one state')).toBeVisible();
    await expectAccessible(page, 'coverage tab');
    await snap(page, info, 'coverage-no-plan');
  });

  test('discovers Vermont, saves a plan with its cost, and watches a visit day', async ({
    page,
    db,
    baseURL,
  }, info) => {
    await waitForNoCoverageRun(db);
    // The phone's visit day visited Vermont today; a day later its stores are due again.
    await db`update store_locations set last_visit_at = last_visit_at - interval '1 day' where store_id = 'walmart' and state = 'VT' and last_visit_at is not null`;
    await openCoverage(page, db, baseURL!, info.project.name);
    const plan = page.getByRole('region', { name: 'Coverage plan' });
    const discovery = page.getByRole('region', { name: 'Discovery' });
    const visit = page.getByRole('region', { name: 'Visit day' });

    // Discovery in one small state: live counts while it runs, then its figures.
    await plan.getByText('States', { exact: true }).click();
    // By keyboard, as the list scrolls: the box says VT, its name is the state's.
    const vermont = plan.getByRole('checkbox', { name: 'Vermont' });
    await vermont.focus();
    await page.keyboard.press('Space');
    await expect(vermont).toBeChecked();
    await expect(plan.getByText('1 chosen: VT')).toBeVisible();
    // The draft outlives a reload until it is saved.
    await page.reload();
    await page.getByRole('combobox', { name: 'Retailer' }).selectOption('walmart');
    await expect(plan.getByText('1 chosen: VT')).toBeVisible();
    await expect(plan.getByRole('checkbox', { name: 'Vermont' })).toBeChecked();
    await expect(plan.getByText('Unsaved changes, kept in this browser.')).toBeVisible();
    await plan.getByRole('button', { name: 'Discover stores in this scope' }).click();
    await expect(toast(page, 'Discovery started')).toContainText('Walmart discovery is queued: 1 state: VT.');
    // Queued, then running with its counts (a small sweep may already be done when the tab polls).
    await expect(discovery).toContainText(/Queued|Running|Finished/);
    // Vermont's locator answers reach across the state line: those stores are counted apart.
    await expect(discovery).toContainText(
      /Finished: \d+ of \d+ points swept, [\d,]+ locator calls?, [\d,]+ found: [\d,]+ in scope, [\d,]+ nearby outside it/,
      { timeout: 120_000 },
    );
    const known = page.getByLabel('Walmart coverage figures').getByRole('definition').first();
    await expect(known).not.toHaveText('0');

    // The plan's cost before saving: stores in scope, requests per visit, hours at the delay, and
    // whether every store can be visited daily at the default budget.
    const cost = plan.getByRole('region', { name: 'Plan cost' });
    await expect(cost).toContainText(/[\d,]+ known stores? in scope, [\d,]+ stores? a day \(every day\)/);
    await expect(cost).toContainText(/requests? per visit, (measured|estimated)/);
    await expect(cost).toContainText(/(under a minute|minutes?|hours?) at the 150 ms delay/);
    await expect(cost).toContainText('Every store in scope can be visited every day.');
    await plan.getByRole('button', { name: 'Save plan' }).click();
    await expect(toast(page, 'Plan saved')).toContainText('Walmart: 1 state: VT, every day');
    await expect(plan.getByText(/Saved .*: 1 state: VT, every day\./)).toBeVisible();
    await expect(plan.getByText('Unsaved changes, kept in this browser.')).toBeHidden();

    // A visit day: its progress with live counts, then the states it visited.
    await page.getByRole('button', { name: 'Visit now' }).click();
    await expect(toast(page, 'Visit day started')).toContainText('Walmart visit day is queued.');
    // Queued, then running with its counts (a small day may already be done when the tab polls).
    await expect(visit).toContainText(/Queued|Running|Finished/);
    await expect(visit).toContainText(/Running: \d+ of \d+ stores? visited|Finished:/, { timeout: 60_000 });
    await snap(page, info, 'coverage-visit-running');
    await expect(visit).toContainText(/Finished: \d+ of \d+ stores? visited/, { timeout: 150_000 });
    await expect(
      page
        .getByRole('region', { name: 'Stores visited by state' })
        .getByRole('img', { name: /US map of the share of Walmart stores visited/ }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Table' }).click();
    const table = page.getByRole('table', { name: 'Walmart stores visited in the last 24 hours by state' });
    await expect(table.getByRole('row').filter({ hasText: 'Vermont' })).toContainText(/\d+%/);
    // Enabled again once the day is over (and faded in: axe reads colours as drawn).
    await expect(page.getByRole('button', { name: 'Visit now' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Visit now' })).toHaveCSS('opacity', '1');
    await expectAccessible(page, 'coverage tab after a visit day');
    await snap(page, info, 'coverage-visited');
    const visited = (await visit.textContent())!.match(/Finished: \d+ of \d+ stores? visited/)![0];

    // Again the same day: nothing is due; the last day's result stays in view.
    // (the first day's toast may still be open: the newest comes first)
    await page.getByRole('button', { name: 'Visit now' }).click();
    await expect(toast(page, 'Visit day started').first()).toContainText('Walmart visit day is queued.');
    await expect(page.getByText(/^Nothing due/)).toHaveText(/^Nothing due today; next due [A-Z][a-z]{2} \d{1,2}\.$/, {
      timeout: 60_000,
    });
    await expect(visit).toContainText(visited);
    await waitForNoCoverageRun(db);
  });
});
