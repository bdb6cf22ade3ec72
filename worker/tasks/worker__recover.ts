// Recovery from a dead worker (SIGKILL, a lost machine). graphile-worker leaves a dead worker's
// jobs locked for four hours; this task (every minute, and when a worker starts):
// 1. releases every job locked by a worker whose heartbeat (worker/liveness.ts) is older than
//    staleMs, or by a worker that never beat and has held the job for 30 minutes, so a live worker
//    runs it again (every task is idempotent: a scrape resumes after its written ZIPs, a digest
//    sends only what it had not claimed);
// 2. releases the run of a scrape whose own heartbeat stopped, and marks failed a queued or
//    running scrape whose job is gone or has used up its attempts;
// 3. releases the coverage runs (discovery sweeps, visit days) of those workers with their jobs,
//    so a live worker resumes them (a visit chunk after its written stores); skips a visit day's
//    chunk whose job is gone or has used up its attempts (finishing the day when none is left),
//    and marks failed a queued visit day whose planning job is gone.
// It logs what it recovered. Idempotent.
import type { Task } from 'graphile-worker';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { SCRAPE_JOB_KEY_PREFIX } from '#server/queries/scrape.ts';
import { finishVisitRun, VISIT_DAY_TASK, VISIT_TASK } from '#server/queries/coverage-visits.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';

/** A job held this long by a worker that never registered a heartbeat is taken to be abandoned. */
const UNKNOWN_WORKER_MS = 30 * 60_000;

interface StaleWorker {
  worker_id: string;
  jobs: number;
  tasks: string;
}

interface Candidate {
  id: number;
  store_id: StoreId;
  status: 'queued' | 'running';
  worker_id: string | null;
  done: number;
  total: number;
  job_id: string | null;
  locked_by: string | null;
  attempts: number | null;
  max_attempts: number | null;
  last_error: string | null;
}

interface ReleasedCoverageRun {
  id: number;
  store_id: StoreId;
  kind: 'discover' | 'visit';
  worker_id: string;
  stores_visited: number;
  stores_planned: number;
}

interface OpenChunk {
  id: number;
  store_id: StoreId;
  chunk: number;
  job_id: string | null;
  locked_by: string | null;
  attempts: number | null;
  max_attempts: number | null;
  last_error: string | null;
}

interface ReleasedRun {
  id: number;
  store_id: StoreId;
  worker_id: string | null;
  total: number;
  done: number;
}

