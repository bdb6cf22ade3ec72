// Request context. createContextInner builds it from explicit parts (tests use it directly);
// createContext derives those parts from a Fastify request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from './db.ts';
import { DataCache } from './cache.ts';

export interface SessionUser {
  id: string;
  username: string;
  email: string;
  role: 'user' | 'admin';
}

export interface SessionInfo {
  id: string;
  expiresAt: Date;
}

export interface ContextInner {
  sql: Sql;
  cache?: DataCache;
  user?: SessionUser | null;
  session?: SessionInfo | null;
}

export function createContextInner(inner: ContextInner) {
  return {
    sql: inner.sql,
    // Without a shared cache (tests, scripts) every call reads the database.
    cache: inner.cache ?? new DataCache({ enabled: false }),
    user: inner.user ?? null,
    session: inner.session ?? null,
  };
}

export type Context = ReturnType<typeof createContextInner>;

export interface ServerDeps {
  sql: Sql;
  cache: DataCache;
}

export function contextFactory(deps: ServerDeps) {
  return async function createContext(_opts: { req: FastifyRequest; res: FastifyReply }): Promise<Context> {
    return createContextInner({ sql: deps.sql, cache: deps.cache });
  };
}
