// The REST contract as an integrator meets it. Every operation of /api/openapi.json is requested
// once for each answer it documents (its success and every error status), and each answer is
// validated against the document by ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1): its
// body, its content type and its documented headers. The test fails when the document lists a
// status no request here produces, when the app serves a route under /api the document leaves
// out, or documents one it does not serve. Then the rules every path is held to: one limit for
// every list, paging wherever a total is sent, unknown ids answer 404, and every refusal names the
// parameter and what it accepts.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { enumerateRoutes } from '../../../test/hostile.ts';
import { addListing, type Listing } from '../../../test/listings.ts';
import { createAccount, linkToken, linkTokenTo, newestEmail, type TestAccount } from '../../../test/users.ts';
import { buildApp } from '../app.ts';
import { SESSION_COOKIE } from '../auth/lucia.ts';
import { refreshRollups } from '../queries/rollups.ts';
import { MAX_ACTIVE_SUBSCRIPTIONS } from '#shared/subscriptions.ts';
import { openApiDocument } from './openapi.ts';

const ORIGIN = 'http://eggwatch.test';
const SETUP_KEY = 'contract-setup-key-000';
/** An address whose price alerts are all taken. */
const FULL = 'full@example.test';

interface Operation {
  parameters: Array<{ name: string; in: string; description?: string; schema: Record<string, unknown> }>;
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content: Record<string, { schema: Record<string, unknown> }> }
  >;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}
const doc = openApiDocument() as unknown as Document;

/** One request: a path with its query, who sends it, its body. */
interface Request {
  path: string;
  as?: TestAccount;
  body?: unknown;
  /** Sent with a session cookie from another site (the CSRF refusal). */
  crossSite?: boolean;
  /** Sent to the app whose limits are all spent (the 429s). */
  limited?: boolean;
}
type Example = () => Request | Promise<Request>;

let db: TestDatabase;
let app: FastifyInstance;
let limited: FastifyInstance;
let shopper: TestAccount;
let admin: TestAccount;
let other: TestAccount;
let listing: Listing;

beforeAll(async () => {
  db = await createTestDatabase();
  listing = await addListing(db.sql, { store: 'walmart', zip: '50265', price: 3.49, previous: 3.69 });
  await refreshRollups(db.sql, { all: true });
  const auth = { publicUrl: ORIGIN, adminSetupKey: SETUP_KEY, exposeResetToken: true };
  ({ app } = buildApp({ sql: db.sql, logLevel: 'silent', distDir: '/nonexistent', auth }));
  // Every account limit refuses its first attempt; the public reads allow one a minute.
  ({ app: limited } = buildApp({
    sql: db.sql,
    logLevel: 'silent',
    distDir: '/nonexistent',
    publicApiRateLimit: 100,
    auth: { ...auth, rateLimitScale: 0.01 },
  }));
  await Promise.all([app.ready(), limited.ready()]);
  shopper = await createAccount(db.sql);
  admin = await createAccount(db.sql, { role: 'admin' });
  other = await createAccount(db.sql);
  await db.sql`
    insert into subscriptions (email, active)
    select ${FULL}, true from generate_series(1, ${MAX_ACTIVE_SUBSCRIPTIONS})`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await limited?.close();
  await db?.drop();
});

async function send(method: string, request: Request): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (request.as) headers.authorization = `Bearer ${request.as.token}`;
  if (request.crossSite) {
    headers.cookie = `${SESSION_COOKIE}=${(request.as ?? shopper).token}`;
    headers.origin = 'https://elsewhere.example';
    delete headers.authorization;
  }
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const target = request.limited ? limited : app;
  const remoteAddress = request.limited ? '198.51.100.77' : '192.0.2.10';
  // Spends the public reads' minute first, so a public read is refused.
  if (request.limited) await target.inject({ method: 'GET', url: '/api/stats', remoteAddress });
  return target.inject({
    method: method as 'GET',
    url: request.path,
    headers,
    remoteAddress,
    ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
  });
}

const json = (response: LightMyRequestResponse) => JSON.parse(response.body) as Record<string, unknown>;

/** A subscription made without a login (so confirmed by email), and the tokens of its email. */
async function emailedSubscription(email: string, values: Record<string, unknown> = {}) {
  const created = await send('POST', { path: '/api/subscribers', body: { email, ...values } });
  expect(created.statusCode).toBe(201);
  const text = (await newestEmail(db.sql, email))!.text;
  return {
    id: (json(created).subscription as { id: number }).id,
    confirm: linkToken(text),
    manage: linkTokenTo(text, '/notifications/manage'),
    unsubscribe: linkTokenTo(text, '/notifications/unsubscribe'),
  };
}

/** A subscription of the shopper's own (confirmed: the address is the shopper's verified email). */
async function ownSubscription(values: Record<string, unknown> = {}) {
  const created = await send('POST', {
    path: '/api/subscribers',
    as: shopper,
    body: { email: shopper.user.email, ...values },
  });
  // Added, or (the same values again) the one the shopper already has.
  expect([200, 201]).toContain(created.statusCode);
  return (json(created).subscription as { id: number }).id;
}

const adminSubscriber = () => createAccount(db.sql);
const unique = () => Math.random().toString(36).slice(2, 10);
const UNKNOWN_TOKEN = 'x'.repeat(24);

