// Worker liveness and recovery in the database: the heartbeats of a process's job-runner pools
// (worker/liveness.ts), the jobs a runner hands back when it stops or loses the database
// (worker/index.ts), and what worker__recover finds and releases after a dead worker: its locked
// jobs, its scrape and coverage runs, stalled runs, visit chunks whose job cannot run any more,
// and visit days whose planning job is gone.
import type { StoreId } from '#shared/vocabulary.ts';
import type { Sql } from '../db.ts';
import { VISIT_DAY_TASK, VISIT_TASK } from './coverage-visits.ts';
import { SCRAPE_JOB_KEY_PREFIX } from './scrape.ts';

/** Beats (inserts or refreshes) the heartbeats of these pool ids, under this process's pid. */
export async function beatWorkers(sql: Sql, ids: string[]): Promise<void> {
  await sql`
      insert into worker_heartbeats (worker_id, pid, beat_at)
      select id, ${process.pid}, now() from unnest(${sql.array(ids)}::text[]) as id
      on conflict (worker_id) do update set beat_at = now(), pid = excluded.pid`;
}

/** Removes one pool's heartbeat (the pool is released). */
export async function forgetWorker(sql: Sql, id: string): Promise<void> {
  await sql`delete from worker_heartbeats where worker_id = ${id}`;
}

/** Removes these pools' heartbeats (the process stops). */
export async function forgetWorkers(sql: Sql, ids: string[]): Promise<void> {
  await sql`delete from worker_heartbeats where worker_id = any(${sql.array(ids)}::text[])`;
}

/** Whether the database answers (throws when it does not). */
export async function pingDatabase(sql: Sql): Promise<void> {
  await sql`select 1`;
}

/**
 * In one transaction, unlocks every job these pools hold and removes their heartbeats (a runner
 * replaced after losing the database). Answers how many jobs they held.
 */
export function releaseRunnerJobs(sql: Sql, ids: string[]): Promise<number> {
  return sql.begin(async (tx) => {
    const [held] = await tx<{ n: number }[]>`
          select count(*)::int as n from graphile_worker._private_jobs where locked_by = any(${tx.array(ids)}::text[])`;
    await tx`select graphile_worker.force_unlock_workers(${tx.array(ids)}::text[])`;
    await tx`delete from worker_heartbeats where worker_id = any(${tx.array(ids)}::text[])`;
    return held!.n;
  });
}

/**
 * In one transaction, unlocks the jobs these pools hold (at shutdown, so the next worker runs them
 * at once). Answers the jobs handed back, with their task.
 */
export function handBackJobs(sql: Sql, ids: string[]): Promise<Array<{ id: string; task: string }>> {
  return sql.begin(async (tx) => {
    const held = await tx<{ id: string; task: string }[]>`
        select j.id::text, t.identifier as task from graphile_worker._private_jobs j
        join graphile_worker._private_tasks t on t.id = j.task_id
        where j.locked_by = any(${tx.array(ids)}::text[])`;
    if (held.length > 0) await tx`select graphile_worker.force_unlock_workers(${tx.array(ids)}::text[])`;
    return held;
  });
}

export interface StaleWorker {
  worker_id: string;
  jobs: number;
  tasks: string;
}

/**
 * The workers (other than self) holding jobs whose heartbeat is older than staleMs, or that never
 * beat and locked a job more than unknownMs ago, with how many jobs they hold and of which tasks.
 */
export async function staleWorkers(
  sql: Sql,
  { self, staleMs, unknownMs }: { self: string; staleMs: number; unknownMs: number },
): Promise<StaleWorker[]> {
  return sql<StaleWorker[]>`
      select j.locked_by as worker_id, count(*)::int as jobs, string_agg(distinct t.identifier, ', ') as tasks
      from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id
      left join worker_heartbeats h on h.worker_id = j.locked_by
      where j.locked_by is not null and j.locked_by <> ${self}
        and ((h.worker_id is not null and h.beat_at < now() - ${staleMs} * interval '1 millisecond')
          or (h.worker_id is null and j.locked_at < now() - ${unknownMs} * interval '1 millisecond'))
      group by j.locked_by`;
}

export interface ReleasedRun {
  id: number;
  store_id: StoreId;
  worker_id: string | null;
  total: number;
  done: number;
}

export interface ReleasedCoverageRun {
  id: number;
  store_id: StoreId;
  kind: 'discover' | 'visit';
  worker_id: string;
  stores_visited: number;
  stores_planned: number;
}

/**
 * Releases dead workers in one transaction: their jobs are unlocked, their heartbeats removed, and
 * their running scrape and coverage runs go back to no worker, so a live worker that picks a
 * released job up finds its run released too. Answers the runs released.
 */
