// The web process: Fastify with security headers, tRPC under /trpc, the REST adapter under /api
// and the built single-page app (index.html for client routes). createServer takes its
// dependencies explicitly so tests run it against their own database.
import { isClientRoute } from '#shared/routes.ts';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { appRouter, type AppRouter } from './routers/_app.ts';
import { contextFactory, createContextInner, readSessionToken, type AppConfig } from './context.ts';
import { createSessions } from './auth/lucia.ts';
import { DataCache, currentUtcDay } from './cache.ts';
import { registerCompression } from './compress.ts';
import { createIndexHtml, readRoutePreloads } from './preloads.ts';
import { initialQueries, loadInitialData, withInitialData } from './initial-data.ts';
import { DEFAULT_PUBLIC_API_RATE_LIMIT, registerRest } from './rest/handler.ts';
import { registerApiDocs } from './rest/openapi.ts';
import { unsubscribeByToken } from './queries/subscriptions.ts';
import { subscriptionTokenInput } from '#shared/subscriptions.ts';
import type { EgressSettings } from '#shared/egress.ts';
import { DEFAULT_SCRAPE_CONFIG } from '#shared/scrape.ts';
import { securityHeaders } from './security-headers.ts';
import { cachedReads } from './cached-reads.ts';
import { PublicRateLimit } from './public-rate-limit.ts';
import { trpcByteCache } from './trpc-cache.ts';
import {
  containsNul,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  isUnstorableText,
  NUL_MESSAGE,
} from './db-errors.ts';
import { appliedMigrationVersion, latestMigrationVersion } from './migrate.ts';
import type { Sql } from './db.ts';

export const DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

