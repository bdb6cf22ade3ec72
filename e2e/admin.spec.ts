// The admin area: first-time setup's closed state once an administrator exists, password
// recovery with the token the server shows in demonstration mode, login with "remember me", the
// dashboard, and the refusals of the admin area (docs/features/admin.md). The setup itself runs
// first, once, on the fresh database (e2e/first-admin.spec.ts) and makes the administrator used
// here. The tests run in order; the admin's password is reset to the same value, so every project
// can log in with it.
import { createAccount, expect, signInDirectly, test, uniqueName, userByEmail } from './db.ts';
import { ADMIN, PASSWORD_RULES } from './admin-account.ts';
import { expectConsoleErrors, field, snap, toast } from './ui.ts';

const RESET_REQUESTED = 'If your email is registered, you will receive a password reset link shortly.';

test.describe.configure({ mode: 'serial' });

test('admin setup is closed once an administrator exists', async ({ page, db }, info) => {
  expect(await userByEmail(db, ADMIN.email), 'the administrator the first-time setup made').toMatchObject({
    role: 'admin',
  });
  const status = await page.request.get('/trpc/admin.setupStatus');
  expect((await status.json()).result.data.json.open).toBe(false);

  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByRole('link', { name: 'First-time setup' }).click();
  await expect(page).toHaveURL(/\/admin\/setup$/);
  await expect(page.getByRole('heading', { name: 'Admin setup is closed' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Admin Login' })).toHaveAttribute('href', '/admin/login');
  await snap(page, info, 'admin-setup-closed');
});

test('admin password reset with the token the server returns', async ({ page }, info) => {
  await page.goto('/admin/reset-password?token=from-a-link');
  await expect(page.getByRole('tab', { name: 'Reset Password', selected: true })).toBeVisible();
  await expect(field(page, 'Reset token')).toHaveValue('from-a-link');

  await page.goto('/admin/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/admin\/reset-password$/);
  await expect(page.getByRole('tab', { name: 'Request Reset', selected: true })).toBeVisible();
  await snap(page, info, 'admin-reset-request');
  await field(page, 'Email').fill(ADMIN.email);
  await page.getByRole('button', { name: 'Request Reset' }).click();
  await expect(toast(page, 'Password Reset Requested')).toContainText(RESET_REQUESTED);
  await expect(page.getByText('For demonstration, the server returned your reset token:')).toBeVisible();
  const token = (await page.getByTestId('reset-token').textContent())?.trim() ?? '';
  expect(token).not.toBe('');
  await snap(page, info, 'admin-reset-token');

  await page.getByRole('button', { name: 'Use this token' }).click();
  await expect(page.getByRole('tab', { name: 'Reset Password', selected: true })).toBeVisible();
  await expect(field(page, 'Reset token')).toHaveValue(token);
  await field(page, 'New password').fill('abc');
  await field(page, 'Confirm new password').fill('abd');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  for (const rule of PASSWORD_RULES) await expect(page.getByText(rule)).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await snap(page, info, 'admin-reset-invalid');

  // The same password again, so every project's login below uses one known password.
  await field(page, 'New password').fill(ADMIN.password);
  await field(page, 'Confirm new password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(toast(page, 'Password Reset Successful')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('admin login with remember me, the dashboard and sign out', async ({ page, pageProblems }, info) => {
  await page.goto('/admin/login');
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Please enter a valid email')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await snap(page, info, 'admin-login-invalid');

  // Shorter than any account password: the server refuses it before checking anything.
  await field(page, 'Email').fill(ADMIN.email);
  await field(page, 'Password').fill('12345');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(toast(page, 'Login Failed')).toContainText('Password must be at least 6 characters');
  await expectConsoleErrors(pageProblems, 400);

  // The rest with the keyboard only: the fields, the toggle, the checkbox and the button in order.
  await field(page, 'Password').fill('');
  await field(page, 'Email').focus();
  await page.keyboard.press('Tab');
  await expect(field(page, 'Password')).toBeFocused();
  await page.keyboard.type(ADMIN.password);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused();
  await page.keyboard.press('Tab');
  const remember = page.getByRole('checkbox', { name: 'Remember me for 30 days' });
  await expect(remember).toBeFocused();
  await page.keyboard.press('Space');
  await expect(remember).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  const stored = await page.evaluate(() => ({ ...localStorage }));
  expect(stored.authToken).toBe('cookie-session');
  expect(JSON.parse(stored.userData ?? '{}')).toMatchObject({
    username: ADMIN.username,
    email: ADMIN.email,
    role: 'admin',
  });
  // "Remember me" made a 30-day session cookie.
  const cookie = (await page.context().cookies()).find((c) => c.name === 'eggwatch_session');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);

  const overview = page.getByLabel('Accounts overview');
  await expect(overview).toContainText('Administrators');
  await expect(overview).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('tab', { name: 'Data Scrapers', selected: true })).toBeVisible();
  for (const name of ['Walmart', 'Target', 'Kroger', 'Albertsons', 'Whole Foods', 'Aldi']) {
    await expect(page.getByRole('heading', { name, level: 3, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: `Run ${name} Scraper` })).toBeVisible();
  }
  await expect(page.getByRole('status', { name: 'Walmart scraper status' })).toContainText(/Last Run/);
  await expect(page.getByRole('heading', { name: 'Recent runs' })).toBeVisible();
  await snap(page, info, 'admin-dashboard-scrapers');

  await page.getByRole('tab', { name: 'Stores' }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(7);
  for (const name of ['Albertsons', 'Aldi', 'Kroger', 'Target', 'Walmart', 'Whole Foods']) {
    await expect(table.getByRole('row').filter({ hasText: name })).toContainText('Active');
  }
  await snap(page, info, 'admin-dashboard-stores');

  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeEnabled();
  await expect(page.getByRole('checkbox', { name: /Daily scraping/ })).toBeVisible();
  // Nothing unfinished is shown: one schedule for every store.
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
  await snap(page, info, 'admin-dashboard-settings');

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(toast(page, 'Logged out')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(await page.evaluate(() => ({ ...localStorage }))).not.toHaveProperty('userData');
});

test('a non-admin account is refused', async ({ page, db, baseURL }, info) => {
  const username = uniqueName('not-admin', info.project.name);
  const account = await createAccount(db, {
    username,
    email: `${username}@example.test`,
    password: 'plain-user-password',
    role: 'user',
  });

  await page.goto('/admin/login');
  await field(page, 'Email').fill(account.email);
  await field(page, 'Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert').filter({ hasText: "You don't have administrator privileges." })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(await page.evaluate(() => ({ ...localStorage }))).not.toHaveProperty('authToken');
  await snap(page, info, 'admin-login-refused');
  // The session that login made has been ended.
  await expect.poll(async () => (await page.request.get('/trpc/auth.verify')).status()).toBe(401);

  // A signed-in shopper who opens the dashboard is sent home.
  await signInDirectly(page, db, account, baseURL!);
  await page.goto('/admin/dashboard');
  await expect(toast(page, 'Access Denied')).toContainText('You do not have administrator privileges');
  await expect(page).toHaveURL(/\/$/);
});

test('the dashboard sends browsers without a valid session to the admin login', async ({ page, pageProblems }) => {
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin\/login$/);

  // A marker whose session has gone (no cookie): the server says so and the marker is dropped.
  await page.evaluate(() => localStorage.setItem('authToken', 'cookie-session'));
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expectConsoleErrors(pageProblems, 401);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
});
