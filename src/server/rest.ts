// The REST adapter under /api: a table mapping each path to a tRPC procedure, so REST and tRPC
// share one code path and one validation. Errors answer JSON { message } with the status of
// the tRPC error code. Public GETs are served from a byte cache tied to the data version, with
// ETag revalidation. The same table generates /api/openapi.json.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { z, ZodError } from 'zod';
import { marketSeriesInput, priceListInput, storePricesInput } from '#shared/inputs.ts';
import { changePasswordInput, loginInput, profileInput, registerInput, requestResetInput, resetPasswordInput, verifyEmailInput, adminSetupInput } from '#shared/auth.ts';
import { priceEntrySchema, statsSchema, storeSchema } from '#shared/types.ts';
import { RUN_STATUSES, scrapeRunsInput, scrapeSettingsInput } from '#shared/scrape.ts';
import { EGG_TYPES, REGIONS, STORE_IDS } from '#shared/vocabulary.ts';
import { NOTIFICATION_FREQUENCIES, subscriptionInput, subscriptionTokenInput } from '#shared/subscriptions.ts';
import { describeZodError } from './trpc.ts';
import { CACHEABLE_QUERIES, procedureFor } from './procedures.ts';
import type { Context } from './context.ts';
import { etagOf, type DataCache } from './cache.ts';


interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path under /api, e.g. /stores/:storeId */
  path: string;
  summary: string;
  /** Dotted tRPC procedure path. */
  procedure: string;
  /** Builds the procedure input from the request. */
  input?: (req: { query: Record<string, unknown>; params: Record<string, string>; body: unknown }) => unknown;
  /** zod schemas for the OpenAPI document. */
  query?: z.ZodType;
  body?: z.ZodType;
  /** Status of a successful answer (200 unless given). */
  status?: number;
  /** Needs a session (cookie or Bearer token). */
  auth?: 'user' | 'admin';
  params?: string[];
  response?: z.ZodType;
}

export const REST_ROUTES: RestRoute[] = [
  {
    method: 'GET',
    path: '/egg-prices',
    summary: 'Current price entries, optionally filtered by store, region, egg type and pack count, and paged with limit and offset',
    procedure: 'prices.list',
    input: ({ query }) => query,
    query: priceListInput,
    response: z.array(priceEntrySchema),
  },
  {
    method: 'GET',
    path: '/stores',
    summary: 'All stores',
    procedure: 'stores.list',
    response: z.array(storeSchema),
  },
  {
    method: 'GET',
    path: '/stores/:storeId',
    summary: 'One store',
    procedure: 'stores.byId',
    input: ({ params }) => ({ storeId: params.storeId }),
    params: ['storeId'],
    response: storeSchema,
  },
  {
    method: 'GET',
    path: '/stores/:storeId/prices',
    summary: "A store's current price entries, optionally filtered by region, egg type and pack count",
    procedure: 'stores.prices',
    input: ({ params, query }) => ({ ...query, storeId: params.storeId }),
    query: storePricesInput.omit({ storeId: true }),
    params: ['storeId'],
    response: z.array(priceEntrySchema),
  },
  {
    method: 'GET',
    path: '/stats',
    summary: 'National average, weekly volatility, lowest price and 7- and 30-day trends, computed from the data',
    procedure: 'stats.get',
    response: statsSchema,
  },
  {
    method: 'GET',
    path: '/market-prices',
    summary: 'BLS monthly average egg prices (grade A large; the West only as grade AA), national and by region',
    procedure: 'market.series',
    input: ({ query }) => query,
    query: marketSeriesInput,
    response: z.array(
      z.object({
        series_id: z.string(),
        region: z.string(),
        item: z.string(),
        grade: z.enum(['A', 'AA']),
        points: z.array(z.object({ period: z.string(), price: z.number() })),
      }),
    ),
  },
  {
    method: 'GET',
    path: '/ticker',
    summary: "The news ticker's price events: a region's egg type change this week, a store's streak of daily rises or falls, a sale, an egg type's nationwide change",
    procedure: 'news.ticker',
    response: z.array(z.object({ kind: z.enum(['region-week', 'store-streak', 'sale', 'national-week']), text: z.string(), trend: z.enum(['up', 'down', 'none']), sample: z.boolean() })),
  },
  ...accountRoutes(),
  ...scrapeRoutes(),
];

