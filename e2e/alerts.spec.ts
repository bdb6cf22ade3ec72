// Price alerts: an anonymous shopper subscribes, confirms through the link in the email (opened
// again, it says already confirmed), gets exactly one immediate alert when prices cross the
// threshold, and the one-click unsubscribe stops the next one; an administrator follows the
// confirmation email from the admin Outbox, its manage link included; a signed-in user's form is
// prefilled and confirmed at once, and the subscription is edited from the profile; someone
// else's subscription is the 404 page.
import type { Page } from '@playwright/test';
import { createAccount, emailsTo, expect, signInDirectly, test, uniqueName, writeScrapedPrices } from './db.ts';
import { dropSandboxedFrameNoise, expectAccessible, expectConsoleErrors, field, snap, toast } from './ui.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

async function fillForm(
  page: Page,
  values: {
    email?: string;
    region?: string;
    eggType?: string;
    threshold?: string;
    frequency?: string;
    stores?: string[];
  },
) {
  if (values.email !== undefined) await field(page, 'Email').fill(values.email);
  const form = page.locator('form');
  if (values.region) await form.getByLabel('Region', { exact: true }).selectOption(values.region);
  if (values.eggType) await form.getByLabel('Egg Type', { exact: true }).selectOption(values.eggType);
  if (values.threshold !== undefined)
    await form.getByLabel('Price threshold (per dozen, optional)').fill(values.threshold);
  if (values.frequency) await form.getByLabel('Frequency', { exact: true }).selectOption(values.frequency);
  for (const store of values.stores ?? []) await page.locator('form').getByText(store, { exact: true }).click();
}

