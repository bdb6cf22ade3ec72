// Hostile input, property-based: every route of the web process and every tRPC procedure, as
// enumerated from the running app (a route or procedure the campaign does not know fails the
// test), gets wrong types, missing and extra fields, prototype keys, unicode edge cases, invalid
// UTF-8, SQL and HTML metacharacters, absurd numbers, oversized and deeply nested bodies, bad
// Content-Types, cookies and Bearer tokens, as an anonymous visitor, a shopper and an admin (with a
// valid Origin, so input reaches validation). Properties: never a 5xx, a 4xx has a message,
// a rejected request writes nothing (row triggers on every table log each write), no prototype
// pollution, and the process still answers afterwards. HOSTILE_RUNS raises the runs per route
// (npm run bench:hostile).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as cheerio from 'cheerio';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { createAccount, type TestAccount } from '../../test/users.ts';
import {
  badCredentials,
  CONTENT_TYPES,
  deepJson,
  encodeComponent,
  enumerateRoutes,
  hostileInput,
  hostileString,
  jsonSchemaOf,
  queryJunk,
  rawBodies,
  installWriteLog,
  lastWrite,
  RUNS,
  TIMEOUT,
  toQueryString,
} from '../../test/hostile.ts';
import { buildApp } from './app.ts';
import { isUnstorableText } from './db-errors.ts';
import { createSessions, SESSION_COOKIE } from './auth/lucia.ts';
import { REST_ROUTES } from './rest/routes/index.ts';
import { appRouter } from './routers/_app.ts';
import { transformer } from '#shared/transformer.ts';

const ORIGIN = 'http://eggwatch.test';

let db: TestDatabase;
let app: FastifyInstance;
let dist: string;
let shopper: TestAccount;
let admin: TestAccount;
let victim: TestAccount;
let sessions: ReturnType<typeof createSessions>;
const enumerated = new Set<string>();
const covered = new Set<string>();

beforeAll(async () => {
  // A small client build, so the static files and the index.html fallback are routes too.
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-hostile-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><title>EggWatch</title></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(
    path.join(dist, 'route-preloads.json'),
    JSON.stringify({ '/compare/:eggType': ['assets/app-abc123.js'], '*': [] }),
  );
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'export {};\n');
  db = await createTestDatabase();
  ({ app } = buildApp({
    sql: db.sql,
    logLevel: 'silent',
    distDir: dist,
    auth: { publicUrl: ORIGIN, adminSetupKey: 'hostile-setup-key-000' },
  }));
  await app.ready();
  for (const route of enumerateRoutes(app)) enumerated.add(route);
  sessions = createSessions(db.sql, { secure: false });
  shopper = await createAccount(db.sql);
  admin = await createAccount(db.sql, { role: 'admin' });
  victim = await createAccount(db.sql);
  await db.sql`insert into subscriptions (user_id, email, region) values (${victim.user.id}, ${victim.user.email}, 'west')`;
  await installWriteLog(db.sql);
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
  if (dist) fs.rmSync(dist, { recursive: true, force: true });
});

type Actor = 'anonymous' | 'shopper' | 'admin' | 'forged';
const actorArb = fc.constantFrom<Actor>('anonymous', 'shopper', 'admin', 'forged');

/** Headers of an actor: a fresh session (by cookie with this site's Origin, or Bearer) each time. */
async function credentials(
  actor: Actor,
  forged: Record<string, string>,
  byCookie: boolean,
): Promise<Record<string, string>> {
  if (actor === 'anonymous') return {};
  if (actor === 'forged') return { ...forged, origin: ORIGIN };
  const account = actor === 'admin' ? admin : shopper;
  const session = await sessions.create(account.user.id, false);
  return byCookie
    ? { cookie: `${SESSION_COOKIE}=${session.id}`, origin: ORIGIN }
    : { authorization: `Bearer ${session.id}` };
}

function messageOf(response: LightMyRequestResponse): unknown {
  const type = String(response.headers['content-type'] ?? '');
  if (!type.includes('json')) return response.body;
  const body = JSON.parse(response.body) as Record<string, unknown> | Array<Record<string, unknown>>;
  const first = Array.isArray(body) ? body[0] : body;
  const error = first?.error;
  if (error && typeof error === 'object')
    return (error as { json?: { message?: unknown } }).json?.message ?? (error as { message?: unknown }).message;
  return first?.message;
}

