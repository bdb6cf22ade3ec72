// Request context. createContextInner builds it from explicit parts (tests use it directly);
// contextFactory derives those parts from a Fastify request: the session comes from the
// `Authorization: Bearer` header or the session cookie.
import { asServiceUnavailable } from './db-errors.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from './db.ts';
import { DataCache } from './cache.ts';
import { SESSION_COOKIE, type Sessions } from './auth/lucia.ts';
import type { EgressSettings } from '#shared/egress.ts';

export interface SessionUser {
  id: string;
  username: string;
  email: string;
  role: 'user' | 'admin';
  email_verified: boolean;
  first_name: string | null;
  last_name: string | null;
}

export interface SessionInfo {
  id: string;
  expiresAt: Date;
}

/** What the auth procedures need from the deployment. */
export interface AppConfig {
  sessions: Sessions;
  /** Base URL for links in emails. */
  publicUrl: string;
  /** Return reset tokens in responses (demonstration mode only). */
  exposeResetToken: boolean;
  /** The key /admin/setup asks for. */
  adminSetupKey: string;
  /** Multiplies every rate limit (default 1). */
  rateLimitScale?: number;
  /** How the worker delivers email: through Resend (RESEND_API_KEY) or kept in the outbox (default). */
  emailTransport?: 'resend' | 'outbox';
  /** The worker's politeness delay between a retailer's requests (SCRAPE_DELAY_MS), for plan costs. */
  scrapeDelayMs?: number;
  /** The scrapers' egress (env.egress), shown redacted to administrators. Default: every retailer direct. */
  egress?: EgressSettings;
  /** The operator's address the Privacy Policy and Terms give (EMAIL_FROM's address); none: "the site operator". */
  contactEmail?: string | null;
  /** Requests a minute per address to the public /api GETs, as enforced (0: no limit). */
  publicApiRateLimit?: number;
}

/** The HTTP side of a call: absent for direct callers (tests, scripts). */
export interface HttpContext {
  ip: string;
  setCookie(cookie: string): void;
}

export interface ContextInner {
  sql: Sql;
  config: AppConfig;
  cache?: DataCache;
  user?: SessionUser | null;
  session?: SessionInfo | null;
  http?: HttpContext;
}

export function createContextInner(inner: ContextInner) {
  return {
    sql: inner.sql,
    config: inner.config,
    // Without a shared cache (tests, scripts) every call reads the database.
    cache: inner.cache ?? new DataCache({ enabled: false }),
    user: inner.user ?? null,
    session: inner.session ?? null,
    http: inner.http ?? { ip: 'local', setCookie: () => {} },
  };
}

export type Context = ReturnType<typeof createContextInner>;

export interface ServerDeps {
  sql: Sql;
  cache: DataCache;
  config: AppConfig;
}

export function readSessionToken(req: FastifyRequest): { token: string; via: 'bearer' | 'cookie' } | null {
  const authorization = req.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return { token: authorization.slice(7).trim(), via: 'bearer' };
  const cookie = req.cookies?.[SESSION_COOKIE];
  return cookie ? { token: cookie, via: 'cookie' } : null;
}

export function contextFactory(deps: ServerDeps) {
  return async function createContext({ req, res }: { req: FastifyRequest; res: FastifyReply }): Promise<Context> {
    // One Set-Cookie per cookie name: a login over a stale cookie answers the new session alone,
    // not the stale cookie's blank followed by it.
    const cookies = new Map<string, string>();
    const http: HttpContext = {
      ip: req.ip,
      setCookie: (cookie) => {
        cookies.set(cookie.slice(0, cookie.indexOf('=')), cookie);
        res.removeHeader('set-cookie');
        void res.header('set-cookie', [...cookies.values()]);
      },
    };
    const credentials = readSessionToken(req);
    let user: SessionUser | null = null;
    let session: SessionInfo | null = null;
    if (credentials) {
      // A session cannot be checked while the database is out of reach: 503, not 500.
      const validated = await deps.config.sessions.validate(credentials.token).catch((error: unknown) => {
        throw asServiceUnavailable(error);
      });
      if (validated) {
        user = validated.user;
        session = validated.session;
        if (credentials.via === 'cookie' && validated.session.cookie) http.setCookie(validated.session.cookie);
      } else if (credentials.via === 'cookie') {
        http.setCookie(deps.config.sessions.blankCookie());
      }
    }
    return createContextInner({ sql: deps.sql, cache: deps.cache, config: deps.config, user, session, http });
  };
}
