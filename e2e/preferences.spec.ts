// Local preferences: validation (the ZIP code optional), save to
// browser storage with the 'Preferences saved' toast and a return to /, where Near you searches
// the saved ZIP code at once; the form preloaded from what was saved; the alert switches as real
// subscriptions for a signed-in shopper, and the alert form, filled in, for a visitor.
import type { Page } from '@playwright/test';
import { createAccount, expect as dbExpect, signInDirectly, test, uniqueName } from './db.ts';
import { screenshot, toast } from './ui.ts';

// These journeys re-render many price cards per step; give slow machines time.
const expect = dbExpect.configure({ timeout: 20_000 });

/** Ticks a checkbox or switch the way a shopper does: by clicking its label. */
const tick = (page: Page, label: string) => page.getByText(label, { exact: true }).click();

test('preferences validate, save to the browser with a toast, return home and preload on the next visit', async ({
  page,
}, info) => {
  test.slow();
  await page.goto('/preferences');
  await expect(page.getByRole('heading', { level: 1, name: 'Preferences' })).toBeVisible();
  for (const title of ['Location', 'Product', 'Store favourites', 'Notifications']) {
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  }
  // Defaults: 12 eggs, notifications off.
  await expect(page.getByLabel('Egg count', { exact: true })).toHaveValue('12');
  await expect(page.getByRole('checkbox', { name: /Price drop alerts/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Weekly reports/ })).not.toBeChecked();
  await screenshot(page, info, 'preferences');

  // An egg type saves without a ZIP code.
  await page.getByLabel('Egg type', { exact: true }).selectOption('organic');
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page, 'Preferences saved')).toBeVisible();
  expect(
    await page.evaluate(() => JSON.parse(window.localStorage.getItem('eggwatch.preferences') ?? 'null')),
  ).toMatchObject({ zipCode: '', preferredEggType: 'organic' });
  await page.goto('/preferences');
  await expect(page.getByLabel('Egg type', { exact: true })).toHaveValue('organic');

  // A ZIP code given has at least 5 characters.
  await page.getByRole('textbox', { name: /^ZIP code/ }).fill('6061');
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(page.getByText('ZIP code must be at least 5 characters')).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^ZIP code/ })).toBeFocused();
  await expect(page).toHaveURL(/\/preferences$/);
  await screenshot(page, info, 'preferences-invalid');

  // The region follows the ZIP code (60611 is Chicago, in the Midwest).
  await page.getByRole('textbox', { name: /^ZIP code/ }).fill('60611');
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue('midwest');
  await page.getByLabel('Egg type', { exact: true }).selectOption('organic');
  await page.getByLabel('Egg count', { exact: true }).selectOption('18');
  await tick(page, 'Aldi');
  await tick(page, 'Kroger');
  await page.getByRole('button', { name: 'Save Preferences' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page, 'Preferences saved')).toBeVisible();
  // Near you searches the saved ZIP code at once.
  await expect(
    page.getByRole('region', { name: 'Near you' }).getByText(/^\d+ prices? within 25 miles of Chicago, IL 60611/),
  ).toBeVisible();
  const saved = await page.evaluate(() => JSON.parse(window.localStorage.getItem('eggwatch.preferences') ?? 'null'));
  expect(saved).toEqual({
    zipCode: '60611',
    region: 'midwest',
    preferredEggType: 'organic',
    preferredCount: 18,
    favoriteStores: ['aldi', 'kroger'],
    notifyPriceDrops: false,
    weeklyReport: false,
  });

  await page.goto('/preferences');
  await expect(page.getByRole('textbox', { name: /^ZIP code/ })).toHaveValue('60611');
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue('midwest');
  await expect(page.getByLabel('Egg type', { exact: true })).toHaveValue('organic');
  await expect(page.getByLabel('Egg count', { exact: true })).toHaveValue('18');
  await expect(page.getByRole('checkbox', { name: 'Aldi' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Kroger' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Walmart' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Price drop alerts/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Weekly reports/ })).not.toBeChecked();
  await screenshot(page, info, 'preferences-preloaded');

  // A region the shopper picks stays put; the ZIP's region is then only suggested.
  await page.getByLabel('Region', { exact: true }).selectOption('west');
  await page.getByRole('textbox', { name: /^ZIP code/ }).fill('10001');
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue('west');
  await page.getByRole('button', { name: 'Use Northeast' }).click();
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue('northeast');
});

