// Nationwide coverage from the admin side: starting a discovery sweep or a plan's visit day (a
// coverage_runs row and its job in the retailer's queue, written in one transaction), saving a
// plan, a scope's size, and the public list of a chain's known open stores. The figures the
// Coverage tab shows are in coverage-figures.ts. The worker's tasks do the sweeping and visiting;
// nothing here sends a request to a retailer.
import { defaultDailyBudget, retailerQueue, scopeText, type CoverageScope } from '#shared/coverage.ts';
import { utcDay } from '#shared/format.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import type { Db, Sql } from '../db.ts';
import { EARTH_RADIUS_MILES, zipFacts } from '../geo.ts';
import { AppError } from './errors.ts';
import { storeActive } from './stores.ts';

export const DISCOVER_TASK = 'coverage__discover';
export const VISIT_DAY_TASK = 'coverage__visit_day';
export const COVERAGE_JOB_MAX_ATTEMPTS = 5;
/** The first job of a run: `coverage-discover:<runId>` or `coverage-visit-day:<runId>` (a sweep re-adds itself without a key). */
export const coverageJobKey = (kind: CoverageKind, runId: number) =>
  `${kind === 'discover' ? 'coverage-discover' : 'coverage-visit-day'}:${runId}`;

export type CoverageKind = 'discover' | 'visit';
export type CoverageTrigger = 'manual' | 'schedule';

const kindWords: Record<CoverageKind, string> = { discover: 'discovery', visit: 'visit day' };

/** Runs with a callback inside a transaction: a fresh one on the pool, the caller's otherwise. */
async function inTransaction<T>(sql: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  return 'begin' in sql ? ((await (sql as Sql).begin((tx) => body(tx))) as T) : body(sql);
}

async function requireActiveStore(tx: Db, store: StoreId): Promise<void> {
  const active = await storeActive(tx, store);
  if (active === null) throw new AppError(404, `No store ${store}`);
  if (!active) throw new AppError(409, `${SCRAPER_NAMES[store]} is inactive; activate the store first.`);
}

/**
 * Inserts a queued run and its job (payload { runId }, in the retailer's queue). A second run of
 * the same kind while one is queued or running is a 409, as is a second scheduled visit day.
 * `on conflict do nothing` keeps a caller's transaction usable after a refusal.
 */
async function queueCoverageRun(
  tx: Db,
  run: {
    store: StoreId;
    kind: CoverageKind;
    scope: CoverageScope;
    userId: string | null;
    trigger: CoverageTrigger;
    day: string | null;
    task: string;
  },
): Promise<{ runId: number }> {
  const [row] = await tx<Array<{ id: number }>>`
    insert into coverage_runs (store_id, kind, scope, trigger, day, created_by)
    values (${run.store}, ${run.kind}, ${tx.json(run.scope as never)}, ${run.trigger}, ${run.day}, ${run.userId})
    on conflict do nothing
    returning id`;
  if (!row) {
    const name = SCRAPER_NAMES[run.store];
    const [active] =
      await tx`select 1 from coverage_runs where store_id = ${run.store} and kind = ${run.kind} and status in ('queued', 'running')`;
    if (active)
      throw new AppError(409, `A ${name} ${kindWords[run.kind]} is already queued or running; wait for it to finish.`);
    throw new AppError(409, `${name} already has the scheduled visit day of ${run.day}.`);
  }
  await tx`
    select graphile_worker.add_job(${run.task}, json_build_object('runId', ${row.id}::int),
      queue_name := ${retailerQueue(run.store)}, job_key := ${coverageJobKey(run.kind, row.id)}, max_attempts := ${COVERAGE_JOB_MAX_ATTEMPTS})`;
  return { runId: row.id };
}

/** Queues a discovery sweep of a retailer over a scope (task coverage__discover). */
export function startDiscovery(
  sql: Db,
  input: { store: StoreId; scope: CoverageScope; userId: string | null; trigger: CoverageTrigger },
): Promise<{ runId: number }> {
  return inTransaction(sql, async (tx) => {
    await requireActiveStore(tx, input.store);
    return queueCoverageRun(tx, { ...input, kind: 'discover', day: null, task: DISCOVER_TASK });
  });
}

/**
 * Queues a visit day of a retailer's saved plan (task coverage__visit_day, which plans the day's
 * stores into chunks). Refused (409) without a plan, while the plan is paused or turned off, and,
 * when started by hand, while the plan's scope holds no known store yet.
 */
