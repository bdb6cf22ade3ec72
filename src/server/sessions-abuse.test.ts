// Sessions and abuse over HTTP (app.inject): session fixation and replay after logout are refused
// on REST and tRPC; the login, reset, subscribe and setup rate limits hold against an attacker
// who rotates X-Forwarded-For, with TRUST_PROXY off (the header is ignored) and with one trusted
// proxy (each real client has its own counter; a spoofed leftmost address makes no new one); and
// every mutation path, enumerated from the app, refuses a session cookie without this site's
// Origin, writing nothing.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { createAccount, type TestAccount } from '../../test/users.ts';
import { enumerateRoutes, installWriteLog, lastWrite, writesSince } from '../../test/hostile.ts';
import { buildApp } from './app.ts';
import { LIMITS } from './auth/rate-limit.ts';
import { SESSION_COOKIE } from './auth/lucia.ts';
import { appRouter } from './routers/_app.ts';

const ORIGIN = 'http://eggwatch.test';
const SETUP_KEY = 'abuse-setup-key-0000';

let db: TestDatabase;
const apps: FastifyInstance[] = [];

function appWith(trustProxy: false | number): FastifyInstance {
  const { app } = buildApp({
    sql: db.sql,
    logLevel: 'silent',
    distDir: '/nonexistent',
    trustProxy,
    auth: { publicUrl: ORIGIN, adminSetupKey: SETUP_KEY },
  });
  apps.push(app);
  return app;
}

let direct: FastifyInstance;
let proxied: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  direct = appWith(false);
  proxied = appWith(1);
  await installWriteLog(db.sql);
  // Setup stays open to brute force only while no administrator exists.
  await db.sql`delete from users where role = 'admin'`;
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await db?.drop();
});

const cookieOf = (setCookie: string | string[] | undefined): string | null => {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const values = list.map((c) => new RegExp(`^${SESSION_COOKIE}=([^;]*)`).exec(c)?.[1]).filter((v) => v !== undefined);
  // One session cookie per answer, never a blank one and a new one together.
  expect(values.length).toBeLessThanOrEqual(1);
  return values[0] ?? null;
};

const trpcBody = (input: unknown) => JSON.stringify({ json: input });

async function verifyAs(app: FastifyInstance, headers: Record<string, string>) {
  const rest = await app.inject({ method: 'GET', url: '/api/auth/verify', headers });
  const trpc = await app.inject({ method: 'GET', url: '/trpc/auth.verify', headers });
  return { rest, trpc };
}

describe('session fixation', () => {
  it('a session id chosen by the attacker is never adopted: login answers a new one and the chosen one stays unknown', async () => {
    const victim = await createAccount(db.sql, { password: 'fixation-pass' });
    const planted = `b${'k'.repeat(40)}`;
    for (const via of ['rest', 'trpc'] as const) {
      const headers = { cookie: `${SESSION_COOKIE}=${planted}`, origin: ORIGIN, 'content-type': 'application/json' };
      const login =
        via === 'rest'
          ? await direct.inject({
              method: 'POST',
              url: '/api/auth/login',
              headers,
              payload: JSON.stringify({ email: victim.user.email, password: 'fixation-pass' }),
            })
          : await direct.inject({
              method: 'POST',
              url: '/trpc/auth.login',
              headers,
              payload: trpcBody({ email: victim.user.email, password: 'fixation-pass' }),
            });
      expect(login.statusCode, via).toBe(200);
      const issued = cookieOf(login.headers['set-cookie']);
      expect(issued, via).toMatch(/^[bp][a-z0-9]{40}$/);
      expect(issued).not.toBe(planted);
      const { rest, trpc } = await verifyAs(direct, { cookie: `${SESSION_COOKIE}=${planted}` });
      expect([rest.statusCode, trpc.statusCode]).toEqual([401, 401]);
      expect(await db.sql`select 1 from user_sessions where id = ${planted}`).toHaveLength(0);
      expect((await verifyAs(direct, { cookie: `${SESSION_COOKIE}=${issued}` })).rest.statusCode).toBe(200);
    }
  });

  it("logging in over the attacker's own session gives the victim a new session and leaves the attacker's as the attacker's", async () => {
    const attacker = await createAccount(db.sql);
    const victim = await createAccount(db.sql, { password: 'victim-pass-1' });
    const login = await direct.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { cookie: `${SESSION_COOKIE}=${attacker.token}`, origin: ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ email: victim.user.email, password: 'victim-pass-1' }),
    });
    expect(login.statusCode).toBe(200);
    const issued = cookieOf(login.headers['set-cookie']);
    expect(issued).not.toBe(attacker.token);
    expect((JSON.parse(login.body) as { token: string }).token).toBe(issued);
    const planted = await verifyAs(direct, { cookie: `${SESSION_COOKIE}=${attacker.token}` });
    expect((JSON.parse(planted.rest.body) as { user: { id: string } }).user.id).toBe(attacker.user.id);
    const [row] = await db.sql<{ user_id: string }[]>`select user_id from user_sessions where id = ${attacker.token}`;
    expect(row!.user_id).toBe(attacker.user.id);
  });
});