/** Sends one hostile request and checks every property of the campaign on its answer. */
async function probe(request: InjectOptions, label: string): Promise<LightMyRequestResponse> {
  const before = await lastWrite(db.sql);
  const response = await app.inject({ remoteAddress: '192.0.2.10', ...request });
  const where = `${label}: ${String(request.method)} ${String(request.url).slice(0, 200)}`;
  expect(response.statusCode, `${where} answered ${response.statusCode} ${response.body.slice(0, 300)}`).toBeLessThan(
    500,
  );
  if (response.statusCode >= 400 && request.method !== 'HEAD') {
    if (/^\/(api|trpc)\//.test(String(request.url)))
      expect(String(response.headers['content-type']), `${where}: a ${response.statusCode} that is not JSON`).toMatch(
        /^application\/json/,
      );
    const message = messageOf(response);
    expect(
      typeof message === 'string' && message.length > 3,
      `${where}: a ${response.statusCode} without a message: ${response.body.slice(0, 200)}`,
    ).toBe(true);
  }
  if (response.statusCode >= 400) {
    const writes = await db.sql`select tbl, op from hostile_write_log where id > ${before}`;
    expect(writes, `${where} was refused (${response.statusCode}) but wrote`).toEqual([]);
  }
  expect(({} as Record<string, unknown>).polluted, `${where} polluted Object.prototype`).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
  return response;
}

async function stillServes() {
  const response = await app.inject({ method: 'GET', url: '/api/stores' });
  expect(response.statusCode).toBe(200);
  expect((JSON.parse(response.body) as unknown[]).length).toBeGreaterThan(0);
}

/** Path parameter values: hostile strings, known ids (the victim's), numbers and broken escapes. */
const paramArb = fc.oneof(
  hostileString.map(encodeComponent),
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '1e308',
    'NaN',
    '99999999999999999999',
    '%',
    '%zz',
    '%ff',
    '..%2F..%2Fetc%2Fpasswd',
    'walmart',
    'WALMART',
    'x'.repeat(500),
  ),
  fc.constant('VICTIM'),
);
const fillPath = (pattern: string, values: string[]) => {
  let i = 0;
  return pattern.replace(/:\w+/g, () => {
    const value = values[i++] ?? '1';
    return value === 'VICTIM' ? victim.user.id : value;
  });
};

const bodyArb = (schema: ReturnType<typeof jsonSchemaOf>) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: hostileInput(schema).map((value) => ({
        payload: JSON.stringify(value) ?? 'null',
        type: 'application/json',
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...rawBodies), fc.constantFrom(...CONTENT_TYPES))
        .map(([raw, type]) => ({ payload: raw.body, type })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(hostileInput(schema), fc.constantFrom(...CONTENT_TYPES))
        .map(([value, type]) => ({ payload: JSON.stringify(value) ?? '', type })),
    },
  );

describe('every REST path', () => {
  for (const route of REST_ROUTES) {
    const formats = route.csv ? ['', '.csv'] : [''];
    for (const suffix of formats) {
      const url = `/api${route.path}${suffix}`;
      const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
      for (const method of methods) covered.add(`${method} ${url}`);
      it(
        `${route.method} ${url} (${route.procedure})`,
        async () => {
          const querySchema = jsonSchemaOf(route.query ? [route.query] : []);
          const bodySchema = jsonSchemaOf(route.body ? [route.body] : []);
          await fc.assert(
            fc.asyncProperty(
              actorArb,
              badCredentials,
              fc.boolean(),
              fc.constantFrom(...methods),
              fc.array(paramArb, { minLength: 2, maxLength: 2 }),
              hostileInput(querySchema),
              queryJunk,
              bodyArb(bodySchema),
              async (actor, forged, byCookie, verb, params, query, junk, body) => {
                const search = toQueryString(query, junk);
                const headers = await credentials(actor, forged, byCookie);
                const request: InjectOptions = {
                  method: verb as InjectOptions['method'],
                  url: `${fillPath(url, params)}${search ? `?${search}` : ''}`,
                  headers,
                };
                if (route.method !== 'GET') {
                  request.payload = body.payload;
                  if (body.type) headers['content-type'] = body.type;
                }
                await probe(request, `${route.procedure} as ${actor}`);
              },
            ),
            { numRuns: RUNS * 4 },
          );
          await stillServes();
        },
        TIMEOUT,
      );
    }
  }
});

