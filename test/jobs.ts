// graphile-worker records a job's completion without waiting for it: until that commits, the job
// stays locked and holds its named queue (a retailer's jobs run one at a time), so a run-once
// worker started at once could find the next job of the queue unavailable. Tests wait for the
// jobs graphile-worker's own pools hold (their ids start with "pool-"; the workers tests play
// lock theirs under names of their own).
import { runOnce, type Logger, type TaskList } from 'graphile-worker';
import type { Db } from '#server/db.ts';
import { quietLogger } from '#server/migrate.ts';

export async function settleJobs(sql: Db, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [held] = await sql<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs where locked_by like 'pool-%'`;
    if (held!.n === 0) return;
    if (Date.now() > deadline) throw new Error(`jobs still locked ${timeoutMs / 1000} s after their worker stopped`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Runs the queued jobs with a run-once worker: each round makes the jobs queued for later due now
 * (those with attempts left), runs them and waits for their completions to commit. With `untilDone`
 * it repeats until no job is left to run (a job may queue the next), failing after `rounds`; without
 * it one round is run.
 */
export async function runJobs(
  db: { sql: Db; url: string },
  taskList: TaskList,
  options: { logger?: Logger; untilDone?: boolean; rounds?: number } = {},
): Promise<void> {
  const rounds = options.untilDone ? (options.rounds ?? 20) : 1;
  for (let round = 0; round < rounds; round++) {
    await settleJobs(db.sql);
    await db.sql`update graphile_worker._private_jobs set run_at = now() where run_at > now() and attempts < max_attempts`;
    await runOnce({ connectionString: db.url, taskList, logger: options.logger ?? quietLogger });
    await settleJobs(db.sql);
    if (!options.untilDone) return;
    const [left] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from graphile_worker._private_jobs where locked_by is null and attempts < max_attempts`;
    if (left!.n === 0) return;
  }
  throw new Error(`jobs still due after ${rounds} rounds`);
}