describe('replay after logout', () => {
  for (const [how, logout] of [
    [
      'REST with the cookie',
      (app: FastifyInstance, token: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: { cookie: `${SESSION_COOKIE}=${token}`, origin: ORIGIN, 'content-type': 'application/json' },
          payload: '{}',
        }),
    ],
    [
      'tRPC with the cookie',
      (app: FastifyInstance, token: string) =>
        app.inject({
          method: 'POST',
          url: '/trpc/auth.logout',
          headers: { cookie: `${SESSION_COOKIE}=${token}`, origin: ORIGIN, 'content-type': 'application/json' },
          payload: trpcBody(undefined),
        }),
    ],
    [
      'REST with the Bearer token',
      (app: FastifyInstance, token: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: '{}',
        }),
    ],
    [
      'REST with the token in the body',
      (app: FastifyInstance, token: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ token }),
        }),
    ],
  ] as const) {
    it(`a session ended by logout (${how}) is refused afterwards on REST and tRPC, by cookie and Bearer, and changes nothing`, async () => {
      const account = await createAccount(db.sql);
      const before = await verifyAs(direct, { authorization: `Bearer ${account.token}` });
      expect([before.rest.statusCode, before.trpc.statusCode]).toEqual([200, 200]);
      expect((await logout(direct, account.token)).statusCode).toBe(200);
      const replayHeaders: Array<Record<string, string>> = [
        { cookie: `${SESSION_COOKIE}=${account.token}` },
        { authorization: `Bearer ${account.token}` },
      ];
      for (const headers of replayHeaders) {
        const after = await verifyAs(direct, headers);
        expect([after.rest.statusCode, after.trpc.statusCode], JSON.stringify(headers)).toEqual([401, 401]);
        const since = await lastWrite(db.sql);
        const replay = await direct.inject({
          method: 'PUT',
          url: `/api/users/${account.user.id}`,
          headers: { ...headers, origin: ORIGIN, 'content-type': 'application/json' },
          payload: JSON.stringify({
            username: account.user.username,
            email: account.user.email,
            first_name: 'Replayed',
            last_name: null,
          }),
        });
        expect(replay.statusCode).toBe(401);
        const trpcReplay = await direct.inject({
          method: 'POST',
          url: '/trpc/alerts.create',
          headers: { ...headers, origin: ORIGIN, 'content-type': 'application/json' },
          payload: trpcBody({ email: account.user.email }),
        });
        // Subscribing needs no session: the replayed one is simply not the caller's, so the
        // address is not proven: the subscription waits for its confirmation link, and asked
        // again (the second header) the one there is is not offered to the caller to manage.
        expect(trpcReplay.statusCode).toBe(200);
        const answer = (
          JSON.parse(trpcReplay.body) as { result: { data: { json: { status: string; manageable?: boolean } } } }
        ).result.data.json;
        if (headers === replayHeaders[0]) expect(answer.status).toBe('pending');
        else expect(answer).toMatchObject({ status: 'exists', manageable: false });
        expect((await writesSince(db.sql, since)).filter((w) => w.tbl === 'public.users')).toEqual([]);
      }
      // A refused cookie is cleared in the answer.
      const cleared = await direct.inject({
        method: 'GET',
        url: '/api/auth/verify',
        headers: { cookie: `${SESSION_COOKIE}=${account.token}` },
      });
      expect(cookieOf(cleared.headers['set-cookie'])).toBe('');
    });
  }
});

