// Egress in the database (migration 025): the requests each retailer was sent by hour and tier
// (answered, walled, failed), the tier each retailer uses now, and the Test connection runs. The
// worker writes them (worker/egress/); the admin area reads them (routers/egress.ts). No proxy is
// ever stored with its credentials: a proxy is its host and port.
import type { StoreId } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';

export interface UsageRow {
  hour: Date;
  tier: string;
  requests: number;
  walls: number;
  failures: number;
}

/** Adds counts to the hourly rows (one statement for a batch). */
export async function addUsage(sql: Db, store: StoreId, rows: UsageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into egress_usage (store_id, hour, tier, requests, walls, failures)
    select ${store}, date_trunc('hour', r.hour), r.tier, r.requests, r.walls, r.failures
    from jsonb_to_recordset(${sql.json(rows.map((r) => ({ ...r, hour: r.hour.toISOString() })) as never)}::jsonb)
      as r(hour timestamptz, tier text, requests int, walls int, failures int)
    on conflict (store_id, hour, tier) do update set
      requests = egress_usage.requests + excluded.requests,
      walls = egress_usage.walls + excluded.walls,
      failures = egress_usage.failures + excluded.failures`;
}

/** Requests sent to a retailer since the start of the UTC day (its daily budget's count). */
export async function requestsToday(sql: Db, store: StoreId): Promise<number> {
  const [row] = await sql<Array<{ n: number }>>`
    select coalesce(sum(requests), 0)::int as n from egress_usage
    where store_id = ${store} and hour >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`;
  return row!.n;
}

export interface TierUsage {
  store: StoreId;
  tier: string;
  requests: number;
  walls: number;
  failures: number;
}

/** Every retailer's last 24 hours by tier. */
export async function usageLastDay(sql: Db): Promise<TierUsage[]> {
  return sql<TierUsage[]>`
    select store_id as store, tier, sum(requests)::int as requests, sum(walls)::int as walls, sum(failures)::int as failures
    from egress_usage where hour > date_trunc('hour', now()) - interval '24 hours'
    group by store_id, tier order by store_id, tier`;
}

export interface TierRow {
  index: number;
  tier: string;
  coolUntil: Date | null;
  reason: string | null;
  updatedAt: Date;
}

export async function readTier(sql: Db, store: StoreId): Promise<TierRow | null> {
  const [row] = await sql<TierRow[]>`
    select tier_index as index, tier, cool_until as "coolUntil", reason, updated_at as "updatedAt"
    from egress_tiers where store_id = ${store}`;
  return row ?? null;
}

export async function readTiers(sql: Db): Promise<Array<TierRow & { store: StoreId }>> {
  return sql<Array<TierRow & { store: StoreId }>>`
    select store_id as store, tier_index as index, tier, cool_until as "coolUntil", reason, updated_at as "updatedAt"
    from egress_tiers order by store_id`;
}

export async function writeTier(
  sql: Db,
  store: StoreId,
  state: { index: number; tier: string; coolUntil: Date | null; reason: string | null },
): Promise<void> {
  await sql`
    insert into egress_tiers (store_id, tier_index, tier, cool_until, reason, updated_at)
    values (${store}, ${state.index}, ${state.tier}, ${state.coolUntil}, ${state.reason?.slice(0, 500) ?? null}, now())
    on conflict (store_id) do update set tier_index = excluded.tier_index, tier = excluded.tier,
      cool_until = excluded.cool_until, reason = excluded.reason, updated_at = now()`;
}

// -------------------------------------------------------------------------------------------------
// Test connection

export const EGRESS_TEST_TASK = 'egress__test';

export interface EgressTestRow {
  id: number;
  store: StoreId;
  zip: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  result: unknown;
  message: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const testColumns = (sql: Db) => sql`
  id, store_id as store, zip, status, result, message, created_at as "createdAt", started_at as "startedAt", finished_at as "finishedAt"`;

/**
 * Queues a test and its job (one transaction; the job runs in a queue of the retailer's tests, so
 * a test waits for no visit day). Null when one is already queued or running for the retailer.
 */
export async function queueTest(
  sql: Db,
  { store, zip, requestedBy }: { store: StoreId; zip: string; requestedBy: string },
): Promise<number | null> {
  const [row] = await sql<Array<{ id: number }>>`
    insert into egress_tests (store_id, zip, requested_by) values (${store}, ${zip}, ${requestedBy})
    on conflict (store_id) where status in ('queued', 'running') do nothing
    returning id`;
  if (!row) return null;
  await sql`
    select graphile_worker.add_job(${EGRESS_TEST_TASK}, json_build_object('testId', ${row.id}::int),
      queue_name := ${`egress-test:${store}`}, max_attempts := 1)`;
  return row.id;
}

export async function getTest(sql: Db, id: number): Promise<EgressTestRow | null> {
  const [row] = await sql<EgressTestRow[]>`select ${testColumns(sql)} from egress_tests where id = ${id}`;
  return row ?? null;
}

/** Each retailer's latest test. */
export async function latestTests(sql: Db): Promise<EgressTestRow[]> {
  return sql<EgressTestRow[]>`
    select distinct on (store_id) ${testColumns(sql)} from egress_tests order by store_id, id desc`;
}

/** Marks a queued test running; null when it is not queued (finished, or gone with its store). */
export async function startTest(sql: Db, id: number): Promise<{ store: StoreId; zip: string } | null> {
  const [row] = await sql<Array<{ store: StoreId; zip: string }>>`
    update egress_tests set status = 'running', started_at = now() where id = ${id} and status = 'queued'
    returning store_id as store, zip`;
  return row ?? null;
}

export async function finishTest(
  sql: Db,
  id: number,
  outcome: { status: 'succeeded' | 'failed'; result: unknown; message: string | null },
): Promise<void> {
  await sql`
    update egress_tests set status = ${outcome.status}, result = ${sql.json(outcome.result as never)},
      message = ${outcome.message?.slice(0, 2000) ?? null}, finished_at = now()
    where id = ${id} and status = 'running'`;
}

/** Tests left running by a worker that died are failed by worker__recover's sweep after this long. */
export async function failStaleTests(sql: Db, olderThanMinutes: number): Promise<number> {
  const result = await sql`
    update egress_tests set status = 'failed', message = 'The worker stopped before the test finished', finished_at = now()
    where status in ('queued', 'running') and created_at < now() - make_interval(mins => ${olderThanMinutes}::int)`;
  return result.count;
}
