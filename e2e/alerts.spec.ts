// Price alerts: an anonymous shopper subscribes, confirms through the link in the email, gets
// exactly one immediate alert when prices cross the threshold, and the one-click unsubscribe stops
// the next one; a signed-in user's form is prefilled and confirmed at once, and the subscription
// is edited from the profile; someone else's subscription is the 404 page.
import type { Page } from '@playwright/test';
import { createAccount, emailsTo, expect, signInDirectly, test, uniqueName, writeScrapedPrices } from './db.ts';
import { expectConsoleErrors, field, snap, toast } from './ui.ts';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

async function fillForm(page: Page, values: { email?: string; region?: string; eggType?: string; threshold?: string; frequency?: string; stores?: string[] }) {
  if (values.email !== undefined) await field(page, 'Email').fill(values.email);
  const form = page.locator('form');
  if (values.region) await form.getByLabel('Region', { exact: true }).selectOption(values.region);
  if (values.eggType) await form.getByLabel('Egg Type', { exact: true }).selectOption(values.eggType);
  if (values.threshold !== undefined) await form.getByLabel('Price threshold (per dozen, optional)').fill(values.threshold);
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
  await fillForm(page, { email: `${uniqueName('form', info.project.name)}@example.test`, threshold: '3.50', stores: ['Aldi'] });
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(toast(page, 'Subscription created!')).toBeVisible();
  await expect(page.getByRole('main').getByText('Check your inbox: we sent a link to confirm this alert.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  await snap(page, info, 'subscribe-done');
  await page.getByRole('button', { name: 'Add Another Subscription' }).click();
  await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();
  await expect(field(page, 'Email')).toHaveValue('');
});

test.describe('the whole alert path', () => {
  test.skip(({ viewport }) => (viewport?.width ?? 0) < 1024, 'one width: the path is the same at every width');

  test('subscribe, confirm by email, one immediate alert, one-click unsubscribe', async ({ page, db }, info) => {
    const email = `${uniqueName('alert', info.project.name)}@example.test`;
    await page.goto('/notifications/subscribe');
    await fillForm(page, { email, region: 'midwest', eggType: 'cage-free', threshold: '3.00', frequency: 'immediately' });
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('main').getByText(/^Check your inbox/)).toBeVisible();

    // Nothing goes to an unconfirmed address: prices under the threshold now alert nobody.
    await writeScrapedPrices(db, { store: 'kroger', zip: '60614', region: 'midwest', listings: [{ id: `e2e-${email}-1`, eggType: 'cage_free', count: 18, price: 4.5 }] });
    await expect.poll(async () => (await emailsTo(db, email)).map((e) => e.subject)).toEqual(['Confirm your EggWatch price alert']);

    const confirmation = (await emailsTo(db, email))[0]!;
    const link = /https?:\/\/\S+\/notifications\/confirm\?token=\S+/.exec(confirmation.text)![0];
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByRole('button', { name: 'Confirm Subscription' }).click();
    await expect(page.getByRole('heading', { name: 'Price alert confirmed' })).toBeVisible();
    await expect(page.getByText('Midwest · Cage-Free eggs · All stores · at or under $3.00 a dozen · Immediately')).toBeVisible();
    await snap(page, info, 'subscription-confirmed');

    // A price under the threshold: exactly one alert.
    await writeScrapedPrices(db, { store: 'kroger', zip: '60614', region: 'midwest', listings: [{ id: `e2e-${email}-2`, eggType: 'cage_free', count: 12, price: 2.79 }] });
    await expect.poll(async () => (await emailsTo(db, email)).filter((e) => e.status === 'logged').length, { timeout: 30_000 }).toBe(2);
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
    await writeScrapedPrices(db, { store: 'kroger', zip: '60614', region: 'midwest', listings: [{ id: `e2e-${email}-3`, eggType: 'cage_free', count: 12, price: 2.49 }] });
    await expect.poll(async () => Number((await db`select count(*) as n from graphile_worker.jobs where task_identifier = 'alerts__immediate'`)[0]!.n)).toBe(0);
    expect(await emailsTo(db, email)).toHaveLength(2);

    // The unsubscribe page of the same link says it is done.
    await page.goto(new URL(unsubscribeUrl).pathname + new URL(unsubscribeUrl).search);
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
    await snap(page, info, 'unsubscribed');
  });

  test('a signed-in user subscribes with the prefilled form, edits from the profile, and cannot open another’s', async ({ page, db, baseURL, pageProblems }, info) => {
    const name = uniqueName('alerts-user', info.project.name);
    const user = await createAccount(db, { username: name, email: `${name}@example.test`, password: 'secret123', role: 'user' });
    await signInDirectly(page, db, user, baseURL!);
    await page.evaluate(() => localStorage.setItem('eggwatch.preferences', JSON.stringify({ zipCode: '30301', region: 'south', preferredEggType: 'organic', preferredCount: 12, favoriteStores: [], notifyPriceDrops: false, weeklyReport: false })));
    await page.getByRole('link', { name: 'Price Alerts' }).click();
    await expect(field(page, 'Email')).toHaveValue(user.email);
    await expect(page.locator('form').getByLabel('Region', { exact: true })).toHaveValue('south');
    await expect(page.locator('form').getByLabel('Egg Type', { exact: true })).toHaveValue('organic');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('main').getByText('Subscription created!', { exact: true })).toBeVisible();
    await expect(page.getByRole('main').getByText('Alerts go to your verified email address.', { exact: true })).toBeVisible();

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
    const [other] = await db<{ id: number }[]>`insert into subscriptions (email, unsubscribe_token) values ('other@example.test', ${`tok-${name}`}) returning id`;
    await page.goto(`/notifications/edit/${other!.id}`);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expectConsoleErrors(pageProblems, 404);
  });
});
