// Local preferences (SPEC §2 "Preferences", §5): validation, save to browser storage with the
// 'Preferences saved' toast and a return to /, and the form preloaded from what was saved.
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from './fixtures.ts';

// These journeys re-render many price cards per step; give slow machines time.
const expect = baseExpect.configure({ timeout: 20_000 });

/** Ticks a checkbox or switch the way a shopper does: by clicking its label. */
const tick = (page: Page, label: string) => page.getByText(label, { exact: true }).click();

test('preferences validate, save to the browser with a toast, return home and preload on the next visit', async ({ page }, info) => {
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
  await page.screenshot({ path: info.outputPath('preferences.png'), fullPage: true });

  // SPEC §5: at least 5 characters.
  await page.getByRole('textbox', { name: /^ZIP code/ }).fill('6061');
  await page.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(page.getByText('ZIP code must be at least 5 characters')).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^ZIP code/ })).toBeFocused();
  await expect(page).toHaveURL(/\/preferences$/);
  await page.screenshot({ path: info.outputPath('preferences-invalid.png'), fullPage: true });

  // The region follows the ZIP code (60611 is Chicago, in the Midwest).
  await page.getByRole('textbox', { name: /^ZIP code/ }).fill('60611');
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue('midwest');
  await page.getByLabel('Egg type', { exact: true }).selectOption('organic');
  await page.getByLabel('Egg count', { exact: true }).selectOption('18');
  await tick(page, 'Aldi');
  await tick(page, 'Kroger');
  await tick(page, 'Price drop alerts');
  await expect(page.getByRole('checkbox', { name: /Price drop alerts/ })).toBeChecked();
  await page.getByRole('button', { name: 'Save Preferences' }).click();

  await expect(page).toHaveURL(/\/$/);
  const toast = page.getByText('Preferences saved');
  await expect(toast).toBeVisible();
  const saved = await page.evaluate(() => JSON.parse(window.localStorage.getItem('eggwatch.preferences') ?? 'null'));
  expect(saved).toEqual({
    zipCode: '60611',
    region: 'midwest',
    preferredEggType: 'organic',
    preferredCount: 18,
    favoriteStores: ['aldi', 'kroger'],
    notifyPriceDrops: true,
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
  await expect(page.getByRole('checkbox', { name: /Price drop alerts/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Weekly reports/ })).not.toBeChecked();
  await page.screenshot({ path: info.outputPath('preferences-preloaded.png'), fullPage: true });

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
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Preferences saved')).toBeVisible();
});