async function clearRuns() {
  await db.sql`delete from scrape_runs`;
  await db.sql`delete from coverage_runs`;
  await db.sql`delete from coverage_plans`;
  await db.sql`delete from graphile_worker._private_jobs`;
}

async function rhodeIslandStores() {
  for (const n of [1, 2])
    await db.sql`
      insert into store_locations (store_id, zip, region, retailer_location_id, name, city, state, latitude, longitude, coordinates_source)
      values ('target', '02903', 'northeast', ${`contract-${n}`}, ${`Store ${n}`}, 'Providence', 'RI', 41.8, -71.4, 'retailer')
      on conflict do nothing`;
}

const csv =
  (example: Example): Example =>
  async () => {
    const request = await example();
    const [pathname, search] = request.path.split('?');
    return { ...request, path: `${pathname}.csv${search ? `?${search}` : ''}` };
  };

/** Requests that answer each documented status of each operation. */
const EXAMPLES: Record<string, Record<string, Example>> = {
  'GET /api/egg-prices': {
    200: () => ({ path: '/api/egg-prices?store=walmart&limit=5&offset=1' }),
    400: () => ({ path: '/api/egg-prices?egg_type=bogus' }),
    404: () => ({ path: '/api/egg-prices?store=nosuch' }),
    429: () => ({ path: '/api/egg-prices', limited: true }),
  },
  'GET /api/egg-prices/near': {
    200: () => ({ path: '/api/egg-prices/near?zip=50309&radius=10&limit=1' }),
    400: () => ({ path: '/api/egg-prices/near?zip=99999' }),
    429: () => ({ path: '/api/egg-prices/near?zip=50309', limited: true }),
  },
  'GET /api/egg-prices/by-state': {
    200: () => ({ path: '/api/egg-prices/by-state?egg_type=standard&limit=10&offset=5' }),
    400: () => ({ path: '/api/egg-prices/by-state?zip=50309' }),
    429: () => ({ path: '/api/egg-prices/by-state', limited: true }),
  },
  'GET /api/egg-prices/by-state/{state}': {
    200: () => ({ path: '/api/egg-prices/by-state/ia?limit=1' }),
    400: () => ({ path: '/api/egg-prices/by-state/XX' }),
    429: () => ({ path: '/api/egg-prices/by-state/IA', limited: true }),
  },
  'GET /api/products/{id}/history': {
    200: () => ({ path: `/api/products/${listing.productId}/history?location=${listing.locationId}&days=30` }),
    400: () => ({ path: `/api/products/${listing.productId}/history` }),
    404: () => ({ path: `/api/products/${listing.productId}/history?location=999999` }),
    429: () => ({ path: `/api/products/1/history?location=1`, limited: true }),
  },
  'GET /api/stats': {
    200: () => ({ path: '/api/stats' }),
    400: () => ({ path: '/api/stats?period=week' }),
    429: () => ({ path: '/api/stats', limited: true }),
  },
  'GET /api/market-prices': {
    200: () => ({ path: '/api/market-prices?region=national&from=2025-01' }),
    400: () => ({ path: '/api/market-prices?from=2020' }),
    429: () => ({ path: '/api/market-prices', limited: true }),
  },
  'GET /api/official/sources': {
    200: () => ({ path: '/api/official/sources' }),
    400: () => ({ path: '/api/official/sources?limit=0' }),
    429: () => ({ path: '/api/official/sources', limited: true }),
  },
  'GET /api/official/series/{seriesId}': {
    200: async () => {
      await db.sql`delete from official_observations where series_id = 'usda-retail:northeast:cage_free'`;
      const [fetch] = await db.sql<Array<{ id: number }>>`
        insert into official_fetches (source, url, outcome) values ('usda_retail', 'http://stand-in', 'parsed') returning id`;
      await db.sql`
        insert into official_observations (source, series_id, period, value, value_text, unit, detail, published_on, fetched_at, fetch_id)
        values ('usda_retail', 'usda-retail:northeast:cage_free', '2026-11-20', 4.12, '4.12', 'USD per dozen',
                '{"low": 2.99, "high": 5.49, "stores": 1840}', '2026-11-20', now(), ${fetch!.id})`;
      await db.sql`
        insert into official_revisions (series_id, period, old_value, old_value_text, old_published_on, old_fetched_at, new_value, new_value_text)
        values ('usda-retail:northeast:cage_free', '2026-11-20', 4.1, '4.10', '2026-11-20', now(), 4.12, '4.12')`;
      return { path: '/api/official/series/usda-retail:northeast:cage_free?from=2026-11-01' };
    },
    400: () => ({ path: '/api/official/series/APU0000708111?from=yesterday' }),
    404: () => ({ path: '/api/official/series/APU9999999999' }),
    429: () => ({ path: '/api/official/series/APU0000708111', limited: true }),
  },
  'GET /api/ticker': {
    200: () => ({ path: '/api/ticker' }),
    400: () => ({ path: '/api/ticker?limit=0' }),
    429: () => ({ path: '/api/ticker', limited: true }),
  },
  'GET /api/stores': {
    200: () => ({ path: '/api/stores?limit=2&offset=2' }),
    400: () => ({ path: '/api/stores?limit=5001' }),
    429: () => ({ path: '/api/stores', limited: true }),
  },
  'GET /api/stores/{storeId}': {
    200: () => ({ path: '/api/stores/Walmart' }),
    400: () => ({ path: '/api/stores/bad%20id' }),
    404: () => ({ path: '/api/stores/nosuch' }),
    429: () => ({ path: '/api/stores/walmart', limited: true }),
  },
  'GET /api/stores/{storeId}/prices': {
    200: () => ({ path: '/api/stores/walmart/prices?region=midwest&limit=3' }),
    400: () => ({ path: '/api/stores/walmart/prices?count=zero' }),
    404: () => ({ path: '/api/stores/nosuch/prices' }),
    429: () => ({ path: '/api/stores/walmart/prices', limited: true }),
  },
  'GET /api/stores/{storeId}/locations/figures': {
    200: () => ({ path: '/api/stores/walmart/locations/figures?egg_type=standard' }),
    400: () => ({ path: '/api/stores/walmart/locations/figures?region=moon' }),
    404: () => ({ path: '/api/stores/nosuch/locations/figures' }),
    429: () => ({ path: '/api/stores/walmart/locations/figures', limited: true }),
  },
  'GET /api/stores/{storeId}/locations': {
    200: async () => {
      await rhodeIslandStores();
      return { path: '/api/stores/target/locations?state=ri&limit=1' };
    },
    400: () => ({ path: '/api/stores/target/locations?state=XX' }),
    404: () => ({ path: '/api/stores/nosuch/locations' }),
    429: () => ({ path: '/api/stores/target/locations', limited: true }),
  },
  'POST /api/auth/register': {
    201: () => ({
      path: '/api/auth/register',
      body: { username: `new_${unique()}`, email: `${unique()}@example.test`, password: 'secret-1' },
    }),
    400: () => ({ path: '/api/auth/register', body: { username: 'x', email: 'nope', password: '1' } }),
    403: () => ({
      path: '/api/auth/register',
      crossSite: true,
      body: { username: `new_${unique()}`, email: `${unique()}@example.test`, password: 'secret-1' },
    }),
    409: () => ({
      path: '/api/auth/register',
      body: { username: shopper.user.username, email: `${unique()}@example.test`, password: 'secret-1' },
    }),
    429: () => ({
      path: '/api/auth/register',
      limited: true,
      body: { username: `new_${unique()}`, email: `${unique()}@example.test`, password: 'secret-1' },
    }),
  },
  'POST /api/auth/login': {
    200: () => ({ path: '/api/auth/login', body: { email: other.user.email, password: other.password } }),
    400: () => ({ path: '/api/auth/login', body: { email: other.user.email } }),
    401: () => ({ path: '/api/auth/login', body: { email: other.user.email, password: 'wrong-password' } }),
    403: () => ({
      path: '/api/auth/login',
      crossSite: true,
      body: { email: other.user.email, password: other.password },
    }),
    429: () => ({
      path: '/api/auth/login',
      limited: true,
      body: { email: other.user.email, password: other.password },
    }),
  },
  'POST /api/auth/logout': {
    200: async () => ({ path: '/api/auth/logout', as: await adminSubscriber(), body: {} }),
    400: () => ({ path: '/api/auth/logout', body: { token: 'x'.repeat(300) } }),
    403: () => ({ path: '/api/auth/logout', crossSite: true, body: {} }),
  },
  'GET /api/auth/verify': {
    200: () => ({ path: '/api/auth/verify', as: shopper }),
    400: () => ({ path: '/api/auth/verify?user=1', as: shopper }),
    401: () => ({ path: '/api/auth/verify' }),
  },
  'POST /api/auth/change-password': {
    200: async () => {
      const account = await adminSubscriber();
      return {
        path: '/api/auth/change-password',
        as: account,
        body: { current_password: account.password, new_password: 'new-secret-1' },
      };
    },
    400: () => ({ path: '/api/auth/change-password', as: shopper, body: { current_password: 'x' } }),
    401: () => ({ path: '/api/auth/change-password', body: { current_password: 'x', new_password: 'new-secret-1' } }),
    403: () => ({
      path: '/api/auth/change-password',
      as: shopper,
      body: { user_id: other.user.id, current_password: shopper.password, new_password: 'new-secret-1' },
    }),
  },
  'POST /api/auth/request-reset': {
    200: () => ({ path: '/api/auth/request-reset', body: { email: other.user.email } }),
    400: () => ({ path: '/api/auth/request-reset', body: { email: 'not an address' } }),
    403: () => ({ path: '/api/auth/request-reset', crossSite: true, body: { email: other.user.email } }),
    429: () => ({ path: '/api/auth/request-reset', limited: true, body: { email: other.user.email } }),
  },
  'POST /api/auth/reset-password': {
    200: async () => {
      const account = await adminSubscriber();
      const requested = await send('POST', { path: '/api/auth/request-reset', body: { email: account.user.email } });
      return {
        path: '/api/auth/reset-password',
        body: { token: json(requested).resetToken, newPassword: 'new-secret-1' },
      };
    },
    400: () => ({ path: '/api/auth/reset-password', body: { token: UNKNOWN_TOKEN, newPassword: 'new-secret-1' } }),
    403: () => ({
      path: '/api/auth/reset-password',
      crossSite: true,
      body: { token: UNKNOWN_TOKEN, newPassword: 'new-secret-1' },
    }),
    429: () => ({
      path: '/api/auth/reset-password',
      limited: true,
      body: { token: UNKNOWN_TOKEN, newPassword: 'new-secret-1' },
    }),
  },
  'POST /api/auth/verify-email': {
    200: async () => {
      const email = `${unique()}@example.test`;
      await send('POST', {
        path: '/api/auth/register',
        body: { username: `new_${unique()}`, email, password: 'secret-1' },
      });
      return { path: '/api/auth/verify-email', body: { token: linkToken((await newestEmail(db.sql, email))!.text) } };
    },
    400: () => ({ path: '/api/auth/verify-email', body: { token: UNKNOWN_TOKEN } }),
    403: () => ({ path: '/api/auth/verify-email', crossSite: true, body: { token: UNKNOWN_TOKEN } }),
  },
  'POST /api/admin/setup': {
    201: async () => {
      // Setup is open only while no administrator exists.
      await db.sql`update users set role = 'user' where role = 'admin'`;
      return { path: '/api/admin/setup', body: setupBody(SETUP_KEY) };
    },
    400: () => ({ path: '/api/admin/setup', body: { ...setupBody(SETUP_KEY), password: 'weak' } }),
    403: () => ({ path: '/api/admin/setup', body: setupBody('not-the-setup-key') }),
    409: async () => {
      await db.sql`update users set role = 'admin' where id = ${admin.user.id}`;
      return { path: '/api/admin/setup', body: setupBody(SETUP_KEY) };
    },
    429: () => ({ path: '/api/admin/setup', limited: true, body: setupBody(SETUP_KEY) }),
  },
  'GET /api/users/{id}/subscriptions': {
    200: async () => {
      await ownSubscription();
      return { path: `/api/users/${shopper.user.id}/subscriptions?limit=1`, as: shopper };
    },
    400: () => ({ path: `/api/users/${shopper.user.id}/subscriptions?limit=-1`, as: shopper }),
    401: () => ({ path: `/api/users/${shopper.user.id}/subscriptions` }),
    404: () => ({ path: `/api/users/${other.user.id}/subscriptions`, as: shopper }),
  },
  'PUT /api/users/{id}': {
    200: () => ({
      path: `/api/users/${shopper.user.id}`,
      as: shopper,
      body: { username: shopper.user.username, email: shopper.user.email, first_name: 'Sam', last_name: null },
    }),
    400: () => ({ path: `/api/users/${shopper.user.id}`, as: shopper, body: { username: 'x' } }),
    401: () => ({ path: `/api/users/${shopper.user.id}`, body: { username: 'someone', email: 'a@example.test' } }),
    403: () => ({
      path: `/api/users/${shopper.user.id}`,
      crossSite: true,
      body: { username: shopper.user.username, email: shopper.user.email },
    }),
    404: () => ({
      path: `/api/users/${other.user.id}`,
      as: shopper,
      body: { username: other.user.username, email: other.user.email },
    }),
    409: () => ({
      path: `/api/users/${shopper.user.id}`,
      as: shopper,
      body: { username: other.user.username, email: shopper.user.email },
    }),
  },
  'DELETE /api/users/{id}': {
    200: async () => {
      const account = await adminSubscriber();
      return { path: `/api/users/${account.user.id}`, as: account };
    },
    400: () => ({ path: `/api/users/${'x'.repeat(65)}`, as: shopper }),
    401: () => ({ path: `/api/users/${shopper.user.id}` }),
    403: () => ({ path: `/api/users/${shopper.user.id}`, crossSite: true }),
    404: () => ({ path: `/api/users/${other.user.id}`, as: shopper }),
  },
  'POST /api/subscribers': {
    201: () => ({ path: '/api/subscribers', body: { email: `${unique()}@example.test`, egg_type: 'organic' } }),
    // The same alert asked for again: nothing added.
    200: async () => {
      const email = `${unique()}@example.test`;
      await emailedSubscription(email, { egg_type: 'organic' });
      return { path: '/api/subscribers', body: { email, egg_type: 'organic' } };
    },
    400: () => ({ path: '/api/subscribers', body: { email: 'someone@example.test', region: 'moon' } }),
    403: () => ({ path: '/api/subscribers', crossSite: true, body: { email: 'someone@example.test' } }),
    // Another alert than the address's (the same one again adds nothing: status exists).
    409: () => ({ path: '/api/subscribers', body: { email: FULL, region: 'south' } }),
    429: () => ({ path: '/api/subscribers', limited: true, body: { email: 'someone@example.test' } }),
  },
  'GET /api/subscribers/unsubscribe': {
    200: async () => {
      const { unsubscribe } = await emailedSubscription(`${unique()}@example.test`);
      return { path: `/api/subscribers/unsubscribe?token=${encodeURIComponent(unsubscribe)}` };
    },
    400: () => ({ path: '/api/subscribers/unsubscribe' }),
    404: () => ({ path: `/api/subscribers/unsubscribe?token=${UNKNOWN_TOKEN}` }),
  },
  'POST /api/subscribers/unsubscribe': {
    200: async () => {
      const { unsubscribe } = await emailedSubscription(`${unique()}@example.test`);
      return { path: '/api/subscribers/unsubscribe', body: { token: unsubscribe } };
    },
    400: () => ({ path: '/api/subscribers/unsubscribe', body: { token: 'short' } }),
    403: () => ({ path: '/api/subscribers/unsubscribe', crossSite: true, body: { token: UNKNOWN_TOKEN } }),
    404: () => ({ path: '/api/subscribers/unsubscribe', body: { token: UNKNOWN_TOKEN } }),
  },
  'POST /api/subscribers/confirm': {
    200: async () => {
      const { confirm } = await emailedSubscription(`${unique()}@example.test`);
      return { path: '/api/subscribers/confirm', body: { token: confirm } };
    },
    400: () => ({ path: '/api/subscribers/confirm', body: {} }),
    403: () => ({ path: '/api/subscribers/confirm', crossSite: true, body: { token: UNKNOWN_TOKEN } }),
    404: () => ({ path: '/api/subscribers/confirm', body: { token: UNKNOWN_TOKEN } }),
  },
  'GET /api/subscribers/manage': {
    200: async () => {
      const { manage } = await emailedSubscription(`${unique()}@example.test`);
      return { path: `/api/subscribers/manage?token=${encodeURIComponent(manage)}` };
    },
    400: () => ({ path: '/api/subscribers/manage?token=short' }),
    404: () => ({ path: `/api/subscribers/manage?token=${UNKNOWN_TOKEN}` }),
  },
  'PUT /api/subscribers/manage': {
    200: async () => {
      const { manage } = await emailedSubscription(`${unique()}@example.test`);
      return { path: '/api/subscribers/manage', body: { token: manage, notification_frequency: 'daily' } };
    },
    400: () => ({ path: '/api/subscribers/manage', body: { token: UNKNOWN_TOKEN, notification_frequency: 'hourly' } }),
    403: () => ({ path: '/api/subscribers/manage', crossSite: true, body: { token: UNKNOWN_TOKEN } }),
    404: () => ({ path: '/api/subscribers/manage', body: { token: UNKNOWN_TOKEN } }),
    409: async () => {
      const { manage } = await emailedSubscription(FULL, { active: false, region: 'west' });
      return { path: '/api/subscribers/manage', body: { token: manage, active: true } };
    },
  },
  'GET /api/subscribers/{id}': {
    200: async () => ({ path: `/api/subscribers/${await ownSubscription()}`, as: shopper }),
    400: () => ({ path: '/api/subscribers/first', as: shopper }),
    401: () => ({ path: '/api/subscribers/1' }),
    404: () => ({ path: '/api/subscribers/999999', as: shopper }),
  },
  'PUT /api/subscribers/{id}': {
    200: async () => ({
      path: `/api/subscribers/${await ownSubscription()}`,
      as: shopper,
      body: { email: shopper.user.email, region: 'west' },
    }),
    400: () => ({ path: '/api/subscribers/1', as: shopper, body: { email: 'nope' } }),
    401: () => ({ path: '/api/subscribers/1', body: { email: shopper.user.email } }),
    403: () => ({ path: '/api/subscribers/1', crossSite: true, body: { email: shopper.user.email } }),
    404: () => ({ path: '/api/subscribers/999999', as: shopper, body: { email: shopper.user.email } }),
    409: async () => ({
      path: `/api/subscribers/${await ownSubscription({ email: FULL, active: false, region: 'northeast' })}`,
      as: shopper,
      body: { email: FULL, active: true },
    }),
  },
  'DELETE /api/subscribers/{id}': {
    200: async () => ({ path: `/api/subscribers/${await ownSubscription()}`, as: shopper }),
    400: () => ({ path: '/api/subscribers/first', as: shopper }),
    401: () => ({ path: '/api/subscribers/1' }),
    403: () => ({ path: '/api/subscribers/1', crossSite: true }),
    404: () => ({ path: '/api/subscribers/999999', as: shopper }),
  },
  'POST /api/scrape/{store}': {
    202: async () => {
      await clearRuns();
      return { path: '/api/scrape/target', as: admin, body: { zipCodes: ['10001'] } };
    },
    400: () => ({ path: '/api/scrape/costco', as: admin, body: { zipCodes: ['10001'] } }),
    401: () => ({ path: '/api/scrape/target', body: { zipCodes: ['10001'] } }),
    403: () => ({ path: '/api/scrape/target', as: shopper, body: { zipCodes: ['10001'] } }),
    409: () => ({ path: '/api/scrape/target', as: admin, body: { zipCodes: ['60611'] } }),
  },
  'POST /api/scrape/all': {
    202: async () => {
      await clearRuns();
      return { path: '/api/scrape/all', as: admin, body: { zipCodes: ['10001'] } };
    },
    400: () => ({ path: '/api/scrape/all', as: admin, body: { zipCodes: [] } }),
    401: () => ({ path: '/api/scrape/all', body: { zipCodes: ['10001'] } }),
    403: () => ({ path: '/api/scrape/all', as: shopper, body: { zipCodes: ['10001'] } }),
    409: () => ({ path: '/api/scrape/all', as: admin, body: { zipCodes: ['60611'] } }),
  },
  'GET /api/scrape/status': adminRead('/api/scrape/status'),
  'GET /api/scrape/all-status': adminRead('/api/scrape/all-status'),
  'GET /api/scrape/runs': {
    ...adminRead('/api/scrape/runs?store=target&limit=1'),
    400: () => ({ path: '/api/scrape/runs?store=costco', as: admin }),
  },
  'GET /api/scrape/runs/{id}': {
    200: async () => {
      await clearRuns();
      const started = await send('POST', { path: '/api/scrape/aldi', as: admin, body: { zipCodes: ['10001'] } });
      return { path: `/api/scrape/runs/${json(started).runId}`, as: admin };
    },
    400: () => ({ path: '/api/scrape/runs/first', as: admin }),
    401: () => ({ path: '/api/scrape/runs/1' }),
    403: () => ({ path: '/api/scrape/runs/1', as: shopper }),
    404: () => ({ path: '/api/scrape/runs/999999', as: admin }),
  },
  'GET /api/scrape/settings': adminRead('/api/scrape/settings'),
  'PUT /api/scrape/settings': {
    200: () => ({
      path: '/api/scrape/settings',
      as: admin,
      body: { dailyEnabled: false, hourUtc: 6, zipCodes: ['10001'] },
    }),
    400: () => ({ path: '/api/scrape/settings', as: admin, body: { dailyEnabled: false, hourUtc: 24, zipCodes: [] } }),
    401: () => ({ path: '/api/scrape/settings', body: { dailyEnabled: false, hourUtc: 6, zipCodes: ['10001'] } }),
    403: () => ({
      path: '/api/scrape/settings',
      as: shopper,
      body: { dailyEnabled: false, hourUtc: 6, zipCodes: ['10001'] },
    }),
  },
  'GET /api/coverage': {
    ...adminRead('/api/coverage?limit=2'),
    400: () => ({ path: '/api/coverage?offset=-1', as: admin }),
  },
  'POST /api/coverage/{store}/discover': {
    202: async () => {
      await clearRuns();
      return { path: '/api/coverage/target/discover', as: admin, body: { scope: { kind: 'states', states: ['RI'] } } };
    },
    400: () => ({ path: '/api/coverage/target/discover', as: admin, body: { scope: { kind: 'planet' } } }),
    401: () => ({ path: '/api/coverage/target/discover', body: { scope: { kind: 'nationwide' } } }),
    403: () => ({ path: '/api/coverage/target/discover', as: shopper, body: { scope: { kind: 'nationwide' } } }),
    409: () => ({ path: '/api/coverage/target/discover', as: admin, body: { scope: { kind: 'nationwide' } } }),
  },
  'PUT /api/coverage/{store}/plan': {
    200: () => ({
      path: '/api/coverage/target/plan',
      as: admin,
      body: { scope: { kind: 'states', states: ['RI'] }, revisitDays: 2 },
    }),
    400: () => ({
      path: '/api/coverage/target/plan',
      as: admin,
      body: { scope: { kind: 'nationwide' }, revisitDays: 31 },
    }),
    401: () => ({ path: '/api/coverage/target/plan', body: { scope: { kind: 'nationwide' } } }),
    403: () => ({ path: '/api/coverage/target/plan', as: shopper, body: { scope: { kind: 'nationwide' } } }),
  },
  'POST /api/coverage/{store}/visit': {
    202: async () => {
      await clearRuns();
      await rhodeIslandStores();
      const plan = { scope: { kind: 'states', states: ['RI'] }, revisitDays: 1 };
      expect((await send('PUT', { path: '/api/coverage/target/plan', as: admin, body: plan })).statusCode).toBe(200);
      return { path: '/api/coverage/target/visit', as: admin };
    },
    400: () => ({ path: '/api/coverage/costco/visit', as: admin }),
    401: () => ({ path: '/api/coverage/target/visit' }),
    403: () => ({ path: '/api/coverage/target/visit', as: shopper }),
    409: () => ({ path: '/api/coverage/target/visit', as: admin }),
  },
  'GET /api/scrapers/egress': {
    ...adminRead('/api/scrapers/egress?limit=2'),
    400: () => ({ path: '/api/scrapers/egress?offset=-1', as: admin }),
  },
  'POST /api/scrapers/{store}/test': {
    202: async () => {
      await db.sql`delete from egress_tests`;
      return { path: '/api/scrapers/aldi/test', as: admin, body: { zipCode: '10001' } };
    },
    400: () => ({ path: '/api/scrapers/aldi/test', as: admin, body: { zipCode: '1000' } }),
    401: () => ({ path: '/api/scrapers/aldi/test', body: { zipCode: '10001' } }),
    403: () => ({ path: '/api/scrapers/aldi/test', as: shopper, body: { zipCode: '10001' } }),
    409: () => ({ path: '/api/scrapers/aldi/test', as: admin, body: { zipCode: '10001' } }),
    429: async () => {
      // Six a minute per administrator: the ones above and these use them up.
      for (let i = 0; i < 6; i++)
        await send('POST', { path: '/api/scrapers/aldi/test', as: admin, body: { zipCode: '10001' } });
      return { path: '/api/scrapers/aldi/test', as: admin, body: { zipCode: '10001' } };
    },
  },
  'GET /api/scrapers/{store}/test/{id}': {
    200: async () => {
      const [test] = await db.sql<{ id: number }[]>`
        insert into egress_tests (store_id, zip, status) values ('kroger', '10001', 'failed') returning id`;
      return { path: `/api/scrapers/kroger/test/${test!.id}`, as: admin };
    },
    400: () => ({ path: '/api/scrapers/kroger/test/x', as: admin }),
    401: () => ({ path: '/api/scrapers/kroger/test/1' }),
    403: () => ({ path: '/api/scrapers/kroger/test/1', as: shopper }),
    404: () => ({ path: '/api/scrapers/kroger/test/999999', as: admin }),
  },
};