export function startVisitDay(
  sql: Db,
  input: { store: StoreId; userId: string | null; trigger: CoverageTrigger; day?: string | undefined },
): Promise<{ runId: number }> {
  return inTransaction(sql, async (tx) => {
    await requireActiveStore(tx, input.store);
    const name = SCRAPER_NAMES[input.store];
    const [plan] = await tx<
      Array<{ scope: CoverageScope; enabled: boolean; paused_reason: string | null; paused_at: Date | null }>
    >`
      select scope, enabled, paused_at, paused_reason from coverage_plans where store_id = ${input.store}`;
    if (!plan) throw new AppError(409, `${name} has no coverage plan yet; save a plan before starting its visits.`);
    if (plan.paused_at)
      throw new AppError(
        409,
        `${name}'s plan is paused (${plan.paused_reason ?? 'no reason given'}); save the plan to resume it.`,
      );
    if (!plan.enabled) throw new AppError(409, `${name}'s plan is turned off; save the plan to turn it on.`);
    if (input.trigger === 'manual' && (await scopeSize(tx, input.store, plan.scope)) === 0) {
      throw new AppError(
        409,
        `No known ${name} store is in the plan's scope (${scopeText(plan.scope)}); run a discovery first.`,
      );
    }
    const day = input.day ?? utcDay(new Date());
    return queueCoverageRun(tx, {
      store: input.store,
      kind: 'visit',
      scope: plan.scope,
      userId: input.userId,
      trigger: input.trigger,
      day,
      task: VISIT_DAY_TASK,
    });
  });
}

/**
 * The retailers whose visit day is due on a UTC day (YYYY-MM-DD): an enabled, unpaused plan of an
 * active store, and no scheduled visit run of that day yet.
 */
export async function plansDueForVisitDay(sql: Db, day: string): Promise<StoreId[]> {
  const plans = await sql<Array<{ store_id: StoreId }>>`
      select p.store_id from coverage_plans p join stores s on s.id = p.store_id
      where p.enabled and p.paused_at is null and s.active
        and not exists (select 1 from coverage_runs r where r.store_id = p.store_id and r.kind = 'visit' and r.trigger = 'schedule' and r.day = ${day}::date)
      order by p.store_id`;
  return plans.map((p) => p.store_id);
}

/** A known store of a retailer's directory: open, with the retailer's own id. */
const knownStore = (sql: Db, store: StoreId) =>
  sql`l.store_id = ${store} and l.status = 'open' and l.retailer_location_id is not null`;

/** Stores (as l) inside a scope: every one, the listed states, or within the radius of a ZIP's centre. */
export function scopeFilter(sql: Db, scope: CoverageScope) {
  if (scope.kind === 'nationwide') return sql`true`;
  if (scope.kind === 'states') return sql`l.state = any(${sql.array(scope.states)}::text[])`;
  const centres = scope.zipCodes.map((zip) => zipFacts(zip)).filter((facts) => facts !== null);
  if (centres.length === 0) return sql`false`;
  return sql`l.latitude is not null and exists (
    select 1 from unnest(${sql.array(centres.map((c) => c.latitude))}::float8[], ${sql.array(centres.map((c) => c.longitude))}::float8[]) as c(lat, lon)
    where 2 * ${EARTH_RADIUS_MILES}::float8 * asin(least(1, sqrt(
            power(sin(radians(l.latitude - c.lat) / 2), 2)
            + cos(radians(c.lat)) * cos(radians(l.latitude)) * power(sin(radians(l.longitude - c.lon) / 2), 2))))
          <= ${scope.radiusMiles}::float8)`;
}

export interface ScopeFigures {
  /** Known stores in the scope. */
  stores: number;
  /** Of those, never visited. */
  neverVisited: number;
  /**
   * The first UTC day a store of the scope is due again at the plan's interval (a store never
   * visited is due today); null when the scope holds no known store.
   */
  nextDueDay: string | null;
}

/** A plan's scope in figures: its known stores, those never visited, and when the next is due. */
export async function scopeFigures(
  sql: Db,
  store: StoreId,
  scope: CoverageScope,
  revisitDays: number,
  now: Date,
): Promise<ScopeFigures> {
  const [row] = await sql<Array<{ stores: number; never: number; next_due: string | null }>>`
    select count(*)::int as stores, count(*) filter (where l.last_visit_at is null)::int as never,
           min((l.last_visit_at at time zone 'UTC')::date + ${revisitDays}::int)::text as next_due
    from store_locations l where ${knownStore(sql, store)} and ${scopeFilter(sql, scope)}`;
  const { stores, never, next_due } = row!;
  return {
    stores,
    neverVisited: never,
    nextDueDay: stores === 0 ? null : never > 0 ? utcDay(now) : next_due,
  };
}

