// Scrape runs, their per-ZIP outcomes, the status the admin screens poll, and the schedule
// settings. A run and its graphile-worker job are created in one transaction; at most one run per
// store is queued or running (a unique index), so a second start is a conflict, not a second run.
import {
  nextDailyRun,
  runProgressText,
  STALE_AFTER_HOURS,
  SCRAPER_NAMES,
  type RunStatus,
  type ScrapeRun,
  type ScraperStatus,
} from '#shared/scrape.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';
import { isUniqueViolation } from './errors.ts';
import { retailerQueue } from '#shared/coverage.ts';

export const SCRAPE_TASK = 'stores__scrape';
export const SCRAPE_JOB_MAX_ATTEMPTS = 5;

export const SCRAPE_JOB_KEY_PREFIX = 'scrape:';
export const scrapeJobKey = (runId: number) => `${SCRAPE_JOB_KEY_PREFIX}${runId}`;

export interface ScrapeSettings {
  dailyEnabled: boolean;
  hourUtc: number;
  zipCodes: string[];
  updatedAt: string;
}

export async function getScrapeSettings(sql: Db): Promise<ScrapeSettings> {
  const [row] = await sql<Array<{ daily_enabled: boolean; hour_utc: number; zip_codes: string[]; updated_at: Date }>>`
    select daily_enabled, hour_utc, zip_codes, updated_at from scrape_settings where id`;
  return {
    dailyEnabled: row!.daily_enabled,
    hourUtc: row!.hour_utc,
    zipCodes: row!.zip_codes,
    updatedAt: row!.updated_at.toISOString(),
  };
}

export async function updateScrapeSettings(
  sql: Db,
  settings: { dailyEnabled: boolean; hourUtc: number; zipCodes: string[] },
  userId: string | null,
): Promise<ScrapeSettings> {
  await sql`
    update scrape_settings set daily_enabled = ${settings.dailyEnabled}, hour_utc = ${settings.hourUtc},
      zip_codes = ${sql.array(settings.zipCodes)}::text[], updated_at = now(), updated_by = ${userId}
    where id`;
  return getScrapeSettings(sql);
}

/**
 * Queues a run and its job in the caller's transaction. The job goes into the retailer's queue:
 * its requests wait for the retailer's other jobs (coverage visits, discovery) on every worker. Null when the store already has a
 * queued or running run (or, for a scheduled run, this slot already has one).
 */
export async function queueRun(
  tx: Db,
  run: {
    store: StoreId;
    zipCodes: string[];
    requestedBy: string | null;
    trigger: 'manual' | 'schedule';
    scheduledFor?: Date;
  },
): Promise<number | null> {
  try {
    const [row] = await tx<Array<{ id: number }>>`
      insert into scrape_runs (store_id, zip_codes, total, requested_by, trigger, scheduled_for)
      values (${run.store}, ${tx.array(run.zipCodes)}::text[], ${run.zipCodes.length}, ${run.requestedBy}, ${run.trigger}, ${run.scheduledFor ?? null})
      on conflict do nothing
      returning id`;
    if (!row) return null;
    await tx`
      select graphile_worker.add_job(${SCRAPE_TASK}, json_build_object('runId', ${row.id}::int),
        queue_name := ${retailerQueue(run.store)}, job_key := ${scrapeJobKey(row.id)}, max_attempts := ${SCRAPE_JOB_MAX_ATTEMPTS})`;
    return row.id;
  } catch (error) {
    if (isUniqueViolation(error, 'scrape_runs_one_active_idx')) return null;
    throw error;
  }
}

interface RunRow {
  id: number;
  store_id: StoreId;
  status: RunStatus;
  trigger: 'manual' | 'schedule';
  demo: boolean;
  zip_codes: string[];
  total: number;
  message: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  zips: Array<{
    zip: string;
    status: 'succeeded' | 'failed';
    message: string | null;
    location_name: string | null;
    listings_seen: number;
    accepted: number;
    observations_written: number;
    skipped: Record<string, number>;
    rejected: Record<string, number>;
    requests: number;
    retries: number;
    rate_limit_waits: number;
    rate_limit_wait_ms: number;
    finished_at: string;
  }> | null;
}

const sumCounts = (maps: Array<Record<string, number>>) => {
  const total: Record<string, number> = {};
  for (const map of maps) for (const [key, n] of Object.entries(map)) total[key] = (total[key] ?? 0) + n;
  return total;
};

function toRun(row: RunRow): ScrapeRun {
  const zips = row.zips ?? [];
  // Outcomes in the order the ZIPs were asked for.
  const order = new Map(row.zip_codes.map((zip, i) => [zip, i]));
  zips.sort((a, b) => (order.get(a.zip) ?? 0) - (order.get(b.zip) ?? 0));
  const finished = row.finished_at ?? null;
  return {
    id: row.id,
    store: row.store_id,
    status: row.status,
    trigger: row.trigger,
    demo: row.demo,
    zipCodes: row.zip_codes,
    progress: zips.length,
    total: row.total,
    listingsSeen: zips.reduce((n, z) => n + z.listings_seen, 0),
    accepted: zips.reduce((n, z) => n + z.accepted, 0),
    skipped: sumCounts(zips.map((z) => z.skipped)),
    rejected: sumCounts(zips.map((z) => z.rejected)),
    observationsWritten: zips.reduce((n, z) => n + z.observations_written, 0),
    message: row.message,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: finished?.toISOString() ?? null,
    durationMs: row.started_at ? (finished ?? new Date()).getTime() - row.started_at.getTime() : null,
    zips: zips.map((z) => ({
      zip: z.zip,
      status: z.status,
      message: z.message,
      locationName: z.location_name,
      listingsSeen: z.listings_seen,
      accepted: z.accepted,
      observations: z.observations_written,
      skipped: z.skipped,
      rejected: z.rejected,
      requests: z.requests,
      retries: z.retries,
      rateLimitWaits: z.rate_limit_waits,
      rateLimitWaitMs: z.rate_limit_wait_ms,
      finishedAt: new Date(z.finished_at).toISOString(),
    })),
  };
}