test('the preferences form works from the keyboard', async ({ page }) => {
  await page.goto('/preferences');
  await page.getByRole('textbox', { name: /^ZIP code/ }).focus();
  await page.keyboard.type('30301');
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue('south');
  await page.getByRole('checkbox', { name: /Weekly reports/ }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: /Weekly reports/ })).toBeChecked();
  await page.getByRole('button', { name: 'Save Preferences' }).focus();
  await page.keyboard.press('Enter');
  // Weekly reports go by email: a visitor continues on the alert form, filled in for them.
  await expect(page).toHaveURL(/\/notifications\/subscribe\?region=south&frequency=weekly$/);
  await expect(page.getByText('Preferences saved')).toBeVisible();
});

test('Price drop alerts: a visitor goes to the alert form filled in, a signed-in shopper gets a subscription to manage', async ({
  page,
  db,
  baseURL,
}, info) => {
  test.slow();
  const alerts = page.getByRole('checkbox', { name: /Price drop alerts/ });

  // A visitor: the alert needs an email address, which the alert form asks for.
  await page.goto('/preferences');
  await page.getByRole('textbox', { name: /^ZIP code/ }).fill('60611');
  await page.getByLabel('Egg type', { exact: true }).selectOption('cage-free');
  await tick(page, 'Aldi');
  await tick(page, 'Price drop alerts');
  await expect(page.getByText(/^Alerts go by email: saving takes you to the alert form/)).toBeVisible();
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(page).toHaveURL(/\/notifications\/subscribe\?/);
  await expect(toast(page, 'Preferences saved')).toBeVisible();
  const form = page.locator('form');
  await expect(form.getByLabel('Region', { exact: true })).toHaveValue('midwest');
  await expect(form.getByLabel('Egg Type', { exact: true })).toHaveValue('cage-free');
  await expect(form.getByLabel('Frequency', { exact: true })).toHaveValue('immediately');
  await expect(form.getByRole('checkbox', { name: 'Aldi' })).toBeChecked();
  await expect(form.getByRole('checkbox', { name: 'Kroger' })).not.toBeChecked();
  // The form offers a region: it promises nothing "near you".
  await expect(
    page.getByText('Get an email when egg prices drop in the region you choose, or a daily or weekly summary.'),
  ).toBeVisible();
  await expect(page.getByText(/near you/i)).toHaveCount(0);

  // Signed in: saving sets up the subscription, to the account's (verified) address.
  const username = uniqueName('prefs', info.project.name);
  const account = await createAccount(db, {
    username,
    email: `${username}@example.test`,
    password: 'secret-pass',
    role: 'user',
  });
  await signInDirectly(page, db, account, baseURL!);
  await page.goto('/preferences');
  await expect(alerts).toBeChecked();
  await expect(page.getByText(`Saving sets up an email alert to ${account.email}.`)).toBeVisible();
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page, 'Preferences saved')).toContainText(`Price drop alerts go to ${account.email}.`);
  const [created] = await db<
    {
      id: number;
      region: string;
      egg_type: string;
      preferred_stores: string[];
      notification_frequency: string;
      active: boolean;
      confirmed: boolean;
    }[]
  >`
    select id, region, egg_type, preferred_stores, notification_frequency, active, confirmed_at is not null as confirmed
    from subscriptions where user_id = ${account.id}`;
  expect(created).toMatchObject({
    region: 'midwest',
    egg_type: 'cage_free',
    preferred_stores: ['aldi'],
    notification_frequency: 'immediately',
    active: true,
    confirmed: true,
  });

  // Back on Preferences the switch stands for that subscription, with a link to manage it.
  await page.goto('/preferences');
  await expect(page.getByText(`Sending to ${account.email}.`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Manage this alert' })).toHaveAttribute(
    'href',
    `/notifications/edit/${created!.id}`,
  );
  // Changed preferences carry over; turning the switch off pauses it. No second subscription.
  await tick(page, 'Kroger');
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/preferences');
  await tick(page, 'Price drop alerts');
  await expect(page.getByText(`Saving pauses the alert to ${account.email}.`)).toBeVisible();
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(toast(page, 'Preferences saved')).toContainText('Price drop alerts are off.');
  const after = await db<
    { id: number; preferred_stores: string[]; active: boolean }[]
  >`select id, preferred_stores, active from subscriptions where user_id = ${account.id}`;
  expect(after).toEqual([{ id: created!.id, preferred_stores: ['aldi', 'kroger'], active: false }]);
});