// The CSV siblings answer what their JSON route answers.
for (const key of Object.keys(EXAMPLES)) {
  const [method, path] = key.split(' ');
  if (method === 'GET' && doc.paths[`${path}.csv`])
    EXAMPLES[`GET ${path}.csv`] = Object.fromEntries(
      Object.entries(EXAMPLES[key]!).map(([status, example]) => [status, csv(example)]),
    );
}

function setupBody(setupKey: string) {
  const id = unique();
  return { username: `admin_${id}`, email: `admin_${id}@example.test`, password: 'Adm1n!Passw0rd', setupKey };
}

/** An administrators' read: answered to an admin, refused without a session or to a shopper. */
function adminRead(path: string): Record<string, Example> {
  const [pathname] = path.split('?');
  return {
    200: () => ({ path, as: admin }),
    400: () => ({ path: `${pathname}?verbose=1`, as: admin }),
    401: () => ({ path }),
    403: () => ({ path, as: shopper }),
  };
}

// A record keyed by a fixed set (every store's status) requires its keys through propertyNames, which
// strictRequired would take for a mistake.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

/** The schema with the document's components in place of their references. */
function resolved(schema: Record<string, unknown>): Record<string, unknown> {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
    return doc.components.schemas[ref.slice('#/components/schemas/'.length)]!;
  return schema;
}