export function releaseStaleWorkers(
  sql: Sql,
  ids: string[],
): Promise<{ runs: ReleasedRun[]; coverage: ReleasedCoverageRun[] }> {
  return sql.begin(async (tx) => {
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
}

export interface StalledScrapeRun {
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

/**
 * Scrape runs that may need recovering, with their job: running ones whose own heartbeat is older
 * than staleMs, and queued ones created more than a minute ago that have no job.
 */
export async function stalledScrapeRuns(sql: Sql, staleMs: number): Promise<StalledScrapeRun[]> {
  return sql<StalledScrapeRun[]>`
      select r.id, r.store_id, r.status, r.total, r.worker_id,
             (select count(*)::int from scrape_run_zips z where z.run_id = r.id) as done,
             j.id::text as job_id, j.locked_by, j.attempts, j.max_attempts, j.last_error
      from scrape_runs r
      left join graphile_worker.jobs j on j.key = ${SCRAPE_JOB_KEY_PREFIX} || r.id
      where (r.status = 'running' and (r.heartbeat_at is null or r.heartbeat_at < now() - ${staleMs} * interval '1 millisecond'))
         or (r.status = 'queued' and r.created_at < now() - interval '1 minute' and j.id is null)`;
}

/** Marks a queued or running scrape run failed with this message; false when it was over already. */
export async function failStalledScrapeRun(sql: Sql, runId: number, message: string): Promise<boolean> {
  const [failed] = await sql`
          update scrape_runs set status = 'failed', finished_at = now(), message = ${message}
          where id = ${runId} and status in ('queued', 'running') returning id`;
  return failed !== undefined;
}

/**
 * In one transaction, releases a running scrape run whose heartbeat is (still) older than staleMs,
 * and unlocks its job unless a live worker (or self) holds it. Null when the run was not stalled
 * any more (a worker has just picked it up).
 */
export function releaseStalledScrapeRun(
  sql: Sql,
  run: { id: number; lockedBy: string | null; done: number },
  { self, staleMs }: { self: string; staleMs: number },
): Promise<ReleasedRun | null> {
  return sql.begin(async (tx) => {
    const [claimed] = await tx<ReleasedRun[]>`
            with lost as (
              select id, worker_id from scrape_runs
              where id = ${run.id} and status = 'running' and (heartbeat_at is null or heartbeat_at < now() - ${staleMs} * interval '1 millisecond')
              for update)
            update scrape_runs r set worker_id = null, heartbeat_at = now(), recovered = recovered + 1
            from lost where r.id = lost.id
            returning r.id, r.store_id, coalesce(lost.worker_id, ${run.lockedBy}) as worker_id, r.total, ${run.done}::int as done`;
    if (!claimed) return null;
    await tx`
            select graphile_worker.force_unlock_workers(array[j.locked_by])
            from graphile_worker._private_jobs j
            left join worker_heartbeats h on h.worker_id = j.locked_by
            where j.key = ${SCRAPE_JOB_KEY_PREFIX + run.id} and j.locked_by is not null and j.locked_by <> ${self}
              and ((h.worker_id is not null and h.beat_at < now() - ${staleMs} * interval '1 millisecond')
                or (h.worker_id is null and j.locked_at < now() - ${staleMs} * interval '1 millisecond'))`;
    return claimed;
  });
}

export interface OpenChunk {
  id: number;
  store_id: StoreId;
  chunk: number;
  job_id: string | null;
  locked_by: string | null;
  attempts: number | null;
  max_attempts: number | null;
  last_error: string | null;
}

/** The open chunks of running visit days whose heartbeat is older than staleMs, with their job. */
export async function stalledVisitChunks(sql: Sql, staleMs: number): Promise<OpenChunk[]> {
  return sql<OpenChunk[]>`
      select r.id, r.store_id, c.chunk, j.id::text as job_id, j.locked_by, j.attempts, j.max_attempts, j.last_error
      from coverage_runs r
      join coverage_chunks c on c.run_id = r.id and c.status in ('queued', 'running')
      left join lateral (
        select j.id, j.locked_by, j.attempts, j.max_attempts, j.last_error
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${VISIT_TASK} and j.payload->>'runId' = r.id::text and j.payload->>'chunk' = c.chunk::text
        limit 1) j on true
      where r.kind = 'visit' and r.status = 'running'
        and (r.heartbeat_at is null or r.heartbeat_at < now() - ${staleMs} * interval '1 millisecond')
      order by r.id, c.chunk`;
}

/** Skips an open chunk of a visit day; false when it was not open any more. */
export async function skipOpenChunk(sql: Sql, runId: number, chunk: number): Promise<boolean> {
  const [skipped] = await sql`
        update coverage_chunks set status = 'skipped', finished_at = now() where run_id = ${runId} and chunk = ${chunk} and status in ('queued', 'running') returning 1`;
  return skipped !== undefined;
}

/** Fails the visit days queued more than a minute ago whose planning job is gone; answers them. */
export async function failUnplannedVisitDays(sql: Sql): Promise<Array<{ id: number; store_id: StoreId }>> {
  return sql<Array<{ id: number; store_id: StoreId }>>`
      update coverage_runs r set status = 'failed', finished_at = now(), message = 'Stopped: its planning job no longer exists.'
      where r.kind = 'visit' and r.status = 'queued' and r.created_at < now() - interval '1 minute'
        and not exists (
          select 1 from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
          where t.identifier = ${VISIT_DAY_TASK} and j.payload->>'runId' = r.id::text)
      returning r.id, r.store_id`;
}
