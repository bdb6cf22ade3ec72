// Shopper accounts: registration (/auth and /signup), email verification through the emailed
// link, login, profile, subscriptions, password change, sign out, account deletion, and the
// forgot-password request. Every project (width) makes its own accounts: they share one
// database. Rate limits are per IP and the three projects share one, so each journey spends
// few login, register and reset attempts.
import {
  createAccount,
  createSubscription,
  expect,
  latestEmail,
  linkTo,
  signInDirectly,
  test,
  uniqueName,
  userByEmail,
} from './db.ts';
import { expectConsoleErrors, expectHeaderSignedIn, field, snap, toast } from './ui.ts';

/** The server's message goes under the toast's title 'Registration successful!', without repeating it. */
const REGISTERED = 'Please check your email to verify your address, then log in.';
const RESET_REQUESTED = 'If your email is registered, you will receive a password reset link shortly.';

test('the profile asks visitors without a session to log in', async ({ page }, info) => {
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(toast(page, 'Authentication required')).toContainText('Please log in to access your profile.');
  await expect(page.getByRole('tab', { name: 'Login', selected: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  await expect(page.getByRole('main').getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');

  // The show/hide toggle reveals the password and hides it again.
  const password = field(page, 'Password');
  await password.fill('secret-words');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await snap(page, info, 'auth-login');
});

test('/signup checks the form, explains a refusal and registers', async ({ page, db, pageProblems }, info) => {
  const taken = uniqueName('taken', info.project.name);
  await createAccount(db, {
    username: taken,
    email: `${taken}@example.test`,
    password: 'taken-password',
    role: 'user',
  });
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await snap(page, info, 'signup-invalid');

  const username = uniqueName('signup', info.project.name);
  const email = `${username}@example.test`;
  await field(page, 'Username').fill(taken);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill('signup-password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'Registration failed')).toContainText(
    'That username is already taken. Please choose another.',
  );
  await expect(
    page.getByRole('alert').filter({ hasText: 'The email address or username may already be in use.' }),
  ).toBeVisible();
  await expectConsoleErrors(pageProblems, 409);
  await snap(page, info, 'signup-failed');

  await field(page, 'Username').fill(username);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'Registration successful!')).toContainText(REGISTERED);
  await expect(page).toHaveURL(/\/auth$/);
  expect(await userByEmail(db, email)).toMatchObject({ username, role: 'user', email_verified: false });
});

test('register, verify, log in, edit the profile and subscriptions, change the password, sign out and delete the account', async ({
  page,
  db,
  pageProblems,
}, info) => {
  test.setTimeout(120_000);
  const username = uniqueName('shopper', info.project.name);
  const email = `${username}@example.test`;
  const password = 'first-password';
  const newPassword = 'second-password';
  const shot = (name: string) => snap(page, info, name);

  await test.step('register on the /auth Register tab', async () => {
    await page.goto('/auth?tab=register');
    await expect(page.getByRole('tab', { name: 'Register', selected: true })).toBeVisible();
    await shot('auth-register');
    await field(page, 'First name (optional)').fill('Erin');
    await field(page, 'Username').fill(username);
    await field(page, 'Email').fill(email);
    await field(page, 'Password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(toast(page, 'Registration successful!')).toContainText(REGISTERED);
    // After 1.5 s the Login tab opens with the new email filled in.
    await expect(page.getByRole('tab', { name: 'Login', selected: true })).toBeVisible();
    await expect(field(page.getByRole('form', { name: 'Log in' }), 'Email')).toHaveValue(email);
  });

  await test.step('verify the email through the emailed link', async () => {
    const message = await latestEmail(db, email, /Confirm your EggWatch email address/);
    await page.goto(linkTo(message.text, '/verify-email'));
    await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/auth');
    await shot('verify-email-done');
    expect((await userByEmail(db, email))?.email_verified).toBe(true);
  });

  await test.step('a wrong password is refused', async () => {
    await page.goto('/auth');
    await field(page, 'Email').fill(email);
    await field(page, 'Password').fill('not-my-password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(toast(page, 'Login failed')).toContainText('Invalid email or password.');
    await expectConsoleErrors(pageProblems, 401);
    await shot('auth-login-failed');
  });

  await test.step('log in', async () => {
    await field(page, 'Password').fill(password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(toast(page, 'Login successful!')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    const user = await userByEmail(db, email);
    const stored = await page.evaluate(() => ({ ...localStorage }));
    // The marker, never the session token (docs/decisions/003-browser-session.md).
    expect(stored).toMatchObject({ authToken: 'cookie-session', userId: user!.id });
    expect(stored.userData).toBeUndefined();
    await expectHeaderSignedIn(page, true);
  });

  await test.step('edit the profile', async () => {
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    await expect(field(page, 'Email')).toHaveValue(email);
    await expect(field(page, 'First name')).toHaveValue('Erin');
    await shot('profile');
    await field(page, 'Username').fill('x');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
    await field(page, 'Username').fill(`${username}-2`);
    await field(page, 'Last name').fill('Eggleston');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'Profile updated')).toBeVisible();
    await expect(page.getByText(`Signed in as ${username}-2`)).toBeVisible();
    expect((await userByEmail(db, email))?.username).toBe(`${username}-2`);
  });

  await test.step('list and delete a subscription', async () => {
    const user = await userByEmail(db, email);
    await page.getByRole('tab', { name: 'Subscriptions' }).click();
    await expect(page.getByText('No price alerts yet')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add New Subscription' })).toHaveAttribute(
      'href',
      '/notifications/subscribe',
    );
    await shot('profile-subscriptions-empty');

    const id = await createSubscription(db, {
      userId: user!.id,
      email,
      region: 'midwest',
      eggType: 'organic',
      stores: ['walmart', 'aldi'],
      threshold: 4.5,
      frequency: 'daily',
    });
    await page.reload();
    const card = page.getByRole('listitem').filter({ hasText: 'Midwest · Organic' });
    await expect(card).toBeVisible();
    await expect(card.getByText('Active', { exact: true })).toBeVisible();
    await expect(card).toContainText(email);
    await expect(card).toContainText('Daily Digest');
    await expect(card).toContainText('$4.50');
    await expect(card).toContainText('Walmart, Aldi');
    await expect(card.getByRole('link', { name: /Edit/ })).toHaveAttribute('href', `/notifications/edit/${id}`);
    await expect(page.getByRole('link', { name: 'Add New', exact: true })).toHaveAttribute(
      'href',
      '/notifications/subscribe',
    );
    await shot('profile-subscriptions');
    await card.getByRole('button', { name: /Delete/ }).click();
    await expect(toast(page, 'Subscription deleted')).toBeVisible();
    await expect(page.getByText('No price alerts yet')).toBeVisible();
  });

  await test.step('change the password', async () => {
    await page.getByRole('tab', { name: 'Security' }).click();
    await field(page, 'Current password').fill('not-my-password');
    await field(page, 'New password').fill(newPassword);
    await field(page, 'Confirm new password').fill('something-else');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText("Passwords don't match")).toBeVisible();
    await field(page, 'Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(toast(page, 'Password change failed')).toContainText('Current password is incorrect');
    await expectConsoleErrors(pageProblems, 400);
    await shot('profile-security');
    await field(page, 'Current password').fill(password);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(toast(page, 'Password changed')).toBeVisible();
    await expect(field(page, 'Current password')).toHaveValue('');
  });

  await test.step('sign out', async () => {
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(toast(page, 'Logged out')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => ({ ...localStorage }))).not.toHaveProperty('authToken');
    await expectHeaderSignedIn(page, false);
  });

  await test.step('log in with the new password and delete the account', async () => {
    await page.goto('/auth');
    await field(page, 'Email').fill(email);
    await field(page, 'Password').fill(newPassword);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(toast(page, 'Login successful!')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    await shot('profile-delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await expect(toast(page, 'Account deleted')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => ({ ...localStorage }))).not.toHaveProperty('authToken');
    expect(await userByEmail(db, email)).toBeUndefined();
    await expectHeaderSignedIn(page, false);
  });
});

test('forgot password: a generic confirmation, and the emailed link opens the reset form', async ({
  page,
  db,
}, info) => {
  const username = uniqueName('forgot', info.project.name);
  const account = await createAccount(db, {
    username,
    email: `${username}@example.test`,
    password: 'forgotten-password',
    role: 'user',
  });
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await snap(page, info, 'forgot-password');
  await field(page, 'Email').fill(account.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(toast(page, 'Password Reset Requested')).toContainText(RESET_REQUESTED);
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  await snap(page, info, 'forgot-password-sent');

  const message = await latestEmail(db, account.email, /Reset your EggWatch password/);
  const link = linkTo(message.text, '/reset-password');
  await page.goto(link);
  await expect(field(page, 'Reset token')).toHaveValue(new URL(link).searchParams.get('token')!);
  await field(page, 'New password').fill('short');
  await field(page, 'Confirm new password').fill('different');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await snap(page, info, 'reset-password');
});

test('a verification link that does not work says so', async ({ page, pageProblems }, info) => {
  await page.goto('/verify-email?token=not-a-real-token');
  await expect(page.getByRole('heading', { name: 'Verification failed' })).toBeVisible();
  await expect(page.getByText('This verification link is invalid or has expired.')).toBeVisible();
  await expectConsoleErrors(pageProblems, 400);
  await snap(page, info, 'verify-email-failed');
  await page.goto('/verify-email');
  await expect(
    page.getByText('This verification link is incomplete. Open the link from your email again.'),
  ).toBeVisible();
});

test('an unverified address gets a new verification email from the profile', async ({ page, db, baseURL }, info) => {
  const username = uniqueName('unverified', info.project.name);
  const account = await createAccount(db, {
    username,
    email: `${username}@example.test`,
    password: 'unverified-password',
    role: 'user',
    emailVerified: false,
  });
  await signInDirectly(page, db, account, baseURL!);
  await page.goto('/profile');
  await expect(page.getByText('Not verified', { exact: true })).toBeVisible();
  await snap(page, info, 'profile-unverified');
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(toast(page, 'Verification email sent')).toContainText(account.email);
  const message = await latestEmail(db, account.email, /Confirm your EggWatch email address/);
  expect(linkTo(message.text, '/verify-email')).toContain('/verify-email?token=');
});

test('a profile whose session has ended offers the way back to the login', async ({ page, pageProblems }, info) => {
  // The marker without a session cookie: the server answers 401 and the marker is dropped.
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('authToken', 'cookie-session'));
  await page.goto('/profile');
  await expect(page.getByText('Failed to load user profile. Please try logging in again.')).toBeVisible();
  await expectConsoleErrors(pageProblems, 401);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  await expectHeaderSignedIn(page, false);
  await snap(page, info, 'profile-load-failed');
  await page.getByRole('link', { name: 'Go to Login' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});
