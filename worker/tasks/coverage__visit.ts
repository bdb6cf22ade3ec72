// One chunk of a visit day (coverage__visit_day planned it), in the retailer's queue: each of the
// chunk's stores not yet written is visited by its retailer id, and the visits are written in
// batches, one statement each (prices, visit rows, last visits, live counters; config.visitBatch:
// up to 10 stores, or what about 2 s of visits gave, so the live counters advance every few
// seconds and a crash loses at most a batch, visited again on resume). Idempotent and resumable:
// a chunk run again (after a crash, a shutdown or a doubled job) visits only the stores it has not
// written. While it
// runs it beats the run's heartbeat. After the chunk, the day's blocked share may pause the plan
// (the remaining chunks are skipped); the last chunk finishes the run.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { BLOCKED_PAUSE_MIN_VISITS, BLOCKED_PAUSE_SHARE, shouldPause } from '#shared/coverage.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import {
  chunkStoresToVisit,
  claimVisitRun,
  dayBlockedShare,
  failVisitRun,
  finishVisitRun,
  lockOwnedVisitRun,
  markChunkDone,
  openChunkCount,
  pauseCoveragePlan,
  pauseVisitRun,
  queueChunkAlerts,
  releaseCoverageRun,
  skipChunkOfEndedRun,
  skipQueuedChunks,
  startVisitChunk,
  coverageRunHeartbeat,
  visitRunProgress,
} from '#server/queries/coverage-visits.ts';
import { PriceChangeNotifier } from '#server/queries/price-writes.ts';
import { DEFAULT_ALERTS, scrapeConfig, type WorkerDeps } from '../deps.ts';
import { retailerHttp } from '../egress/job.ts';
import type { RetailerHttp } from '../scrapers/http.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import {
  commitVisits,
  RunLostError,
  visitStore,
  type DirectoryStore,
  type VisitOutcome,
} from '../scrapers/pipeline.ts';
import { ScrapeError } from '../scrapers/types.ts';
import { plural } from '#shared/format.ts';

const payloadSchema = z.object({ runId: z.number().int().positive(), chunk: z.number().int().min(0) });

