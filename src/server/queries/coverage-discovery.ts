// A discovery run (coverage_runs, kind 'discover') as its worker task (worker/tasks/coverage__discover.ts)
// moves it along: claimed and marked running, its sweep's state and live counters written with the
// stores it found (coverage-directory.ts files those), its next job queued in the retailer's
// queue, and its end (succeeded, partial or failed). The heartbeat and the release at shutdown are
// coverage-visits.ts's coverageRunHeartbeat and releaseCoverageRun.
import { retailerQueue } from '#shared/coverage.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';

/**
 * Marks a queued or running discovery run as running under this worker; answers its retailer,
 * scope, saved sweep state and start. Null when it is finished, paused or gone.
 */
export async function claimDiscoveryRun(
  sql: Db,
  runId: number,
  workerId: string,
): Promise<{ store_id: StoreId; scope: unknown; state: unknown; started_at: Date } | null> {
  const [run] = await sql<Array<{ store_id: StoreId; scope: unknown; state: unknown; started_at: Date }>>`
      update coverage_runs set status = 'running', started_at = coalesce(started_at, now()), heartbeat_at = now(), worker_id = ${workerId}
      where id = ${runId} and kind = 'discover' and status in ('queued', 'running')
      returning store_id, scope, state, started_at`;
  return run ?? null;
}

/** Whether the run asks the retailer stand-in (demo) rather than the retailer. */
export async function setCoverageRunDemo(sql: Db, runId: number, demo: boolean): Promise<void> {
  await sql`update coverage_runs set demo = ${demo} where id = ${runId}`;
}

/** Adds the run's next discovery job to the retailer's queue (call in the transaction that saves it). */
export async function queueNextDiscoveryJob(tx: Db, runId: number, store: StoreId): Promise<void> {
  await tx`select graphile_worker.add_job('coverage__discover', json_build_object('runId', ${runId}::int), queue_name := ${retailerQueue(store)}, max_attempts := 10)`;
}

/** Locks the run if it is still running under this worker; answers its retailer, else null. */
export async function lockOwnedDiscoveryRun(tx: Db, runId: number, workerId: string): Promise<StoreId | null> {
  const [owned] = await tx<Array<{ store_id: StoreId }>>`
      select store_id from coverage_runs where id = ${runId} and worker_id = ${workerId} and status = 'running' for update`;
  return owned?.store_id ?? null;
}

export interface DiscoveryProgress {
  /** The sweep's state, saved as JSON so the run resumes from it. */
  state: unknown;
  pointsPlanned: number;
  pointsDone: number;
  /** Locator calls since the last write (added to the run's count). */
  calls: number;
  storesFound: number;
  storesInScope: number;
  /** Stores created since the last write (added to the run's count). */
  storesNew: number;
  storesSkipped: number;
  skippedReasons: unknown;
}

/** Writes the run's sweep state and live counters. */
export async function writeDiscoveryProgress(tx: Db, runId: number, p: DiscoveryProgress): Promise<void> {
  await tx`
      update coverage_runs set state = ${tx.json(p.state as never)}, heartbeat_at = now(),
        points_planned = ${p.pointsPlanned}, points_done = ${p.pointsDone}, locator_calls = locator_calls + ${p.calls},
        stores_found = ${p.storesFound}, stores_in_scope = ${p.storesInScope}, stores_new = stores_new + ${p.storesNew},
        stores_skipped = ${p.storesSkipped}, skipped_reasons = ${tx.json(p.skippedReasons as never)}
      where id = ${runId}`;
}

/** The run's new stores and locator calls so far. */
export async function discoveryRunFigures(
  tx: Db,
  runId: number,
): Promise<{ stores_new: number; locator_calls: number }> {
  const [run] = await tx<
    Array<{ stores_new: number; locator_calls: number }>
  >`select stores_new, locator_calls from coverage_runs where id = ${runId}`;
  return run!;
}

/** A complete sweep that filed no store of its scope where the chain has stores: the run failed. */
export async function failSweptDiscoveryRun(tx: Db, runId: number, workerId: string, message: string): Promise<void> {
  await tx`
            update coverage_runs set status = 'failed', message = ${message}, finished_at = now(), heartbeat_at = now()
            where id = ${runId} and worker_id = ${workerId}`;
}

/** A complete sweep succeeded, having closed this many stores. */
export async function succeedDiscoveryRun(
  tx: Db,
  runId: number,
  workerId: string,
  { closed, message }: { closed: number; message: string },
): Promise<void> {
  await tx`
        update coverage_runs set status = 'succeeded', stores_closed = ${closed}, message = ${message},
          finished_at = now(), heartbeat_at = now()
        where id = ${runId} and worker_id = ${workerId}`;
}

/** Ends a run still running under this worker as partial or failed, with this message. */
export async function finishDiscoveryRun(
  sql: Db,
  runId: number,
  workerId: string,
  { status, message }: { status: 'partial' | 'failed'; message: string },
): Promise<void> {
  await sql`
      update coverage_runs set status = ${status}, message = ${message}, finished_at = now(), heartbeat_at = now()
      where id = ${runId} and worker_id = ${workerId} and status = 'running'`;
}