function validatorOf(key: string, schema: Record<string, unknown>): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(resolved(schema));
    validators.set(key, validate);
  }
  return validate;
}

/** The answer against the document: its status is documented, its body fits, its headers are there. */
function expectDocumented(where: string, operation: Operation, response: LightMyRequestResponse) {
  const documented = operation.responses[String(response.statusCode)];
  expect(
    documented,
    `${where} answered ${response.statusCode}, which it does not document: ${response.body.slice(0, 300)}`,
  ).toBeDefined();
  const [type, content] = Object.entries(documented!.content)[0]!;
  expect(String(response.headers['content-type']), where).toContain(type);
  if (type === 'application/json') {
    const validate = validatorOf(`${where} ${response.statusCode}`, content.schema);
    const body: unknown = JSON.parse(response.body);
    expect(validate(body), `${where}: ${ajv.errorsText(validate.errors)} in ${response.body.slice(0, 300)}`).toBe(true);
  } else {
    expect(response.body.split('\r\n')[0], where).toMatch(/^[a-z_]+(,[a-z_]+)+$/);
  }
  if (response.statusCode < 300) {
    for (const name of Object.keys(documented!.headers ?? {})) {
      const value = response.headers[name.toLowerCase()];
      if (name === 'Link') expect(String(value), where).toMatch(/^<\/api\/[^>]+>; rel="first"/);
      else if (name === 'Content-Disposition') expect(String(value), where).toMatch(/^attachment; filename="[^"]+"$/);
      else expect(String(value), `${where}: header ${name}`).toMatch(/^\d+$/);
    }
  }
}

