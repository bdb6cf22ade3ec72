// The worker process: graphile-worker on the application database, running the task list and
// crontab of worker/tasks.ts. Several worker processes may run against one database.
//
// Losing the database (a restart, a fail-over) must not end the process: graphile-worker 0.17
// marks a job done or failed without retrying a lost connection (an unhandled rejection, or its
// worker pool stopping with "Connection terminated unexpectedly"). The runner is then started
// again once the database answers, the jobs the old runner still held are released (they are
// idempotent: an email already sent is not sent again, a scrape resumes after its written ZIP
// codes), and the log says what was recovered. Each runner gets a pg pool of the worker's own,
// which always has an 'error' listener: graphile-worker removes its own when it stops, and an
// idle connection of the old pool dropped by the server would otherwise end the process.
import pg from 'pg';
import { run, type Runner } from 'graphile-worker';
import { env, publicUrl } from '#server/env.ts';
import { openSql } from '#server/db.ts';
import { isConnectionLoss } from '#server/db-errors.ts';
import { handBackJobs, pingDatabase, releaseRunnerJobs } from '#server/queries/worker-recovery.ts';
import { CRONTAB, taskList } from './tasks.ts';
import { scrapeConfigFromEnv } from './scrape-env.ts';
import { officialConfigFromEnv } from './official/config.ts';
import { workerLiveness } from './liveness.ts';

if (!env.DATABASE_URL) {
  console.error('DATABASE_URL is not set. Run `npm start`, which provides a database, or set DATABASE_URL.');
  process.exit(1);
}
const databaseUrl = env.DATABASE_URL;
const sql = await openSql(databaseUrl, { max: 4 });
// SIGTERM/SIGINT: the runner stops taking jobs and waits for the running ones, which this abort
// tells to stop after their current step (a scrape its current ZIP code) instead of running to
// the end; a second signal, or DRAIN_MS without an end, stops them at once. Before the process
// exits, it hands back every job it still holds (graphile-worker records a stopped job's failure
// without waiting for the write, so on its own it could leave the job locked for worker__recover).
const DRAIN_MS = 25_000;
const shutdown = new AbortController();
let current: Runner | null = null;
function onSignal(signal: NodeJS.Signals): void {
  if (!shutdown.signal.aborted) {
    console.error(`Received ${signal}: running jobs stop after their current step, then the worker exits`);
    shutdown.abort();
    void current?.stop().catch(() => {});
    setTimeout(() => void current?.kill().catch(() => {}), DRAIN_MS).unref();
  } else {
    console.error(`Received ${signal} again: stopping running jobs now`);
    void current?.kill().catch(() => {});
  }
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, onSignal);
const scrape = scrapeConfigFromEnv(env);
const liveness = workerLiveness(sql, scrape.heartbeatMs);
const tasks = taskList({
  sql,
  email: { resendApiKey: env.RESEND_API_KEY, from: env.EMAIL_FROM },
  scrape,
  shutdown: shutdown.signal,
  alerts: {
    publicUrl: publicUrl(env),
    digestHourUtc: env.ALERT_DIGEST_HOUR_UTC,
    immediateWindowMinutes: env.ALERT_IMMEDIATE_WINDOW_MINUTES,
  },
  history: { retentionMonths: env.PRICE_HISTORY_RETENTION_MONTHS },
  official: officialConfigFromEnv(env),
});
// The pools (job lock ids) of the current runner, to release their jobs if it has to be replaced.
let poolIds = new Set<string>();
liveness.events.on('pool:create', ({ workerPool }) => poolIds.add(workerPool.id));

let lost: ((error: unknown) => void) | null = null;
// A job fetch cut off by the loss may have locked a job on the server whose answer never reached
// the runner; graphile-worker only logs the failed fetch and asks again, so that job would stay
// locked by a runner that is alive and never runs it. Such a loss is handled like the others: the
// runner starts again and releases every job its pools held.
liveness.events.on('worker:getJob:error', ({ error }) => {
  if (isConnectionLoss(error)) lost?.(error);
});
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
      await pingDatabase(sql);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * A pool for one runner; its connection errors are expected during an outage and only logged.
 * Both kinds of listener are the pool's own for its whole life: an idle client's error reaches
 * the pool's 'error', a checked-out client's its own (graphile-worker would otherwise install
 * its handlers, with a warning, and remove them when its runner stops).
 */
function runnerPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: Math.max(10, env.WORKER_CONCURRENCY + 2) });
  const onError = (error: Error) => {
    if (!isConnectionLoss(error)) console.error('Job runner database connection:', error);
  };
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

/** Ends a runner's pool without waiting long for connections a stuck runner still holds. */
async function endPool(pool: pg.Pool): Promise<void> {
  await Promise.race([pool.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
}

let pool = runnerPool();
async function startRunner(): Promise<Runner> {
  for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
    try {
      return await run({
        events: liveness.events,
        pgPool: pool,
        concurrency: env.WORKER_CONCURRENCY,
        taskList: tasks,
        crontab: CRONTAB,
        noHandleSignals: true,
        pollInterval: 2000,
      });
    } catch (error) {
      if (shutdown.signal.aborted || !isConnectionLoss(error)) throw error;
      void endPool(pool);
      pool = runnerPool();
      console.error(
        `The job runner could not start (${error instanceof Error ? error.message : String(error)}); trying again in ${delay} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

for (let first = true; ; first = false) {
  const runner = await startRunner();
  current = runner;
  if (shutdown.signal.aborted) void runner.stop().catch(() => {});
  // What a dead worker left behind is looked at as soon as a worker starts, not at the next minute;
  // the price history's partitions ahead are made sure of at once too, not at the next daily run.
  if (first) {
    // (should the database go away right now, the crontab runs them within the minute and the day)
    for (const task of ['worker__recover', 'prices__partitions']) {
      await runner.addJob(task, {}, { jobKey: task, maxAttempts: 1 }).catch((error: unknown) => {
        if (!isConnectionLoss(error)) throw error;
      });
    }
  }
  const connectionLost = new Promise<unknown>((resolve) => (lost = resolve));
  const outcome = await Promise.race([
    runner.promise.then(
      () => ({ ended: true as const }),
      (error: unknown) => ({ ended: false as const, error }),
    ),
    connectionLost.then((error) => ({ ended: false as const, error })),
  ]);
  lost = null;
  if (shutdown.signal.aborted || (outcome.ended && !('error' in outcome))) {
    await runner.promise.catch(() => {});
    break;
  }
  const error = 'error' in outcome ? outcome.error : undefined;
  if (!isConnectionLoss(error)) throw error;
  console.error(
    `Lost the database (${error instanceof Error ? error.message : String(error)}); the job runner starts again once it answers`,
  );
  const heldBy = [...poolIds];
  poolIds = new Set();
  await Promise.race([runner.stop().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5000))]);
  void endPool(pool);
  pool = runnerPool();
  // Release what the old runner held, in one transaction, as soon as the database answers (and
  // again should it go away in between).
  let released: number | null = null;
  while (released === null && !shutdown.signal.aborted) {
    await databaseBack();
    released = await releaseRunnerJobs(sql, heldBy).catch((error: unknown) => {
      if (!isConnectionLoss(error)) throw error;
      return null;
    });
  }
  if (shutdown.signal.aborted) break;
  console.error(`Database back: recovered ${released} job(s) the previous job runner still held; they run again`);
}
current = null;
if (shutdown.signal.aborted) await handBack([...poolIds]);
await liveness.stop();
await endPool(pool);
await sql.end({ timeout: 5 });
process.exit(0);

/** At shutdown: jobs still locked by this process's pools run again on the next worker at once. */
async function handBack(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    const released = await handBackJobs(sql, ids);
    if (released.length > 0)
      console.error(
        `Stopped: handed back ${released.length} job(s) (${[...new Set(released.map((j) => j.task))].join(', ')}); they run again on the next worker`,
      );
  } catch (error) {
    // (the database is away: worker__recover releases them once this process's heartbeat is stale)
    console.error(`Stopped without handing back its jobs: ${error instanceof Error ? error.message : String(error)}`);
  }
}