export function workerRecover(deps: WorkerDeps): Task {
  const config = scrapeConfig(deps);
  return async (_payload, helpers) => {
    const logResumed = (run: ReleasedRun) =>
      helpers.logger.warn(
        `recovered scrape run ${run.id} (${SCRAPER_NAMES[run.store_id]}): worker ${run.worker_id ?? 'unknown'} stopped responding; the run resumes after ${run.done} of ${run.total} ZIP codes written`,
      );
    const stale = await deps.sql<StaleWorker[]>`
      select j.locked_by as worker_id, count(*)::int as jobs, string_agg(distinct t.identifier, ', ') as tasks
      from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id
      left join worker_heartbeats h on h.worker_id = j.locked_by
      where j.locked_by is not null and j.locked_by <> ${helpers.job.locked_by ?? ''}
        and ((h.worker_id is not null and h.beat_at < now() - ${config.staleMs} * interval '1 millisecond')
          or (h.worker_id is null and j.locked_at < now() - ${UNKNOWN_WORKER_MS} * interval '1 millisecond'))
      group by j.locked_by`;
    if (stale.length > 0) {
      const ids = stale.map((w) => w.worker_id);
      // The jobs and the scrape runs of those workers are released together, so a live worker
      // that picks a released job up finds its run released too (and no later step here can
      // mistake the live worker for the dead one).
      const { runs, coverage } = await deps.sql.begin(async (tx) => {
        await tx`select graphile_worker.force_unlock_workers(${tx.array(ids)}::text[])`;
        await tx`delete from worker_heartbeats where worker_id = any(${tx.array(ids)}::text[])`;
        const runs = await tx<ReleasedRun[]>`
          with lost as (select id, worker_id from scrape_runs where status = 'running' and worker_id = any(${tx.array(ids)}::text[]) for update)
          update scrape_runs r set worker_id = null, heartbeat_at = now(), recovered = recovered + 1
          from lost where r.id = lost.id
          returning r.id, r.store_id, lost.worker_id, r.total, (select count(*)::int from scrape_run_zips z where z.run_id = r.id) as done`;
        const coverage = await tx<ReleasedCoverageRun[]>`
          with lost as (select id, worker_id from coverage_runs where status = 'running' and worker_id = any(${tx.array(ids)}::text[]) for update)
          update coverage_runs r set worker_id = null, heartbeat_at = now()
          from lost where r.id = lost.id
          returning r.id, r.store_id, r.kind, lost.worker_id, r.stores_visited, r.stores_planned`;
        return { runs, coverage };
      });
      for (const w of stale)
        helpers.logger.warn(
          `recovered ${w.jobs} job(s) (${w.tasks}) locked by worker ${w.worker_id}, which stopped responding; they run again`,
        );
      for (const run of runs) logResumed(run);
      for (const run of coverage) {
        helpers.logger.warn(
          run.kind === 'visit'
            ? `recovered coverage run ${run.id} (${SCRAPER_NAMES[run.store_id]}): worker ${run.worker_id} stopped responding; the visit day resumes after ${run.stores_visited} of ${run.stores_planned} stores visited`
            : `recovered coverage run ${run.id} (${SCRAPER_NAMES[run.store_id]}): worker ${run.worker_id} stopped responding; the discovery resumes from its saved state`,
        );
      }
    }

    const candidates = await deps.sql<Candidate[]>`
      select r.id, r.store_id, r.status, r.total, r.worker_id,
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
        const why =
          run.job_id === null
            ? 'its job no longer exists'
            : `it failed ${run.attempts} times (${run.last_error?.split('\n')[0] ?? 'no error recorded'})`;
        const [failed] = await deps.sql`
          update scrape_runs set status = 'failed', finished_at = now(), message = ${`Stopped: ${why}; ${progress}.`}
          where id = ${run.id} and status in ('queued', 'running') returning id`;
        if (failed)
          helpers.logger.warn(`recovered scrape run ${run.id} (${name}): marked failed because ${why}; ${progress}`);
        continue;
      }
      // The run's own heartbeat stopped while its worker's did not (or its worker is unknown):
      // release the run, and its job unless a live worker holds it. Both conditions are checked
      // again as the run is claimed, so a worker that has just picked the job up keeps it.
      if (run.locked_by !== null || run.worker_id !== null) {
        const released = await deps.sql.begin(async (tx) => {
          const [claimed] = await tx<ReleasedRun[]>`
            with lost as (
              select id, worker_id from scrape_runs
              where id = ${run.id} and status = 'running' and (heartbeat_at is null or heartbeat_at < now() - ${config.staleMs} * interval '1 millisecond')
              for update)
            update scrape_runs r set worker_id = null, heartbeat_at = now(), recovered = recovered + 1
            from lost where r.id = lost.id
            returning r.id, r.store_id, coalesce(lost.worker_id, ${run.locked_by}) as worker_id, r.total, ${run.done}::int as done`;
          if (!claimed) return null;
          await tx`
            select graphile_worker.force_unlock_workers(array[j.locked_by])
            from graphile_worker._private_jobs j
            left join worker_heartbeats h on h.worker_id = j.locked_by
            where j.key = ${SCRAPE_JOB_KEY_PREFIX + run.id} and j.locked_by is not null and j.locked_by <> ${helpers.job.locked_by ?? ''}
              and ((h.worker_id is not null and h.beat_at < now() - ${config.staleMs} * interval '1 millisecond')
                or (h.worker_id is null and j.locked_at < now() - ${config.staleMs} * interval '1 millisecond'))`;
          return claimed;
        });
        if (released) logResumed(released);
      }
    }

    // Visit days whose chunk cannot run any more (its job is gone, or used up its attempts): the
    // chunk is skipped, and a day with no chunk left is finished with what it visited.
    const chunks = await deps.sql<OpenChunk[]>`
      select r.id, r.store_id, c.chunk, j.id::text as job_id, j.locked_by, j.attempts, j.max_attempts, j.last_error
      from coverage_runs r
      join coverage_chunks c on c.run_id = r.id and c.status in ('queued', 'running')
      left join lateral (
        select j.id, j.locked_by, j.attempts, j.max_attempts, j.last_error
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${VISIT_TASK} and j.payload->>'runId' = r.id::text and j.payload->>'chunk' = c.chunk::text
        limit 1) j on true
      where r.kind = 'visit' and r.status = 'running'
        and (r.heartbeat_at is null or r.heartbeat_at < now() - ${config.staleMs} * interval '1 millisecond')
      order by r.id, c.chunk`;
    const stopped = new Map<number, { store: StoreId; why: string[] }>();
    for (const c of chunks) {
      if (c.job_id !== null && (c.locked_by !== null || (c.attempts ?? 0) < (c.max_attempts ?? 1))) continue;
      const why =
        c.job_id === null
          ? `chunk ${c.chunk}'s job no longer exists`
          : `chunk ${c.chunk} failed ${c.attempts} times (${c.last_error?.split('\n')[0] ?? 'no error recorded'})`;
      const [skipped] = await deps.sql`
        update coverage_chunks set status = 'skipped', finished_at = now() where run_id = ${c.id} and chunk = ${c.chunk} and status in ('queued', 'running') returning 1`;
      if (!skipped) continue;
      const entry = stopped.get(c.id) ?? { store: c.store_id, why: [] };
      entry.why.push(why);
      stopped.set(c.id, entry);
      helpers.logger.warn(
        `recovered coverage run ${c.id} (${SCRAPER_NAMES[c.store_id]}): skipped chunk ${c.chunk} because its job ${c.job_id === null ? 'no longer exists' : 'used up its attempts'}`,
      );
    }
    for (const [id, { store, why }] of stopped) {
      const [open] = await deps.sql<
        Array<{ n: number }>
      >`select count(*)::int as n from coverage_chunks where run_id = ${id} and status in ('queued', 'running')`;
      if (open!.n > 0) continue;
      const status = await finishVisitRun(deps.sql, id, { stopped: `Stopped: ${why.join('; ')}` });
      if (status)
        helpers.logger.warn(
          `recovered coverage run ${id} (${SCRAPER_NAMES[store]}): finished ${status}, no chunk left to run`,
        );
    }
    // A visit day queued a minute ago whose planning job is gone never starts: it is failed.
    const unplanned = await deps.sql<Array<{ id: number; store_id: StoreId }>>`
      update coverage_runs r set status = 'failed', finished_at = now(), message = 'Stopped: its planning job no longer exists.'
      where r.kind = 'visit' and r.status = 'queued' and r.created_at < now() - interval '1 minute'
        and not exists (
          select 1 from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = ${VISIT_DAY_TASK} and j.payload->>'runId' = r.id::text)
      returning r.id, r.store_id`;
    for (const run of unplanned)
      helpers.logger.warn(
        `recovered coverage run ${run.id} (${SCRAPER_NAMES[run.store_id]}): marked failed because its planning job no longer exists`,
      );
  };
}
