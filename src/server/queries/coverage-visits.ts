// A coverage plan's visit day in the database: which stores are due (planDueStores), the day's
// chunks, a batch of a chunk's store visits written in one statement (writeVisits: their prices,
// their coverage_visits rows, their last visits on store_locations and the run's live counters),
// the day's blocked share, and the end of a run (finishVisitRun). The tasks are worker/tasks/coverage__*.ts.
//
// The run's counters: stores_visited counts every visit written (succeeded or failed),
// stores_failed the failed ones (blocked ones included) and stores_blocked those a bot wall
// answered; requests every request the visits sent.
import { retailerQueue, type CoverageScope } from '#shared/coverage.ts';
import type { Region, StoreId } from '#shared/vocabulary.ts';
import type { Db, Sql } from '../db.ts';
import { scopeFilter } from './coverage.ts';
import { durability, priceWriteCtes, type ListingWrite, type ObservationSource } from './price-writes.ts';
import { plural } from '#shared/format.ts';

export const VISIT_TASK = 'coverage__visit';
export const VISIT_DAY_TASK = 'coverage__visit_day';
export const VISIT_JOB_MAX_ATTEMPTS = 10;
/** The job key of a visit run's chunk: the prefix, then the chunk's number. */
export const visitJobKeyPrefix = (runId: number) => `coverage-visit:${runId}:`;
export const visitJobKey = (runId: number, chunk: number) => `${visitJobKeyPrefix(runId)}${chunk}`;

export interface VisitWrite {
  runId: number;
  storeId: string;
  /** store_locations.id of the store visited */
  locationId: number;
  chunk: number;
  status: 'succeeded' | 'failed';
  /** Why it failed (blocked, structure, http, no-store, config, rate-limited); null when it succeeded. */
  kind: string | null;
  message: string | null;
  startedAt: Date;
  requests: number;
  listingsSeen: number;
  listings: ListingWrite[];
  /** The egress tier the visit's last request went through (null when it sent none). */
  egressTier?: string | null;
  source: ObservationSource;
  /** Written only while the run is running under this worker (the run row is locked meanwhile). */
  ownerWorkerId: string;
  /** The caller tells web processes of the new prices itself (PriceChangeNotifier). */
  deferNotify?: boolean;
}

export type VisitWriteResult = { observations: number } | 'already-written' | 'not-owner';

/**
 * Writes one store's visit in a single statement (so atomic on its own): its products and
 * observations (price-writes.ts, as a scrape writes them), its coverage_visits row, its last visit on
 * store_locations (and last_priced_at when it gave prices) and the run's counters.
 * 'already-written' when the run has this store's visit already (a chunk run again), 'not-owner'
 * when the run is no longer running under this worker: then nothing is written. (writeVisits with
 * one visit.)
 */
export async function writeVisit(sql: Db, write: VisitWrite): Promise<VisitWriteResult> {
  const result = await writeVisits(sql, { ...write, visits: [write] });
  if (result === 'not-owner') return 'not-owner';
  const observations = result.written.get(write.locationId);
  return observations === undefined ? 'already-written' : { observations };
}

/** A batch of one run's visits (of one chunk), written together by writeVisits. */
export interface VisitBatchWrite {
  runId: number;
  storeId: string;
  chunk: number;
  source: ObservationSource;
  /** Written only while the run is running under this worker (the run row is locked meanwhile). */
  ownerWorkerId: string;
  /** The caller tells web processes of the new prices itself (PriceChangeNotifier). */
  deferNotify?: boolean;
  /** One per store, each store at most once. */
  visits: Array<
    Pick<
      VisitWrite,
      | 'locationId'
      | 'status'
      | 'kind'
      | 'message'
      | 'startedAt'
      | 'requests'
      | 'listingsSeen'
      | 'listings'
      | 'egressTier'
    >
  >;
}

/** The stores written (location id to its observations written); a store left out was written already. */
export type VisitsWriteResult = { written: Map<number, number> } | 'not-owner';