describe('brute force from rotating addresses', () => {
  let counter = 0;
  const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
  const attempts: Record<string, { limit: number; request: () => InjectOptions }> = {
    login: {
      limit: LIMITS.loginPerIp.max,
      // A new account name each time, so only the per-address counter can stop it.
      request: () => ({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: `guess-${unique()}@example.test`, password: 'hunter22' },
      }),
    },
    reset: {
      limit: LIMITS.resetPerIp.max,
      request: () => ({
        method: 'POST',
        url: '/api/auth/request-reset',
        payload: { email: `reset-${unique()}@example.test` },
      }),
    },
    subscribe: {
      limit: LIMITS.subscribePerIp.max,
      request: () => ({ method: 'POST', url: '/api/subscribers', payload: { email: `sub-${unique()}@example.test` } }),
    },
    setup: {
      limit: LIMITS.setupPerIp.max,
      request: () => ({
        method: 'POST',
        url: '/api/admin/setup',
        payload: {
          username: `root${counter++}`,
          email: `root-${unique()}@example.test`,
          password: 'Guess!ng1',
          setupKey: `guess-${unique()}`,
        },
      }),
    },
  };
  let octet = 0;
  const spoofed = () => `198.51.100.${(octet++ % 250) + 1}`;

  for (const [name, attempt] of Object.entries(attempts)) {
    it(`${name}: TRUST_PROXY off ignores X-Forwarded-For, so rotating it does not escape the per-address limit`, async () => {
      const attacker = `203.0.113.${10 + Object.keys(attempts).indexOf(name)}`;
      const statuses: number[] = [];
      for (let i = 0; i <= attempt.limit; i++) {
        const response = await direct.inject({
          ...attempt.request(),
          remoteAddress: attacker,
          headers: { 'x-forwarded-for': spoofed() },
        });
        statuses.push(response.statusCode);
      }
      expect(
        statuses.slice(0, attempt.limit).every((s) => s !== 429),
        statuses.join(','),
      ).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      const since = await lastWrite(db.sql);
      const again = await direct.inject({
        ...attempt.request(),
        remoteAddress: attacker,
        headers: { 'x-forwarded-for': spoofed() },
      });
      expect(again.statusCode).toBe(429);
      expect(JSON.parse(again.body).message).toMatch(/Too many attempts/);
      expect(await writesSince(db.sql, since)).toEqual([]);
      // Another address is not held back by the attacker's counter.
      expect(
        (
          await direct.inject({
            ...attempt.request(),
            remoteAddress: `203.0.113.${100 + Object.keys(attempts).indexOf(name)}`,
          })
        ).statusCode,
      ).not.toBe(429);
    });

    it(`${name}: behind one trusted proxy each real client has its own counter and a spoofed leftmost address makes no new one`, async () => {
      const proxy = '10.0.0.2';
      const index = Object.keys(attempts).indexOf(name);
      const [clientA, clientB] = [`192.0.2.${20 + index}`, `192.0.2.${40 + index}`];
      const from = (client: string) => ({
        remoteAddress: proxy,
        headers: { 'x-forwarded-for': `${spoofed()}, ${spoofed()}, ${client}` },
      });
      for (let i = 0; i < attempt.limit; i++) {
        expect((await proxied.inject({ ...attempt.request(), ...from(clientA) })).statusCode).not.toBe(429);
      }
      for (let i = 0; i < 3; i++)
        expect((await proxied.inject({ ...attempt.request(), ...from(clientA) })).statusCode).toBe(429);
      // Client B, behind the same proxy, still gets through; then is limited on its own.
      for (let i = 0; i < attempt.limit; i++) {
        expect((await proxied.inject({ ...attempt.request(), ...from(clientB) })).statusCode).not.toBe(429);
      }
      expect((await proxied.inject({ ...attempt.request(), ...from(clientB) })).statusCode).toBe(429);
      // The proxy's own address is a client like any other (no X-Forwarded-For): not limited by A or B.
      expect((await proxied.inject({ ...attempt.request(), remoteAddress: proxy })).statusCode).not.toBe(429);
    });
  }
});

