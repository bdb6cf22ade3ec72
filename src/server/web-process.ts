// The web process: the server of app.ts on DATABASE_URL, configured from the environment, until
// SIGINT or SIGTERM. server.ts runs it as it is; a benchmark may add its own routes to
// `server.app` between open and run (bench/reliability/web.ts), so the production process carries
// none of them.
import { env as processEnv, publicUrl, type Env } from './env.ts';
import { openSql } from './db.ts';
import { createServer } from './app.ts';
import { adminSetupKey } from './auth/setup-key.ts';
import { isConnectionLoss } from './db-errors.ts';
import { mailboxAddress } from '#shared/privacy.ts';

export interface WebProcess {
  server: ReturnType<typeof createServer>;
  /** Starts listening, and stops (requests in flight first, then the pool) on SIGINT or SIGTERM. */
  run(): Promise<void>;
}

export async function openWebProcess(env: Env = processEnv): Promise<WebProcess> {
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
    scrapeDelayMs: env.SCRAPE_DELAY_MS,
    egress: env.egress,
    contactEmail: mailboxAddress(env.EMAIL_FROM),
  });
  return {
    server,
    async run() {
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
    },
  };
}
