// The OpenAPI 3.1 document of the REST table (/api/openapi.json) and the reference over it
// (/api/docs). Everything in it comes from the rows of the table: each path's parameters
// (parameters.ts), its answer's schema, its list headers, and the errors it can answer: 400 on
// every path, 401 and 403 by its permission, 403 for a change made with another site's cookie,
// 429 on the rate-limited public reads, and those the row names (404, 409, an account limit's 429).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { z } from 'zod';
import { MAX_LIST_LIMIT } from '#shared/inputs.ts';
import { parametersOf, type Parameter } from './parameters.ts';
import { isPublic, type RestRoute } from './route.ts';
import { REST_ROUTES } from './routes/index.ts';

const LOGO_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../public/favicon.svg');

const openApiPathOf = (route: RestRoute) => `/api${route.path.replace(/:(\w+)/g, '{$1}')}`;

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader('Requests allowed per minute from one address'),
  'RateLimit-Remaining': integerHeader('Requests left in the current minute'),
  'RateLimit-Reset': integerHeader('Seconds until the current minute ends'),
};

const LIST_HEADERS = {
  'X-Total-Count': integerHeader('Items the request matches before limit and offset'),
  Link: {
    description: 'RFC 8288 links to the first, previous, next and last pages, keeping the other parameters',
    schema: { type: 'string' },
  },
};

/** Every error status the route can answer, with what it means there. */
export function errorsOf(route: RestRoute): Record<number, string> {
  const reasons: Record<number, string[]> = {
    400: ['Invalid input: the message names the parameter or field and what it accepts'],
  };
  const add = (status: number, reason: string | undefined) => {
    if (reason) (reasons[status] ??= []).push(reason);
  };
  add(401, route.auth ? 'No session, or not a valid one' : undefined);
  add(401, route.errors?.[401]);
  add(403, route.auth === 'admin' ? 'Not an administrator' : undefined);
  add(403, route.errors?.[403]);
  add(
    403,
    route.method !== 'GET'
      ? 'A change authenticated by the session cookie from another site (send the Bearer token instead)'
      : undefined,
  );
  add(404, route.errors?.[404]);
  add(409, route.errors?.[409]);
  add(
    429,
    isPublic(route)
      ? 'Rate limited: too many public requests from this address this minute (see Retry-After)'
      : undefined,
  );
  add(429, route.errors?.[429]);
  return Object.fromEntries(Object.entries(reasons).map(([status, texts]) => [status, texts.join('; ')]));
}

const asOpenApi = ({ name, in: where, required, description, schema }: Parameter) => ({
  name,
  in: where,
  required,
  description,
  schema,
});

/** An answer's JSON Schema: what the route sends (an input-only transform stays unconstrained). */
const responseSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: 'any' });

function operationsOf(route: RestRoute): Record<string, Record<string, unknown>> {
  const tags = [route.procedure.split('.')[0]!];
  const headers = {
    ...(isPublic(route) ? RATE_LIMIT_HEADERS : {}),
    ...(route.list ? LIST_HEADERS : {}),
  };
  const errors = Object.fromEntries(
    Object.entries(errorsOf(route)).map(([status, description]) => [status, errorResponse(description)]),
  );
  const openApiPath = openApiPathOf(route);
  const answerContent = { 'application/json': { schema: responseSchema(route.response) } };
  const operation = {
    summary: route.summary,
    operationId: route.procedure,
    tags,
    parameters: parametersOf(route).map(asOpenApi),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) },
            },
          },
        }
      : {}),
    ...(route.auth ? { security: [{ bearer: [] }, { cookie: [] }] } : {}),
    responses: {
      [route.status ?? 200]: {
        description: route.list ? 'A page of the list' : route.status === 201 ? 'Created' : 'OK',
        ...(Object.keys(headers).length ? { headers } : {}),
        content: answerContent,
      },
      ...(route.created ? { 200: { description: route.created.otherwise, content: answerContent } } : {}),
      ...errors,
    },
  };
  const operations: Record<string, Record<string, unknown>> = {
    [openApiPath]: { [route.method.toLowerCase()]: operation },
  };
  if (route.csv) {
    operations[`${openApiPath}.csv`] = {
      get: {
        summary: `CSV download of ${openApiPath}: the same parameters and errors; a header row, then one row per item (RFC 4180, UTF-8)`,
        operationId: `${route.procedure}.csv`,
        tags,
        parameters: parametersOf(route, { csv: true }).map(asOpenApi),
        responses: {
          200: {
            description: 'CSV file (Content-Disposition: attachment)',
            headers: {
              ...headers,
              'Content-Disposition': { description: 'attachment; filename="..."', schema: { type: 'string' } },
            },
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          ...errors,
        },
      },
    };
  }
  return operations;
}

let document: Record<string, unknown> | undefined;

