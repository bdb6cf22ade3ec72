// graphile-worker records a job's completion without waiting for it: until that commits, the job
// stays locked and holds its named queue (a retailer's jobs run one at a time), so a run-once
// worker started at once could find the next job of the queue unavailable. Tests wait for the
// jobs graphile-worker's own pools hold (their ids start with "pool-"; the workers tests play
// lock theirs under names of their own).
import type { Db } from '#server/db.ts';

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