describe('the Origin check on every cookie mutation', () => {
  const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
  const restMutations = () =>
    [...enumerateRoutes(direct)]
      .map((route) => route.split(' ') as [string, string])
      .filter(([method, path]) => MUTATING.has(method) && path.startsWith('/api/') && path !== '/api/*');
  const trpcMutations = Object.entries(
    (appRouter._def as unknown as { procedures: Record<string, { _def: { type: string } }> }).procedures,
  )
    .filter(([, procedure]) => procedure._def.type === 'mutation')
    .map(([name]) => name);

  const refusals: Array<[string, Record<string, string>]> = [
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['a look-alike Origin', { origin: 'http://eggwatch.test.evil.example' }],
    ['Origin null', { origin: 'null' }],
    ['no Origin from a cross-site page', { 'sec-fetch-site': 'cross-site' }],
    ['no Origin from a sibling site', { 'sec-fetch-site': 'same-site' }],
    ['no Origin at all', {}],
  ];

  it('enumerates the mutations', () => {
    expect(restMutations().length).toBeGreaterThan(15);
    expect(trpcMutations.length).toBeGreaterThan(15);
  });

  for (const role of ['user', 'admin'] as const) {
    it(`as ${role === 'user' ? 'a shopper' : 'an admin'}: every REST and tRPC mutation refuses the cookie without this site's Origin (403) and writes nothing`, async () => {
      const account: TestAccount = await createAccount(db.sql, { role });
      const targets: Array<{ label: string; request: InjectOptions }> = [
        ...restMutations().map(([method, path]) => ({
          label: `${method} ${path}`,
          request: {
            method: method as InjectOptions['method'],
            url: path.replace(/:\w+/g, account.user.id).replace(':store', 'aldi'),
            payload: '{}',
          },
        })),
        ...trpcMutations.map((name) => ({
          label: `tRPC ${name}`,
          request: { method: 'POST' as const, url: `/trpc/${name}`, payload: trpcBody({ id: account.user.id }) },
        })),
      ];
      for (const { label, request } of targets) {
        for (const [why, headers] of refusals) {
          const since = await lastWrite(db.sql);
          const response = await direct.inject({
            ...request,
            headers: { ...headers, cookie: `${SESSION_COOKIE}=${account.token}`, 'content-type': 'application/json' },
          });
          expect(response.statusCode, `${label} with ${why}`).toBe(403);
          expect(JSON.parse(response.body).message).toBe('Cross-site request refused');
          expect(await writesSince(db.sql, since), `${label} with ${why}`).toEqual([]);
        }
      }
      // The same cookie with this site's Origin (or Sec-Fetch-Site: same-origin) passes the check.
      for (const headers of [{ origin: ORIGIN }, { 'sec-fetch-site': 'same-origin' }]) {
        const response = await direct.inject({
          method: 'PUT',
          url: `/api/users/${account.user.id}`,
          headers: { ...headers, cookie: `${SESSION_COOKIE}=${account.token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({
            username: account.user.username,
            email: account.user.email,
            first_name: 'Own',
            last_name: null,
          }),
        });
        expect(response.statusCode, JSON.stringify(headers)).toBe(200);
      }
      // A Bearer token carries no ambient authority: no Origin needed.
      const bearer = await direct.inject({
        method: 'POST',
        url: '/trpc/auth.logout',
        headers: {
          authorization: `Bearer ${account.token}`,
          origin: 'https://evil.example',
          'content-type': 'application/json',
        },
        payload: trpcBody(undefined),
      });
      expect(bearer.statusCode).toBe(200);
    });
  }
});