/**
 * Writes a batch of a run's store visits in a single statement, so all of them or none: each
 * store's products and observations, its coverage_visits row and last visit, and the run's counters
 * for the batch. A store the run has written already (a chunk run again) is left out, and the
 * others are written; 'not-owner' (nothing written) when the run is no longer running under this
 * worker. A product listed by several stores of the batch takes the last store's title and details,
 * as visits written one after another would leave it. The run's live counters move once per batch.
 */
export async function writeVisits(sql: Db, batch: VisitBatchWrite): Promise<VisitsWriteResult> {
  const { runId, storeId, chunk, source } = batch;
  const locations = batch.visits.map((v) => v.locationId);
  if (new Set(locations).size !== locations.length) throw new Error('writeVisits: a store is twice in the batch');
  const visits = batch.visits.map((v) => {
    const listings = v.status === 'succeeded' ? v.listings : [];
    return {
      ...v,
      listings,
      kind: v.status === 'failed' ? (v.kind?.slice(0, 40) ?? null) : null,
      message: v.message?.slice(0, 1000) ?? null,
    };
  });
  const col = <T>(pick: (v: (typeof visits)[number]) => T) => visits.map(pick);
  const rows = visits.flatMap((v) => v.listings.map((listing) => ({ locationId: v.locationId, ...listing })));
  const [row] = await sql<Array<{ written: Array<[number, number]>; owned: boolean; commit_mode: string }>>`
    with owner as (
      select id from coverage_runs
      where id = ${runId} and kind = 'visit' and status = 'running' and worker_id = ${batch.ownerWorkerId}
      for update
    ), input as (
      select * from unnest(
        ${sql.array(col((v) => v.locationId))}::int[], ${sql.array(col((v) => v.status))}::text[],
        ${sql.array(col((v) => v.kind))}::text[], ${sql.array(col((v) => v.message))}::text[],
        ${sql.array(col((v) => v.listings.length > 0))}::boolean[], ${sql.array(col((v) => v.requests))}::int[],
        ${sql.array(col((v) => v.listingsSeen))}::int[], ${sql.array(col((v) => v.listings.length))}::int[],
        ${sql.array(col((v) => v.startedAt.toISOString()))}::timestamptz[],
        ${sql.array(col((v) => v.egressTier?.slice(0, 40) ?? null))}::text[]
      ) as t(location_id, status, kind, message, priced, requests, listings_seen, accepted, started_at, egress_tier)
    ), loc as (
      update store_locations l set
        last_visit_at = now(), last_visit_status = i.status, last_visit_kind = i.kind, last_visit_message = i.message,
        last_priced_at = case when i.priced then now() else l.last_priced_at end, updated_at = now()
      from input i
      where l.id = i.location_id and l.store_id = ${storeId}
        and exists (select 1 from owner)
        and not exists (select 1 from coverage_visits v where v.run_id = ${runId} and v.location_id = i.location_id)
      returning l.id
    ), ${priceWriteCtes(sql, { storeId, locatedListings: rows, scrapeRunId: null, source })}, observed as (
      select location_id, count(*) as n from observation group by location_id
    ), visit as (
      insert into coverage_visits (run_id, location_id, chunk, status, kind, message, requests, listings_seen, accepted, observations_written, started_at, egress_tier)
      select ${runId}, i.location_id, ${chunk}, i.status, i.kind, i.message, i.requests, i.listings_seen, i.accepted,
             coalesce(o.n, 0), i.started_at, i.egress_tier
      from input i
      join loc on loc.id = i.location_id
      left join observed o on o.location_id = i.location_id
      returning location_id, observations_written, status, kind, requests
    ), progress as (
      update coverage_runs r set heartbeat_at = now(), stores_visited = r.stores_visited + v.n,
        stores_failed = r.stores_failed + v.failed, stores_blocked = r.stores_blocked + v.blocked, requests = r.requests + v.requests
      from (select count(*)::int as n, (count(*) filter (where status = 'failed'))::int as failed,
                   (count(*) filter (where kind = 'blocked'))::int as blocked, coalesce(sum(requests), 0)::int as requests
            from visit) v
      where r.id = ${runId} and v.n > 0
      returning 1
    ), ${durability(sql, batch.deferNotify ?? false)}
    select coalesce((select json_agg(json_build_array(location_id, observations_written)) from visit), '[]') as written,
           exists (select 1 from owner) as owned, (select value from durability) as commit_mode`;
  if (!row?.owned) return 'not-owner';
  return { written: new Map(row.written.map(([location, n]) => [Number(location), Number(n)])) };
}

