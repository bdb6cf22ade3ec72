// The account paths over HTTP: an authorization matrix (no session, the user, another user, an
// admin), Bearer and cookie sessions, the cross-site check and bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../test/db.ts';
import { createAccount, type TestAccount } from '../../test/users.ts';
import { ACCOUNT_SETTINGS, restServer } from '../../test/rest.ts';
import { createSessions } from './auth/lucia.ts';

const rest = restServer({ seeded: false, server: { auth: ACCOUNT_SETTINGS } });
const { call } = rest;
let db: TestDatabase;
let alice: TestAccount;
let bob: TestAccount;
let admin: TestAccount;
let subscriptionOfBob: number;

beforeAll(async () => {
  db = rest.db;
  alice = await createAccount(db.sql);
  bob = await createAccount(db.sql);
  admin = await createAccount(db.sql, { role: 'admin' });
  const [row] = await db.sql<{ id: number }[]>`
    insert into subscriptions (user_id, email, region) values (${bob.user.id}, ${bob.user.email}, 'west') returning id`;
  subscriptionOfBob = row!.id;
});

type Actor = 'anonymous' | 'self' | 'other' | 'admin';

describe('authorization matrix', () => {
  // Bob's resources, requested by each actor ('self' is Bob).
  const actors: Record<Actor, () => TestAccount | null> = {
    anonymous: () => null,
    self: () => bob,
    other: () => alice,
    admin: () => admin,
  };
  const cases: Array<{
    name: string;
    method: string;
    path: () => string;
    body?: () => unknown;
    expected: Record<Actor, number>;
  }> = [
    {
      name: 'GET /api/auth/verify',
      method: 'GET',
      path: () => '/api/auth/verify',
      expected: { anonymous: 401, self: 200, other: 200, admin: 200 },
    },
    {
      name: 'GET /api/users/{id}/subscriptions',
      method: 'GET',
      path: () => `/api/users/${bob.user.id}/subscriptions`,
      expected: { anonymous: 401, self: 200, other: 404, admin: 200 },
    },
    {
      name: 'PUT /api/users/{id}',
      method: 'PUT',
      path: () => `/api/users/${bob.user.id}`,
      body: () => ({ username: bob.user.username, email: bob.user.email, first_name: 'Bob', last_name: 'B' }),
      expected: { anonymous: 401, self: 200, other: 404, admin: 200 },
    },
    {
      name: 'POST /api/auth/change-password',
      method: 'POST',
      path: () => '/api/auth/change-password',
      body: () => ({ user_id: bob.user.id, current_password: 'wrong-one', new_password: 'whatever1' }),
      expected: { anonymous: 401, self: 400, other: 403, admin: 403 },
    },
    {
      name: 'DELETE /api/subscribers/{id}',
      method: 'DELETE',
      path: () => `/api/subscribers/${subscriptionOfBob}`,
      expected: { anonymous: 401, self: 200, other: 404, admin: 404 },
    },
  ];
  for (const testCase of cases) {
    for (const actor of ['anonymous', 'other', 'admin', 'self'] as const) {
      // The admin case of the subscription deletion runs last against a fresh subscription below.
      if (testCase.name.startsWith('DELETE /api/subscribers') && actor === 'admin') continue;
      it(`${testCase.name} as ${actor} answers ${testCase.expected[actor]}`, async () => {
        const result = await call(testCase.method, testCase.path(), { as: actors[actor](), body: testCase.body?.() });
        expect(result.status).toBe(testCase.expected[actor]);
        if (result.status >= 400) expect(typeof result.body.message).toBe('string');
      });
    }
  }

  it('an admin may delete any subscription', async () => {
    const [row] = await db.sql<
      { id: number }[]
    >`insert into subscriptions (user_id, email) values (${alice.user.id}, ${alice.user.email}) returning id`;
    expect((await call('DELETE', `/api/subscribers/${row!.id}`, { as: admin })).status).toBe(200);
  });

  it("a user never reads or changes another user's profile, and deleting another account is refused", async () => {
    expect((await call('DELETE', `/api/users/${bob.user.id}`, { as: alice })).status).toBe(404);
    expect((await call('DELETE', `/api/users/${bob.user.id}`)).status).toBe(401);
    const [row] = await db.sql`select username from users where id = ${bob.user.id}`;
    expect(row).toBeTruthy();
    const target = await createAccount(db.sql);
    expect((await call('DELETE', `/api/users/${target.user.id}`, { as: admin })).status).toBe(200);
    const victim = await createAccount(db.sql);
    expect((await call('DELETE', `/api/users/${victim.user.id}`, { as: victim })).status).toBe(200);
    expect(await db.sql`select 1 from users where id = ${victim.user.id}`).toHaveLength(0);
    // Its session token no longer works.
    expect((await call('GET', '/api/auth/verify', { as: victim })).status).toBe(401);
  });
});

