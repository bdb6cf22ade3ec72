// A coverage plan's visit day in the database: which stores are due (planDueStores), the day's
// chunks, one store's visit written in one statement (writeVisit: its prices, its coverage_visits
// row, its last visit on store_locations and the run's live counters), the day's blocked share,
// and the end of a run (finishVisitRun). The tasks are worker/tasks/coverage__*.ts.
//
// The run's counters: stores_visited counts every visit written (succeeded or failed),
// stores_failed the failed ones (blocked ones included) and stores_blocked those a bot wall
// answered; requests every request the visits sent.
import type { CoverageScope } from '#shared/coverage.ts';
import type { Db } from '../db.ts';
import { scopeFilter } from './coverage.ts';
import { durability, pricesCtes, type ListingWrite, type ObservationSource } from './scrape-writes.ts';

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
  source: ObservationSource;
  /** Written only while the run is running under this worker (the run row is locked meanwhile). */
  ownerWorkerId: string;
  /** The caller tells web processes of the new prices itself (PriceChangeNotifier). */
  deferNotify?: boolean;
}

export type VisitWriteResult = { observations: number } | 'already-written' | 'not-owner';

/**
 * Writes one store's visit in a single statement (so atomic on its own): its products and
 * observations (the rules of writeZipOutcome, through the same CTEs), its coverage_visits row, its
 * last visit on store_locations (and last_priced_at when it gave prices) and the run's counters.
 * 'already-written' when the run has this store's visit already (a chunk run again), 'not-owner'
 * when the run is no longer running under this worker: then nothing is written.
 */
export async function writeVisit(sql: Db, write: VisitWrite): Promise<VisitWriteResult> {
  const listings = write.status === 'succeeded' ? write.listings : [];
  const priced = listings.length > 0;
  const message = write.message?.slice(0, 1000) ?? null;
  const kind = write.status === 'failed' ? (write.kind?.slice(0, 40) ?? null) : null;
  const [row] = await sql<Array<{ written: number | null; owned: boolean; commit_mode: string }>>`
    with owner as (
      select id from coverage_runs
      where id = ${write.runId} and kind = 'visit' and status = 'running' and worker_id = ${write.ownerWorkerId}
      for update
    ), done as (
      select 1 from coverage_visits where run_id = ${write.runId} and location_id = ${write.locationId}
      union all
      select 1 where not exists (select 1 from owner)
    ), loc as (
      update store_locations set
        last_visit_at = now(), last_visit_status = ${write.status}, last_visit_kind = ${kind}, last_visit_message = ${message},
        last_priced_at = case when ${priced} then now() else last_priced_at end, updated_at = now()
      where id = ${write.locationId} and store_id = ${write.storeId} and not exists (select 1 from done)
      returning id
    ), ${pricesCtes(sql, { storeId: write.storeId, listings, scrapeRunId: null, source: write.source })}, visit as (
      insert into coverage_visits (run_id, location_id, chunk, status, kind, message, requests, listings_seen, accepted, observations_written, started_at)
      select ${write.runId}, loc.id, ${write.chunk}, ${write.status}, ${kind}, ${message}, ${write.requests}, ${write.listingsSeen},
             ${listings.length}, (select count(*) from observation), ${write.startedAt}
      from loc
      returning observations_written
    ), progress as (
      update coverage_runs set heartbeat_at = now(), stores_visited = stores_visited + 1,
        stores_failed = stores_failed + ${write.status === 'failed' ? 1 : 0},
        stores_blocked = stores_blocked + ${kind === 'blocked' ? 1 : 0},
        requests = requests + ${write.requests}
      where id = ${write.runId} and exists (select 1 from visit)
      returning 1
    ), ${durability(sql, write.deferNotify ?? false)}
    select (select observations_written from visit) as written, exists (select 1 from owner) as owned,
           (select value from durability) as commit_mode`;
  if (!row?.owned) return 'not-owner';
  return row.written === null ? 'already-written' : { observations: row.written };
}

/**
 * The open stores of a plan's scope with a retailer id that are due on `day` (never visited, or
 * last visited revisitDays or more UTC days before), never visited first, then the longest
 * unvisited, at most `limit`.
 */
export async function planDueStores(
  sql: Db,
  { storeId, scope, revisitDays, day, limit }: { storeId: string; scope: CoverageScope; revisitDays: number; day: string; limit: number },
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

/** Visits of the retailer finished on the current UTC day, and how many a bot wall answered. */
export async function dayBlockedShare(sql: Db, storeId: string): Promise<{ visits: number; blocked: number }> {
  const [row] = await sql<Array<{ visits: number; blocked: number }>>`
    select count(*)::int as visits, count(*) filter (where v.kind = 'blocked')::int as blocked
    from coverage_visits v join coverage_runs r on r.id = v.run_id
    where r.store_id = ${storeId} and v.finished_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;
  return row!;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Ends a visit run whose chunks are all done or skipped, from its written visits: succeeded when
 * none failed, failed when every visit failed, partial otherwise, with the failures by reason.
 * `stopped` (a recovery's reason) makes a run that visited every planned store partial at best.
 * Only a running run is finished; answers the status set, or null when nothing was changed.
 */
export async function finishVisitRun(sql: Db, runId: number, options: { workerId?: string; stopped?: string } = {}): Promise<string | null> {
  const [totals] = await sql<Array<{ visits: number; failed: number; planned: number; reasons: string | null }>>`
    select (select count(*)::int from coverage_visits where run_id = ${runId}) as visits,
           (select count(*)::int from coverage_visits where run_id = ${runId} and status = 'failed') as failed,
           (select stores_planned from coverage_runs where id = ${runId}) as planned,
           (select string_agg(kind || ' ' || n, ', ' order by n desc, kind) from (
              select coalesce(kind, 'failed') as kind, count(*) as n from coverage_visits where run_id = ${runId} and status = 'failed' group by 1) k) as reasons`;
  const { visits, failed, planned, reasons } = totals!;
  const missed = Math.max(0, (planned ?? 0) - visits);
  let status: 'succeeded' | 'partial' | 'failed' = failed === 0 ? 'succeeded' : failed === visits ? 'failed' : 'partial';
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