/**
 * The open stores of a plan's scope with a retailer id that are due on `day` (never visited, or
 * last visited revisitDays or more UTC days before), never visited first, then the longest
 * unvisited, at most `limit`.
 */
export async function planDueStores(
  sql: Db,
  {
    storeId,
    scope,
    revisitDays,
    day,
    limit,
  }: { storeId: string; scope: CoverageScope; revisitDays: number; day: string; limit: number },
): Promise<number[]> {
  if (limit <= 0) return [];
  const rows = await sql<Array<{ id: number }>>`
    select l.id from store_locations l
    where l.store_id = ${storeId} and l.status = 'open' and l.retailer_location_id is not null
      and (l.last_visit_at is null or (l.last_visit_at at time zone 'UTC')::date <= ${day}::date - ${revisitDays}::int)
      and ${scopeFilter(sql, scope)}
    order by l.last_visit_at nulls first, l.id
    limit ${limit}`;
  return rows.map((r) => r.id);
}

/**
 * Visits of the retailer finished on the current UTC day, and how many a bot wall answered: all of
 * them, or with `tier` those whose last request went through that egress tier (a retailer with
 * several tiers pauses on its last one: a wall below it moves the retailer up a tier instead).
 */
export async function dayBlockedShare(
  sql: Db,
  storeId: string,
  tier: string | null = null,
): Promise<{ visits: number; blocked: number }> {
  const [row] = await sql<Array<{ visits: number; blocked: number }>>`
    select count(*)::int as visits, count(*) filter (where v.kind = 'blocked')::int as blocked
    from coverage_visits v join coverage_runs r on r.id = v.run_id
    where r.store_id = ${storeId} and v.finished_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'
      ${tier === null ? sql`` : sql`and v.egress_tier = ${tier}`}`;
  return row!;
}

/**
 * Ends a visit run whose chunks are all done or skipped, from its written visits: succeeded when
 * none failed, failed when every visit failed, partial otherwise, with the failures by reason.
 * `stopped` (a recovery's reason) makes a run that visited every planned store partial at best.
 * Only a running run is finished; answers the status set, or null when nothing was changed.
 */
export async function finishVisitRun(
  sql: Db,
  runId: number,
  options: { workerId?: string; stopped?: string } = {},
): Promise<string | null> {
  const [totals] = await sql<Array<{ visits: number; failed: number; planned: number; reasons: string | null }>>`
    select (select count(*)::int from coverage_visits where run_id = ${runId}) as visits,
           (select count(*)::int from coverage_visits where run_id = ${runId} and status = 'failed') as failed,
           (select stores_planned from coverage_runs where id = ${runId}) as planned,
           (select string_agg(kind || ' ' || n, ', ' order by n desc, kind) from (
              select coalesce(kind, 'failed') as kind, count(*) as n from coverage_visits where run_id = ${runId} and status = 'failed' group by 1) k) as reasons`;
  const { visits, failed, planned, reasons } = totals!;
  const missed = Math.max(0, (planned ?? 0) - visits);
  let status: 'succeeded' | 'partial' | 'failed' =
    failed === 0 ? 'succeeded' : failed === visits ? 'failed' : 'partial';
  if (options.stopped && status === 'succeeded' && missed > 0) status = visits === 0 ? 'failed' : 'partial';
  const parts = [
    `${plural(visits - failed, 'store')} priced of ${planned ?? visits} planned`,
    failed > 0 ? `${failed} failed (${reasons})` : null,
    missed > 0 ? `${missed} not visited` : null,
    options.stopped ?? null,
  ].filter(Boolean);
  const [row] = await sql<Array<{ status: string }>>`
    update coverage_runs set status = ${status}, message = ${parts.join('; ').slice(0, 2000)}, finished_at = now(), heartbeat_at = now()
    where id = ${runId} and kind = 'visit' and status = 'running'
      ${options.workerId !== undefined ? sql`and worker_id = ${options.workerId}` : sql``}
    returning status`;
  return row?.status ?? null;
}

