// One discovery run (coverage_runs, kind 'discover'): a sweep of the run's scope with the
// retailer's own locator (worker/coverage/sweep.ts), the stores it finds written to the directory
// as it goes (src/server/queries/coverage-directory.ts). Chunked: a job asks at most
// `callsPerJob` locator calls, then adds the next job to the retailer's queue (retailerQueue) and
// ends, so the retailer's visit jobs run in between and one request at a time holds across them.
// Resumable: the sweep's state, the stores found and the live counters are written together
// every few calls, so a crash asks again at most those calls. A complete sweep then counts a
// missed sweep for each open store of the scope it did not find, closing at the second in a row.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { coverageScopeSchema, retailerQueue, scopeText, type CoverageScope } from '#shared/coverage.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import type { TxSql } from '#server/db.ts';
import { recordMissedStores, upsertFoundStores } from '#server/queries/coverage-directory.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';
import { Sweep, sweepProgress, type ScopeArea, type SweepState } from '../coverage/sweep.ts';
import { sweepSteps } from '../coverage/discover-steps.ts';
import { RetailerHttp } from '../scrapers/http.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import { ScrapeError, type DiscoveredStore } from '../scrapers/types.ts';

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
  /** Closed stores found again. */
  reopened: number;
}

const runStateSchema = z.object({
  sweep: z.looseObject({ kind: z.enum(['area', 'ids']) }),
  found: z.array(z.string()),
  reopened: z.number().int().min(0),
});