export function coverageVisit(deps: WorkerDeps): Task {
  const config = scrapeConfig(deps);
  const alertWindowMinutes = deps.alerts?.immediateWindowMinutes ?? DEFAULT_ALERTS.immediateWindowMinutes;
  return async (payload, helpers) => {
    const { runId, chunk } = payloadSchema.parse(payload);
    const workerId = helpers.job.locked_by ?? `pid-${process.pid}`;
    const { sql } = deps;
    const run = await claimVisitRun(sql, runId, workerId);
    if (!run) {
      // The run is over (paused, failed, finished) or gone: nothing to visit.
      await skipChunkOfEndedRun(sql, runId, chunk);
      return;
    }
    const store = run.store_id;
    const name = SCRAPER_NAMES[store];
    const label = `coverage run ${runId} (${name}) chunk ${chunk}`;
    const planned = await startVisitChunk(sql, runId, chunk);
    if (!planned) return; // done or skipped already (a doubled job)
    const stores = await chunkStoresToVisit(sql, runId, planned.location_ids);
    const left = planned.location_ids.length - stores.length;
    if (left > 0)
      helpers.logger.info(
        `${label}: resuming after ${left} of ${planned.location_ids.length} stores written or closed`,
      );

    const heartbeat = setInterval(() => {
      coverageRunHeartbeat(sql, runId, workerId).catch(() => {});
    }, config.heartbeatMs);
    heartbeat.unref();
    const notifier = new PriceChangeNotifier(sql);
    const scraper = SCRAPERS[store];
    let http: RetailerHttp | null = null;
    try {
      try {
        scraper.checkConfig?.(config.credentials);
      } catch (error) {
        if (!(error instanceof ScrapeError)) throw error;
        await failVisitRun(sql, { runId, chunk, workerId, message: error.message.slice(0, 2000) });
        helpers.logger.warn(`${label} failed: ${error.message}`);
        return;
      }
      http = await retailerHttp(deps, store, {
        signal: helpers.abortSignal,
        onEvent: (event) => helpers.logger.info(`${label}: ${event}`),
      });
      const ctx = {
        http,
        maxPages: config.maxPages,
        term: 'eggs',
        credentials: config.credentials,
        signal: helpers.abortSignal,
      };
      // Visits waiting to be written together (config.visitBatch), with when the first was done.
      const pending: VisitOutcome[] = [];
      let pendingSince = 0;
      const flush = async () => {
        if (pending.length === 0) return;
        const batch = pending.splice(0);
        const written = await commitVisits(sql, {
          runId,
          workerId,
          store,
          chunk,
          outcomes: batch,
          demo: run.demo,
          notifier,
        });
        for (const outcome of batch) {
          const id = outcome.store.retailerLocationId;
          helpers.logger.info(
            outcome.status === 'succeeded'
              ? `${label} store ${id}: ${plural(written.get(outcome.store.id) ?? 0, 'price')} from ${plural(outcome.listingsSeen, 'listing')} in ${plural(outcome.requests, 'request')}`
              : `${label} store ${id} failed (${outcome.kind}): ${outcome.message}`,
          );
        }
      };
      for (const row of stores) {
        if (helpers.abortSignal.aborted || deps.shutdown?.aborted) {
          // The stores visited so far are written; the current one was not started.
          await flush();
          throw new ScrapeError('aborted', 'stopped: the worker is shutting down');
        }
        const directoryStore: DirectoryStore = {
          id: row.id,
          retailerLocationId: row.retailer_location_id,
          zip: row.zip,
          region: row.region,
          name: row.name,
          city: row.city,
          state: row.state,
          address: row.address,
          latitude: row.latitude,
          longitude: row.longitude,
        };
        const visitStarted = Date.now();
        const outcome = await visitStore(scraper, directoryStore, ctx);
        const now = Date.now();
        if (pending.length === 0) pendingSince = visitStarted;
        pending.push(outcome);
        if (
          pending.length >= config.visitBatch.stores ||
          now - pendingSince >= config.visitBatch.ms ||
          now - visitStarted >= config.visitBatch.ms
        )
          await flush();
      }
      await flush();
      const ended = await endChunk(runId, chunk, store, workerId);
      if (ended)
        helpers.logger[ended.startsWith('paused') ? 'warn' : 'info'](`coverage run ${runId} (${name}) ${ended}`);
    } catch (error) {
      if (error instanceof RunLostError) {
        helpers.logger.warn(`${label}: the run was taken over by another worker or is over; stopping here`);
        return;
      }
      if (error instanceof ScrapeError && error.kind === 'aborted') {
        // Released cleanly: the current store was not written; the job's retry resumes the chunk.
        await releaseCoverageRun(sql, runId, workerId).catch(() => {});
        helpers.logger.info(`${label}: released at shutdown; it resumes when a worker starts`);
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
      await http
        ?.flush()
        .catch((error: unknown) => helpers.logger.warn(`${label}: could not record its requests: ${String(error)}`));
      await notifier
        .flush()
        .catch((error: unknown) => helpers.logger.warn(`${label}: could not announce new prices: ${String(error)}`));
    }
  };

  /**
   * The chunk is done: marks it, then pauses the plan when the day's blocked share passes the
   * threshold (skipping the chunks not started), or finishes the run when no chunk is left.
   * Answers what happened to the run, or null when it goes on.
   */
  async function endChunk(runId: number, chunk: number, store: StoreId, workerId: string): Promise<string | null> {
    return deps.sql.begin(async (tx) => {
      const owned = await lockOwnedVisitRun(tx, runId, workerId);
      if (!owned) throw new RunLostError();
      const marked = await markChunkDone(tx, runId, chunk);
      // Immediate price alerts read what the chunk wrote, so they are queued as it commits (never
      // for demo prices, which are not a retailer's). One job per run gathers the chunks that
      // commit within the window: it keeps the run_at of the chunk that queued it, and matches every
      // visit not matched yet when it runs (a chunk committing while it runs queues the next one).
      if (marked) await queueChunkAlerts(tx, runId, chunk, alertWindowMinutes);
      // With several egress tiers, walls below the last one move the retailer up a tier: the day
      // is mostly walls only when its last tier, with nowhere left to go, walls most visits.
      const { tiers } = config.egress.retailers[store];
      const lastTier = tiers.length > 1 ? tiers.at(-1)!.name : null;
      const { visits, blocked } = await dayBlockedShare(tx, store, lastTier);
      if (shouldPause(visits, blocked)) {
        const skipped = await skipQueuedChunks(tx, runId);
        const left = await visitRunProgress(tx, runId);
        const reason =
          `Paused: ${blocked} of today's ${visits} visits of ${SCRAPER_NAMES[store]} stores${lastTier ? ` through its last egress tier (${lastTier})` : ''} were blocked by its bot protection ` +
          `(${Math.round((blocked / visits) * 100)}%; the plan pauses at ${Math.round(BLOCKED_PAUSE_SHARE * 100)}% once ${BLOCKED_PAUSE_MIN_VISITS} visits are made). ` +
          `Save or resume the plan to visit again.`;
        await pauseCoveragePlan(tx, store, reason.slice(0, 1000));
        const message = `${reason} ${left.visited} of ${left.planned} planned stores visited; ${plural(skipped, 'chunk')} skipped.`;
        await pauseVisitRun(tx, runId, message.slice(0, 2000));
        return `paused: ${message}`;
      }
      const open = await openChunkCount(tx, runId);
      if (open > 0) return null;
      const status = await finishVisitRun(tx, runId, { workerId });
      return status ? `finished: ${status}` : null;
    });
  }
}