/**
 * The stores of a visit run (of one chunk, when given) whose visit wrote prices that alerts have
 * not been matched against yet, by location id.
 */
export async function visitsAwaitingAlerts(sql: Db, runId: number, chunk?: number): Promise<number[]> {
  const rows = await sql<{ location_id: number }[]>`
    select location_id from coverage_visits
    where run_id = ${runId} and status = 'succeeded' and observations_written > 0 and alerts_matched_at is null
      ${chunk === undefined ? sql`` : sql`and chunk = ${chunk}`}
    order by location_id`;
  return rows.map((r) => r.location_id);
}

/** Records that alerts were matched against these stores' visits of the run. */
export async function markVisitsAlerted(sql: Db, runId: number, locationIds: number[]): Promise<void> {
  await sql`
    update coverage_visits set alerts_matched_at = now()
    where run_id = ${runId} and location_id = any(${sql.array(locationIds)}::int[]) and alerts_matched_at is null`;
}

/** How many chunks of a visit run are still queued or running. */
export async function openChunkCount(sql: Db, runId: number): Promise<number> {
  const [open] = await sql<Array<{ n: number }>>`
        select count(*)::int as n from coverage_chunks where run_id = ${runId} and status in ('queued', 'running')`;
  return open!.n;
}

export interface QueuedVisitDay {
  store_id: StoreId;
  scope: unknown;
  day: string;
  revisit_days: number | null;
  daily_request_budget: number | null;
}

/**
 * Locks a queued visit day for planning (call inside the planning transaction), with its plan's
 * revisit days and daily budget (null without a plan). Null when the run is planned already, over,
 * or gone.
 */
export async function lockQueuedVisitDay(tx: Db, runId: number): Promise<QueuedVisitDay | null> {
  const [run] = await tx<QueuedVisitDay[]>`
        select r.store_id, r.scope, coalesce(r.day, (now() at time zone 'UTC')::date)::text as day, p.revisit_days, p.daily_request_budget
        from coverage_runs r left join coverage_plans p on p.store_id = r.store_id
        where r.id = ${runId} and r.kind = 'visit' and r.status = 'queued'
        for update of r`;
  return run ?? null;
}

/** A visit day that cannot be planned is failed with this message. */
export async function failVisitDay(tx: Db, runId: number, demo: boolean, message: string): Promise<void> {
  await tx`
          update coverage_runs set status = 'failed', demo = ${demo}, message = ${message}, started_at = now(), finished_at = now(), heartbeat_at = now()
          where id = ${runId}`;
}

/** The requests the retailer's other visit runs of the day (YYYY-MM-DD) have sent. */
export async function visitDayRequestsSpent(tx: Db, store: StoreId, day: string, runId: number): Promise<number> {
  const [spent] = await tx<Array<{ requests: number }>>`
        select coalesce(sum(requests), 0)::int as requests from coverage_runs
        where store_id = ${store} and kind = 'visit' and day = ${day}::date and id <> ${runId}`;
  return spent!.requests;
}

/** A visit day with no store to visit succeeds at once (nothingDue: none was due, not a spent budget). */
export async function finishEmptyVisitDay(
  tx: Db,
  runId: number,
  { demo, nothingDue, message }: { demo: boolean; nothingDue: boolean; message: string },
): Promise<void> {
  await tx`
          update coverage_runs set status = 'succeeded', demo = ${demo}, started_at = now(), finished_at = now(), heartbeat_at = now(),
            nothing_due = ${nothingDue},
            message = ${message}
          where id = ${runId}`;
}

/**
 * Starts a planned visit day (call inside the planning transaction): its chunks of location ids,
 * the run marked running with its planned figures (planned: the stores in its chunks), and one coverage__visit job per chunk in the
 * retailer's queue.
 */
