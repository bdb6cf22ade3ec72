// A scrape run as its worker task (worker/tasks/stores__scrape.ts) moves it along: claimed and
// marked running, kept alive by a heartbeat, released at shutdown, and finished from its ZIP
// codes' outcome rows (scrape-writes.ts writes those), queueing its immediate alerts as it commits.
import type { StoreId } from '#shared/vocabulary.ts';
import type { Db, Sql } from '../db.ts';

/**
 * Marks a queued or running run as running under this worker (a run already started is being
 * resumed). Null when the run is finished already, or was deleted with its store.
 */
export async function claimScrapeRun(
  sql: Db,
  runId: number,
  workerId: string,
): Promise<{ store_id: StoreId; zip_codes: string[]; resumed: boolean } | null> {
  const [run] = await sql<Array<{ store_id: StoreId; zip_codes: string[]; resumed: boolean }>>`
    update scrape_runs set status = 'running', started_at = coalesce(started_at, now()), heartbeat_at = now(), worker_id = ${workerId}
    where id = ${runId} and status in ('queued', 'running')
    returning store_id, zip_codes, started_at < now() as resumed`;
  return run ?? null;
}

/** Whether the run writes demo prices (the retailer stand-in) rather than a retailer's. */
export async function setScrapeRunDemo(sql: Db, runId: number, demo: boolean): Promise<void> {
  await sql`update scrape_runs set demo = ${demo} where id = ${runId}`;
}

/** The ZIP codes the run has an outcome for already. */
export async function scrapedZips(sql: Db, runId: number): Promise<Set<string>> {
  const rows = await sql<Array<{ zip: string }>>`select zip from scrape_run_zips where run_id = ${runId}`;
  return new Set(rows.map((r) => r.zip));
}

export async function scrapeRunHeartbeat(sql: Db, runId: number, workerId: string): Promise<void> {
  await sql`update scrape_runs set heartbeat_at = now() where id = ${runId} and worker_id = ${workerId}`;
}

/** The run goes back to no worker: it resumes when a worker starts. */
export async function releaseScrapeRun(sql: Db, runId: number, workerId: string): Promise<void> {
  await sql`update scrape_runs set worker_id = null where id = ${runId} and worker_id = ${workerId}`;
}

/** The run's ZIP codes with an outcome, the failed ones, and the failures' 'zip: message' list. */
export async function scrapeRunTotals(
  sql: Db,
  runId: number,
): Promise<{ failed: number; total: number; failures: string | null }> {
  const [totals] = await sql<Array<{ failed: number; total: number; failures: string | null }>>`
    select count(*) filter (where status = 'failed')::int as failed, count(*)::int as total,
           string_agg(zip || ': ' || coalesce(message, 'failed'), '; ' order by zip) filter (where status = 'failed') as failures
    from scrape_run_zips where run_id = ${runId}`;
  return totals!;
}

/**
 * Finishes a run still running under this worker, in one transaction: its status and message, and
 * its figures summed from its ZIP codes' outcome rows. Immediate price alerts read what the run
 * wrote, so they are queued as it commits (never for demo prices, which are not a retailer's).
 */
export async function finishScrapeRun(
  sql: Sql,
  runId: number,
  workerId: string,
  status: 'succeeded' | 'partial' | 'failed',
  message: string | null,
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      update scrape_runs r set status = ${status}, message = ${message?.slice(0, 2000) ?? null}, finished_at = now(), heartbeat_at = now(),
        progress = z.progress, listings_seen = z.listings_seen, accepted = z.accepted, products_found = z.accepted,
        observations_written = z.observations, requests = z.requests,
        skipped = (select coalesce(jsonb_object_agg(key, n), '{}') from (
          select key, sum(value::int) as n from scrape_run_zips, jsonb_each_text(skipped) where run_id = ${runId} group by key) s),
        rejected = (select coalesce(jsonb_object_agg(key, n), '{}') from (
          select key, sum(value::int) as n from scrape_run_zips, jsonb_each_text(rejected) where run_id = ${runId} group by key) s)
      from (select count(*)::int as progress, coalesce(sum(listings_seen), 0)::int as listings_seen,
                   coalesce(sum(accepted), 0)::int as accepted, coalesce(sum(observations_written), 0)::int as observations,
                   coalesce(sum(requests), 0)::int as requests
            from scrape_run_zips where run_id = ${runId}) z
      where r.id = ${runId} and r.worker_id = ${workerId} and r.status = 'running'`;
    await tx`
      select graphile_worker.add_job('alerts__immediate', json_build_object('runId', ${runId}::int), job_key := ${`alerts:run:${runId}`}, max_attempts := 10)
      from scrape_runs where id = ${runId} and not demo and observations_written > 0 and status in ('succeeded', 'partial')`;
  });
}
