// Health and readiness for load balancers, and a database out of reach answered as 503 with a
// message (never a 500, never a hang) on every kind of path.
import crypto from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { databaseUrl } from '../../test/urls.ts';
import { buildApp } from './app.ts';
import { createSql } from './db.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from './db-errors.ts';
import { latestMigrationVersion } from './migrate.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('with the database up', () => {
  it('/healthz and /readyz answer 200', async () => {
    const { app } = buildApp({ sql: db.sql, logLevel: 'silent', distDir: '/nonexistent' });
    try {
      expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      expect(ready.headers['cache-control']).toBe('no-store');
    } finally {
      await app.close();
    }
  });

  it('/readyz answers 503 while a migration of this build is not applied', async () => {
    const { app } = buildApp({ sql: db.sql, logLevel: 'silent', distDir: '/nonexistent' });
    const latest = latestMigrationVersion();
    const [row] = await db.sql<
      { md5: string; name: string; run_at: Date }[]
    >`select md5, name, run_at from schemaversion where version = ${latest}`;
    try {
      await db.sql`delete from schemaversion where version = ${latest}`;
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toBe(`Database migrations pending: at ${latest - 1}, this build needs ${latest}`);
    } finally {
      await db.sql`insert into schemaversion (version, name, md5, run_at) values (${latest}, ${row!.name}, ${row!.md5}, ${row!.run_at})`;
      await app.close();
    }
  });
});

describe('with the database out of reach', () => {
  // Nothing listens on port 1: every connection is refused, as while PostgreSQL is stopped.
  const down = createSql('postgres://eggwatch@127.0.0.1:1/eggwatch', { max: 2 });
  const { app } = buildApp({ sql: down, logLevel: 'silent', distDir: '/nonexistent' });
  afterAll(async () => {
    await app.close();
    await down.end({ timeout: 1 });
  });

  it('/healthz still answers 200 and /readyz 503 with a message', async () => {
    expect((await app.inject('/healthz')).statusCode).toBe(200);
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', message: DATABASE_UNAVAILABLE_MESSAGE });
  });

  it.each([
    ['REST read', 'GET', '/api/stats', undefined, {}],
    ['REST CSV', 'GET', '/api/egg-prices.csv?limit=1', undefined, {}],
    ['REST write', 'POST', '/api/auth/login', { email: 'someone@example.com', password: 'x'.repeat(12) }, {}],
    ['REST with a session token', 'GET', '/api/auth/verify', undefined, { authorization: `Bearer p${'a'.repeat(40)}` }],
    ['tRPC query', 'GET', '/trpc/stats.get', undefined, {}],
    ['tRPC batch', 'GET', `/trpc/stores.list,stats.get?batch=1&input=${encodeURIComponent('{}')}`, undefined, {}],
    [
      'one-click unsubscribe',
      'POST',
      '/notifications/unsubscribe?token=abcdefghijklmnopqrstuvwxyzABCDEF0123456789',
      'List-Unsubscribe=One-Click',
      { 'content-type': 'application/x-www-form-urlencoded' },
    ],
  ] as const)('%s answers 503 with the message', async (_kind, method, url, payload, headers) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...headers },
      ...(payload === undefined ? {} : typeof payload === 'string' ? { payload } : { payload: payload as object }),
    });
    expect(response.statusCode, response.body).toBe(503);
    const body = response.json();
    // REST: { message }; tRPC (superjson): { error: { json: { message } } }, one per call in a batch.
    const messages = (Array.isArray(body) ? body : [body]).map(
      (item: { message?: string; error?: { json?: { message?: string } } }) =>
        item.message ?? item.error?.json?.message,
    );
    const message = messages.find((m: string | undefined) => m !== undefined);
    expect(message).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    // No driver detail, stack trace or generic 500 text reaches the client.
    expect(response.body).not.toMatch(/ECONNREFUSED|"stack":"|Internal server error|127\.0\.0\.1/);
  });
});

describe('with a PostgreSQL that refuses new connections', () => {
  // A real server saying no for reasons of its own: no connection slot left for the role
  // (53300, as when max_connections is reached) and a database that accepts no connections
  // (55000, ALLOW_CONNECTIONS false, as while an operator works on it).
  const suffix = crypto.randomBytes(4).toString('hex');
  const role = `refused_${suffix}`;
  const closed = `closed_${suffix}`;
  let admin: postgres.Sql;
  beforeAll(async () => {
    admin = postgres(inject('adminUrl'), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create role "${role}" login password 'refused' connection limit 0`);
    await admin.unsafe(`create database "${closed}" allow_connections false`);
  });
  afterAll(async () => {
    await admin.unsafe(`drop database if exists "${closed}"`);
    await admin.unsafe(`drop role if exists "${role}"`);
    await admin.end();
  });

  it.each([
    [
      'too many connections',
      () => {
        const url = new URL(db.url);
        url.username = role;
        url.password = 'refused';
        return url.toString();
      },
    ],
    ['a database not accepting connections', () => databaseUrl(inject('adminUrl'), closed)],
  ])('%s: an uncached read and a tRPC call answer 503, never 500', async (_kind, url) => {
    const refused = createSql(url(), { max: 2 });
    const { app } = buildApp({ sql: refused, logLevel: 'silent', distDir: '/nonexistent' });
    try {
      for (const path of ['/api/egg-prices?limit=3&offset=7', '/trpc/stats.get', '/readyz']) {
        const response = await app.inject(path);
        expect(response.statusCode, `${path}: ${response.body}`).toBe(503);
        expect(response.body).toContain(DATABASE_UNAVAILABLE_MESSAGE);
        expect(response.body).not.toMatch(/too many connections|not currently accepting|"stack":"/);
      }
    } finally {
      await app.close();
      await refused.end({ timeout: 1 });
    }
  });
});

describe('isDatabaseUnavailable', () => {
  it('knows connection failures and shutting-down servers, and nothing else', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'CONNECTION_CLOSED' }) }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }))).toBe(
      true,
    );
    expect(
      isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('database "x" is not currently accepting connections'), { code: '55000' }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('currval of sequence is not yet defined'), { code: '55000' })),
    ).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('out of memory'), { code: '53200' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('unique violation'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('plain'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