/** The document, made once from the table (a row that leaves a parameter undescribed throws). */
export function openApiDocument(): Record<string, unknown> {
  if (document) return document;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of REST_ROUTES) {
    for (const [openApiPath, operations] of Object.entries(operationsOf(route))) {
      paths[openApiPath] = { ...paths[openApiPath], ...operations };
    }
  }
  document = {
    openapi: '3.1.0',
    info: {
      title: 'EggWatch API',
      version: '1.0.0',
      description: [
        'Grocery egg prices by store, region, egg type and pack size. Egg types accept both spellings (cage-free or cage_free) in any case.',
        `Every list takes limit (1 to ${MAX_LIST_LIMIT}; more is a 400) and offset, answers the first page without them (its size is the`,
        "limit's default), and sends X-Total-Count (the items it matches) and Link (first, prev, next and last pages).",
        'Errors answer JSON { "message": ... }, the message naming the parameter and what it accepts; a parameter a path does not take',
        'is a 400, and an id that names nothing (a store, product, location, run, user or subscription) a 404. A database out of reach',
        'answers 503 on any path.',
        'The public GETs (no session) answer any origin (CORS, no credentials), send ETag and Cache-Control, and are rate limited per address',
        '(RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers; 429 with Retry-After beyond the limit). Lists with a CSV download',
        'serve it at the same path plus .csv.',
      ].join(' '),
    },
    tags: [
      { name: 'prices', description: 'Current prices, Near you, prices by state and price histories' },
      { name: 'stores', description: 'Stores, their prices and their locations' },
      { name: 'stats', description: 'Statistics computed from the prices' },
      { name: 'market', description: 'The BLS average price series' },
      { name: 'news', description: 'The news ticker' },
      { name: 'auth', description: 'Accounts and sessions' },
      { name: 'admin', description: 'First administrator' },
      { name: 'users', description: 'User accounts' },
      { name: 'subscriptions', description: 'Price alert subscriptions' },
      { name: 'scrape', description: 'Scraper runs and schedule (administrators)' },
      { name: 'coverage', description: 'Nationwide coverage: store discovery, plans and visit days (administrators)' },
      { name: 'egress', description: "Scrapers' egress: proxies, tiers, usage and Test connection (administrators)" },
    ],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          properties: {
            message: { type: 'string' },
            issues: {
              type: 'array',
              description: 'Each invalid parameter or field: its path and what is wrong',
              items: {
                type: 'object',
                properties: {
                  path: { type: 'array', items: { type: ['string', 'number'] } },
                  message: { type: 'string' },
                },
                required: ['path', 'message'],
                additionalProperties: false,
              },
            },
          },
          required: ['message'],
          additionalProperties: false,
        },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/auth/login' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'eggwatch_session' },
      },
    },
  };
  return document;
}

/**
 * Swagger UI's page sets no viewport, so a phone lays it out 980 px wide and shrinks it: the page
 * gets the device's width, and the reference's own style keeps its blocks within it.
 */
const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

const PHONE_CSS = `
@media (max-width: 600px) {
  .swagger-ui table { display: block; overflow-x: auto; max-width: 100%; }
  .swagger-ui .wrapper { padding: 0 12px; box-sizing: border-box; }
  .swagger-ui .info { margin: 24px 0; }
  .swagger-ui .info .title { font-size: 28px; }
  .swagger-ui .opblock-tag { font-size: 18px; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-path { max-width: 100%; word-break: break-all; flex-shrink: 1; }
  .swagger-ui .opblock .opblock-summary-description { flex-basis: 100%; padding: 4px 0 0; }
  .swagger-ui .scheme-container .schemes { flex-wrap: wrap; }
  .swagger-ui .parameters-col_name { width: 30%; min-width: 0; }
  .swagger-ui .response-col_status { width: 3em; padding-right: 8px; }
}
`;

/**
 * The API reference at /api/docs: Swagger UI (@fastify/swagger-ui, its files served from this
 * process, nothing from the internet) over the document of /api/openapi.json, given to
 * @fastify/swagger in static mode. Swagger UI's scripts are files of its own, so the app's
 * Content-Security-Policy (script-src 'self', no inline scripts) applies to it unchanged.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, { mode: 'static', specification: { document: openApiDocument() as never } });
  app.addHook('onSend', async (req, reply, payload) => {
    const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    if (!html || typeof payload !== 'string' || !req.url.startsWith('/api/docs')) return payload;
    reply.removeHeader('content-length');
    return payload.replace('<meta charset="UTF-8">', `<meta charset="UTF-8">\n      ${VIEWPORT}`);
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    theme: {
      title: 'EggWatch API reference',
      css: [{ filename: 'phone.css', content: PHONE_CSS }],
    },
    logo: { type: 'image/svg+xml', content: fs.readFileSync(LOGO_FILE) },
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0, tryItOutEnabled: true },
    // Swagger UI would otherwise ask an online validator about the document.
    validatorUrl: false,
  });
}
