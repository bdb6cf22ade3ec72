// Nationwide coverage from the admin side: starting a discovery sweep or a plan's visit day (a
// coverage_runs row and its job in the retailer's queue, written in one transaction), saving a
// plan, and the figures the Coverage tab and GET /api/coverage show for each retailer. The
// public list of a chain's known open stores lives here too. The worker's tasks do the sweeping
// and visiting; nothing here sends a request to a retailer.
import {
  defaultDailyBudget,
  ESTIMATED_REQUESTS_PER_VISIT,
  planCost,
  retailerQueue,
  scopeText,
  type CoverageRunStatus,
  type CoverageScope,
  type PlanCost,
} from '#shared/coverage.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import type { Db, Sql } from '../db.ts';
import { EARTH_RADIUS_MILES, zipFacts } from '../geo.ts';
import { AppError } from './errors.ts';

export const DISCOVER_TASK = 'coverage__discover';
export const VISIT_DAY_TASK = 'coverage__visit_day';
export const COVERAGE_JOB_MAX_ATTEMPTS = 5;
export const coverageJobKey = (runId: number) => `coverage:${runId}`;

/** Failing stores listed per retailer (the count says how many there are in all). */
export const FAILING_STORES_LISTED = 20;
/** Distinct failure reasons listed per retailer. */
export const REASONS_LISTED = 8;
/** Stores of the next chunk named in the figures. */
const NEXT_CHUNK_NAMES = 3;
/** Days of visits (or ZIP runs) the measured requests per visit average over. */
export const MEASURE_DAYS = 7;

export type CoverageKind = 'discover' | 'visit';
export type CoverageTrigger = 'manual' | 'schedule';

const kindWords: Record<CoverageKind, string> = { discover: 'discovery', visit: 'visit day' };

/** Runs with a callback inside a transaction: a fresh one on the pool, the caller's otherwise. */
async function inTransaction<T>(sql: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  return 'begin' in sql ? ((await (sql as Sql).begin((tx) => body(tx))) as T) : body(sql);
}

async function requireActiveStore(tx: Db, store: StoreId): Promise<void> {
  const [row] = await tx<Array<{ active: boolean }>>`select active from stores where id = ${store}`;
  if (!row) throw new AppError(404, `No store ${store}`);
  if (!row.active) throw new AppError(409, `${SCRAPER_NAMES[store]} is inactive; activate the store first.`);
}

/**
 * Inserts a queued run and its job (payload { runId }, in the retailer's queue). A second run of
 * the same kind while one is queued or running is a 409, as is a second scheduled visit day.
 * `on conflict do nothing` keeps a caller's transaction usable after a refusal.
 */
async function queueCoverageRun(
  tx: Db,
  run: { store: StoreId; kind: CoverageKind; scope: CoverageScope; userId: string | null; trigger: CoverageTrigger; day: string | null; task: string },
): Promise<{ runId: number }> {
  const [row] = await tx<Array<{ id: number }>>`
    insert into coverage_runs (store_id, kind, scope, trigger, day, created_by)
    values (${run.store}, ${run.kind}, ${tx.json(run.scope as never)}, ${run.trigger}, ${run.day}, ${run.userId})
    on conflict do nothing
    returning id`;
  if (!row) {
    const name = SCRAPER_NAMES[run.store];
    const [active] = await tx`select 1 from coverage_runs where store_id = ${run.store} and kind = ${run.kind} and status in ('queued', 'running')`;
    if (active) throw new AppError(409, `A ${name} ${kindWords[run.kind]} is already queued or running; wait for it to finish.`);
    throw new AppError(409, `${name} already has the scheduled visit day of ${run.day}.`);
  }
  await tx`
    select graphile_worker.add_job(${run.task}, json_build_object('runId', ${row.id}::int),
      queue_name := ${retailerQueue(run.store)}, job_key := ${coverageJobKey(row.id)}, max_attempts := ${COVERAGE_JOB_MAX_ATTEMPTS})`;
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

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

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
    const [plan] = await tx<Array<{ scope: CoverageScope; enabled: boolean; paused_reason: string | null; paused_at: Date | null }>>`
      select scope, enabled, paused_at, paused_reason from coverage_plans where store_id = ${input.store}`;
    if (!plan) throw new AppError(409, `${name} has no coverage plan yet; save a plan before starting its visits.`);
    if (plan.paused_at) throw new AppError(409, `${name}'s plan is paused (${plan.paused_reason ?? 'no reason given'}); save the plan to resume it.`);
    if (!plan.enabled) throw new AppError(409, `${name}'s plan is turned off; save the plan to turn it on.`);
    if (input.trigger === 'manual' && (await scopeSize(tx, input.store, plan.scope)) === 0) {
      throw new AppError(409, `No known ${name} store is in the plan's scope (${scopeText(plan.scope)}); run a discovery first.`);
    }
    const day = input.day ?? utcDay(new Date());
    return queueCoverageRun(tx, { store: input.store, kind: 'visit', scope: plan.scope, userId: input.userId, trigger: input.trigger, day, task: VISIT_DAY_TASK });
  });
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

