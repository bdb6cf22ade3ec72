// One discovery run (coverage_runs, kind 'discover'): a sweep of the run's scope with the
// retailer's own locator (worker/coverage/sweep.ts), the stores it finds written to the directory
// as it goes (src/server/queries/coverage-directory.ts). Chunked: a job asks at most
// `callsPerJob` locator calls, then adds the next job to the retailer's queue (retailerQueue) and
// ends, so the retailer's visit jobs run in between and one request at a time holds across them.
// Resumable: the sweep's state, the stores found and the live counters are written together
// every few calls, so a crash asks again at most those calls. A complete sweep then counts a
// missed sweep for each open store of the scope it did not find, closing at the second in a row.
// Stores answered that cannot be filed (no ZIP code, coordinates or city to place them) are counted
// with their reasons; a sweep that files no store of its scope where the chain has stores (known
// ones, or answered ones it could not file) fails rather than succeeds, and closes nothing.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import {
  coverageScopeSchema,
  discoveryFoundText,
  discoverySkippedText,
  scopeText,
  type CoverageScope,
  type SkippedReason,
} from '#shared/coverage.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import type { TxSql } from '#server/db.ts';
import { scopeSize } from '#server/queries/coverage.ts';
import { recordMissedStores, upsertFoundStores } from '#server/queries/coverage-directory.ts';
import {
  claimDiscoveryRun,
  discoveryRunFigures,
  failSweptDiscoveryRun,
  finishDiscoveryRun,
  lockOwnedDiscoveryRun,
  queueNextDiscoveryJob,
  setCoverageRunDemo,
  succeedDiscoveryRun,
  writeDiscoveryProgress,
} from '#server/queries/coverage-discovery.ts';
import { coverageRunHeartbeat, releaseCoverageRun } from '#server/queries/coverage-visits.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';
import { isSweepState, Sweep, sweepProgress, type ScopeArea, type SweepState } from '../coverage/sweep.ts';
import { sweepSteps } from '../coverage/discover-steps.ts';
import { retailerHttp } from '../egress/job.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import { ScrapeError, type DiscoveredStore, type SkippedStore } from '../scrapers/types.ts';
import { plural } from '#shared/format.ts';

const payloadSchema = z.object({ runId: z.number().int().positive() });

/** Locator calls one job asks before it hands the queue back (about 75 s at the default 1.5 s delay). */
export const DISCOVER_CALLS_PER_JOB = 50;
/** Calls between two writes of the sweep's progress (what a crash may ask again). */
export const DISCOVER_CALLS_PER_WRITE = 10;

/** coverage_runs.state of a discovery run. */
interface RunState {
  sweep: SweepState;
  /** Retailer ids of the stores this run found. */
  found: string[];
  /** Of those, the ones inside the run's scope. */
  inScope: string[];
  /** Stores answered that could not be filed (each id once; an answer without an id each time), with the reason. */
  skipped: SkippedStore[];
  /** Closed stores found again. */
  reopened: number;
}

const runStateSchema = z.object({
  sweep: z.unknown(),
  found: z.array(z.string()),
  inScope: z.array(z.string()).default([]),
  skipped: z.array(z.object({ retailerLocationId: z.string().nullable(), reason: z.string() })).default([]),
  reopened: z.number().int().min(0),
});

/** The skipped stores still not filed (a store skipped in one answer may be filed from another), by reason, most first. */
function skippedFigures(state: RunState, found: ReadonlySet<string>): { stores: number; reasons: SkippedReason[] } {
  const left = state.skipped.filter((s) => s.retailerLocationId === null || !found.has(s.retailerLocationId));
  const byReason = new Map<string, number>();
  for (const s of left) byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + 1);
  const reasons = [...byReason].map(([reason, stores]) => ({ reason, stores }));
  reasons.sort((a, b) => b.stores - a.stores || a.reason.localeCompare(b.reason));
  return { stores: left.length, reasons };
}

class RunLostError extends Error {}

export interface DiscoverOptions {
  callsPerJob?: number;
  callsPerWrite?: number;
}