describe('sessions over HTTP', () => {
  it('login sets the cookie and returns the token; the cookie and the Bearer token both authenticate', async () => {
    const account = await createAccount(db.sql, { password: 'cookie-pass' });
    const login = await call('POST', '/api/auth/login', {
      body: { email: account.user.email, password: 'cookie-pass' },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(account.user.id);
    const setCookie = login.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0]!;
    expect((await call('GET', '/api/auth/verify', { headers: { cookie } })).body.user.id).toBe(account.user.id);
    expect(
      (await call('GET', '/api/auth/verify', { headers: { authorization: `Bearer ${login.body.token}` } })).status,
    ).toBe(200);
    const logout = await call('POST', '/api/auth/logout', {
      body: {},
      headers: { cookie, origin: 'http://eggwatch.test' },
    });
    expect(logout.status).toBe(200);
    expect((await call('GET', '/api/auth/verify', { headers: { cookie } })).status).toBe(401);
  });

  it('refuses cookie-authenticated mutations from another origin, but not Bearer calls', async () => {
    const account = await createAccount(db.sql);
    const cookie = `eggwatch_session=${account.token}`;
    const body = { username: account.user.username, email: account.user.email, first_name: 'Mallory', last_name: null };
    const evil = await call('PUT', `/api/users/${account.user.id}`, {
      body,
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(evil.status).toBe(403);
    expect(evil.body.message).toMatch(/Cross-site/);
    const crossSite = await call('PUT', `/api/users/${account.user.id}`, {
      body,
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const [row] = await db.sql`select first_name from users where id = ${account.user.id}`;
    expect(row!.first_name).toBeNull();
    expect(
      (
        await call('PUT', `/api/users/${account.user.id}`, {
          body,
          headers: { cookie, origin: 'http://eggwatch.test' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PUT', `/api/users/${account.user.id}`, {
          body,
          as: account,
          headers: { origin: 'https://evil.example' },
        })
      ).status,
    ).toBe(200);
    // tRPC mutations get the same check.
    const trpc = await fetch(`${rest.base}/trpc/auth.logout`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(trpc.status).toBe(403);
  });

  it('marks the cookie Secure when configured for production', async () => {
    const sessions = createSessions(db.sql, { secure: true });
    const account = await createAccount(db.sql);
    expect((await sessions.create(account.user.id, true)).cookie).toMatch(/Secure/);
  });
});

describe('bad input answers 400 with a message and changes nothing', () => {
  const inputs: Array<[string, string, { body?: unknown; raw?: string }]> = [
    ['POST', '/api/auth/register', { body: {} }],
    ['POST', '/api/auth/register', { body: { username: 'abc', email: 'a@b.test', password: 12345678 } }],
    ['POST', '/api/auth/register', { body: { username: 'x'.repeat(10_000), email: 'a@b.test', password: 'secret12' } }],
    ['POST', '/api/auth/register', { raw: '{"username": "abc",' }],
    ['POST', '/api/auth/register', { raw: '[1,2,3]' }],
    ['POST', '/api/auth/login', { body: { email: 'not-an-email', password: 'secret1' } }],
    ['POST', '/api/auth/login', { raw: 'null' }],
    ['POST', '/api/auth/request-reset', { body: { email: 42 } }],
    ['POST', '/api/auth/reset-password', { body: { token: '', newPassword: 'secret1' } }],
    ['POST', '/api/auth/verify-email', { body: {} }],
    ['POST', '/api/admin/setup', { body: { username: 'root', email: 'r@x.test', password: 'short', setupKey: '' } }],
  ];
  for (const [method, path, options] of inputs) {
    it(`${method} ${path} ${(options.raw ?? JSON.stringify(options.body)).slice(0, 60)}`, async () => {
      const before = await db.sql`select count(*)::int as n from users`;
      const result = await call(method, path, options);
      expect(result.status).toBe(400);
      expect(typeof result.body.message).toBe('string');
      expect(result.body.message.length).toBeGreaterThan(3);
      expect(await db.sql`select count(*)::int as n from users`).toEqual(before);
    });
  }

  it('an oversized body answers 413 with a message', async () => {
    const result = await call('POST', '/api/auth/login', {
      raw: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(200_000) }),
    });
    expect(result.status).toBe(413);
    expect(result.body.message).toBeTruthy();
  });

  it('setup with the right key creates an admin once, answering 201 then 409', async () => {
    const body = {
      username: 'boss',
      email: 'boss@example.test',
      password: 'B0ss!pass',
      setupKey: 'rest-setup-key-000',
    };
    await db.sql`delete from users where role = 'admin'`;
    expect((await call('POST', '/api/admin/setup', { body })).status).toBe(201);
    expect(
      (await call('POST', '/api/admin/setup', { body: { ...body, username: 'boss2', email: 'b2@example.test' } }))
        .status,
    ).toBe(409);
  });

  it('registration answers 201 and the OpenAPI document lists every account path', async () => {
    expect(
      (
        await call('POST', '/api/auth/register', {
          body: { username: 'newbie', email: 'newbie@example.test', password: 'secret1' },
        })
      ).status,
    ).toBe(201);
    const doc = (await call('GET', '/api/openapi.json')).body;
    for (const path of [
      '/api/auth/login',
      '/api/auth/register',
      '/api/auth/logout',
      '/api/auth/verify',
      '/api/auth/change-password',
      '/api/auth/request-reset',
      '/api/auth/reset-password',
      '/api/admin/setup',
      '/api/users/{id}',
      '/api/users/{id}/subscriptions',
      '/api/subscribers/{id}',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });
});