const procedures = Object.entries(
  (
    appRouter._def as unknown as {
      procedures: Record<string, { _def: { type: 'query' | 'mutation'; inputs: unknown[] } }>;
    }
  ).procedures,
);

describe('every tRPC procedure', () => {
  covered.add('GET /trpc/:path');
  covered.add('POST /trpc/:path');
  for (const [name, procedure] of procedures) {
    const { type, inputs } = procedure._def;
    it(
      `${type} ${name}`,
      async () => {
        const schema = jsonSchemaOf(inputs);
        await fc.assert(
          fc.asyncProperty(
            actorArb,
            badCredentials,
            fc.boolean(),
            hostileInput(schema),
            fc.constantFrom('plain', 'batch', 'raw', 'wrong-method', 'meta'),
            fc.constantFrom(...rawBodies),
            fc.constantFrom(...CONTENT_TYPES),
            fc.constantFrom<string | number | null>(null, null, 'SELF', 'VICTIM', '1', 1, 2_147_483_647),
            async (actor, forged, byCookie, generated, shape, raw, contentType, knownId) => {
              const headers = await credentials(actor, forged, byCookie);
              // Now and then an id that exists (the caller's own account, another one, the first row),
              // so the input reaches past "not found" into the procedure's own checks.
              const input =
                knownId !== null && generated && typeof generated === 'object' && !Array.isArray(generated)
                  ? {
                      ...generated,
                      // (The campaign's own accounts are never deleted: later runs need them.)
                      id:
                        knownId === 'SELF' && !name.endsWith('.delete')
                          ? (actor === 'admin' ? admin : shopper).user.id
                          : knownId === 'VICTIM' || knownId === 'SELF'
                            ? victim.user.id
                            : knownId,
                    }
                  : generated;
              // superjson carries NaN, Infinity, -0 and undefined to the procedure as themselves.
              // (A value with own __proto__ keys is sent as plain JSON: superjson refuses to encode it.)
              let encoded: { json: unknown; meta?: unknown };
              try {
                encoded = transformer.serialize(input);
              } catch {
                encoded = { json: input };
              }
              const wire =
                shape === 'batch'
                  ? JSON.stringify({ 0: encoded, 1: encoded })
                  : shape === 'meta'
                    ? JSON.stringify({
                        json: encoded.json ?? {},
                        meta: {
                          values: {
                            __proto__: ['class', 'Object'],
                            'constructor.prototype': ['map'],
                            '__proto__.polluted': ['Error'],
                          },
                        },
                      })
                    : JSON.stringify(encoded);
              const asQuery = (type === 'query') !== (shape === 'wrong-method');
              const batch = shape === 'batch' ? 'batch=1&' : '';
              const request: InjectOptions = asQuery
                ? {
                    method: 'GET',
                    url: `/trpc/${name}${shape === 'batch' ? `,${name}` : ''}?${batch}input=${shape === 'raw' ? encodeComponent(raw.body.toString()) : encodeComponent(wire)}`,
                    headers,
                  }
                : {
                    method: 'POST',
                    url: `/trpc/${name}${shape === 'batch' ? `,${name}?batch=1` : ''}`,
                    headers: { ...headers, 'content-type': shape === 'raw' ? contentType : 'application/json' },
                    payload: shape === 'raw' ? raw.body : wire,
                  };
              await probe(request, `${name} as ${actor}`);
            },
          ),
          { numRuns: RUNS * 3 },
        );
        await stillServes();
      },
      TIMEOUT,
    );
  }

  it('an unknown procedure, a batch of hundreds and other methods answer 4xx', async () => {
    const answers: Array<[string, number]> = [];
    const refused = async (request: InjectOptions, label: string) => {
      answers.push([
        `${label}: ${String(request.method)} ${String(request.url).slice(0, 80)}`,
        (await probe(request, label)).statusCode,
      ]);
    };
    await refused({ method: 'GET', url: '/trpc/nope.nothing?input=%7B%7D' }, 'unknown procedure');
    await refused(
      { method: 'GET', url: `/trpc/${Array(300).fill('stats.get').join(',')}?batch=1&input=%7B%7D` },
      'big batch',
    );
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'] as const)
      await refused({ method, url: '/trpc/stats.get' }, `${method} tRPC`);
    await refused({ method: 'GET', url: '/trpc/__proto__?input=%7B%7D' }, 'prototype procedure');
    await refused({ method: 'GET', url: '/trpc/constructor.prototype?input=%7B%7D' }, 'prototype procedure');
    const notRefused = answers.filter(([, status]) => status < 400 || status > 499);
    expect(notRefused, 'requests that were not answered with a 4xx').toEqual([]);
  });
});