export function coverageDiscover(deps: WorkerDeps, options: DiscoverOptions = {}): Task {
  const config = scrapeConfig(deps);
  const callsPerJob = options.callsPerJob ?? DISCOVER_CALLS_PER_JOB;
  const callsPerWrite = Math.min(options.callsPerWrite ?? DISCOVER_CALLS_PER_WRITE, callsPerJob);

  return async (payload, helpers) => {
    const { runId } = payloadSchema.parse(payload);
    const workerId = helpers.job.locked_by ?? `pid-${process.pid}`;
    const { sql } = deps;
    const run = await claimDiscoveryRun(sql, runId, workerId);
    if (!run) return; // finished, paused or deleted

    const store = run.store_id;
    const name = SCRAPER_NAMES[store];
    const scraper = SCRAPERS[store];
    const demo = config.origins[store] !== undefined && !config.originsAreRetailers;
    await setCoverageRunDemo(sql, runId, demo);

    const parsedScope = coverageScopeSchema.safeParse(run.scope);
    if (!parsedScope.success || !scraper.discovery) {
      await fail(
        runId,
        workerId,
        parsedScope.success
          ? `${name} has no store locator to discover with`
          : `The run's scope is not valid: ${parsedScope.error.issues[0]?.message ?? 'unknown'}`,
      );
      return;
    }
    const scope: CoverageScope = parsedScope.data;
    try {
      scraper.checkConfig?.(config.credentials);
    } catch (error) {
      if (!(error instanceof ScrapeError)) throw error;
      await fail(runId, workerId, error.message);
      helpers.logger.warn(`discovery run ${runId} (${name}) failed: ${error.message}`);
      return;
    }

    const stored = runStateSchema.safeParse(run.state);
    // A sweep state of an older shape starts the sweep over; what it found is kept.
    const resumed = stored.success && isSweepState(stored.data.sweep);
    const state: RunState = stored.success
      ? { ...stored.data, sweep: stored.data.sweep as SweepState }
      : { sweep: undefined as unknown as SweepState, found: [], inScope: [], skipped: [], reopened: 0 };
    const sweep = new Sweep(scope, scraper.discovery, resumed ? state.sweep : undefined);
    state.sweep = sweep.state;
    const found = new Set(state.found);
    const holds = sweep.area.holds;
    if (!resumed) await save(runId, workerId, state, found, holds, [], [], 0);
    else
      helpers.logger.info(
        `discovery run ${runId} (${name}): resuming after ${plural(sweepProgress(sweep.state).done, 'point')}`,
      );

    const heartbeat = setInterval(() => {
      coverageRunHeartbeat(sql, runId, workerId).catch(() => {});
    }, config.heartbeatMs);
    heartbeat.unref();

    const http = await retailerHttp(deps, store, {
      signal: helpers.abortSignal,
      onEvent: (event) => helpers.logger.info(`discovery run ${runId}: ${event}`),
    });
    const ctx = {
      http,
      maxPages: config.maxPages,
      term: 'eggs',
      credentials: config.credentials,
      signal: helpers.abortSignal,
    };

    let pending: DiscoveredStore[] = [];
    let pendingSkipped: SkippedStore[] = [];
    let pendingCalls = 0;
    let calls = 0;
    try {
      let done = false;
      while (calls < callsPerJob) {
        if (helpers.abortSignal.aborted || deps.shutdown?.aborted)
          throw new ScrapeError('aborted', 'stopped: the worker is shutting down');
        let step: Awaited<ReturnType<typeof sweepSteps>>;
        try {
          step = await sweepSteps(sweep, scraper, ctx, 1);
        } catch (error) {
          if (!(error instanceof ScrapeError) || error.kind === 'aborted') throw error;
          // What was found before the failure stays; the sweep is not complete, so nothing closes.
          await save(runId, workerId, state, found, holds, pending, pendingSkipped, pendingCalls);
          const progress = sweepProgress(sweep.state);
          await finish(
            runId,
            workerId,
            found.size > 0 ? 'partial' : 'failed',
            `${failureText(error)} after ${plural(progress.done, 'point')}; ${plural(found.size, 'store')} found so far`,
          );
          helpers.logger.warn(`discovery run ${runId} (${name}) stopped: ${error.message}`);
          return;
        }
        calls += step.calls;
        pendingCalls += step.calls;
        pending.push(...step.stores);
        pendingSkipped.push(...step.skipped);
        if (step.done) {
          done = true;
          break;
        }
        if (pendingCalls >= callsPerWrite) {
          await save(runId, workerId, state, found, holds, pending, pendingSkipped, pendingCalls);
          pending = [];
          pendingSkipped = [];
          pendingCalls = 0;
        }
      }
      if (done) {
        const outcome = await complete(runId, workerId, store, scope, holds, run.started_at, state, found, {
          stores: pending,
          skipped: pendingSkipped,
          calls: pendingCalls,
        });
        helpers.logger.info(`discovery run ${runId} (${name}) ${outcome}`);
        return;
      }
      // The job's share is asked: the next job goes to the back of the retailer's queue.
      await save(runId, workerId, state, found, holds, pending, pendingSkipped, pendingCalls, store);
    } catch (error) {
      if (error instanceof RunLostError) {
        helpers.logger.warn(`discovery run ${runId} (${name}): taken over by another worker; stopping here`);
        return;
      }
      if (error instanceof ScrapeError && error.kind === 'aborted') {
        // Released cleanly: what was asked since the last write is asked again by the job's retry.
        await releaseCoverageRun(sql, runId, workerId).catch(() => {});
        helpers.logger.info(`discovery run ${runId} (${name}): released at shutdown; it resumes when a worker starts`);
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
      await http
        .flush()
        .catch((error: unknown) =>
          helpers.logger.warn(`discovery run ${runId}: could not record its requests: ${String(error)}`),
        );
    }
  };

  function failureText(error: ScrapeError): string {
    if (error.kind === 'blocked') return `Blocked: ${error.message}`;
    if (error.kind === 'structure') return `The locator's answer was not recognised: ${error.message}`;
    return `The locator failed: ${error.message}`;
  }

  /**
   * Writes found stores and the sweep's progress in one transaction, with the live counters; with
   * `next`, also adds the run's next job to the retailer's queue.
   */
  async function save(
    runId: number,
    workerId: string,
    state: RunState,
    found: Set<string>,
    holds: ScopeArea['holds'],
    stores: DiscoveredStore[],
    skipped: SkippedStore[],
    calls: number,
    next?: StoreId,
  ): Promise<void> {
    await deps.sql.begin(async (tx) => {
      await write(tx, runId, workerId, state, found, holds, { stores, skipped, calls });
      if (next) await queueNextDiscoveryJob(tx, runId, next);
    });
  }

  /** Steps asked since the last write: the stores they filed, the ones they could not, and the calls. */
  interface Batch {
    stores: DiscoveredStore[];
    skipped: SkippedStore[];
    calls: number;
  }

  async function write(
    tx: TxSql,
    runId: number,
    workerId: string,
    state: RunState,
    found: Set<string>,
    holds: ScopeArea['holds'],
    batch: Batch,
  ): Promise<void> {
    const owned = await lockOwnedDiscoveryRun(tx, runId, workerId);
    if (!owned) throw new RunLostError();
    const result = await upsertFoundStores(tx, owned, batch.stores);
    const inScope = new Set(state.inScope);
    for (const store of batch.stores) {
      found.add(store.retailerLocationId);
      if (holds(store)) inScope.add(store.retailerLocationId);
    }
    const skippedIds = new Set(state.skipped.map((s) => s.retailerLocationId));
    for (const s of batch.skipped) {
      if (s.retailerLocationId !== null && skippedIds.has(s.retailerLocationId)) continue;
      skippedIds.add(s.retailerLocationId);
      state.skipped.push(s);
    }
    state.found = [...found];
    state.inScope = [...inScope];
    state.reopened += result.reopened;
    const progress = sweepProgress(state.sweep);
    const skipped = skippedFigures(state, found);
    await writeDiscoveryProgress(tx, runId, {
      state,
      pointsPlanned: progress.planned,
      pointsDone: progress.done,
      calls: batch.calls,
      storesFound: found.size,
      storesInScope: inScope.size,
      storesNew: result.created,
      storesSkipped: skipped.stores,
      skippedReasons: skipped.reasons,
    });
  }

  /**
   * Ends a complete sweep: its last stores written, then either the missed stores of the scope
   * counted (closing at the second missed sweep) and the run succeeded, or, when the sweep filed
   * no store of its scope although the chain has stores there (known ones, or answered ones it
   * could not file), the run failed and nothing closed. Answers the outcome for the log.
   */
  async function complete(
    runId: number,
    workerId: string,
    store: StoreId,
    scope: CoverageScope,
    holds: ScopeArea['holds'],
    startedAt: Date,
    state: RunState,
    found: Set<string>,
    batch: Batch,
  ): Promise<string> {
    return deps.sql.begin(async (tx) => {
      await write(tx, runId, workerId, state, found, holds, batch);
      const skipped = skippedFigures(state, found);
      const run = await discoveryRunFigures(tx, runId);
      const calls = plural(run.locator_calls, 'locator call');
      const skippedPart = skipped.stores > 0 ? `; ${discoverySkippedText(skipped.stores, skipped.reasons)}` : '';
      if (state.inScope.length === 0) {
        const known = await scopeSize(tx, store, scope);
        if (known > 0 || skipped.stores > 0) {
          const why =
            skipped.stores > 0
              ? `the locator answered ${plural(skipped.stores, 'store')} that could not be filed`
              : `${plural(known, 'known store')} ${known === 1 ? 'is' : 'are'} in it`;
          const message =
            `Found no store in ${scopeText(scope)} with ${calls}, although ${why}; nothing was closed` + skippedPart;
          await failSweptDiscoveryRun(tx, runId, workerId, message.slice(0, 2000));
          return `failed: ${message}`;
        }
      }
      const closure = await recordMissedStores(tx, store, startedAt, holds);
      const message =
        `Swept ${scopeText(scope)}: ${discoveryFoundText(found.size, state.inScope.length)} (${run.stores_new.toLocaleString('en-US')} new` +
        (state.reopened > 0 ? `, ${state.reopened.toLocaleString('en-US')} reopened` : '') +
        `) with ${calls}; ${closure.missed.toLocaleString('en-US')} not found` +
        (closure.closed > 0
          ? `, ${closure.closed.toLocaleString('en-US')} closed after ${closure.closed === 1 ? 'its' : 'their'} second missed sweep`
          : '') +
        skippedPart;
      await succeedDiscoveryRun(tx, runId, workerId, { closed: closure.closed, message: message.slice(0, 2000) });
      return `succeeded: ${plural(found.size, 'store')}`;
    });
  }

  async function finish(runId: number, workerId: string, status: 'partial' | 'failed', message: string): Promise<void> {
    await finishDiscoveryRun(deps.sql, runId, workerId, { status, message: message.slice(0, 2000) });
  }

  async function fail(runId: number, workerId: string, message: string): Promise<void> {
    await finish(runId, workerId, 'failed', message);
  }
}
