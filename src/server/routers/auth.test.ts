// Account procedures through a tRPC caller against a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor, TEST_SETUP_KEY } from '../../../test/caller.ts';
import { createAccount, linkToken, newestEmail } from '../../../test/users.ts';
import { REGISTERED_MESSAGE, RESET_REQUESTED_MESSAGE } from './auth.ts';
import type { SessionUser } from '../context.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
});
afterAll(() => db.drop());

const anonymous = (ip = `10.0.0.${Math.floor(Math.random() * 250)}`, cookies: string[] = [], config = {}) =>
  callerFor({ sql: db.sql, http: { ip, setCookie: (c) => cookies.push(c) }, config });
const as = (user: SessionUser, sessionId: string) =>
  callerFor({ sql: db.sql, user, session: { id: sessionId, expiresAt: new Date(Date.now() + 3_600_000) } });
const sessionsOf = async (userId: string) =>
  (await db.sql<{ id: string }[]>`select id from user_sessions where user_id = ${userId}`).map((s) => s.id);

describe('register and verify', () => {
  it('creates an account with an argon2id hash and emails a verification link that works once', async () => {
    const result = await anonymous().auth.register({
      username: 'eggfan',
      email: 'EggFan@Example.test',
      password: 'secret1',
      first_name: 'Ada',
    });
    expect(result).toEqual({ message: REGISTERED_MESSAGE });
    const [user] = await db.sql<{ email: string; password_hash: string; email_verified: boolean; role: string }[]>`
      select email, password_hash, email_verified, role from users where username = 'eggfan'`;
    expect(user).toMatchObject({ email: 'eggfan@example.test', email_verified: false, role: 'user' });
    expect(user!.password_hash).toMatch(/^\$argon2id\$/);

    const email = await newestEmail(db.sql, 'eggfan@example.test');
    expect(email!.subject).toMatch(/Confirm/);
    const token = linkToken(email!.text);
    const [stored] = await db.sql`select token_hash from email_verification_tokens`;
    expect(stored!.token_hash).not.toBe(token);

    await anonymous().auth.verifyEmail({ token });
    const [after] = await db.sql`select email_verified from users where username = 'eggfan'`;
    expect(after!.email_verified).toBe(true);
    await expect(anonymous().auth.verifyEmail({ token })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('answers a known email exactly like a new one and tells the owner by email instead', async () => {
    const before = await db.sql`select count(*)::int as n from users`;
    const result = await anonymous().auth.register({
      username: 'someoneelse',
      email: 'eggfan@example.test',
      password: 'secret1',
    });
    expect(result).toEqual({ message: REGISTERED_MESSAGE });
    expect(await db.sql`select count(*)::int as n from users`).toEqual(before);
    expect((await newestEmail(db.sql, 'eggfan@example.test'))!.subject).toMatch(/already have/);
  });

  it('refuses a taken username with CONFLICT and bad input with BAD_REQUEST messages', async () => {
    await expect(
      anonymous().auth.register({ username: 'EGGFAN', email: 'new@example.test', password: 'secret1' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      anonymous().auth.register({ username: 'ab', email: 'x@example.test', password: 'secret1' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('Username must be at least 3 characters'),
    });
    await expect(
      anonymous().auth.register({ username: 'abcd', email: 'not-an-email', password: 'secret1' }),
    ).rejects.toMatchObject({ message: expect.stringContaining('Please enter a valid email address') });
    await expect(
      anonymous().auth.register({ username: 'abcd', email: 'y@example.test', password: '123' }),
    ).rejects.toMatchObject({ message: expect.stringContaining('Password must be at least 6 characters') });
    await expect(
      anonymous().auth.register({ username: 'a'.repeat(500), email: 'z@example.test', password: 'secret1' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe('login and sessions', () => {
  it('returns a token and the user and sets an httpOnly SameSite=Lax cookie; remember me lasts 30 days', async () => {
    const account = await createAccount(db.sql, { password: 'right-pass' });
    const cookies: string[] = [];
    const result = await anonymous(undefined, cookies).auth.login({
      email: account.user.email.toUpperCase(),
      password: 'right-pass',
    });
    expect(result.user).toMatchObject({ id: account.user.id, role: 'user', email: account.user.email });
    expect(result.user).not.toHaveProperty('password_hash');
    expect(cookies[0]).toMatch(/^eggwatch_session=/);
    expect(cookies[0]).toMatch(/HttpOnly/i);
    expect(cookies[0]).toMatch(/SameSite=Lax/i);
    expect(cookies[0]).not.toMatch(/Max-Age|Expires/i);

    const remembered: string[] = [];
    const long = await anonymous(undefined, remembered).auth.login({
      email: account.user.email,
      password: 'right-pass',
      remember: true,
    });
    expect(remembered[0]).toMatch(/Max-Age=2592000/);
    expect(new Date(long.expiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it('gives one answer for a wrong password and for an unknown email', async () => {
    const account = await createAccount(db.sql);
    const wrong = await anonymous()
      .auth.login({ email: account.user.email, password: 'wrong-password' })
      .catch((e: unknown) => e);
    const unknown = await anonymous()
      .auth.login({ email: 'nobody@example.test', password: 'wrong-password' })
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid email or password.' });
    expect(unknown).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid email or password.' });
  });

  it('rate limits logins per account and per IP with TOO_MANY_REQUESTS', async () => {
    const account = await createAccount(db.sql);
    for (let i = 0; i < 8; i++)
      await anonymous()
        .auth.login({ email: account.user.email, password: 'wrong-password' })
        .catch(() => {});
    await expect(
      anonymous().auth.login({ email: account.user.email, password: account.password }),
    ).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    for (let i = 0; i < 20; i++)
      await anonymous('10.9.9.9')
        .auth.login({ email: `n${i}@example.test`, password: 'whatever' })
        .catch(() => {});
    await expect(
      anonymous('10.9.9.9').auth.login({ email: 'fresh@example.test', password: 'whatever' }),
    ).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });

  it('verify returns the session user; logout ends the session', async () => {
    const account = await createAccount(db.sql);
    expect((await as(account.user, account.session.id).auth.verify()).user.id).toBe(account.user.id);
    await expect(anonymous().auth.verify()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await anonymous().auth.logout({ token: account.token });
    expect(await sessionsOf(account.user.id)).toEqual([]);
  });
});

describe('passwords', () => {
  it('changing the password ends every other session and keeps this one', async () => {
    const account = await createAccount(db.sql, { password: 'old-pass' });
    const other = await anonymous().auth.login({ email: account.user.email, password: 'old-pass' });
    const me = as(account.user, account.session.id);
    await expect(
      me.auth.changePassword({ current_password: 'nope-nope', new_password: 'new-pass' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      me.auth.changePassword({ user_id: 'someone-else', current_password: 'old-pass', new_password: 'new-pass' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await me.auth.changePassword({ user_id: account.user.id, current_password: 'old-pass', new_password: 'new-pass' });
    const remaining = await sessionsOf(account.user.id);
    expect(remaining).toEqual([account.session.id]);
    expect(remaining).not.toContain(other.token);
    await expect(anonymous().auth.login({ email: account.user.email, password: 'new-pass' })).resolves.toHaveProperty(
      'token',
    );
  });

  it('reset tokens are random, stored hashed, single use, expire in 30 minutes, and end every session', async () => {
    const account = await createAccount(db.sql);
    const generic = await anonymous().auth.requestReset({ email: 'unknown@example.test' });
    const known = await anonymous().auth.requestReset({ email: account.user.email });
    expect(known).toEqual(generic);
    expect(known).toEqual({ message: RESET_REQUESTED_MESSAGE });

    const token = linkToken((await newestEmail(db.sql, account.user.email))!.text);
    const [row] = await db.sql<{ token_hash: string; minutes: number }[]>`
      select token_hash, extract(epoch from expires_at - created_at) / 60 as minutes
      from password_reset_tokens where user_id = ${account.user.id} and used_at is null`;
    expect(row!.token_hash).not.toContain(token);
    expect(Math.round(row!.minutes)).toBe(30);

    await anonymous().auth.resetPassword({ token, newPassword: 'brand-new' });
    expect(await sessionsOf(account.user.id)).toEqual([]);
    await expect(anonymous().auth.resetPassword({ token, newPassword: 'again-new' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });

    await anonymous().auth.requestReset({ email: account.user.email });
    const expired = linkToken((await newestEmail(db.sql, account.user.email))!.text);
    await db.sql`update password_reset_tokens set expires_at = now() - interval '1 second' where user_id = ${account.user.id} and used_at is null`;
    await expect(anonymous().auth.resetPassword({ token: expired, newPassword: 'brand-new2' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('returns the reset token only in demonstration mode, and only for a registered email', async () => {
    const account = await createAccount(db.sql);
    const demo = (await anonymous(undefined, [], { exposeResetToken: true }).auth.requestReset({
      email: account.user.email,
    })) as { resetToken?: string };
    expect(demo.resetToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(linkToken((await newestEmail(db.sql, account.user.email))!.text)).toBe(demo.resetToken);
  });

  it('keeps the admin password rule when an admin resets or changes a password', async () => {
    const admin = await createAccount(db.sql, { role: 'admin', password: 'Adm1n!pass' });
    await expect(
      as(admin.user, admin.session.id).auth.changePassword({
        current_password: 'Adm1n!pass',
        new_password: 'weakpass',
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('uppercase') });
  });
});

describe('admin setup', () => {
  it('needs the setup key, creates one admin, then closes', async () => {
    const input = { username: 'chief', email: 'chief@example.test', password: 'Str0ng!pass', setupKey: 'wrong-key' };
    await db.sql`delete from users where role = 'admin'`;
    expect(await anonymous().admin.setupStatus()).toEqual({ open: true });
    await expect(anonymous().admin.setup(input)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      anonymous().admin.setup({ ...input, setupKey: TEST_SETUP_KEY, password: 'weak' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const created = await anonymous().admin.setup({ ...input, setupKey: TEST_SETUP_KEY });
    expect(created.user).toMatchObject({ username: 'chief', role: 'admin' });
    expect(await anonymous().admin.setupStatus()).toEqual({ open: false });
    await expect(
      anonymous().admin.setup({ ...input, username: 'chief2', email: 'c2@example.test', setupKey: TEST_SETUP_KEY }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('profiles and account deletion', () => {
  it('an email change needs verifying again', async () => {
    const account = await createAccount(db.sql);
    const updated = await as(account.user, account.session.id).users.update({
      id: account.user.id,
      username: account.user.username,
      email: 'changed@example.test',
      first_name: 'Grace',
      last_name: null,
    });
    expect(updated).toMatchObject({ email: 'changed@example.test', email_verified: false, first_name: 'Grace' });
    expect((await newestEmail(db.sql, 'changed@example.test'))!.subject).toMatch(/Confirm/);
  });

  it('deleting an account removes its sessions, tokens, subscriptions and emails', async () => {
    const account = await createAccount(db.sql);
    await db.sql`insert into subscriptions (user_id, email) values (${account.user.id}, ${account.user.email})`;
    await db.sql`insert into subscriptions (email) values (${account.user.email})`;
    await anonymous().auth.requestReset({ email: account.user.email });
    await as(account.user, account.session.id).users.delete({ id: account.user.id });
    for (const [table, column, value] of [
      ['users', 'id', account.user.id],
      ['user_sessions', 'user_id', account.user.id],
      ['password_reset_tokens', 'user_id', account.user.id],
      ['subscriptions', 'email', account.user.email],
      ['email_outbox', 'to_address', account.user.email],
    ] as const) {
      expect(await db.sql`select 1 from ${db.sql(table)} where ${db.sql(column)} = ${value}`, table).toHaveLength(0);
    }
  });

  it("deleting an account also forgets its alerts' emails to other addresses, and only those", async () => {
    const account = await createAccount(db.sql);
    const other = `partner-${account.user.id.slice(0, 8)}@example.test`;
    // A guest alert of someone else at that address, with an alert email of its own.
    const [guest] = await db.sql<{ id: number }[]>`
      insert into subscriptions (email, confirmed_at) values (${other}, now()) returning id`;
    await db.sql`
      insert into email_outbox (to_address, subject, html, text, subscription_id)
      values (${other}, 'Weekly egg prices', '<p>x</p>', 'x', ${guest!.id})`;
    // The account's alert for that address: its confirmation email goes there, tied to no subscription.
    await as(account.user, account.session.id).alerts.create({ email: other, region: 'Northeast' });
    const subjects = async () =>
      (
        await db.sql<{ subject: string }[]>`select subject from email_outbox where to_address = ${other} order by id`
      ).map((r) => r.subject);
    expect(await subjects()).toEqual(['Weekly egg prices', expect.stringMatching(/confirm/i)]);

    await as(account.user, account.session.id).users.delete({ id: account.user.id });
    expect(await subjects()).toEqual(['Weekly egg prices']);
    expect(await db.sql`select 1 from subscriptions where id = ${guest!.id}`).toHaveLength(1);
    expect(await db.sql`select 1 from subscriptions where user_id = ${account.user.id}`).toHaveLength(0);
  });
});