export interface ServerOptions {
  sql: Sql;
  port?: number;
  host?: string;
  logLevel?: string;
  /** Where log lines go (default standard output); the browser tests keep theirs in a file. */
  logStream?: { write(line: string): void };
  /** Folder of the built client; the SPA is not served when it has no index.html. */
  distDir?: string;
  /** Share a cache (tests pass one to observe invalidation). */
  cache?: DataCache;
  /** Proxies whose X-Forwarded-For is believed: false, a hop count or their addresses (env TRUST_PROXY). */
  trustProxy?: boolean | number | string[];
  /**
   * Requests per minute per IP to the public /api GETs (PUBLIC_API_RATE_LIMIT), multiplied by
   * auth.rateLimitScale like every rate limit; 0 turns the limit off. Default 1,200.
   */
  publicApiRateLimit?: number;
  /** Deployment settings of the account features (defaults suit tests: no usable setup key). */
  auth?: {
    publicUrl: string;
    adminSetupKey: string;
    exposeResetToken?: boolean;
    /** Mark the session cookie Secure (production). */
    secureCookies?: boolean;
    /** Multiplies every rate limit (default 1). */
    rateLimitScale?: number;
    /** Resend when RESEND_API_KEY is set, else the outbox (the admin Outbox then shows the bodies). */
    emailTransport?: 'resend' | 'outbox';
  };
  /** The worker's delay between a retailer's requests (SCRAPE_DELAY_MS; default the worker's), for coverage plan costs. */
  scrapeDelayMs?: number;
  /** The scrapers' egress (env.egress), for the admin area's redacted view of it. */
  egress?: EgressSettings;
  /** Which official sources have their key (USDA_MARS_API_KEY set). */
  officialKeys?: { usdaMars: boolean };
  /** The operator's address shown by the Privacy Policy and Terms (EMAIL_FROM's address). */
  contactEmail?: string | null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TRPC_METHODS = new Set(['GET', 'HEAD', 'POST']);

/**
 * What a log line must never carry: a failed statement's bound values (postgres.js attaches them
 * to its errors, and they may be a session id, a token hash or what a user typed) and the
 * credentials of a request.
 */
const LOG_REDACTIONS = {
  paths: [
    'err.parameters',
    'err.args',
    'err.cause.parameters',
    'err.cause.args',
    'req.headers.authorization',
    'req.headers.cookie',
    'res.headers["set-cookie"]',
  ],
  censor: '[redacted]',
};

export function buildApp(options: ServerOptions): { app: FastifyInstance; cache: DataCache } {
  const cache = options.cache ?? new DataCache();
  const proxies = options.trustProxy ?? false;
  const app = Fastify({
    logger:
      options.logLevel === 'silent'
        ? false
        : {
            level: options.logLevel ?? 'info',
            redact: LOG_REDACTIONS,
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    // A hop count n believes the n proxies nearest to this process, and no address beyond them.
    trustProxy: typeof proxies === 'number' ? (_address: string, hop: number) => hop < proxies : proxies,
    bodyLimit: 64 * 1024,
    // Long path parameters reach their route, whose validation says what is wrong with them
    // (beyond Fastify's default of 100 characters they were an unknown route).
    routerOptions: { maxParamLength: 1000 },
    // A URL with a broken escape answers { message } like every other refusal.
    frameworkErrors: (error, _req, reply) => {
      void (reply as FastifyReply).code(400).send({
        message:
          error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL: a percent escape that is not valid UTF-8' : error.message,
      });
    },
    // One log line per request costs more than serving a cached answer; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
  });

  // Unexpected errors (and Fastify's own, such as malformed JSON) answer { message }.
  app.setErrorHandler((error: Error & { statusCode?: number }, req, reply) => {
    if (isDatabaseUnavailable(error)) {
      req.log.warn(`${req.method} ${req.url.split('?')[0]}: ${DATABASE_UNAVAILABLE_MESSAGE}`);
      return void reply.code(503).header('retry-after', '5').send({ message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    // Every route refuses a NUL before its statements; should one reach PostgreSQL anyway, it is
    // still the request's fault.
    if (isUnstorableText(error)) return void reply.code(400).send({ message: NUL_MESSAGE });
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    void reply.code(status).send({ message: status >= 500 ? 'Internal server error' : error.message });
  });

  // For load balancers and orchestrators: /healthz says the process is up (it never touches the
  // database); /readyz says it can serve: the database answers within a second and carries every
  // migration this build knows. Neither is cached, rate limited or logged.
  const expectedMigration = latestMigrationVersion();
  app.get('/healthz', async (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      const applied = await Promise.race([
        appliedMigrationVersion(options.sql),
        new Promise<never>((_resolve, reject) =>
          setTimeout(
            () => reject(Object.assign(new Error('database check timed out'), { code: 'ETIMEDOUT' })),
            1000,
          ).unref(),
        ),
      ]);
      if (applied < expectedMigration) {
        return reply.code(503).send({
          status: 'unavailable',
          message: `Database migrations pending: at ${applied}, this build needs ${expectedMigration}`,
        });
      }
      return reply.send({ status: 'ready' });
    } catch (error) {
      if (!isDatabaseUnavailable(error)) app.log.error({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', message: DATABASE_UNAVAILABLE_MESSAGE });
    }
  });

  const auth = options.auth ?? {
    publicUrl: `http://localhost:${options.port ?? 3000}`,
    adminSetupKey: crypto.randomBytes(24).toString('base64url'),
  };
  const security = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Chakra UI (emotion) injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Images from the site only (store logos are served from public/logos/).
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Production over HTTPS (the Secure session cookie's condition): browsers must come back over
    // HTTPS for a year. Over plain HTTP (development, tests) the header would mean nothing.
    strictTransportSecurity: auth.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  // The public GETs' rate limit, per address, shared by the cached reads' early answers and the routes.
  const publicRateLimit = Math.round(
    (options.publicApiRateLimit ?? DEFAULT_PUBLIC_API_RATE_LIMIT) * (auth.rateLimitScale ?? 1),
  );
  const rateLimit = publicRateLimit > 0 ? new PublicRateLimit(publicRateLimit) : null;
  // First of all: a GET whose answer is cached is answered here, with the same headers.
  app.addHook('onRequest', cachedReads({ cache, securityHeaders: security.fixed, rateLimit }));
  app.addHook('onRequest', security.hook);

  void app.register(fastifyCookie);

  // JSON and index.html answers travel brotli- or gzip-compressed to browsers that accept it.
  registerCompression(app);

  // A mutation authenticated by the session cookie must come from this site: another origin's
  // page could otherwise make the browser send the cookie along (CSRF). Browsers send Origin with
  // every such request; one without it (and without Sec-Fetch-Site: same-origin) is refused too,
  // so a cookie never works from a context that hides where it came from. Bearer-token calls
  // carry no ambient credentials and are exempt.
  const publicOrigin = new URL(auth.publicUrl).origin;
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE_METHODS.has(req.method) || !(req.url.startsWith('/api/') || req.url.startsWith('/trpc/'))) return;
    if (readSessionToken(req)?.via !== 'cookie') return;
    const origin = req.headers.origin;
    const sameSite = origin
      ? origin === publicOrigin || origin === `${req.protocol}://${req.headers.host}`
      : req.headers['sec-fetch-site'] === 'same-origin';
    if (!sameSite) return reply.code(403).send({ message: 'Cross-site request refused' });
  });

  const config: AppConfig = {
    sessions: createSessions(options.sql, { secure: auth.secureCookies ?? false }),
    publicUrl: auth.publicUrl,
    adminSetupKey: auth.adminSetupKey,
    exposeResetToken: auth.exposeResetToken ?? false,
    rateLimitScale: auth.rateLimitScale ?? 1,
    emailTransport: auth.emailTransport ?? 'outbox',
    scrapeDelayMs: options.scrapeDelayMs ?? DEFAULT_SCRAPE_CONFIG.http.delayMs,
    ...(options.egress ? { egress: options.egress } : {}),
    ...(options.officialKeys ? { officialKeys: options.officialKeys } : {}),
    contactEmail: options.contactEmail ?? null,
    publicApiRateLimit: rateLimit ? publicRateLimit : 0,
  };
  const createContext = contextFactory({ sql: options.sql, cache, config });

  app.addHook('onRequest', trpcByteCache({ cache, createContext }));

  // tRPC speaks JSON over GET and POST. Other methods (TRACE cannot even be turned into a fetch
  // Request) answer 405, and a body of another type (form data, which the adapter would try
  // to read as a stream Fastify already consumed) answers 415, both with a message, not a 500.
  app.addHook('onRequest', async (req, reply) => {
    if (!/^\/trpc(\/|\?|$)/.test(req.url)) return;
    if (!TRPC_METHODS.has(req.method))
      return reply
        .code(405)
        .header('allow', 'GET, POST')
        .send({ message: `Method ${req.method} is not allowed on /trpc` });
    const type = req.headers['content-type'];
    if (
      req.method !== 'GET' &&
      req.method !== 'HEAD' &&
      type !== undefined &&
      !/^application\/json\s*(;|$)/i.test(type)
    ) {
      return reply.code(415).send({ message: 'tRPC calls take a JSON body (Content-Type: application/json)' });
    }
  });

  void app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext,
      onError({ error, path: procedure, req }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error, procedure }, 'tRPC call failed');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  void app.register(async (api) =>
    registerRest(api, {
      cache,
      createContext,
      rateLimit,
    }),
  );
  // The interactive API reference at /api/docs, generated from /api/openapi.json's document.
  void app.register(registerApiDocs);

  // RFC 8058 one-click unsubscribe: mail clients POST "List-Unsubscribe=One-Click" (form-encoded)
  // to the List-Unsubscribe URL, with no login; the token in the URL is the proof. A GET of the
  // same URL is the page that asks first (link scanners only GET).
  void app.register(async (oneClick) => {
    oneClick.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, body, done) => done(null, body),
    );
    oneClick.post('/notifications/unsubscribe', async (req, reply) => {
      const token = new URL(req.url, 'http://x').searchParams.get('token') ?? '';
      const parsed = containsNul(token) ? null : subscriptionTokenInput.safeParse({ token });
      const done = parsed?.success ? await unsubscribeByToken(options.sql, parsed.data.token) : null;
      if (!done) return reply.code(404).type('text/plain; charset=utf-8').send('This unsubscribe link is invalid.');
      return reply
        .code(200)
        .type('text/plain; charset=utf-8')
        .send('Unsubscribed: no more alerts will be sent for this subscription.');
    });
  });

  const distDir = options.distDir ?? DIST_DIR;
  const hasClient = fs.existsSync(path.join(distDir, 'index.html'));
  if (hasClient) {
    void app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz siblings of its text files (scripts/compress-assets.ts);
      // they are sent to browsers that accept the encoding, the plain file to the others.
      preCompressed: true,
      // Cache-Control comes from setHeaders alone: send's default (max-age=0) would replace it.
      cacheControl: false,
      setHeaders(res, filePath) {
        // Vite fingerprints everything under assets/, so those never change; nor do the store
        // logos under logos/ (a changed logo gets a new file name, and store_logo_url follows it).
        const top = path.relative(distDir, filePath).split(path.sep)[0];
        res.setHeader(
          'cache-control',
          top === 'assets' || top === 'logos' ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  const indexHtml = hasClient ? fs.readFileSync(path.join(distDir, 'index.html')) : null;
  // index.html announces the requested route's page chunks (modulepreload), not only the entry's.
  const indexHtmlFor = indexHtml ? createIndexHtml(indexHtml, readRoutePreloads(distDir)) : null;

  // index.html carries the public data its page asks for first (initial-data.ts), from the read
  // cache: one copy per page kind, query set and data version.
  const publicContext = createContextInner({ sql: options.sql, cache, config });
  const pageIds = new Map<Buffer, number>();
  async function pageFor(req: { url: string; log: FastifyInstance['log'] }, pathname: string): Promise<Buffer> {
    const base = indexHtmlFor!(pathname);
    const queries = initialQueries(pathname, req.url.slice(pathname.length));
    if (!pageIds.has(base)) pageIds.set(base, pageIds.size);
    const key = `html:${currentUtcDay()}:${pageIds.get(base)}:${JSON.stringify(queries)}`;
    try {
      return await cache.get(key, async () => withInitialData(base, await loadInitialData(publicContext, queries)));
    } catch (error) {
      // The page fetches its data itself, as it would without this.
      if (!isDatabaseUnavailable(error)) req.log.warn({ err: error }, 'index.html went out without its initial data');
      return base;
    }
  }

  app.setNotFoundHandler(async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || pathname === '/api' || pathname.startsWith('/trpc')) {
      return reply.code(404).send({ message: `No API route ${req.method} ${pathname}` });
    }
    if (indexHtmlFor && (req.method === 'GET' || req.method === 'HEAD') && !path.extname(pathname)) {
      // The client's routes get their page; any other path the app's own not-found page, as a 404.
      return reply
        .code(isClientRoute(pathname) ? 200 : 404)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await pageFor(req, pathname));
    }
    return reply.code(404).send({ message: `Not found: ${pathname}` });
  });

  return { app, cache };
}

export function createServer(options: ServerOptions) {
  const { app, cache } = buildApp(options);
  let unlisten: (() => Promise<void>) | null = null;
  return {
    app,
    cache,
    async start(): Promise<string> {
      unlisten = await cache.listen(options.sql);
      return app.listen({ port: options.port ?? 3000, host: options.host ?? '127.0.0.1' });
    },
    /**
     * Stops taking requests and waits for those in flight, for at most graceMs: a client that
     * stops reading a download would otherwise hold the close (and a SIGTERM) for ever.
     */
    async stop({ graceMs = 10_000 }: { graceMs?: number } = {}): Promise<void> {
      const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
      cut.unref();
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
      }
      await unlisten?.();
    },
  };
}
