// Filters kept in the URL: two changes made in the same tick, before the page re-renders, both
// take effect on the store, compare and dashboard pages (a shopper changing two filters quickly,
// or a slow phone). One width: the logic is the same at every width.
import type { ElementHandle, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { pageSizeForWidth } from '../src/shared/pagination.ts';

type Change = { select: Locator; value: string } | { click: Locator };

/** Performs every change in one task of the page's event loop, so React cannot re-render in between. */
async function inOneTick(page: Page, changes: Change[]): Promise<void> {
  const handles: ElementHandle[] = [];
  for (const change of changes)
    handles.push((await ('select' in change ? change.select : change.click).elementHandle())!);
  const plan = changes.map((change) => ('select' in change ? { value: change.value } : { value: null }));
  await page.evaluate(
    ([elements, steps]) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!;
      steps.forEach((step, i) => {
        const element = elements[i] as HTMLElement;
        if (step.value === null) {
          element.click();
        } else {
          setValue.call(element, step.value);
          element.dispatchEvent(new Event('change', { bubbles: true }));
        }
      });
    },
    [handles, plan] as const,
  );
}

const filters = (page: Page) => page.getByRole('region', { name: 'Filters' });
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

test('the store page keeps both of two filter changes made at once', async ({ page }) => {
  const entries: Array<{ count: number }> = await (await page.request.get('/api/stores/walmart/prices')).json();
  await page.goto('/store/walmart?region=south&type=cage-free&count=6');
  const cards = page.getByRole('list', { name: 'Walmart prices' }).getByRole('article');
  await expect(filters(page).getByLabel('Egg Type', { exact: true })).toHaveValue('cage-free');
  await expect(page.getByText('No prices available for the selected filters.')).toBeVisible();

  await inOneTick(page, [
    { select: filters(page).getByLabel('Egg Type', { exact: true }), value: '' },
    { select: filters(page).getByLabel('Region', { exact: true }), value: '' },
  ]);
  await expect.poll(() => query(page)).toEqual({ count: '6' });
  await expect(filters(page).getByLabel('Egg Type', { exact: true })).toHaveValue('');
  await expect(filters(page).getByLabel('Region', { exact: true })).toHaveValue('');
  // The store page shows its first page of cards (the screen's page size, as the dashboard).
  await expect(cards).toHaveCount(
    Math.min(entries.filter((e) => e.count === 6).length, pageSizeForWidth(page.viewportSize()!.width)),
  );
});

test('the compare page keeps both of two filter changes made at once', async ({ page }) => {
  await page.goto('/compare/organic');
  await expect(page.getByRole('heading', { name: 'Compare Organic Egg Prices' })).toBeVisible();
  const count = filters(page).getByLabel('Count', { exact: true });
  await expect(count.locator('option[value="12"]')).toBeAttached();

  await inOneTick(page, [
    { select: filters(page).getByLabel('Region', { exact: true }), value: 'west' },
    { select: count, value: '12' },
  ]);
  await expect.poll(() => query(page)).toEqual({ region: 'west', count: '12' });
  await expect(filters(page).getByLabel('Region', { exact: true })).toHaveValue('west');
  await expect(count).toHaveValue('12');
});

test('the dashboard keeps an applied filter and a view change made at once, and Back returns to the view before', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByText(/^Showing \d+ to \d+ of \d+ results$/)).toBeVisible();
  const panel = filters(page);
  await panel.getByRole('combobox', { name: 'Store', exact: true }).selectOption('aldi');

  await inOneTick(page, [
    { click: panel.getByRole('button', { name: 'Apply Filters' }) },
    { click: page.getByRole('button', { name: 'List View' }) },
  ]);
  await expect.poll(() => query(page)).toEqual({ store: 'aldi', view: 'list' });
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
  await expect(page.getByText('Showing 1 to 1 of 1 results')).toBeVisible();

  // Applying filters is a history entry; the layout choice is not.
  await page.goBack();
  await expect.poll(() => query(page)).toEqual({});
});
