// The REST adapter under /api (docs/decisions/002-rest-adapter.md): each row of the table
// (routes/) is served by calling its tRPC procedure, so REST and tRPC share one code path and one
// validation. Errors answer JSON { message } with the status of the tRPC error code, the message
// naming the parameter and what it accepts. Every list pages one way (paging.ts). Public GETs are
// served from a byte cache tied to the data version, with ETag revalidation, and get the open-data
// treatment: CORS for any origin and a per-IP rate limit with RateLimit headers. A route that
// declares CSV columns is served as CSV too, at its path plus `.csv`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCors from '@fastify/cors';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError } from 'zod';
import { describeZodError } from '../trpc.ts';
import { asServiceUnavailable } from '../db-errors.ts';
import { isCachedQuery, procedureFor, sourcesOf } from '../procedures.ts';
import type { Context } from '../context.ts';
import { etagOf, type DataCache } from '../cache.ts';
import type { CachedRead } from '../cached-reads.ts';
import type { PublicRateLimit } from '../public-rate-limit.ts';
import { safeFilename, streamCsv, toCsv } from './csv.ts';
import { openApiDocument } from './openapi.ts';
import { pageHeaders, pageOf, withoutPaging, type Page } from './paging.ts';
import { checkBody, checkQuery } from './parameters.ts';
import { isPublic, type Call, type RequestParts, type RestRoute } from './route.ts';
import { REST_ROUTES } from './routes/index.ts';

export function errorBody(thrown: unknown): { status: number; body: { message: string; issues?: unknown } } {
  const error = asServiceUnavailable(thrown);
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    if (error.cause instanceof ZodError) {
      return {
        status,
        body: {
          message: describeZodError(error.cause),
          issues: error.cause.issues.map(({ path, message }) => ({ path, message })),
        },
      };
    }
    return { status, body: { message: status >= 500 && status !== 503 ? 'Internal server error' : error.message } };
  }
  return { status: 500, body: { message: 'Internal server error' } };
}

function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Requests per minute per IP to the public GETs by default (PUBLIC_API_RATE_LIMIT). */
export const DEFAULT_PUBLIC_API_RATE_LIMIT = 1200;

/** Headers a cross-origin script may read from a public answer. */
const EXPOSED_HEADERS = [
  'ETag',
  'X-Total-Count',
  'Link',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
];

const cacheable = (route: RestRoute) => route.method === 'GET' && isCachedQuery(route.procedure);

/** The CORS answer of a public read (what @fastify/cors sends for these options). */
const PUBLIC_CORS_OPTIONS = {
  origin: '*',
  methods: ['GET', 'HEAD'],
  credentials: false,
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: 86_400,
};
const PUBLIC_CORS_HEADERS = {
  vary: 'Origin',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
};

const CACHE_CONTROL = 'public, max-age=60';

/** The public GET paths (CSV siblings and the OpenAPI document included) as patterns of concrete URLs. */
const PUBLIC_PATHS: RegExp[] = [
  ...REST_ROUTES.filter(isPublic).flatMap((route) => [route.path, ...(route.csv ? [`${route.path}.csv`] : [])]),
  '/openapi.json',
].map((path) => new RegExp(`^/api${path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`));

export function isPublicApiPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((pattern) => pattern.test(pathname));
}

interface Answer extends CachedRead {
  /** The route's own headers (paging, file name). */
  headers: Record<string, string>;
}

export interface RestOptions {
  cache: DataCache;
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Promise<Context>;
  /** The public GETs' rate limit (public-rate-limit.ts), or null for none. */
  rateLimit: PublicRateLimit | null;
}