/** The routes outside the REST table and tRPC, each with what is thrown at it. */
const OTHER_ROUTES: Record<string, string> = {
  'GET /healthz': '/healthz',
  'HEAD /healthz': '/healthz',
  'GET /readyz': '/readyz',
  'HEAD /readyz': '/readyz',
  'GET /api/openapi.json': '/api/openapi.json',
  'HEAD /api/openapi.json': '/api/openapi.json',
  'POST /notifications/unsubscribe': '/notifications/unsubscribe',
  'GET /api/docs': '/api/docs',
  'HEAD /api/docs': '/api/docs',
  'GET /api/docs/': '/api/docs/',
  'HEAD /api/docs/': '/api/docs/',
  'GET /api/docs/static/index.html': '/api/docs/static/index.html',
  'HEAD /api/docs/static/index.html': '/api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js': '/api/docs/static/swagger-initializer.js',
  'HEAD /api/docs/static/swagger-initializer.js': '/api/docs/static/swagger-initializer.js',
  'GET /api/docs/json': '/api/docs/json',
  'HEAD /api/docs/json': '/api/docs/json',
  'GET /api/docs/yaml': '/api/docs/yaml',
  'HEAD /api/docs/yaml': '/api/docs/yaml',
  'GET /api/docs/static/theme/phone.css': '/api/docs/static/theme/phone.css',
  'HEAD /api/docs/static/theme/phone.css': '/api/docs/static/theme/phone.css',
  'GET /api/docs/*': '/api/docs/*',
  'GET /api/docs/static/*': '/api/docs/static/*',
  'HEAD /api/docs/static/*': '/api/docs/static/*',
  'HEAD /api/docs/*': '/api/docs/*',
  'GET /index.html': '/index.html',
  'HEAD /index.html': '/index.html',
  'GET /route-preloads.json': '/route-preloads.json',
  'HEAD /route-preloads.json': '/route-preloads.json',
  'GET /assets/app-abc123.js': '/assets/app-abc123.js',
  'HEAD /assets/app-abc123.js': '/assets/app-abc123.js',
  // Catch-alls: fastify-cors's preflight, the unknown /api paths and tRPC's other methods.
  'OPTIONS *': '/*',
  ...Object.fromEntries(
    ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'QUERY'].map((m) => [
      `${m} /api/*`,
      '/api/*',
    ]),
  ),
  ...Object.fromEntries(
    ['HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'QUERY'].map((m) => [`${m} /trpc/:path`, '/trpc/:path']),
  ),
};