test('the subscribe form checks its fields and shows the confirmation view', async ({ page }, info) => {
  await page.goto('/notifications/subscribe');
  await expect(page.getByRole('heading', { name: 'Price Alerts' })).toBeVisible();
  await expect(page.locator('form').getByLabel('Frequency', { exact: true })).toHaveValue('weekly');
  await fillForm(page, { email: 'not-an-email', threshold: '-1' });
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Price threshold cannot be negative')).toBeVisible();
  await snap(page, info, 'subscribe-invalid');
  await fillForm(page, {
    email: `${uniqueName('form', info.project.name)}@example.test`,
    threshold: '3.50',
    stores: ['Aldi'],
  });
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(toast(page, 'Subscription created!')).toBeVisible();
  await expect(
    page.getByRole('main').getByText('Check your inbox: we sent a link to confirm this alert.'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  await snap(page, info, 'subscribe-done');
  await page.getByRole('button', { name: 'Add Another Subscription' }).click();
  await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();
  await expect(field(page, 'Email')).toHaveValue('');
});

// One width: the path is the same at every width.
test.describe('the whole alert path', () => {
  test('subscribe, confirm by email, one immediate alert, one-click unsubscribe', async ({ page, db }, info) => {
    const email = `${uniqueName('alert', info.project.name)}@example.test`;
    await page.goto('/notifications/subscribe');
    await fillForm(page, {
      email,
      region: 'midwest',
      eggType: 'cage-free',
      threshold: '3.00',
      frequency: 'immediately',
    });
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('main').getByText(/^Check your inbox/)).toBeVisible();

    // Nothing goes to an unconfirmed address: prices under the threshold now alert nobody.
    await writeScrapedPrices(db, {
      store: 'kroger',
      zip: '60614',
      region: 'midwest',
      listings: [{ id: `e2e-${email}-1`, eggType: 'cage_free', count: 18, price: 4.5 }],
    });
    await expect
      .poll(async () => (await emailsTo(db, email)).map((e) => e.subject))
      .toEqual(['Confirm your EggWatch price alert']);

    const confirmation = (await emailsTo(db, email))[0]!;
    const link = /https?:\/\/\S+\/notifications\/confirm\?token=\S+/.exec(confirmation.text)![0];
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByRole('button', { name: 'Confirm Subscription' }).click();
    await expect(page.getByRole('heading', { name: 'Price alert confirmed' })).toBeVisible();
    await expect(
      page.getByText('Midwest · Cage-Free eggs · All stores · at or under $3.00 a dozen · Immediately'),
    ).toBeVisible();
    await snap(page, info, 'subscription-confirmed');
    // The same link again: already confirmed, not "invalid or expired".
    await page.reload();
    await page.getByRole('button', { name: 'Confirm Subscription' }).click();
    await expect(page.getByRole('heading', { name: 'Already confirmed' })).toBeVisible();
    await expect(page.getByText('This price alert was confirmed before and is on')).toBeVisible();

    // A price under the threshold: exactly one alert.
    await writeScrapedPrices(db, {
      store: 'kroger',
      zip: '60614',
      region: 'midwest',
      listings: [{ id: `e2e-${email}-2`, eggType: 'cage_free', count: 12, price: 2.79 }],
    });
    await expect
      .poll(async () => (await emailsTo(db, email)).filter((e) => e.status === 'logged').length, { timeout: 30_000 })
      .toBe(2);
    const alert = (await emailsTo(db, email))[1]!;
    expect(alert.subject).toBe('1 cage-free egg price under $3.00 in the Midwest');
    expect(alert.text).toContain('$2.79 / 12 ct');
    expect(alert.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    // One-click unsubscribe, as a mail client does it: a form POST to the List-Unsubscribe URL.
    const unsubscribeUrl = alert.headers['List-Unsubscribe']!.slice(1, -1);
    const oneClick = await page.request.post(new URL(unsubscribeUrl).pathname + new URL(unsubscribeUrl).search, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status()).toBe(200);
    // The next lower price sends nothing.
    await writeScrapedPrices(db, {
      store: 'kroger',
      zip: '60614',
      region: 'midwest',
      listings: [{ id: `e2e-${email}-3`, eggType: 'cage_free', count: 12, price: 2.49 }],
    });
    await expect
      .poll(async () =>
        Number(
          (await db`select count(*) as n from graphile_worker.jobs where task_identifier = 'alerts__immediate'`)[0]!.n,
        ),
      )
      .toBe(0);
    expect(await emailsTo(db, email)).toHaveLength(2);

    // The unsubscribe page of the same link says it is done.
    await page.goto(new URL(unsubscribeUrl).pathname + new URL(unsubscribeUrl).search);
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
    await snap(page, info, 'unsubscribed');
  });

  test('a signed-in user subscribes with the prefilled form, edits from the profile, and cannot open another’s', async ({
    page,
    db,
    baseURL,
    pageProblems,
  }, info) => {
    const name = uniqueName('alerts-user', info.project.name);
    const user = await createAccount(db, {
      username: name,
      email: `${name}@example.test`,
      password: 'secret123',
      role: 'user',
    });
    await signInDirectly(page, db, user, baseURL!);
    await page.evaluate(() =>
      localStorage.setItem(
        'eggwatch.preferences',
        JSON.stringify({
          zipCode: '30301',
          region: 'south',
          preferredEggType: 'organic',
          preferredCount: 12,
          favoriteStores: [],
          notifyPriceDrops: false,
          weeklyReport: false,
        }),
      ),
    );
    await page.goto('/');
    await page.getByRole('link', { name: 'Price Alerts' }).click();
    await expect(field(page, 'Email')).toHaveValue(user.email);
    await expect(page.locator('form').getByLabel('Region', { exact: true })).toHaveValue('south');
    await expect(page.locator('form').getByLabel('Egg Type', { exact: true })).toHaveValue('organic');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('main').getByText('Subscription created!', { exact: true })).toBeVisible();
    await expect(
      page.getByRole('main').getByText('Alerts go to your verified email address.', { exact: true }),
    ).toBeVisible();

    await page.goto('/profile?tab=subscriptions');
    const card = page.getByRole('listitem').filter({ hasText: 'South · Organic' });
    await expect(card).toContainText('Weekly Summary');
    await card.getByRole('link', { name: /Edit/ }).click();
    await expect(page.getByRole('heading', { name: 'Edit Price Alert' })).toBeVisible();
    await page.locator('form').getByLabel('Region', { exact: true }).selectOption('west');
    await page.locator('form').getByLabel('Frequency', { exact: true }).selectOption('daily');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'Subscription updated')).toBeVisible();
    await expect(page).toHaveURL(/\/profile\?tab=subscriptions$/);
    const edited = page.getByRole('listitem').filter({ hasText: 'West · Organic' });
    await expect(edited).toContainText('Daily Digest');
    await snap(page, info, 'profile-subscription-edited');

    // Someone else's subscription: the 404 page.
    const [other] = await db<
      { id: number }[]
    >`insert into subscriptions (email) values ('other@example.test') returning id`;
    await page.goto(`/notifications/edit/${other!.id}`);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expectConsoleErrors(pageProblems, 404);
  });
});