/** SPEC §7's scraper calls and the run history and schedule: administrators only. */
function scrapeRoutes(): RestRoute[] {
  const zipList = z.object({ zipCodes: z.array(z.string()).describe('5-digit ZIP codes of US states; trimmed, duplicates dropped, at most 25') });
  const zipResult = z.object({
    zip: z.string(), status: z.enum(['succeeded', 'failed']), message: z.string().nullable(), locationName: z.string().nullable(),
    listingsSeen: z.number(), accepted: z.number(), observations: z.number(),
  });
  const run = z.object({
    id: z.number(), store: z.enum(STORE_IDS), status: z.enum(RUN_STATUSES), trigger: z.enum(['manual', 'schedule']), demo: z.boolean(),
    zipCodes: z.array(z.string()), progress: z.number(), total: z.number(), listingsSeen: z.number(), accepted: z.number(),
    skipped: z.record(z.string(), z.number()), rejected: z.record(z.string(), z.number()), observationsWritten: z.number(),
    message: z.string().nullable(), createdAt: z.string(), startedAt: z.string().nullable(), finishedAt: z.string().nullable(),
    durationMs: z.number().nullable(), zips: z.array(zipResult),
  });
  const status = z.object({
    active: z.boolean(), lastRun: z.string().nullable(), nextScheduledRun: z.string().nullable(), message: z.string(),
    run: run.nullable(), lastSuccessAt: z.string().nullable(), stale: z.boolean(),
  });
  const settings = z.object({ dailyEnabled: z.boolean(), hourUtc: z.number(), zipCodes: z.array(z.string()), updatedAt: z.string(), nextScheduledRun: z.string().nullable() });
  const objectBody = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? b : {});
  return [
    {
      method: 'POST', path: '/scrape/:store', summary: 'Start a scraper run for a store (walmart, target, kroger, albertsons, whole-foods, aldi) over ZIP codes; 409 while one is queued or running',
      procedure: 'scrape.start', input: ({ body, params }) => ({ ...objectBody(body), store: params.store }), params: ['store'], body: zipList,
      response: z.object({ runId: z.number(), store: z.enum(STORE_IDS), status: z.literal('queued'), zipCodes: z.array(z.string()), message: z.string() }), status: 202, auth: 'admin',
    },
    { method: 'GET', path: '/scrape/status', summary: "The Walmart scraper's status (active, lastRun, nextScheduledRun, message)", procedure: 'scrape.status', response: status, auth: 'admin' },
    { method: 'GET', path: '/scrape/all-status', summary: 'Every scraper status, keyed by store id', procedure: 'scrape.allStatus', response: z.record(z.enum(STORE_IDS), status), auth: 'admin' },
    { method: 'GET', path: '/scrape/runs', summary: 'Recent scraper runs with progress, counts and per-ZIP outcomes', procedure: 'scrape.runs', input: ({ query }) => query, query: scrapeRunsInput, response: z.array(run), auth: 'admin' },
    { method: 'GET', path: '/scrape/runs/:id', summary: 'One scraper run', procedure: 'scrape.run', input: ({ params }) => ({ id: params.id }), params: ['id'], response: run, auth: 'admin' },
    { method: 'GET', path: '/scrape/settings', summary: 'The daily scraping schedule', procedure: 'scrape.settings', response: settings, auth: 'admin' },
    { method: 'PUT', path: '/scrape/settings', summary: 'Change the daily scraping schedule (on or off, UTC hour, ZIP codes)', procedure: 'scrape.updateSettings', input: ({ body }) => body ?? {}, body: scrapeSettingsInput, response: settings, auth: 'admin' },
  ];
}