export async function registerRest(app: FastifyInstance, deps: RestOptions): Promise<void> {
  // One counter per address for all the public GETs together; a cached read is counted by the
  // hook that answers it early (cached-reads.ts), the others by their route's hook.
  const limitPublic = deps.rateLimit?.hook();

  // CORS for the public GETs only: any origin may read them, without credentials. Every other
  // /api path (sessions, mutations) answers no CORS headers, so browsers keep other sites out.
  // A preflight is matched by the path it asks about and the method it announces.
  await app.register(fastifyCors, {
    delegator: (req, callback) => {
      const pathname = req.url.split('?')[0] ?? '';
      const method =
        req.method === 'OPTIONS'
          ? String(req.headers['access-control-request-method'] ?? '').toUpperCase()
          : req.method;
      const open = (method === 'GET' || method === 'HEAD') && isPublicApiPath(pathname);
      callback(null, open ? PUBLIC_CORS_OPTIONS : { origin: false });
    },
  });

  for (const route of REST_ROUTES) {
    const formats = route.csv ? (['json', 'csv'] as const) : (['json'] as const);
    for (const format of formats) {
      app.route({
        method: route.method,
        url: `/api${route.path}${format === 'csv' ? '.csv' : ''}`,
        ...(limitPublic && isPublic(route) ? { onRequest: limitPublic } : {}),
        handler: (req, reply) => handle(route, format, req, reply, deps),
      });
    }
  }

  app.get('/api/openapi.json', { ...(limitPublic ? { onRequest: limitPublic } : {}) }, async (_req, reply) =>
    reply.send(openApiDocument()),
  );

  // Unknown /api paths answer JSON, never the single-page app.
  app.all('/api/*', async (req, reply) =>
    sendJson(reply, 404, { message: `No API route ${req.method} ${req.url.split('?')[0]}` }),
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The procedure's input: the query (or the JSON body) with the path's parameters. A body that is
 * not an object goes as it is when the path has no parameters, so the procedure's own message
 * says what it expected.
 */
function inputOf(route: RestRoute, parts: RequestParts): unknown {
  const params = route.params ? parts.params : {};
  const given = route.body ? (parts.body ?? {}) : route.query ? parts.query : undefined;
  if (Object.keys(params).length === 0) return given;
  return { ...(isObject(given) ? given : {}), ...params };
}

async function handle(
  route: RestRoute,
  format: 'json' | 'csv',
  req: FastifyRequest,
  reply: FastifyReply,
  deps: RestOptions,
) {
  // The read cache's key of an answer is its URL as it came (paths under /api/ never meet the
  // cache's other keys); no cached answer outlives its UTC day (DataCache).
  const cacheKey = cacheable(route) ? req.url : null;
  // A cached answer is sent as it is: no session, input or call to prepare (only a URL that was
  // answered successfully is ever cached under its key).
  const hit = cacheKey ? deps.cache.peek<Answer>(cacheKey) : undefined;
  if (hit) return sendAnswer(req, reply, hit);
  try {
    const ctx = await deps.createContext({ req, res: reply });
    const call: Call = (procedure, input) => procedureFor(ctx, procedure)(input);
    const parts: RequestParts = {
      query: (req.query ?? {}) as Record<string, unknown>,
      params: (req.params ?? {}) as Record<string, string>,
      body: req.body,
    };
    checkQuery(route, parts.query, { csv: format === 'csv' });
    checkBody(route, parts.body);
    const open = isPublic(route);
    // Only a public answer may be kept by shared caches (and read by other sites).
    const own: Record<string, string> = open ? { ...PUBLIC_CORS_HEADERS, 'cache-control': CACHE_CONTROL } : {};
    const stream = format === 'csv' ? route.csvStream : undefined;
    const page = route.list ? pageOf(route.list, parts.query, { everything: stream !== undefined }) : null;
    if (stream) return await streamCsv(stream, { req, reply, call, ctx, parts, page: page!, headers: own });
    // The procedure pages a list whose total it can count; the adapter cuts the others.
    const pagedByProcedure = page && route.list?.total;
    const query = page ? withoutPaging(parts.query) : parts.query;
    const input = inputOf(route, {
      ...parts,
      query: pagedByProcedure ? { ...query, limit: page.limit, offset: page.offset } : query,
    });
    if (!cacheKey && format === 'json' && !page) {
      const result = await call(route.procedure, input);
      return sendJson(reply, route.created && !route.created.when(result) ? 200 : (route.status ?? 200), result);
    }

    const compute = async (): Promise<Answer> => {
      let result = await call(route.procedure, input);
      const headers: Record<string, string> = {};
      if (page) {
        const listed = await pageOfList(route, result, page, { input: inputOf(route, { ...parts, query }), call });
        result = listed.result;
        Object.assign(headers, pageHeaders(req.url, listed.total, page));
      }
      let body: Buffer;
      let type: string;
      if (format === 'csv' && route.csv) {
        body = Buffer.from(toCsv(route.csv.rows(result) as never[], route.csv.columns), 'utf8');
        type = 'text/csv; charset=utf-8';
        headers['content-disposition'] = `attachment; filename="${safeFilename(route.csv.filename(result, parts))}"`;
      } else {
        body = Buffer.from(JSON.stringify(result));
        type = 'application/json; charset=utf-8';
      }
      const etag = etagOf(body);
      return {
        body,
        etag,
        headers,
        sent: { ...own, ...headers, etag, 'content-type': type },
        limited: open && deps.rateLimit !== null,
      };
    };
    const answer = cacheKey ? await deps.cache.get(cacheKey, compute, sourcesOf(route.procedure)) : await compute();
    return sendAnswer(req, reply, answer, route.status);
  } catch (error) {
    const { status, body } = errorBody(error);
    if (status === 503) req.log.warn(`${req.method} ${req.url.split('?')[0]}: ${body.message}`);
    else if (status >= 500) req.log.error({ err: error }, 'REST call failed');
    return sendJson(reply, status, body);
  }
}

/**
 * A list's page and how many items match: a list the procedure pages is counted by the route
 * (unless the first page already holds every item); the adapter cuts the page of any other.
 */
async function pageOfList(
  route: RestRoute,
  result: unknown,
  page: Page,
  { input, call }: { input: unknown; call: Call },
): Promise<{ result: unknown; total: number }> {
  const list = route.list!;
  const field = list.field;
  const items = (field ? (result as Record<string, unknown>)[field] : result) as unknown[];
  const limit = page.limit ?? items.length;
  if (list.total) {
    const whole = page.offset === 0 && items.length < limit;
    return {
      result,
      total: whole
        ? items.length
        : await list.total({ result, input: isObject(input) ? withoutPaging(input) : {}, call }),
    };
  }
  const cut = items.slice(page.offset, page.offset + limit);
  return { result: field ? { ...(result as Record<string, unknown>), [field]: cut } : cut, total: items.length };
}

function sendAnswer(req: FastifyRequest, reply: FastifyReply, answer: Answer, status = 200) {
  if (req.headers['if-none-match'] === answer.etag) {
    const cacheControl = answer.sent['cache-control'];
    return reply
      .headers({ ...answer.headers, etag: answer.etag, ...(cacheControl ? { 'cache-control': cacheControl } : {}) })
      .code(304)
      .send();
  }
  return reply.code(status).headers(answer.sent).send(answer.body);
}