export async function startPlannedVisitDay(
  tx: Db,
  runId: number,
  {
    store,
    demo,
    chunks,
    planned,
    message,
  }: { store: StoreId; demo: boolean; chunks: number[][]; planned: number; message: string },
): Promise<void> {
  await tx`
        insert into coverage_chunks (run_id, chunk, location_ids)
        select ${runId}, (n - 1)::int, array(select jsonb_array_elements_text(ids)::int)
        from jsonb_array_elements(${tx.json(chunks)}::jsonb) with ordinality as c(ids, n)`;
  await tx`
        update coverage_runs set status = 'running', demo = ${demo}, started_at = now(), heartbeat_at = now(), worker_id = null,
          stores_planned = ${planned}, chunks_planned = ${chunks.length}, message = ${message}
        where id = ${runId}`;
  await tx`
        select graphile_worker.add_job(${VISIT_TASK}, json_build_object('runId', ${runId}::int, 'chunk', n),
          queue_name := ${retailerQueue(store)}, job_key := ${visitJobKeyPrefix(runId)} || n, max_attempts := ${VISIT_JOB_MAX_ATTEMPTS})
        from generate_series(0, ${chunks.length - 1}::int) as n`;
}

/** Takes a running visit run for this worker (beating its heartbeat); null when it is over or gone. */
export async function claimVisitRun(
  sql: Db,
  runId: number,
  workerId: string,
): Promise<{ store_id: StoreId; demo: boolean } | null> {
  const [run] = await sql<Array<{ store_id: StoreId; demo: boolean }>>`
      update coverage_runs set worker_id = ${workerId}, heartbeat_at = now()
      where id = ${runId} and kind = 'visit' and status = 'running'
      returning store_id, demo`;
  return run ?? null;
}

/** Skips a chunk not done yet of a run that is over (paused, failed, finished) or gone. */
export async function skipChunkOfEndedRun(sql: Db, runId: number, chunk: number): Promise<void> {
  await sql`update coverage_chunks set status = 'skipped', finished_at = now() where run_id = ${runId} and chunk = ${chunk} and status in ('queued', 'running')`;
}

/**
 * Marks a queued or running chunk running; answers its location ids and whether it was started
 * before (a resume). Null when it is done or skipped already (a doubled job).
 */
export async function startVisitChunk(
  sql: Db,
  runId: number,
  chunk: number,
): Promise<{ location_ids: number[]; resumed: boolean } | null> {
  const [planned] = await sql<Array<{ location_ids: number[]; resumed: boolean }>>`
      update coverage_chunks set status = 'running', started_at = coalesce(started_at, now())
      where run_id = ${runId} and chunk = ${chunk} and status in ('queued', 'running')
      returning location_ids, started_at < now() as resumed`;
  return planned ?? null;
}