/** SPEC §7's account paths: the body (or path id) is the procedure's input. */
function accountRoutes(): RestRoute[] {
  const body = ({ body: b }: { body: unknown }) => b ?? {};
  const withId = ({ body: b, params }: { body: unknown; params: Record<string, string> }) => ({
    ...(b && typeof b === 'object' && !Array.isArray(b) ? b : {}),
    id: params.id,
  });
  const ok = z.object({ success: z.literal(true) });
  const user = z.object({
    id: z.string(), username: z.string(), email: z.string(), first_name: z.string().nullable(),
    last_name: z.string().nullable(), email_verified: z.boolean(), role: z.enum(['user', 'admin']),
  });
  return [
    { method: 'POST', path: '/auth/register', summary: 'Create an account; a verification email follows', procedure: 'auth.register', input: body, body: registerInput, response: z.object({ message: z.string() }), status: 201 },
    { method: 'POST', path: '/auth/login', summary: 'Log in: returns a session token (use as Bearer) and the user, and sets the session cookie', procedure: 'auth.login', input: body, body: loginInput, response: z.object({ token: z.string(), expiresAt: z.string(), user }) },
    { method: 'POST', path: '/auth/logout', summary: 'End the current session (or the one whose token is given)', procedure: 'auth.logout', input: body, body: z.object({ token: z.string().optional() }), response: ok },
    { method: 'GET', path: '/auth/verify', summary: 'The signed-in user of the session', procedure: 'auth.verify', response: z.object({ user }), auth: 'user' },
    { method: 'POST', path: '/auth/change-password', summary: "Change the signed-in user's password; other sessions end", procedure: 'auth.changePassword', input: body, body: changePasswordInput, response: ok, auth: 'user' },
    { method: 'POST', path: '/auth/request-reset', summary: 'Email a password reset link (the same answer whether or not the email is registered)', procedure: 'auth.requestReset', input: body, body: requestResetInput, response: z.object({ message: z.string(), resetToken: z.string().optional() }) },
    { method: 'POST', path: '/auth/reset-password', summary: 'Set a new password with a reset token; every session ends', procedure: 'auth.resetPassword', input: body, body: resetPasswordInput, response: ok },
    { method: 'POST', path: '/auth/verify-email', summary: 'Confirm an email address with the token from the verification email', procedure: 'auth.verifyEmail', input: body, body: verifyEmailInput, response: ok },
    { method: 'POST', path: '/admin/setup', summary: 'Create the first administrator with the setup key', procedure: 'admin.setup', input: body, body: adminSetupInput, response: z.object({ user: user.pick({ id: true, username: true, email: true, role: true }) }), status: 201 },
    { method: 'GET', path: '/users/:id/subscriptions', summary: "A user's price alert subscriptions (that user or an admin)", procedure: 'users.subscriptions', input: withId, params: ['id'], response: z.array(z.object({ id: z.number() }).passthrough()), auth: 'user' },
    { method: 'PUT', path: '/users/:id', summary: "Update a user's profile (that user or an admin)", procedure: 'users.update', input: withId, params: ['id'], body: profileInput, response: user, auth: 'user' },
    { method: 'DELETE', path: '/users/:id', summary: 'Delete an account and its data (that user or an admin)', procedure: 'users.delete', input: withId, params: ['id'], response: ok, auth: 'user' },
    { method: 'DELETE', path: '/subscribers/:id', summary: 'Delete a subscription (its owner or an admin)', procedure: 'subscriptions.delete', input: ({ params }) => ({ id: params.id }), params: ['id'], response: ok, auth: 'user' },
    ...subscriberRoutes(),
  ];
}

/** Price-alert subscriptions (SPEC §7 POST /api/subscribers) and their email links. */
function subscriberRoutes(): RestRoute[] {
  const subscription = z.object({
    id: z.number(), email: z.string(), region: z.enum(REGIONS).nullable(), egg_type: z.enum(EGG_TYPES).nullable(),
    preferred_stores: z.array(z.enum(STORE_IDS)), notification_frequency: z.enum(NOTIFICATION_FREQUENCIES), notification_channel: z.literal('email'),
    price_threshold: z.number().nullable(), active: z.boolean(), confirmed_at: z.string().nullable(), created_at: z.string(),
  });
  const saved = z.object({ subscription, status: z.enum(['confirmed', 'pending']), message: z.string() });
  const objectBody = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? b : {});
  return [
    {
      method: 'POST', path: '/subscribers', summary: 'Subscribe to price alerts. An address that is not the signed-in user\'s verified email is confirmed by a link sent to it before any alert (status pending)',
      procedure: 'subscriptions.create', input: ({ body }) => body ?? {}, body: subscriptionInput, response: saved, status: 201,
    },
    { method: 'GET', path: '/subscribers/unsubscribe', summary: 'What an unsubscribe link points at', procedure: 'subscriptions.unsubscribeInfo', input: ({ query }) => query, query: subscriptionTokenInput, response: z.object({ email: z.string(), active: z.boolean(), summary: z.string() }) },
    { method: 'POST', path: '/subscribers/unsubscribe', summary: 'Unsubscribe with the token of an email link (no login)', procedure: 'subscriptions.unsubscribe', input: ({ body }) => body ?? {}, body: subscriptionTokenInput, response: z.object({ success: z.literal(true), email: z.string(), summary: z.string() }) },
    { method: 'POST', path: '/subscribers/confirm', summary: 'Confirm a subscription with the token of its confirmation email', procedure: 'subscriptions.confirm', input: ({ body }) => body ?? {}, body: subscriptionTokenInput, response: z.object({ subscription, summary: z.string() }) },
    { method: 'GET', path: '/subscribers/:id', summary: 'One subscription (its owner or an admin)', procedure: 'subscriptions.byId', input: ({ params }) => ({ id: params.id }), params: ['id'], response: subscription, auth: 'user' },
    {
      method: 'PUT', path: '/subscribers/:id', summary: 'Change a subscription (its owner or an admin); a new unproven address is confirmed again',
      procedure: 'subscriptions.update', input: ({ body, params }) => ({ ...objectBody(body), id: params.id }), params: ['id'], body: subscriptionInput, response: saved, auth: 'user',
    },
  ];
}