/** Known stores of a retailer inside a scope (a plan's, or a draft's for the cost preview). */
export async function scopeSize(sql: Db, store: StoreId, scope: CoverageScope): Promise<number> {
  const [row] = await sql<Array<{ n: number }>>`
    select count(*)::int as n from store_locations l where ${knownStore(sql, store)} and ${scopeFilter(sql, scope)}`;
  return row!.n;
}

export interface SavedPlan {
  store: StoreId;
  scope: CoverageScope;
  scopeText: string;
  revisitDays: number;
  dailyRequestBudget: number;
  enabled: boolean;
  pausedAt: string | null;
  pausedReason: string | null;
  updatedAt: string;
}

export interface PlanRow {
  store_id: StoreId;
  scope: CoverageScope;
  revisit_days: number;
  daily_request_budget: number;
  enabled: boolean;
  paused_at: Date | null;
  paused_reason: string | null;
  updated_at: Date;
}

export const toPlan = (row: PlanRow): SavedPlan => ({
  store: row.store_id,
  scope: row.scope,
  scopeText: scopeText(row.scope),
  revisitDays: row.revisit_days,
  dailyRequestBudget: row.daily_request_budget,
  enabled: row.enabled,
  pausedAt: row.paused_at?.toISOString() ?? null,
  pausedReason: row.paused_reason,
  updatedAt: row.updated_at.toISOString(),
});

/**
 * Saves a retailer's plan (one per retailer). Saving turns it on and clears a pause: an admin
 * who saves has seen why it paused. The budget defaults to the retailer's (defaultDailyBudget).
 */
export async function savePlan(
  sql: Db,
  input: {
    store: StoreId;
    scope: CoverageScope;
    revisitDays: number;
    dailyRequestBudget?: number | undefined;
    userId: string | null;
    delayMs: number;
  },
): Promise<SavedPlan> {
  const budget = input.dailyRequestBudget ?? defaultDailyBudget(input.store, input.delayMs);
  const [row] = await sql<PlanRow[]>`
    insert into coverage_plans (store_id, scope, revisit_days, daily_request_budget, enabled, paused_at, paused_reason, updated_at, updated_by)
    values (${input.store}, ${sql.json(input.scope as never)}, ${input.revisitDays}, ${budget}, true, null, null, now(), ${input.userId})
    on conflict (store_id) do update set
      scope = excluded.scope, revisit_days = excluded.revisit_days, daily_request_budget = excluded.daily_request_budget,
      enabled = true, paused_at = null, paused_reason = null, updated_at = now(), updated_by = excluded.updated_by
    returning store_id, scope, revisit_days, daily_request_budget, enabled, paused_at, paused_reason, updated_at`;
  return toPlan(row!);
}

export interface PublicLocation {
  id: number;
  retailer_location_id: string;
  name: string | null;
  banner: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string;
  latitude: number | null;
  longitude: number | null;
  first_seen_at: string;
  last_seen_at: string | null;
  last_priced_at: string | null;
}

const locationFilter = (sql: Db, store: string, state: string | undefined) =>
  sql`l.store_id = ${store} and l.status = 'open' and l.retailer_location_id is not null ${state ? sql`and l.state = ${state}` : sql``}`;

/** A chain's known open stores (the public directory), by state, city and name. */
export async function listLocations(
  sql: Db,
  input: { store: string; state?: string | undefined; limit: number; offset: number },
): Promise<PublicLocation[]> {
  const rows = await sql<
    Array<
      Omit<PublicLocation, 'first_seen_at' | 'last_seen_at' | 'last_priced_at'> & {
        first_seen_at: Date;
        last_seen_at: Date | null;
        last_priced_at: Date | null;
      }
    >
  >`
    select l.id, l.retailer_location_id, l.name, l.banner, l.address, l.city, l.state, l.zip, l.latitude, l.longitude,
           l.first_seen_at, l.last_seen_at, l.last_priced_at
    from store_locations l
    where ${locationFilter(sql, input.store, input.state)}
    order by l.state nulls last, l.city nulls last, l.name nulls last, l.id
    limit ${input.limit} offset ${input.offset}`;
  return rows.map((r) => ({
    ...r,
    first_seen_at: r.first_seen_at.toISOString(),
    last_seen_at: r.last_seen_at?.toISOString() ?? null,
    last_priced_at: r.last_priced_at?.toISOString() ?? null,
  }));
}

export async function countLocations(sql: Db, input: { store: string; state?: string | undefined }): Promise<number> {
  const [row] = await sql<
    Array<{ n: number }>
  >`select count(*)::int as n from store_locations l where ${locationFilter(sql, input.store, input.state)}`;
  return row!.n;
}