interface PlanRow {
  store_id: StoreId;
  scope: CoverageScope;
  revisit_days: number;
  daily_request_budget: number;
  enabled: boolean;
  paused_at: Date | null;
  paused_reason: string | null;
  updated_at: Date;
}

const toPlan = (row: PlanRow): SavedPlan => ({
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
  input: { store: StoreId; scope: CoverageScope; revisitDays: number; dailyRequestBudget?: number | undefined; userId: string | null; delayMs: number },
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

export type RequestsPerVisitSource = 'visits' | 'zip-runs' | 'estimate';

export interface RequestsPerVisit {
  value: number;
  /** visits: measured on store visits; zip-runs: on ZIP runs (a ZIP also locates its store); estimate: no measure yet. */
  source: RequestsPerVisitSource;
  /** Visits or ZIP outcomes measured (0 for an estimate). */
  samples: number;
}

/** Requests per store visit of each retailer, measured over the last MEASURE_DAYS days where possible. */
export async function requestsPerVisit(sql: Db): Promise<Record<StoreId, RequestsPerVisit>> {
  const [visits, zips] = await Promise.all([
    sql<Array<{ store_id: StoreId; avg: number; n: number }>>`
      select r.store_id, avg(v.requests)::float8 as avg, count(*)::int as n
      from coverage_visits v join coverage_runs r on r.id = v.run_id
      where v.finished_at > now() - make_interval(days => ${MEASURE_DAYS}) and v.requests > 0
      group by r.store_id`,
    sql<Array<{ store_id: StoreId; avg: number; n: number }>>`
      select r.store_id, avg(z.requests)::float8 as avg, count(*)::int as n
      from scrape_run_zips z join scrape_runs r on r.id = z.run_id
      where z.finished_at > now() - make_interval(days => ${MEASURE_DAYS}) and z.requests > 0
      group by r.store_id`,
  ]);
  const byVisits = new Map(visits.map((v) => [v.store_id, v]));
  const byZips = new Map(zips.map((z) => [z.store_id, z]));
  const round = (n: number) => Math.round(n * 100) / 100;
  const result = {} as Record<StoreId, RequestsPerVisit>;
  for (const store of STORE_IDS) {
    const measured = byVisits.get(store);
    const zip = byZips.get(store);
    result[store] = measured
      ? { value: round(measured.avg), source: 'visits', samples: measured.n }
      : zip
        ? { value: round(zip.avg), source: 'zip-runs', samples: zip.n }
        : { value: ESTIMATED_REQUESTS_PER_VISIT[store], source: 'estimate', samples: 0 };
  }
  return result;
}

export interface CoverageRunSummary {
  id: number;
  kind: CoverageKind;
  status: CoverageRunStatus;
  active: boolean;
  trigger: CoverageTrigger;
  scope: CoverageScope;
  scopeText: string;
  day: string | null;
  demo: boolean;
  pointsPlanned: number;
  pointsDone: number;
  locatorCalls: number;
  storesFound: number;
  storesNew: number;
  storesClosed: number;
  storesPlanned: number;
  storesVisited: number;
  storesFailed: number;
  storesBlocked: number;
  chunksPlanned: number;
  chunksDone: number;
  requests: number;
  message: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  heartbeatAt: string | null;
}

interface RunRow {
  id: number;
  store_id: StoreId;
  kind: CoverageKind;
  status: CoverageRunStatus;
  trigger: CoverageTrigger;
  scope: CoverageScope;
  day: Date | string | null;
  demo: boolean;
  points_planned: number;
  points_done: number;
  locator_calls: number;
  stores_found: number;
  stores_new: number;
  stores_closed: number;
  stores_planned: number;
  stores_visited: number;
  stores_failed: number;
  stores_blocked: number;
  chunks_planned: number;
  chunks_done: number;
  requests: number;
  message: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  heartbeat_at: Date | null;
}

const dayText = (day: Date | string | null) => (day === null ? null : typeof day === 'string' ? day.slice(0, 10) : utcDay(day));

const toRun = (r: RunRow): CoverageRunSummary => ({
  id: r.id,
  kind: r.kind,
  status: r.status,
  active: r.status === 'queued' || r.status === 'running',
  trigger: r.trigger,
  scope: r.scope,
  scopeText: scopeText(r.scope),
  day: dayText(r.day),
  demo: r.demo,
  pointsPlanned: r.points_planned,
  pointsDone: r.points_done,
  locatorCalls: r.locator_calls,
  storesFound: r.stores_found,
  storesNew: r.stores_new,
  storesClosed: r.stores_closed,
  storesPlanned: r.stores_planned,
  storesVisited: r.stores_visited,
  storesFailed: r.stores_failed,
  storesBlocked: r.stores_blocked,
  chunksPlanned: r.chunks_planned,
  chunksDone: r.chunks_done,
  requests: r.requests,
  message: r.message,
  createdAt: r.created_at.toISOString(),
  startedAt: r.started_at?.toISOString() ?? null,
  finishedAt: r.finished_at?.toISOString() ?? null,
  heartbeatAt: r.heartbeat_at?.toISOString() ?? null,
});

export interface StateFigures {
  state: string;
  known: number;
  visitedDay: number;
  /** Share of the state's known stores visited in the last 24 hours, 0 to 1. */
  share: number;
}

export interface FailureReason {
  /** blocked, structure, http, no-store, config, rate-limited (the visit's kind), or null when not told. */
  kind: string | null;
  message: string | null;
  stores: number;
}

export interface FailingStore {
  id: number;
  retailerId: string;
  name: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string;
  kind: string | null;
  message: string | null;
  lastVisitAt: string;
  lastPricedAt: string | null;
}

export interface NextChunk {
  runId: number;
  /** 0-based chunk number, and how many the day has. */
  chunk: number;
  chunks: number;
  stores: number;
  /** The first few stores of the chunk, by name (or city) for the screen. */
  firstStores: string[];
}

export interface PlanFigures extends SavedPlan {
  storesInScope: number;
  cost: PlanCost;
}

export interface RetailerCoverage {
  store: StoreId;
  name: string;
  active: boolean;
  /** Known stores: open, with the retailer's own id. */
  known: number;
  /** Known stores in the plan's scope (null without a plan). */
  inScope: number | null;
  visitedDay: number;
  visitedWeek: number;
  neverVisited: number;
  /** Last visit failed for another reason than a block. */
  failing: number;
  /** Last visit met the retailer's block page. */
  blocked: number;
  reasons: FailureReason[];
  states: StateFigures[];
  failingStores: FailingStore[];
  nextChunk: NextChunk | null;
  /** When the next scheduled visit day begins (the next UTC day), for an enabled plan without a visit day running. */
  nextDayAt: string | null;
  discovery: CoverageRunSummary | null;
  visit: CoverageRunSummary | null;
  plan: PlanFigures | null;
  requestsPerVisit: RequestsPerVisit;
  defaultBudget: number;
  delayMs: number;
}

const nextUtcMidnight = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

/** Every retailer's coverage figures (GET /api/coverage), in the vocabulary's store order. */
export async function coverageFigures(sql: Db, options: { delayMs: number; now?: Date }): Promise<RetailerCoverage[]> {
  const now = options.now ?? new Date();
  const day = sql`${now}::timestamptz - interval '24 hours'`;
  const week = sql`${now}::timestamptz - interval '7 days'`;
  const known = sql`l.status = 'open' and l.retailer_location_id is not null`;
  const blockedKind = sql`l.last_visit_status = 'failed' and l.last_visit_kind = 'blocked'`;
  const failingKind = sql`l.last_visit_status = 'failed' and l.last_visit_kind is distinct from 'blocked'`;
  const [stores, counts, states, reasons, failing, runs, plans, chunks, measured] = await Promise.all([
    sql<Array<{ id: StoreId; active: boolean }>>`select id, active from stores`,
    sql<Array<{ store_id: StoreId; known: number; visited_day: number; visited_week: number; never: number; failing: number; blocked: number }>>`
      select l.store_id, count(*)::int as known,
             count(*) filter (where l.last_visit_at > ${day})::int as visited_day,
             count(*) filter (where l.last_visit_at > ${week})::int as visited_week,
             count(*) filter (where l.last_visit_at is null)::int as never,
             count(*) filter (where ${failingKind})::int as failing,
             count(*) filter (where ${blockedKind})::int as blocked
      from store_locations l where ${known} group by l.store_id`,
    sql<Array<{ store_id: StoreId; state: string; known: number; visited_day: number }>>`
      select l.store_id, l.state, count(*)::int as known, count(*) filter (where l.last_visit_at > ${day})::int as visited_day
      from store_locations l where ${known} and l.state is not null group by l.store_id, l.state order by l.store_id, l.state`,
    sql<Array<{ store_id: StoreId; kind: string | null; message: string | null; stores: number }>>`
      select store_id, kind, message, stores from (
        select l.store_id, l.last_visit_kind as kind, l.last_visit_message as message, count(*)::int as stores,
               row_number() over (partition by l.store_id order by count(*) desc, l.last_visit_kind, l.last_visit_message) as rank
        from store_locations l where ${known} and l.last_visit_status = 'failed'
        group by l.store_id, l.last_visit_kind, l.last_visit_message) r
      where rank <= ${REASONS_LISTED} order by store_id, rank`,
    sql<Array<{ store_id: StoreId; id: number; retailer_location_id: string; name: string | null; address: string | null; city: string | null; state: string | null; zip: string; last_visit_kind: string | null; last_visit_message: string | null; last_visit_at: Date; last_priced_at: Date | null }>>`
      select store_id, id, retailer_location_id, name, address, city, state, zip, last_visit_kind, last_visit_message, last_visit_at, last_priced_at from (
        select l.store_id, l.id, l.retailer_location_id, l.name, l.address, l.city, l.state, l.zip,
               l.last_visit_kind, l.last_visit_message, l.last_visit_at, l.last_priced_at,
               row_number() over (partition by l.store_id order by l.last_visit_at desc, l.id) as rank
        from store_locations l where ${known} and l.last_visit_status = 'failed') f
      where rank <= ${FAILING_STORES_LISTED} order by store_id, rank`,
    sql<RunRow[]>`
      select distinct on (store_id, kind) id, store_id, kind, status, trigger, scope, day, demo, points_planned, points_done, locator_calls,
             stores_found, stores_new, stores_closed, stores_planned, stores_visited, stores_failed, stores_blocked, chunks_planned, chunks_done,
             requests, message, created_at, started_at, finished_at, heartbeat_at
      from coverage_runs order by store_id, kind, created_at desc, id desc`,
    sql<PlanRow[]>`select store_id, scope, revisit_days, daily_request_budget, enabled, paused_at, paused_reason, updated_at from coverage_plans`,
    sql<Array<{ store_id: StoreId; run_id: number; chunk: number; chunks: number; stores: number; first_stores: string[] }>>`
      select distinct on (r.store_id) r.store_id, c.run_id, c.chunk, greatest(r.chunks_planned, (select count(*)::int from coverage_chunks a where a.run_id = r.id)) as chunks,
             coalesce(array_length(c.location_ids, 1), 0) as stores,
             array(select coalesce(l.name, l.city, l.zip) || coalesce(', ' || l.state, '')
                   from unnest(c.location_ids[1:${NEXT_CHUNK_NAMES}]) with ordinality as u(id, n) join store_locations l on l.id = u.id order by u.n) as first_stores
      from coverage_runs r join coverage_chunks c on c.run_id = r.id
      where r.kind = 'visit' and r.status in ('queued', 'running') and c.status = 'queued'
      order by r.store_id, c.chunk`,
    requestsPerVisit(sql),
  ]);
  const active = new Map(stores.map((s) => [s.id, s.active]));
  const countsBy = new Map(counts.map((c) => [c.store_id, c]));
  const planBy = new Map(plans.map((p) => [p.store_id, toPlan(p)]));
  const chunkBy = new Map(chunks.map((c) => [c.store_id, c]));
  const inScope = new Map<StoreId, number>();
  await Promise.all([...planBy.values()].map(async (plan) => inScope.set(plan.store, await scopeSize(sql, plan.store, plan.scope))));

  return STORE_IDS.map((store): RetailerCoverage => {
    const c = countsBy.get(store);
    const plan = planBy.get(store) ?? null;
    const perVisit = measured[store];
    const visit = runs.find((r) => r.store_id === store && r.kind === 'visit');
    const discovery = runs.find((r) => r.store_id === store && r.kind === 'discover');
    const chunk = chunkBy.get(store);
    const visitActive = visit !== undefined && (visit.status === 'queued' || visit.status === 'running');
    const storesInScope = inScope.get(store) ?? 0;
    return {
      store,
      name: SCRAPER_NAMES[store],
      active: active.get(store) ?? false,
      known: c?.known ?? 0,
      inScope: plan ? storesInScope : null,
      visitedDay: c?.visited_day ?? 0,
      visitedWeek: c?.visited_week ?? 0,
      neverVisited: c?.never ?? 0,
      failing: c?.failing ?? 0,
      blocked: c?.blocked ?? 0,
      reasons: reasons.filter((r) => r.store_id === store).map((r) => ({ kind: r.kind, message: r.message, stores: r.stores })),
      states: states
        .filter((s) => s.store_id === store)
        .map((s) => ({ state: s.state, known: s.known, visitedDay: s.visited_day, share: s.known === 0 ? 0 : s.visited_day / s.known })),
      failingStores: failing
        .filter((f) => f.store_id === store)
        .map((f) => ({
          id: f.id,
          retailerId: f.retailer_location_id,
          name: f.name,
          address: f.address,
          city: f.city,
          state: f.state,
          zip: f.zip,
          kind: f.last_visit_kind,
          message: f.last_visit_message,
          lastVisitAt: f.last_visit_at.toISOString(),
          lastPricedAt: f.last_priced_at?.toISOString() ?? null,
        })),
      nextChunk: chunk ? { runId: chunk.run_id, chunk: chunk.chunk, chunks: chunk.chunks, stores: chunk.stores, firstStores: chunk.first_stores } : null,
      nextDayAt: plan && plan.enabled && !plan.pausedAt && !visitActive ? nextUtcMidnight(now).toISOString() : null,
      discovery: discovery ? toRun(discovery) : null,
      visit: visit ? toRun(visit) : null,
      plan: plan
        ? {
            ...plan,
            storesInScope,
            cost: planCost({ storesInScope, requestsPerVisit: perVisit.value, revisitDays: plan.revisitDays, dailyRequestBudget: plan.dailyRequestBudget, delayMs: options.delayMs }),
          }
        : null,
      requestsPerVisit: perVisit,
      defaultBudget: defaultDailyBudget(store, options.delayMs),
      delayMs: options.delayMs,
    };
  });
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
export async function listLocations(sql: Db, input: { store: string; state?: string | undefined; limit: number; offset: number }): Promise<PublicLocation[]> {
  const rows = await sql<Array<Omit<PublicLocation, 'first_seen_at' | 'last_seen_at' | 'last_priced_at'> & { first_seen_at: Date; last_seen_at: Date | null; last_priced_at: Date | null }>>`
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
  const [row] = await sql<Array<{ n: number }>>`select count(*)::int as n from store_locations l where ${locationFilter(sql, input.store, input.state)}`;
  return row!.n;
}
