// The web process. `npm start` launches it (with the worker) through scripts/start.ts; it can
// also run alone against DATABASE_URL, e.g. as one of several instances behind a load balancer.
import { env, publicUrl } from '#server/env.ts';
import { openSql } from '#server/db.ts';
import { createServer } from '#server/app.ts';
import { adminSetupKey } from '#server/auth/setup-key.ts';
import { isConnectionLoss } from '#server/db-errors.ts';

if (!env.DATABASE_URL) {
  console.error('DATABASE_URL is not set. Run `npm start`, which provides a database, or set DATABASE_URL.');
  process.exit(1);
}
// When PostgreSQL goes away, postgres.js can reject promises no request awaits (57P01, ECONNRESET,
// CONNECTION_CLOSED); the requests themselves answer 503 and the pool reconnects, so those are
// logged, not fatal. Anything else unhandled still ends the process, as Node does by default.
process.on('unhandledRejection', (reason) => {
  if (isConnectionLoss(reason)) {
    console.warn(`Database connection lost: ${reason instanceof Error ? reason.message : String(reason)}`);
    return;
  }
  console.error('Unhandled rejection:', reason);
  process.exit(1);
});
const sql = await openSql(env.DATABASE_URL, { max: env.DATABASE_POOL_MAX });
const server = createServer({
  sql,
  port: env.PORT,
  host: env.HOST,
  logLevel: env.LOG_LEVEL,
  trustProxy: env.TRUST_PROXY,
  publicApiRateLimit: env.PUBLIC_API_RATE_LIMIT,
  auth: {
    publicUrl: publicUrl(env),
    adminSetupKey: await adminSetupKey(env, sql),
    exposeResetToken: env.EXPOSE_RESET_TOKEN,
    secureCookies: env.NODE_ENV === 'production' && publicUrl(env).startsWith('https:'),
    emailTransport: env.RESEND_API_KEY ? 'resend' : 'outbox',
  },
  benchBaselineDir: env.BENCH_BASELINE_DIR,
  scrapeDelayMs: env.SCRAPE_DELAY_MS,
});
await server.start();

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void server
      .stop()
      .finally(() => sql.end({ timeout: 5 }))
      .finally(() => process.exit(0));
  });
}
