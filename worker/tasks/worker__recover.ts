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
import { finishVisitRun, openChunkCount } from '#server/queries/coverage-visits.ts';
import {
  failStalledScrapeRun,
  failUnplannedVisitDays,
  releaseStaleWorkers,
  releaseStalledScrapeRun,
  skipOpenChunk,
  stalledScrapeRuns,
  stalledVisitChunks,
  staleWorkers,
  type ReleasedRun,
} from '#server/queries/worker-recovery.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';

/** A job held this long by a worker that never registered a heartbeat is taken to be abandoned. */
const UNKNOWN_WORKER_MS = 30 * 60_000;

export function workerRecover(deps: WorkerDeps): Task {
  const config = scrapeConfig(deps);
  return async (_payload, helpers) => {
    const logResumed = (run: ReleasedRun) =>
      helpers.logger.warn(
        `recovered scrape run ${run.id} (${SCRAPER_NAMES[run.store_id]}): worker ${run.worker_id ?? 'unknown'} stopped responding; the run resumes after ${run.done} of ${run.total} ZIP codes written`,
      );
    const self = helpers.job.locked_by ?? '';
    const stale = await staleWorkers(deps.sql, { self, staleMs: config.staleMs, unknownMs: UNKNOWN_WORKER_MS });
    if (stale.length > 0) {
      const ids = stale.map((w) => w.worker_id);
      // The jobs and the scrape runs of those workers are released together, so a live worker
      // that picks a released job up finds its run released too (and no later step here can
      // mistake the live worker for the dead one).
      const { runs, coverage } = await releaseStaleWorkers(deps.sql, ids);
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

    const candidates = await stalledScrapeRuns(deps.sql, config.staleMs);
    for (const run of candidates) {
      const name = SCRAPER_NAMES[run.store_id];
      const progress = `${run.done} of ${run.total} ZIP codes written`;
      if (run.job_id === null || (run.locked_by === null && (run.attempts ?? 0) >= (run.max_attempts ?? 1))) {
        const why =
          run.job_id === null
            ? 'its job no longer exists'
            : `it failed ${run.attempts} times (${run.last_error?.split('\n')[0] ?? 'no error recorded'})`;
        const failed = await failStalledScrapeRun(deps.sql, run.id, `Stopped: ${why}; ${progress}.`);
        if (failed)
          helpers.logger.warn(`recovered scrape run ${run.id} (${name}): marked failed because ${why}; ${progress}`);
        continue;
      }
      // The run's own heartbeat stopped while its worker's did not (or its worker is unknown):
      // release the run, and its job unless a live worker holds it. Both conditions are checked
      // again as the run is claimed, so a worker that has just picked the job up keeps it.
      if (run.locked_by !== null || run.worker_id !== null) {
        const released = await releaseStalledScrapeRun(
          deps.sql,
          { id: run.id, lockedBy: run.locked_by, done: run.done },
          { self, staleMs: config.staleMs },
        );
        if (released) logResumed(released);
      }
    }

    // Visit days whose chunk cannot run any more (its job is gone, or used up its attempts): the
    // chunk is skipped, and a day with no chunk left is finished with what it visited.
    const chunks = await stalledVisitChunks(deps.sql, config.staleMs);
    const stopped = new Map<number, { store: StoreId; why: string[] }>();
    for (const c of chunks) {
      if (c.job_id !== null && (c.locked_by !== null || (c.attempts ?? 0) < (c.max_attempts ?? 1))) continue;
      const why =
        c.job_id === null
          ? `chunk ${c.chunk}'s job no longer exists`
          : `chunk ${c.chunk} failed ${c.attempts} times (${c.last_error?.split('\n')[0] ?? 'no error recorded'})`;
      const skipped = await skipOpenChunk(deps.sql, c.id, c.chunk);
      if (!skipped) continue;
      const entry = stopped.get(c.id) ?? { store: c.store_id, why: [] };
      entry.why.push(why);
      stopped.set(c.id, entry);
      helpers.logger.warn(
        `recovered coverage run ${c.id} (${SCRAPER_NAMES[c.store_id]}): skipped chunk ${c.chunk} because its job ${c.job_id === null ? 'no longer exists' : 'used up its attempts'}`,
      );
    }
    for (const [id, { store, why }] of stopped) {
      const open = await openChunkCount(deps.sql, id);
      if (open > 0) continue;
      const status = await finishVisitRun(deps.sql, id, { stopped: `Stopped: ${why.join('; ')}` });
      if (status)
        helpers.logger.warn(
          `recovered coverage run ${id} (${SCRAPER_NAMES[store]}): finished ${status}, no chunk left to run`,
        );
    }
    // A visit day queued a minute ago whose planning job is gone never starts: it is failed.
    const unplanned = await failUnplannedVisitDays(deps.sql);
    for (const run of unplanned)
      helpers.logger.warn(
        `recovered coverage run ${run.id} (${SCRAPER_NAMES[run.store_id]}): marked failed because its planning job no longer exists`,
      );
  };
}