class RunLostError extends Error {}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

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
    const [run] = await sql<Array<{ store_id: StoreId; scope: unknown; state: unknown; started_at: Date }>>`
      update coverage_runs set status = 'running', started_at = coalesce(started_at, now()), heartbeat_at = now(), worker_id = ${workerId}
      where id = ${runId} and kind = 'discover' and status in ('queued', 'running')
      returning store_id, scope, state, started_at`;
    if (!run) return; // finished, paused or deleted

    const store = run.store_id;
    const name = SCRAPER_NAMES[store];
    const scraper = SCRAPERS[store];
    const demo = config.origins[store] !== undefined && !config.originsAreRetailers;
    await sql`update coverage_runs set demo = ${demo} where id = ${runId}`;

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
    const state: RunState = stored.success
      ? (stored.data as unknown as RunState)
      : { sweep: undefined as unknown as SweepState, found: [], reopened: 0 };
    const sweep = new Sweep(scope, scraper.discovery, stored.success ? state.sweep : undefined);
    state.sweep = sweep.state;
    const found = new Set(state.found);
    if (!stored.success) await save(runId, workerId, state, found, [], 0);
    else
      helpers.logger.info(
        `discovery run ${runId} (${name}): resuming after ${plural(sweepProgress(sweep.state).done, 'point')}`,
      );

    const heartbeat = setInterval(() => {
      sql`update coverage_runs set heartbeat_at = now() where id = ${runId} and worker_id = ${workerId}`.catch(
        () => {},
      );
    }, config.heartbeatMs);
    heartbeat.unref();

    const http = new RetailerHttp(name, scraper.origins, {
      ...config.http,
      originOverride: config.origins[store],
      // (the previous job of the retailer's queue may have just sent its last request)
      spacedFromStart: true,
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
          await save(runId, workerId, state, found, pending, pendingCalls);
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
        if (step.done) {
          done = true;
          break;
        }
        if (pendingCalls >= callsPerWrite) {
          await save(runId, workerId, state, found, pending, pendingCalls);
          pending = [];
          pendingCalls = 0;
        }
      }
      if (done) {
        await complete(
          runId,
          workerId,
          store,
          scope,
          sweep.area.holds,
          run.started_at,
          state,
          found,
          pending,
          pendingCalls,
        );
        helpers.logger.info(`discovery run ${runId} (${name}) succeeded: ${plural(found.size, 'store')}`);
        return;
      }
      // The job's share is asked: the next job goes to the back of the retailer's queue.
      await save(runId, workerId, state, found, pending, pendingCalls, store);
    } catch (error) {
      if (error instanceof RunLostError) {
        helpers.logger.warn(`discovery run ${runId} (${name}): taken over by another worker; stopping here`);
        return;
      }
      if (error instanceof ScrapeError && error.kind === 'aborted') {
        // Released cleanly: what was asked since the last write is asked again by the job's retry.
        await sql`update coverage_runs set worker_id = null where id = ${runId} and worker_id = ${workerId}`.catch(
          () => {},
        );
        helpers.logger.info(`discovery run ${runId} (${name}): released at shutdown; it resumes when a worker starts`);
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
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
    stores: DiscoveredStore[],
    calls: number,
    next?: StoreId,
  ): Promise<void> {
    await deps.sql.begin(async (tx) => {
      await write(tx, runId, workerId, state, found, stores, calls);
      if (next) {
        await tx`select graphile_worker.add_job('coverage__discover', json_build_object('runId', ${runId}::int), queue_name := ${retailerQueue(next)}, max_attempts := 10)`;
      }
    });
  }

  async function write(
    tx: TxSql,
    runId: number,
    workerId: string,
    state: RunState,
    found: Set<string>,
    stores: DiscoveredStore[],
    calls: number,
  ): Promise<number> {
    const [owned] = await tx<Array<{ store_id: StoreId }>>`
      select store_id from coverage_runs where id = ${runId} and worker_id = ${workerId} and status = 'running' for update`;
    if (!owned) throw new RunLostError();
    const result = await upsertFoundStores(tx, owned.store_id, stores);
    for (const store of stores) found.add(store.retailerLocationId);
    state.found = [...found];
    state.reopened += result.reopened;
    const progress = sweepProgress(state.sweep);
    await tx`
      update coverage_runs set state = ${tx.json(state as never)}, heartbeat_at = now(),
        points_planned = ${progress.planned}, points_done = ${progress.done}, locator_calls = locator_calls + ${calls},
        stores_found = ${found.size}, stores_new = stores_new + ${result.created}
      where id = ${runId}`;
    return result.created;
  }

  async function complete(
    runId: number,
    workerId: string,
    store: StoreId,
    scope: CoverageScope,
    inScope: ScopeArea['holds'],
    startedAt: Date,
    state: RunState,
    found: Set<string>,
    stores: DiscoveredStore[],
    calls: number,
  ): Promise<void> {
    await deps.sql.begin(async (tx) => {
      await write(tx, runId, workerId, state, found, stores, calls);
      const closure = await recordMissedStores(tx, store, startedAt, inScope);
      const [run] = await tx<
        Array<{ stores_new: number; locator_calls: number }>
      >`select stores_new, locator_calls from coverage_runs where id = ${runId}`;
      const message =
        `Swept ${scopeText(scope)}: ${plural(found.size, 'store')} found (${run!.stores_new.toLocaleString('en-US')} new` +
        (state.reopened > 0 ? `, ${state.reopened.toLocaleString('en-US')} reopened` : '') +
        `) with ${plural(run!.locator_calls, 'locator call')}; ${closure.missed.toLocaleString('en-US')} not found` +
        (closure.closed > 0
          ? `, ${closure.closed.toLocaleString('en-US')} closed after ${closure.closed === 1 ? 'its' : 'their'} second missed sweep`
          : '');
      await tx`
        update coverage_runs set status = 'succeeded', stores_closed = ${closure.closed}, message = ${message.slice(0, 2000)},
          finished_at = now(), heartbeat_at = now()
        where id = ${runId} and worker_id = ${workerId}`;
    });
  }

  async function finish(runId: number, workerId: string, status: 'partial' | 'failed', message: string): Promise<void> {
    await deps.sql`
      update coverage_runs set status = ${status}, message = ${message.slice(0, 2000)}, finished_at = now(), heartbeat_at = now()
      where id = ${runId} and worker_id = ${workerId} and status = 'running'`;
  }

  async function fail(runId: number, workerId: string, message: string): Promise<void> {
    await finish(runId, workerId, 'failed', message);
  }
}