export function errorBody(error: unknown): { status: number; body: { message: string; issues?: unknown } } {
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    if (error.cause instanceof ZodError) {
      return { status, body: { message: describeZodError(error.cause), issues: error.cause.issues.map(({ path, message }) => ({ path, message })) } };
    }
    return { status, body: { message: status >= 500 ? 'Internal server error' : error.message } };
  }
  return { status: 500, body: { message: 'Internal server error' } };
}

function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export function registerRest(
  app: FastifyInstance,
  deps: { cache: DataCache; createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Promise<Context> },
) {
  for (const route of REST_ROUTES) {
    app.route({
      method: route.method,
      url: `/api${route.path}`,
      handler: async (req, reply) => {
        const cacheKey = route.method === 'GET' && CACHEABLE_QUERIES.has(route.procedure) ? `rest:${req.url}` : null;
        const respond = (cached: { body: Buffer; etag: string }) => {
          reply.header('etag', cached.etag).header('cache-control', 'public, max-age=60');
          if (req.headers['if-none-match'] === cached.etag) return reply.code(304).send();
          return reply.code(200).type('application/json; charset=utf-8').send(cached.body);
        };
        try {
          const ctx = await deps.createContext({ req, res: reply });
          const call = procedureFor(ctx, route.procedure);
          const input = route.input?.({
            query: (req.query ?? {}) as Record<string, unknown>,
            params: (req.params ?? {}) as Record<string, string>,
            body: req.body,
          });
          if (cacheKey) {
            const cached = await deps.cache.get(cacheKey, async () => {
              const body = Buffer.from(JSON.stringify(await call(input)));
              return { body, etag: etagOf(body) };
            });
            return respond(cached);
          }
          return sendJson(reply, route.status ?? 200, await call(input));
        } catch (error) {
          const { status, body } = errorBody(error);
          if (status >= 500) req.log.error({ err: error }, 'REST call failed');
          return sendJson(reply, status, body);
        }
      },
    });
  }

  app.get('/api/openapi.json', async (_req, reply) => reply.send(openApiDocument()));

  // Unknown /api paths answer JSON, never the single-page app.
  app.all('/api/*', async (req, reply) => sendJson(reply, 404, { message: `No API route ${req.method} ${req.url.split('?')[0]}` }));
}

let document: unknown;
export function openApiDocument() {
  if (document) return document;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of REST_ROUTES) {
    const openApiPath = `/api${route.path.replace(/:(\w+)/g, '{$1}')}`;
    const parameters: unknown[] = (route.params ?? []).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (route.query) {
      const schema = z.toJSONSchema(route.query, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
      }
    }
    paths[openApiPath] ??= {};
    paths[openApiPath]![route.method.toLowerCase()] = {
      summary: route.summary,
      operationId: route.procedure,
      parameters,
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) } } } } : {}),
      ...(route.auth ? { security: [{ bearer: [] }, { cookie: [] }] } : {}),
      responses: {
        [route.status ?? 200]: { description: 'OK', content: { 'application/json': { schema: route.response ? z.toJSONSchema(route.response, { unrepresentable: 'any' }) : {} } } },
        ...(route.auth ? { 401: { description: 'No session', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } } : {}),
        ...(route.auth === 'admin' ? { 403: { description: 'Not an administrator', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } } : {}),
        ...(route.method !== 'GET' ? { 429: { description: 'Rate limited', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } } : {}),
        400: { description: 'Invalid input', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ...(route.params ? { 404: { description: 'Not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } } : {}),
      },
    };
  }
  document = {
    openapi: '3.1.0',
    info: {
      title: 'EggWatch API',
      version: '1.0.0',
      description: 'Grocery egg prices by store, region, egg type and pack size. Egg types accept both spellings (cage-free or cage_free) in any case.',
    },
    paths,
    components: {
      schemas: {
        Error: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/auth/login' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'eggwatch_session' },
      },
    },
  };
  return document;
}