test.describe('the admin Outbox', () => {
  test("shows the demo's emails without psql: the confirmation, rendered with working manage and confirm links", async ({
    page,
    db,
    baseURL,
    pageProblems,
  }, info) => {
    const email = `${uniqueName('outbox', info.project.name)}@example.test`;
    await page.goto('/notifications/subscribe');
    await fillForm(page, { email, region: 'south', eggType: 'organic', threshold: '4.00' });
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('main').getByText(/^Check your inbox/)).toBeVisible();
    await expect.poll(async () => (await emailsTo(db, email)).map((e) => e.status)).toEqual(['logged']);

    const adminName = uniqueName('outbox-admin', info.project.name);
    const admin = await createAccount(db, {
      username: adminName,
      email: `${adminName}@example.test`,
      password: 'Adm1n!e2e-Pass',
      role: 'admin',
    });
    await signInDirectly(page, db, admin, baseURL!);
    await page.goto('/admin/dashboard?tab=outbox');
    await expect(page.getByRole('tab', { name: 'Outbox', selected: true })).toBeVisible();
    await expect(page.getByText('No RESEND_API_KEY: emails are not sent.')).toBeVisible();
    const row = page.getByRole('table', { name: 'Recent emails' }).getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Kept here');
    await expect(row).toContainText(/[AP]M [A-Z]{2,5}/);
    await snap(page, info, 'admin-outbox');

    await row.getByRole('button', { name: 'Confirm your EggWatch price alert' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your EggWatch price alert' });
    await expect(dialog.getByText(email)).toBeVisible();
    await expect(dialog.getByLabel('Plain text of the email')).toContainText('Manage this alert: http');
    const frame = page.frameLocator('iframe[title="Email: Confirm your EggWatch price alert"]');
    await expect(frame.getByRole('heading', { name: 'Confirm your price alert' })).toBeVisible();
    await expect(frame.getByRole('link', { name: 'Unsubscribe' })).toHaveAttribute(
      'href',
      /\/notifications\/unsubscribe\?token=/,
    );
    await snap(page, info, 'admin-outbox-email');
    await expectAccessible(page, 'the Outbox with an email open');

    // The email's manage link opens in a new tab and changes the alert without an account.
    const [manage] = await Promise.all([
      page.waitForEvent('popup'),
      frame.getByRole('link', { name: 'Manage this alert' }).click(),
    ]);
    await expect(manage.getByRole('heading', { name: 'Manage your price alert' })).toBeVisible();
    await expect(manage.getByText('Waiting for confirmation')).toBeVisible();
    await expect(manage.getByLabel(/^Email/)).toHaveAttribute('readonly', '');
    await expectAccessible(manage, 'the manage page');
    await manage.locator('form').getByLabel('Frequency', { exact: true }).selectOption('daily');
    await manage.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(manage, 'Subscription updated')).toContainText('Your price alert is saved.');
    await expect(
      manage.getByText('South · Organic eggs · All stores · at or under $4.00 a dozen · Daily Digest'),
    ).toBeVisible();
    await manage.close();

    // Its confirm link works from here too.
    const [confirm] = await Promise.all([
      page.waitForEvent('popup'),
      frame.getByRole('link', { name: 'Confirm the alert' }).click(),
    ]);
    await confirm.getByRole('button', { name: 'Confirm Subscription' }).click();
    await expect(confirm.getByRole('heading', { name: 'Price alert confirmed' })).toBeVisible();
    await confirm.close();
    expect(
      (
        await db`select notification_frequency, confirmed_at is not null as confirmed from subscriptions where email = ${email}`
      )[0],
    ).toEqual({ notification_frequency: 'daily', confirmed: true });
    dropSandboxedFrameNoise(pageProblems);
  });
});