/** The columns of a run with its ZIP outcomes, over a FROM that names the runs r. */
function runColumns(sql: Db) {
  return sql`
    select r.id, r.store_id, r.status, r.trigger, r.demo, r.zip_codes, r.total, r.message,
           r.created_at, r.started_at, r.finished_at,
           (select json_agg(json_build_object(
                     'zip', z.zip, 'status', z.status, 'message', z.message, 'location_name', z.location_name,
                     'listings_seen', z.listings_seen, 'accepted', z.accepted,
                     'observations_written', z.observations_written, 'skipped', z.skipped, 'rejected', z.rejected,
                     'requests', z.requests, 'retries', z.retries, 'rate_limit_waits', z.rate_limit_waits,
                     'rate_limit_wait_ms', z.rate_limit_wait_ms, 'finished_at', z.finished_at))
              from scrape_run_zips z where z.run_id = r.id) as zips`;
}

function runsQuery(sql: Db, where: ReturnType<Db>, limit: number, offset = 0) {
  return sql<RunRow[]>`
    ${runColumns(sql)}
    from scrape_runs r
    ${where}
    order by r.created_at desc, r.id desc
    limit ${limit} offset ${offset}`;
}

/** The most recent runs first (10 unless limit says), optionally of one store. */
export async function listRuns(
  sql: Db,
  filter: { store?: StoreId | undefined; limit?: number | undefined; offset?: number | undefined } = {},
): Promise<ScrapeRun[]> {
  const rows = await runsQuery(
    sql,
    filter.store ? sql`where r.store_id = ${filter.store}` : sql``,
    filter.limit ?? 10,
    filter.offset ?? 0,
  );
  return rows.map(toRun);
}

/** How many runs listRuns pages through. */
export async function countRuns(sql: Db, filter: { store?: StoreId | undefined } = {}): Promise<number> {
  const [row] = await sql<{ runs: number }[]>`
    select count(*)::int as runs from scrape_runs ${filter.store ? sql`where store_id = ${filter.store}` : sql``}`;
  return row!.runs;
}

export async function getRun(sql: Db, id: number): Promise<ScrapeRun | null> {
  const [row] = await runsQuery(sql, sql`where r.id = ${id}`, 1);
  return row ? toRun(row) : null;
}

function describe(run: ScrapeRun): string {
  const failed = run.zips.filter((z) => z.status === 'failed');
  const failures = failed.map((z) => `${z.zip}: ${z.message ?? 'failed'}`).join('; ');
  const prices = `${run.observationsWritten} price${run.observationsWritten === 1 ? '' : 's'}`;
  switch (run.status) {
    case 'queued':
    case 'running':
      return runProgressText(run);
    case 'succeeded':
      return (
        run.message ?? `Last run succeeded: ${run.total} ZIP code${run.total === 1 ? '' : 's'}, ${prices} recorded.`
      );
    case 'partial':
      return `Last run finished with failures: ${prices} from ${run.total - failed.length} of ${run.total} ZIP codes; ${failures}`;
    case 'failed':
      return `Last run failed: ${run.message ?? failures}`;
  }
}

/** Scraper status of every store, with the latest run and freshness. */
export async function scraperStatuses(sql: Db, now: Date = new Date()): Promise<Record<StoreId, ScraperStatus>> {
  const [settings, rows, fresh] = await Promise.all([
    getScrapeSettings(sql),
    sql<RunRow[]>`
      ${runColumns(sql)}
      from (select distinct on (store_id) * from scrape_runs order by store_id, created_at desc, id desc) r`,
    sql<Array<{ store_id: StoreId; at: Date }>>`
      select r.store_id, max(z.finished_at) as at
      from scrape_run_zips z join scrape_runs r on r.id = z.run_id
      where z.observations_written > 0
      group by r.store_id`,
  ]);
  const stores = await sql<Array<{ id: StoreId; active: boolean }>>`select id, active from stores`;
  const activeStore = new Map(stores.map((s) => [s.id, s.active]));
  const latest = new Map(rows.map((row) => [row.store_id, toRun(row)]));
  const lastSuccess = new Map(fresh.map((f) => [f.store_id, f.at]));
  const next = nextDailyRun(settings, now);
  const result = {} as Record<StoreId, ScraperStatus>;
  for (const store of STORE_IDS) {
    const run = latest.get(store) ?? null;
    const success = lastSuccess.get(store) ?? null;
    result[store] = {
      active: run !== null && (run.status === 'queued' || run.status === 'running'),
      lastRun: run ? (run.startedAt ?? run.createdAt) : null,
      nextScheduledRun: next && activeStore.get(store) !== false ? next.toISOString() : null,
      message: run ? describe(run) : `The ${SCRAPER_NAMES[store]} scraper has not run yet.`,
      run,
      lastSuccessAt: success?.toISOString() ?? null,
      stale: success === null || now.getTime() - success.getTime() > STALE_AFTER_HOURS * 3_600_000,
    };
  }
  return result;
}