const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);

describe('every documented operation, each documented answer', () => {
  for (const { key, operation } of operations) {
    it(key, async () => {
      const examples = EXAMPLES[key];
      expect(examples, `${key} has no requests in EXAMPLES`).toBeDefined();
      expect(Object.keys(examples!).sort(), `${key}: the statuses it documents`).toEqual(
        Object.keys(operation.responses).sort(),
      );
      const [method, path] = key.split(' ') as [string, string];
      for (const [status, example] of Object.entries(examples!)) {
        const request = await example();
        const where = `${method} ${request.path}`;
        expect(request.path.split('?')[0], `${key} ${status}: a request of another path`).toMatch(
          new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
        );
        const response = await send(method, request);
        expect(response.statusCode, `${where}: ${response.body.slice(0, 300)}`).toBe(Number(status));
        expectDocumented(where, operation, response);
      }
      // Setup leaves an administrator in place for the operations after it.
      await db.sql`update users set role = 'admin' where id = ${admin.user.id}`;
    });
  }
});

describe('the document and the routes', () => {
  it('documents every route the app serves under /api, and the app serves every documented one', () => {
    // Not operations of the API: the reference and the document themselves, the JSON 404 of an
    // unknown /api path, and the CORS preflight every path answers.
    const served = [...enumerateRoutes(app)]
      .filter((route) => /^[A-Z]+ \/api\//.test(route))
      .filter((route) => !/^(HEAD|OPTIONS) /.test(route))
      .filter((route) => !/ \/api\/(docs\b|openapi\.json$|\*$)/.test(route))
      .map((route) => route.replace(/:(\w+)/g, '{$1}'));
    expect([...new Set(served)].sort()).toEqual(operations.map(({ key }) => key).sort());
  });

  it('describes every parameter, and lists the values of those that take a fixed set', () => {
    for (const { key, operation } of operations) {
      for (const parameter of operation.parameters) {
        expect(parameter.description, `${key} ${parameter.name}`).toMatch(/\w{3}/);
        expect(parameter.schema, `${key} ${parameter.name}`).toBeTypeOf('object');
      }
    }
    const near = doc.paths['/api/egg-prices/near']!.get!.parameters;
    expect(near.find((p) => p.name === 'radius')!.schema.enum).toEqual([5, 10, 25, 50]);
    expect(near.find((p) => p.name === 'egg_type')!.schema.enum).toEqual(
      expect.arrayContaining(['standard', 'cage_free', 'cage-free', 'all']),
    );
    const history = doc.paths['/api/products/{id}/history']!.get!.parameters;
    expect(history.find((p) => p.name === 'days')!.schema.enum).toEqual([30, 90, 365]);
    expect(history.find((p) => p.name === 'id')!.schema).toMatchObject({ type: 'integer', minimum: 1 });
    // A fixed set is listed only where the path takes it: no 'all' where it is refused.
    const byState = doc.paths['/api/egg-prices/by-state']!.get!.parameters;
    expect(byState.find((p) => p.name === 'egg_type')!.schema.enum).not.toContain('all');
  });
});

/** Every list operation, with a request that answers its first page. */
const lists = operations.filter(({ operation }) => operation.parameters.some((p) => p.name === 'limit'));

async function successOf(key: string): Promise<Request> {
  const examples = EXAMPLES[key]!;
  return (examples[200] ?? examples[201] ?? examples[202])!();
}

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;
const withoutParam = (path: string, name: string) =>
  path.replace(new RegExp(`([?&])${name}=[^&]*&?`), '$1').replace(/[?&]$/, '');

describe('the rules every path follows', () => {
  it('one limit on every list: documented, and more than it refused with a 400 naming the parameter and the maximum', async () => {
    expect(lists.length).toBeGreaterThan(15);
    for (const { key, operation } of lists) {
      const limit = operation.parameters.find((p) => p.name === 'limit')!;
      expect(limit.schema, key).toMatchObject({ type: 'integer', minimum: 1, maximum: 5000 });
      expect(limit.description, key).toMatch(/1 to 5000/);
      const request = await successOf(key);
      const path = withQuery(withoutParam(withoutParam(request.path, 'limit'), 'offset'), 'limit=5001');
      const refused = await send('GET', { ...request, path });
      expect(refused.statusCode, `${key}: ${refused.body}`).toBe(400);
      expect(json(refused).message, key).toMatch(/^limit: limit must be at most 5000$/);
    }
  });

  it('paging wherever a total is sent: every list takes offset and answers X-Total-Count and a Link to its pages', async () => {
    for (const { key } of lists) {
      const request = await successOf(key);
      const base = withoutParam(withoutParam(request.path, 'limit'), 'offset');
      const first = await send('GET', { ...request, path: withQuery(base, 'limit=1') });
      expect(first.statusCode, `${key}: ${first.body.slice(0, 200)}`).toBeLessThan(300);
      const total = Number(first.headers['x-total-count']);
      expect(Number.isInteger(total), key).toBe(true);
      expect(String(first.headers.link), key).toContain('rel="last"');
      if (total > 1) expect(String(first.headers.link), key).toContain('limit=1&offset=1>; rel="next"');
      const second = await send('GET', { ...request, path: withQuery(base, 'limit=1&offset=1') });
      expect(second.statusCode, key).toBeLessThan(300);
      expect(second.headers['x-total-count'], key).toBe(String(total));
    }
  });

  it('an id that names nothing answers 404, as a filter as in the path', async () => {
    for (const path of [
      '/api/egg-prices?store=nosuch',
      '/api/egg-prices.csv?store=nosuch',
      '/api/stores/nosuch/prices',
    ]) {
      const response = await send('GET', { path });
      expect(response.statusCode, path).toBe(404);
      expect(json(response).message, path).toBe("Store 'nosuch' not found");
    }
  });

  it('every refusal names the parameter and what it accepts', async () => {
    const message = async (request: Request, method = 'GET') => {
      const response = await send(method, request);
      expect(response.statusCode, request.path).toBe(400);
      return json(response).message;
    };
    expect(await message({ path: '/api/egg-prices?egg_type=bogus' })).toBe(
      "egg_type: Unknown egg type 'bogus': use standard, cage-free, organic or pasture-raised (or all)",
    );
    expect(await message({ path: '/api/egg-prices?region=atlantis' })).toBe(
      "region: Unknown region 'atlantis': use northeast, midwest, south or west (or all)",
    );
    expect(await message({ path: `/api/products/${listing.productId}/history` })).toBe(
      "location is required: a store location's id (location_id of a price entry)",
    );
    expect(await message({ path: '/api/egg-prices/near' })).toMatch(/^zip is required: a 5-digit ZIP code/);
    expect(await message({ path: '/api/egg-prices/near?zip=50309&radius=15' })).toBe(
      'radius: radius must be one of 5, 10, 25, 50',
    );
    expect(await message({ path: '/api/egg-prices/near?zip=50309&page=2' })).toBe(
      "Unknown parameter 'page' of GET /api/egg-prices/near: it takes zip, radius, egg_type, count, limit and offset",
    );
    expect(await message({ path: '/api/stats?period=week' })).toBe(
      "Unknown parameter 'period' of GET /api/stats: it takes no query parameters",
    );
    expect(await message({ path: '/api/scrape/runs?store=costco', as: admin })).toBe(
      'store: store must be one of walmart, target, kroger, albertsons, whole-foods, aldi',
    );
    expect(
      await message({ path: '/api/subscribers', body: { email: 'a@example.test', frequency: 'daily' } }, 'POST'),
    ).toMatch(/^Unknown field 'frequency' of POST \/api\/subscribers: the body takes email, region, egg_type, /);
  });
});
