// The worker process: graphile-worker on the application database, running the task list and
// crontab of worker/tasks.ts. Several worker processes may run against one database.
import { run } from 'graphile-worker';
import { env, publicUrl } from '#server/env.ts';
import { openSql } from '#server/db.ts';
import { CRONTAB, taskList } from './tasks.ts';
import { scrapeConfigFromEnv } from './scrape-env.ts';
import { workerLiveness } from './liveness.ts';

if (!env.DATABASE_URL) {
  console.error('DATABASE_URL is not set. Run `npm start`, which provides a database, or set DATABASE_URL.');
  process.exit(1);
}
const sql = await openSql(env.DATABASE_URL, { max: 4 });
// graphile-worker stops taking jobs on SIGTERM/SIGINT and waits for running ones; this tells the
// long ones (a scrape run) to stop after their current step instead of running to the end.
const shutdown = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => shutdown.abort());
const scrape = scrapeConfigFromEnv(env);
const liveness = workerLiveness(sql, scrape.heartbeatMs);
const runner = await run({
  events: liveness.events,
  connectionString: env.DATABASE_URL,
  concurrency: env.WORKER_CONCURRENCY,
  taskList: taskList({ sql, email: { resendApiKey: env.RESEND_API_KEY, from: env.EMAIL_FROM }, scrape, shutdown: shutdown.signal, alerts: { publicUrl: publicUrl(env), digestHourUtc: env.ALERT_DIGEST_HOUR_UTC } }),
  crontab: CRONTAB,
  noHandleSignals: false,
  pollInterval: 2000,
});
// What a dead worker left behind is looked at as soon as a worker starts, not at the next minute.
await runner.addJob('worker__recover', {}, { jobKey: 'worker__recover', maxAttempts: 1 });
await runner.promise;
await liveness.stop();
await sql.end({ timeout: 5 });
