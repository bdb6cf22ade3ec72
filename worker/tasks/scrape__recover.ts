// Finds scrape runs left behind by a worker that died (SIGKILL, a lost machine): graphile-worker
// would leave such a job locked for hours. A running run whose heartbeat is older than staleMs has
// its job unlocked so a live worker resumes it (the ZIPs already written are skipped); a run whose
// job is gone or has used up its attempts is marked failed with the reason. Runs every minute and
// when a worker starts; idempotent.
import type { Task } from 'graphile-worker';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { SCRAPE_JOB_KEY_PREFIX } from '#server/queries/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';

interface Candidate {
  id: number;
  store_id: StoreId;
  status: 'queued' | 'running';
  done: number;
  total: number;
  job_id: string | null;
  locked_by: string | null;
  attempts: number | null;
  max_attempts: number | null;
  last_error: string | null;
}

export function scrapeRecover(deps: WorkerDeps): Task {
  const config = scrapeConfig(deps);
  return async (_payload, helpers) => {
    const candidates = await deps.sql<Candidate[]>`
      select r.id, r.store_id, r.status, r.total,
             (select count(*)::int from scrape_run_zips z where z.run_id = r.id) as done,
             j.id::text as job_id, j.locked_by, j.attempts, j.max_attempts, j.last_error
      from scrape_runs r
      left join graphile_worker.jobs j on j.key = ${SCRAPE_JOB_KEY_PREFIX} || r.id
      where (r.status = 'running' and (r.heartbeat_at is null or r.heartbeat_at < now() - ${config.staleMs} * interval '1 millisecond'))
         or (r.status = 'queued' and r.created_at < now() - interval '1 minute' and j.id is null)`;
    for (const run of candidates) {
      const name = SCRAPER_NAMES[run.store_id];
      const progress = `${run.done} of ${run.total} ZIP codes written`;
      if (run.job_id === null || (run.locked_by === null && (run.attempts ?? 0) >= (run.max_attempts ?? 1))) {
        const why = run.job_id === null ? 'its job no longer exists' : `it failed ${run.attempts} times (${run.last_error?.split('\n')[0] ?? 'no error recorded'})`;
        const [failed] = await deps.sql`
          update scrape_runs set status = 'failed', finished_at = now(), message = ${`Stopped: ${why}; ${progress}.`}
          where id = ${run.id} and status in ('queued', 'running') returning id`;
        if (failed) helpers.logger.warn(`recovered scrape run ${run.id} (${name}): marked failed because ${why}; ${progress}`);
        continue;
      }
      if (run.locked_by !== null) {
        // The job is locked by a worker that stopped beating: release it for a live worker.
        await deps.sql.begin(async (tx) => {
          await tx`select graphile_worker.force_unlock_workers(${tx.array([run.locked_by!])}::text[])`;
          await tx`update scrape_runs set worker_id = null, heartbeat_at = now(), recovered = recovered + 1 where id = ${run.id}`;
        });
        helpers.logger.warn(`recovered scrape run ${run.id} (${name}): worker ${run.locked_by} stopped responding; the run resumes after ${progress}`);
      }
    }
  };
}