export interface ChunkStore {
  id: number;
  retailer_location_id: string;
  zip: string;
  region: Region;
  name: string | null;
  city: string | null;
  state: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** The chunk's stores still to visit: open, with a retailer id, not written by the run yet, in the chunk's order. */
export async function chunkStoresToVisit(sql: Db, runId: number, locationIds: number[]): Promise<ChunkStore[]> {
  return sql<ChunkStore[]>`
      select l.id, l.retailer_location_id, l.zip, l.region, l.name, l.city, l.state, l.address, l.latitude, l.longitude
      from store_locations l
      where l.id = any(${sql.array(locationIds)}::int[]) and l.status = 'open' and l.retailer_location_id is not null
        and not exists (select 1 from coverage_visits v where v.run_id = ${runId} and v.location_id = l.id)
      order by array_position(${sql.array(locationIds)}::int[], l.id)`;
}

/** Beats a coverage run's heartbeat (a visit day or a discovery) while this worker holds it. */
export async function coverageRunHeartbeat(sql: Db, runId: number, workerId: string): Promise<void> {
  await sql`update coverage_runs set heartbeat_at = now() where id = ${runId} and worker_id = ${workerId}`;
}

/** A coverage run goes back to no worker (released at shutdown): it resumes when a worker starts. */
export async function releaseCoverageRun(sql: Db, runId: number, workerId: string): Promise<void> {
  await sql`update coverage_runs set worker_id = null where id = ${runId} and worker_id = ${workerId}`;
}

/** Skips a run's chunks not started yet and removes their jobs (a paused or failed run). */
export async function skipQueuedChunks(tx: Db, runId: number): Promise<number> {
  const skipped = await tx<Array<{ chunk: number }>>`
    update coverage_chunks set status = 'skipped', finished_at = now()
    where run_id = ${runId} and status = 'queued'
    returning chunk`;
  for (const { chunk } of skipped) await tx`select graphile_worker.remove_job(${visitJobKey(runId, chunk)})`;
  return skipped.length;
}

/**
 * In one transaction, fails a run still running under this worker with this message (its
 * retailer module cannot run), skipping this chunk and the chunks not started.
 */
export async function failVisitRun(
  sql: Sql,
  { runId, chunk, workerId, message }: { runId: number; chunk: number; workerId: string; message: string },
): Promise<void> {
  await sql.begin(async (tx) => {
    const [failed] = await tx`
            update coverage_runs set status = 'failed', message = ${message}, finished_at = now(), heartbeat_at = now()
            where id = ${runId} and status = 'running' and worker_id = ${workerId} returning 1`;
    if (!failed) return;
    await tx`update coverage_chunks set status = 'skipped', finished_at = now() where run_id = ${runId} and chunk = ${chunk}`;
    await skipQueuedChunks(tx, runId);
  });
}

/** Locks the run if it is still running under this worker (call inside the chunk's end transaction). */
export async function lockOwnedVisitRun(tx: Db, runId: number, workerId: string): Promise<boolean> {
  const [owned] =
    await tx`select 1 from coverage_runs where id = ${runId} and status = 'running' and worker_id = ${workerId} for update`;
  return owned !== undefined;
}

/** Marks a running chunk done and counts it on its run; false when it was not running. */
export async function markChunkDone(tx: Db, runId: number, chunk: number): Promise<boolean> {
  const [marked] = await tx`
        update coverage_chunks set status = 'done', finished_at = now() where run_id = ${runId} and chunk = ${chunk} and status = 'running' returning 1`;
  if (marked)
    await tx`update coverage_runs set chunks_done = chunks_done + 1, heartbeat_at = now() where id = ${runId}`;
  return marked !== undefined;
}

/**
 * Queues the run's immediate alerts job when the chunk wrote prices (never for demo prices, which
 * are not a retailer's). One job per run gathers the chunks that commit within windowMinutes: it
 * keeps the run_at of the chunk that queued it.
 */
export async function queueChunkAlerts(tx: Db, runId: number, chunk: number, windowMinutes: number): Promise<void> {
  await tx`
          select graphile_worker.add_job('alerts__immediate', json_build_object('coverageRunId', ${runId}::int),
                                         job_key := ${`alerts:coverage:${runId}`}, job_key_mode := 'preserve_run_at',
                                         run_at := now() + make_interval(mins => ${windowMinutes}::int), max_attempts := 10)
          from coverage_runs r
          where r.id = ${runId} and not r.demo
            and exists (select 1 from coverage_visits v where v.run_id = ${runId} and v.chunk = ${chunk} and v.observations_written > 0)`;
}

/** The run's planned stores and the visits it has written. */
export async function visitRunProgress(tx: Db, runId: number): Promise<{ planned: number; visited: number }> {
  const [left] = await tx<Array<{ planned: number; visited: number }>>`
          select stores_planned as planned, (select count(*)::int from coverage_visits where run_id = ${runId}) as visited from coverage_runs where id = ${runId}`;
  return left!;
}

/** Pauses the retailer's plan (not paused yet) with this reason. */
export async function pauseCoveragePlan(tx: Db, store: StoreId, reason: string): Promise<void> {
  await tx`update coverage_plans set paused_at = now(), paused_reason = ${reason} where store_id = ${store} and paused_at is null`;
}

/** Marks the run paused with this message. */
export async function pauseVisitRun(tx: Db, runId: number, message: string): Promise<void> {
  await tx`
          update coverage_runs set status = 'paused', message = ${message}, finished_at = now(), heartbeat_at = now()
          where id = ${runId}`;
}
