// Fixed-window rate limits in PostgreSQL, so every web process shares the same counters.
// One statement counts the attempt and returns the total for the window.
import { TRPCError } from '@trpc/server';
import { RATE_LIMIT_COUNTER_RETENTION_HOURS } from '#shared/privacy.ts';
import type { Db } from '../db.ts';

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  windowSeconds: number;
}

export const LIMITS = {
  loginPerIp: { max: 20, windowSeconds: 900 },
  loginPerAccount: { max: 8, windowSeconds: 900 },
  registerPerIp: { max: 10, windowSeconds: 3600 },
  resetPerIp: { max: 10, windowSeconds: 3600 },
  resetPerAccount: { max: 5, windowSeconds: 3600 },
  setupPerIp: { max: 10, windowSeconds: 3600 },
  subscribePerIp: { max: 20, windowSeconds: 3600 },
  subscribePerEmail: { max: 10, windowSeconds: 3600 },
  // Test connection sends requests to a retailer: a few a minute per administrator.
  egressTestPerAdmin: { max: 6, windowSeconds: 60 },
} satisfies Record<string, Limit>;

export async function hit(sql: Db, key: string, limit: Limit): Promise<boolean> {
  const [row] = await sql<{ hits: number }[]>`
    insert into rate_limits (key, window_start, hits)
    values (${key}, to_timestamp(floor(extract(epoch from now()) / ${limit.windowSeconds}) * ${limit.windowSeconds}), 1)
    on conflict (key, window_start) do update set hits = rate_limits.hits + 1
    returning hits`;
  return row!.hits <= limit.max;
}

/**
 * Counts one attempt against every given key; throws TOO_MANY_REQUESTS when any is over. The
 * deployment's scale multiplies every limit (1 in production; the browser tests, whose three
 * screen sizes share one IP, run with more room).
 */
export async function enforce(
  ctx: { sql: Db; config: { rateLimitScale?: number } },
  checks: Array<[key: string, limit: Limit]>,
): Promise<void> {
  const scale = ctx.config.rateLimitScale ?? 1;
  const results = await Promise.all(
    checks.map(([key, limit]) => hit(ctx.sql, key, { ...limit, max: limit.max * scale })),
  );
  if (results.includes(false)) {
    throw new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many attempts. Please wait a few minutes and try again.',
    });
  }
}

export async function pruneRateLimits(sql: Db): Promise<number> {
  const result =
    await sql`delete from rate_limits where window_start < now() - ${RATE_LIMIT_COUNTER_RETENTION_HOURS} * interval '1 hour'`;
  return result.count;
}