describe('the other routes and the client routes', () => {
  for (const key of Object.keys(OTHER_ROUTES)) covered.add(key);
  const methodsOf = (pattern: string) =>
    Object.keys(OTHER_ROUTES)
      .filter((key) => OTHER_ROUTES[key] === pattern)
      .map((key) => key.split(' ')[0]!);
  for (const pattern of new Set([...Object.values(OTHER_ROUTES), '/client-route'])) {
    it(
      pattern,
      async () => {
        const methods = pattern === '/client-route' ? ['GET', 'HEAD', 'POST'] : methodsOf(pattern);
        await fc.assert(
          fc.asyncProperty(
            actorArb,
            badCredentials,
            fc.boolean(),
            fc.constantFrom(...methods),
            fc.array(hostileString.map(encodeComponent), { minLength: 1, maxLength: 3 }),
            queryJunk,
            fc.constantFrom(...rawBodies),
            fc.constantFrom(...CONTENT_TYPES),
            async (actor, forged, byCookie, method, segments, junk, raw, contentType) => {
              const headers = await credentials(actor, forged, byCookie);
              const tail = segments.join('/');
              const pathname =
                pattern === '/client-route'
                  ? `/${tail}`
                  : pattern.endsWith('*')
                    ? pattern.replace('*', tail)
                    : pattern.replace(':path', tail);
              const search = pattern === '/notifications/unsubscribe' ? `token=${segments[0]}` : (junk ?? '');
              const request: InjectOptions = {
                method: method as InjectOptions['method'],
                url: `${pathname}${search ? `?${search}` : ''}`,
                headers,
              };
              if (method !== 'GET' && method !== 'HEAD') {
                request.payload = raw.body;
                headers['content-type'] = contentType;
              }
              if (method === 'OPTIONS')
                Object.assign(headers, { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' });
              const response = await probe(request, pattern);
              if (response.statusCode < 400 && String(response.headers['content-type']).includes('html')) {
                // A page never echoes the requested path: a segment is echoed if the page carries it
                // and the same request with harmless segments does not (a word like "name" is in
                // every page's own markup).
                const texts = segments
                  .map((segment) => decodeURIComponent(segment.replace(/%(?![0-9A-F]{2})/gi, '')))
                  .filter((text) => text.length > 3);
                if (texts.length > 0) {
                  const harmless = segments.map(() => 'harmless').join('/');
                  const own = (await probe({ ...request, url: String(request.url).replace(tail, harmless) }, pattern))
                    .body;
                  for (const text of texts) if (!own.includes(text)) expect(response.body).not.toContain(text);
                }
              }
            },
          ),
          { numRuns: RUNS * 2 },
        );
        await stillServes();
      },
      TIMEOUT,
    );
  }
});

describe('oversized and malformed requests', () => {
  const targets = [
    '/api/auth/login',
    '/api/subscribers',
    '/trpc/auth.login',
    '/trpc/alerts.create',
    '/notifications/unsubscribe?token=x',
  ];
  it('bodies over the limit answer 413 and write nothing', async () => {
    for (const url of targets) {
      const response = await probe(
        {
          method: 'POST',
          url,
          headers: { 'content-type': url.startsWith('/notifications') ? 'text/plain' : 'application/json' },
          payload: `{"email":"${'a'.repeat(200_000)}"}`,
        },
        'oversized',
      );
      expect(response.statusCode, url).toBe(413);
    }
  });

  it('10k-deep JSON, invalid UTF-8 and bad Content-Types answer 4xx on every mutation path', async () => {
    for (const url of targets) {
      for (const raw of rawBodies) {
        for (const type of CONTENT_TYPES) {
          const response = await probe(
            { method: 'POST', url, headers: { 'content-type': type }, payload: raw.body },
            `${raw.name} as ${type}`,
          );
          expect(response.statusCode, `${url} ${raw.name} ${type}`).toBeGreaterThanOrEqual(400);
        }
      }
    }
  });

  it('a query string of megabytes and 10k-deep query input answer 4xx or an answer, never 5xx', async () => {
    await probe({ method: 'GET', url: `/api/egg-prices?store=${'x'.repeat(1_000_000)}` }, 'huge query');
    await probe(
      { method: 'GET', url: `/api/egg-prices?${Array.from({ length: 20_000 }, (_, i) => `k${i}=1`).join('&')}` },
      'many keys',
    );
    await probe(
      { method: 'GET', url: `/trpc/prices.list?input=${encodeURIComponent(deepJson(10_000))}` },
      'deep tRPC input',
    );
    await probe(
      { method: 'GET', url: `/trpc/prices.list?input=${encodeURIComponent(`{"json":${deepJson(10_000, 'object')}}`)}` },
      'deep tRPC input',
    );
    await probe({ method: 'GET', url: `/api/egg-prices?${'a['.repeat(5000)}${']'.repeat(5000)}=1` }, 'deep brackets');
    await stillServes();
  });
});

describe('what the campaign found, kept as regular tests', () => {
  it('a NUL character anywhere in the input answers 400 before PostgreSQL sees it', async () => {
    const headers = await credentials('admin', {}, false);
    const own = await credentials('shopper', {}, false);
    const nul = [
      { method: 'DELETE', url: '/api/users/%00', headers },
      { method: 'GET', url: '/api/users/a%00b/subscriptions', headers },
      {
        method: 'PUT',
        url: `/api/users/${shopper.user.id}`,
        headers: { ...own, 'content-type': 'application/json' },
        payload: JSON.stringify({
          username: shopper.user.username,
          email: shopper.user.email,
          first_name: 'Zo\u0000ë',
        }),
      },
      {
        method: 'POST',
        url: '/trpc/users.update',
        headers: { ...own, 'content-type': 'application/json' },
        payload: JSON.stringify({
          json: {
            id: shopper.user.id,
            username: shopper.user.username,
            email: shopper.user.email,
            last_name: '\u0000',
          },
        }),
      },
      {
        method: 'GET',
        url: `/trpc/users.byId?input=${encodeURIComponent(JSON.stringify({ json: { id: '\u0000' } }))}`,
        headers,
      },
      {
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.test', password: 'pass\u0000word' }),
      },
    ] satisfies InjectOptions[];
    for (const request of nul) {
      const response = await probe(request, 'NUL');
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(400);
      expect(messageOf(response)).toMatch(/NUL/);
    }
    // The one-click unsubscribe (a mail client's form POST, outside tRPC) treats it as any link
    // that does not work.
    const oneClick = await probe(
      {
        method: 'POST',
        url: `/notifications/unsubscribe?token=${'%00'.repeat(40)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      },
      'NUL',
    );
    expect(oneClick.statusCode).toBe(404);
    expect(oneClick.body).toBe('This unsubscribe link is invalid.');
    // Should a NUL reach PostgreSQL by another way, its refusal is still the request's fault.
    const refused = await db.sql`select ${'a\u0000b'}::text`.then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUnstorableText(refused)).toBe(true);
    expect(isUnstorableText(new Error('other'))).toBe(false);
  });

  it('a month of year 0000 or month 00 answers 400, not a failed date cast', async () => {
    for (const url of [
      '/api/market-prices?from=0000-00',
      '/api/market-prices.csv?from=0050-20',
      '/api/market-prices?from=2016-13',
    ]) {
      const response = await probe({ method: 'GET', url }, 'month');
      expect(response.statusCode, url).toBe(400);
      expect(messageOf(response)).toMatch(/from must be a month like 2016-01/);
    }
    const yearZero = await probe({ method: 'GET', url: '/api/market-prices?from=0000-01' }, 'month');
    expect(yearZero.statusCode).toBe(400);
    expect(messageOf(yearZero)).toMatch(/from must be a month from 1900 to 2199/);
    expect((await probe({ method: 'GET', url: '/api/market-prices?from=2016-01' }, 'month')).statusCode).toBe(200);
  });

  it('a day of year 0000 answers 400 on the official data, not a failed date cast', async () => {
    // ISO's year 0000 is a leap year on paper: 0000-02-29 passes a date check that PostgreSQL,
    // which has no year zero, then refuses.
    const trpc = (path: string, json: object) => `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json }))}`;
    for (const url of [
      '/api/official/series/APU0000708111?from=0000-02-29',
      '/api/official/series/APU0000708111?to=0000-01-01',
      trpc('official.detectionsByState', { from: '0000-02-29' }),
      trpc('official.series', { seriesId: 'APU0000708111', from: '0000-02-29' }),
    ]) {
      const response = await probe({ method: 'GET', url }, 'official day');
      expect(response.statusCode, url).toBe(400);
      expect(messageOf(response), url).toMatch(/(from|to) must be a date from 1900 to 2199/);
    }
    expect(
      (await probe({ method: 'GET', url: trpc('official.detectionsByState', { from: '2026-01-05' }) }, 'official day'))
        .statusCode,
    ).toBe(200);
  });

  it('a scrape run id beyond PostgreSQL integers answers 400, not an out-of-range error', async () => {
    const headers = await credentials('admin', {}, false);
    for (const id of ['2147483648', '99999999999999999999']) {
      expect((await probe({ method: 'GET', url: `/api/scrape/runs/${id}`, headers }, 'run id')).statusCode).toBe(400);
      expect(
        (
          await probe(
            {
              method: 'GET',
              url: `/trpc/scrape.run?input=${encodeURIComponent(JSON.stringify({ json: { id: Number(id) } }))}`,
              headers,
            },
            'run id',
          )
        ).statusCode,
      ).toBe(400);
    }
  });

  it("a broken percent escape answers 400 { message }, and an overlong path parameter its route's own error", async () => {
    for (const url of ['/%', '/api/stores/%E0%A4%A', '/trpc/%E0', '/assets/%zz.js']) {
      const response = await probe({ method: 'GET', url }, 'bad URL');
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ message: 'Malformed URL: a percent escape that is not valid UTF-8' });
    }
    const long = await probe({ method: 'GET', url: `/api/stores/${'a'.repeat(150)}` }, 'long parameter');
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^storeId: /);
  });

  it('tRPC answers 415 to a body that is not JSON and 405 (JSON) to methods it does not speak, with a message', async () => {
    for (const url of ['/trpc/auth.login', '/trpc/auth.verifyEmail', '/trpc/']) {
      for (const type of [
        'multipart/form-data',
        'multipart/form-data; boundary=x',
        'text/plain',
        'application/octet-stream',
      ]) {
        const response = await probe(
          {
            method: 'POST',
            url,
            headers: { 'content-type': type },
            payload: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.test\r\n--x--',
          },
          'tRPC body type',
        );
        expect(response.statusCode, `${url} ${type}`).toBe(415);
      }
    }
    for (const method of ['TRACE', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
      const response = await probe({ method, url: '/trpc/stats.get' }, 'tRPC method');
      expect(response.statusCode, method).toBe(405);
      // OPTIONS with a form body used to reach the adapter's stream reader too.
      expect(
        (
          await probe(
            { method, url: '/trpc/', headers: { 'content-type': 'multipart/form-data' }, payload: 'x' },
            'tRPC method',
          )
        ).statusCode,
        method,
      ).toBe(405);
      expect(response.headers.allow).toBe('GET, POST');
    }
    // The app's own calls still work: JSON with or without a charset.
    const login = await probe(
      {
        method: 'POST',
        url: '/trpc/auth.login',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        payload: JSON.stringify({ json: { email: 'nobody@example.test', password: 'wrong-one' } }),
      },
      'login',
    );
    expect(login.statusCode).toBe(401);
  });
});

describe('what users typed, in the emails the campaign caused', () => {
  it('every queued email is free of injected elements, event handlers and foreign links', async () => {
    // Usernames are letters, digits and . _ - only; the free text in emails (retailers' titles and
    // store names) is covered by src/server/email/escaping.test.ts. One registration makes sure
    // at least one email is here.
    const registered = await probe(
      {
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          username: `Zoë_${Date.now()}`,
          email: `zoe-${Date.now()}@example.test`,
          password: 'secret12',
          first_name: '<b>Zoë</b>',
        }),
        remoteAddress: '192.0.2.99',
      },
      'registration',
    );
    expect(registered.statusCode).toBe(201);
    const emails = await db.sql<{ html: string }[]>`select html from email_outbox`;
    expect(emails.length).toBeGreaterThan(0);
    for (const { html } of emails) {
      const $ = cheerio.load(html);
      expect($('script, img, svg, iframe, object, embed, form, input, style, link, meta, base').length, html).toBe(0);
      for (const element of $('*').toArray()) {
        if (!('attribs' in element)) continue;
        expect(
          Object.keys(element.attribs).filter((name) => !['href', 'style'].includes(name)),
          html,
        ).toEqual([]);
        if (element.attribs.href)
          expect(element.attribs.href.startsWith(`${ORIGIN}/`), element.attribs.href).toBe(true);
      }
    }
  });
});

describe('coverage', () => {
  it('the campaign covers every route of the app and every tRPC procedure (add new ones above)', () => {
    const clientRoutes = [...enumerated].filter((route) => /^(GET|HEAD) \/\*$/.test(route));
    expect([...enumerated].filter((route) => !covered.has(route) && !clientRoutes.includes(route)).sort()).toEqual([]);
    expect([...covered].filter((route) => !enumerated.has(route)).sort()).toEqual([]);
    expect(procedures.length).toBeGreaterThan(40);
  });
});
