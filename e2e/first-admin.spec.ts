// First-time admin setup on a database with no administrator. This file is its own Playwright
// project ('first-admin', playwright.config.ts) that every other project depends on: it runs
// first, once, on the fresh database e2e/serve.ts makes, so the setup form is always open here
// and the other journeys (the accessibility checks, the admin area) find its administrator.
import { expect, test, userByEmail } from './db.ts';
import { ADMIN, PASSWORD_RULES, SETUP_KEY } from './admin-account.ts';
import { expectAccessible, expectConsoleErrors, field, snap, toast } from './ui.ts';

test('first admin setup: the form checks its fields and the key, creates the administrator, then closes', async ({
  page,
  db,
  pageProblems,
}, info) => {
  const [row] = await db<{ admins: number }[]>`select count(*)::int as admins from users where role = 'admin'`;
  expect(row?.admins, 'administrators before the first setup').toBe(0);
  const status = await page.request.get('/trpc/admin.setupStatus');
  expect((await status.json()).result.data.json.open).toBe(true);

  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByRole('link', { name: 'First-time setup' }).click();
  await expect(page).toHaveURL(/\/admin\/setup$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page, 'the admin setup form');

  await page.getByRole('button', { name: 'Create Administrator' }).click();
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Setup key is required')).toBeVisible();
  await field(page, 'Password').fill('abc');
  for (const rule of PASSWORD_RULES) await expect(page.getByText(rule)).toBeVisible();
  await field(page, 'Username').fill(ADMIN.username);
  await field(page, 'Email').fill(ADMIN.email);
  await field(page, 'Password').fill(ADMIN.password);
  await field(page, 'Confirm password').fill(`${ADMIN.password}-typo`);
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await snap(page, info, 'admin-setup-invalid');

  await field(page, 'Confirm password').fill(ADMIN.password);
  await field(page, 'Setup key').fill('not-the-setup-key');
  await page.getByRole('button', { name: 'Create Administrator' }).click();
  await expect(toast(page, 'Setup Failed')).toContainText('Invalid setup key');
  await expectConsoleErrors(pageProblems, 403);
  expect(await userByEmail(db, ADMIN.email), 'no account from a refused setup').toBeUndefined();

  await field(page, 'Setup key').fill(SETUP_KEY);
  await page.getByRole('button', { name: 'Create Administrator' }).click();
  await expect(toast(page, 'Admin Setup Successful')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Setup complete' })).toBeVisible();
  await snap(page, info, 'admin-setup-done');
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(await userByEmail(db, ADMIN.email)).toMatchObject({ role: 'admin', username: ADMIN.username });

  await page.goto('/admin/setup');
  await expect(page.getByRole('heading', { name: 'Admin setup is closed' })).toBeVisible();
  expect((await (await page.request.get('/trpc/admin.setupStatus')).json()).result.data.json.open).toBe(false);
});
