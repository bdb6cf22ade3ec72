// The worker process: graphile-worker on the application database, running the task list and
// crontab of worker/tasks.ts. Several worker processes may run against one database.
//
// Losing the database (a restart, a fail-over) must not end the process: graphile-worker 0.17
// marks a job done or failed without retrying a lost connection (an unhandled rejection, or its
// worker pool stopping with "Connection terminated unexpectedly"). The runner is then started
// again once the database answers, the jobs the old runner still held are released (they are
// idempotent: an email already sent is not sent again, a scrape resumes after its written ZIP
// codes), and the log says what was recovered.
import { run, type Runner } from 'graphile-worker';
import { env, publicUrl } from '#server/env.ts';
import { openSql } from '#server/db.ts';
import { isDatabaseUnavailable } from '#server/db-errors.ts';
import { CRONTAB, taskList } from './tasks.ts';
import { scrapeConfigFromEnv } from './scrape-env.ts';
import { workerLiveness } from './liveness.ts';

if (!env.DATABASE_URL) {
  console.error('DATABASE_URL is not set. Run `npm start`, which provides a database, or set DATABASE_URL.');
  process.exit(1);
}
const databaseUrl = env.DATABASE_URL;
const sql = await openSql(databaseUrl, { max: 4 });
// graphile-worker stops taking jobs on SIGTERM/SIGINT and waits for running ones; this tells the
// long ones (a scrape run) to stop after their current step instead of running to the end.
const shutdown = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => shutdown.abort());
const scrape = scrapeConfigFromEnv(env);
const liveness = workerLiveness(sql, scrape.heartbeatMs);
const tasks = taskList({ sql, email: { resendApiKey: env.RESEND_API_KEY, from: env.EMAIL_FROM }, scrape, shutdown: shutdown.signal, alerts: { publicUrl: publicUrl(env), digestHourUtc: env.ALERT_DIGEST_HOUR_UTC } });
// The pools (job lock ids) of the current runner, to release their jobs if it has to be replaced.
let poolIds = new Set<string>();
liveness.events.on('pool:create', ({ workerPool }) => poolIds.add(workerPool.id));

/** A lost connection, as graphile-worker's pg pool or postgres.js report it. */
function isConnectionLoss(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /Connection terminated|not queryable|Cannot use a pool after calling end|CONNECTION_(CLOSED|ENDED|DESTROYED)|ECONNREFUSED|ECONNRESET/.test(message);
}

let lost: ((error: unknown) => void) | null = null;
process.on('unhandledRejection', (reason) => {
  // (while the runner is being replaced, the old one's late failures are part of the same loss)
  if (isConnectionLoss(reason)) return lost?.(reason);
  console.error('Unhandled rejection:', reason);
  process.exit(1);
});

async function databaseBack(): Promise<void> {
  for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
    if (shutdown.signal.aborted) return;
    try {
      await sql`select 1`;
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function startRunner(): Promise<Runner> {
  for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
    try {
      return await run({
        events: liveness.events,
        connectionString: databaseUrl,
        concurrency: env.WORKER_CONCURRENCY,
        taskList: tasks,
        crontab: CRONTAB,
        noHandleSignals: false,
        pollInterval: 2000,
      });
    } catch (error) {
      if (shutdown.signal.aborted || !isConnectionLoss(error)) throw error;
      console.error(`The job runner could not start (${error instanceof Error ? error.message : String(error)}); trying again in ${delay} ms`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

for (let first = true; ; first = false) {
  const runner = await startRunner();
  // What a dead worker left behind is looked at as soon as a worker starts, not at the next minute.
  if (first) await runner.addJob('worker__recover', {}, { jobKey: 'worker__recover', maxAttempts: 1 });
  const connectionLost = new Promise<unknown>((resolve) => (lost = resolve));
  const outcome = await Promise.race([runner.promise.then(() => ({ ended: true as const }), (error: unknown) => ({ ended: false as const, error })), connectionLost.then((error) => ({ ended: false as const, error }))]);
  lost = null;
  if (shutdown.signal.aborted || (outcome.ended && !('error' in outcome))) {
    await runner.promise.catch(() => {});
    break;
  }
  const error = 'error' in outcome ? outcome.error : undefined;
  if (!isConnectionLoss(error)) throw error;
  console.error(`Lost the database (${error instanceof Error ? error.message : String(error)}); the job runner starts again once it answers`);
  const heldBy = [...poolIds];
  poolIds = new Set();
  await Promise.race([runner.stop().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5000))]);
  await databaseBack();
  if (shutdown.signal.aborted) break;
  const released = await sql<{ n: number }[]>`
    select count(*)::int as n from graphile_worker._private_jobs where locked_by = any(${sql.array(heldBy)}::text[])`;
  await sql`select graphile_worker.force_unlock_workers(${sql.array(heldBy)}::text[])`;
  await sql`delete from worker_heartbeats where worker_id = any(${sql.array(heldBy)}::text[])`;
  console.error(`Database back: recovered ${released[0]!.n} job(s) the previous job runner still held; they run again`);
}
await liveness.stop();
await sql.end({ timeout: 5 });
