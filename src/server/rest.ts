// The REST adapter under /api: a table mapping each path to a tRPC procedure, so REST and tRPC
// share one code path and one validation. Errors answer JSON { message } with the status of
// the tRPC error code. Public GETs are served from a byte cache tied to the data version, with
// ETag revalidation. The same table generates /api/openapi.json.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { z, ZodError } from 'zod';
import { marketSeriesInput, priceListInput, storeIdInput, storePricesInput } from '#shared/inputs.ts';
import { priceEntrySchema, statsSchema, storeSchema } from '#shared/types.ts';
import { appRouter } from './routers/_app.ts';
import { createCallerFactory, describeZodError } from './trpc.ts';
import type { Context } from './context.ts';
import { etagOf, type DataCache } from './cache.ts';

const createCaller = createCallerFactory(appRouter);
type Caller = ReturnType<typeof createCaller>;

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
  params?: string[];
  response: z.ZodType;
  /** Public, cacheable read. */
  cacheable?: boolean;
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
    cacheable: true,
  },
  {
    method: 'GET',
    path: '/stores',
    summary: 'All stores',
    procedure: 'stores.list',
    response: z.array(storeSchema),
    cacheable: true,
  },
  {
    method: 'GET',
    path: '/stores/:storeId',
    summary: 'One store',
    procedure: 'stores.byId',
    input: ({ params }) => ({ storeId: params.storeId }),
    params: ['storeId'],
    response: storeSchema,
    cacheable: true,
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
    cacheable: true,
  },
  {
    method: 'GET',
    path: '/stats',
    summary: 'National average, weekly volatility, lowest price and 7- and 30-day trends, computed from the data',
    procedure: 'stats.get',
    response: statsSchema,
    cacheable: true,
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
    cacheable: true,
  },
];

function resolveProcedure(caller: Caller, path: string): (input: unknown) => Promise<unknown> {
  let target: unknown = caller;
  for (const key of path.split('.')) target = (target as Record<string, unknown>)[key];
  return target as (input: unknown) => Promise<unknown>;
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
        const cacheKey = route.cacheable ? `rest:${req.url}` : null;
        const respond = (cached: { body: Buffer; etag: string }) => {
          reply.header('etag', cached.etag).header('cache-control', 'public, max-age=60');
          if (req.headers['if-none-match'] === cached.etag) return reply.code(304).send();
          return reply.code(200).type('application/json; charset=utf-8').send(cached.body);
        };
        try {
          const ctx = await deps.createContext({ req, res: reply });
          const call = resolveProcedure(createCaller(ctx), route.procedure);
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
          return sendJson(reply, 200, await call(input));
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
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: z.toJSONSchema(route.response, { unrepresentable: 'any' }) } } },
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
    },
  };
  return document;
}
