// The figures of each retailer's coverage (GET /api/coverage and the admin Coverage tab): its
// store directory counted (known, in the plan's scope, visited in 24 hours and 7 days, never
// visited, failing and blocked with their reasons, by state), the failing stores, the next planned
// chunk, the latest discovery and visit day with their live counters, and the plan with its cost
// from measured requests per visit.
import {
  defaultDailyBudget,
  ESTIMATED_REQUESTS_PER_VISIT,
  planCost,
  scopeText,
  type CoverageRunStatus,
  type CoverageScope,
  type PlanCost,
  type SkippedReason,
  nextVisitDayAt,
} from '#shared/coverage.ts';
import { utcDay } from '#shared/format.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';
import {
  scopeFigures,
  toPlan,
  type CoverageKind,
  type CoverageTrigger,
  type PlanRow,
  type SavedPlan,
} from './coverage.ts';

/** Failing stores listed per retailer (the count says how many there are in all). */
export const FAILING_STORES_LISTED = 20;
/** Distinct failure reasons listed per retailer. */
export const REASONS_LISTED = 8;
/** Stores of the next chunk named in the figures. */
const NEXT_CHUNK_NAMES = 3;
/** Days of visits (or ZIP runs) the measured requests per visit average over. */
export const MEASURE_DAYS = 7;

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
  /** Of the stores found, those inside the run's scope (null for a run from before it was counted). */
  storesInScope: number | null;
  storesNew: number;
  storesClosed: number;
  /** Stores the locator answered that could not be filed, and why. */
  storesSkipped: number;
  skippedReasons: SkippedReason[];
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
  stores_in_scope: number | null;
  stores_new: number;
  stores_closed: number;
  stores_skipped: number;
  skipped_reasons: SkippedReason[];
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

const dayText = (day: Date | string | null) =>
  day === null ? null : typeof day === 'string' ? day.slice(0, 10) : utcDay(day);

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
  storesInScope: r.stores_in_scope,
  storesNew: r.stores_new,
  storesClosed: r.stores_closed,
  storesSkipped: r.stores_skipped,
  skippedReasons: r.skipped_reasons,
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
  /** Known stores in the plan's scope; without a plan, every known store. */
  inScope: number;
  /** What inScope counts: the plan's scope, or (no plan yet) every known store. */
  inScopeBasis: 'plan' | 'known';
  visitedDay: number;
  visitedWeek: number;
  /** Stores in scope (as inScope) never visited. */
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
  /** The running or latest visit day that had stores to visit (a day with none due does not replace it). */
  visit: CoverageRunSummary | null;
  /** The latest scheduled visit day, when newer than `visit`, that found no store due; with the first day one is due again. */
  nothingDue: { day: string | null; finishedAt: string | null; nextDueDay: string | null } | null;
  plan: PlanFigures | null;
  requestsPerVisit: RequestsPerVisit;
  defaultBudget: number;
  delayMs: number;
}

/** Every retailer's coverage figures (GET /api/coverage), in the vocabulary's store order. */
export async function coverageFigures(sql: Db, options: { delayMs: number; now?: Date }): Promise<RetailerCoverage[]> {
  const now = options.now ?? new Date();
  const day = sql`${now}::timestamptz - interval '24 hours'`;
  const week = sql`${now}::timestamptz - interval '7 days'`;
  const known = sql`l.status = 'open' and l.retailer_location_id is not null`;
  const blockedKind = sql`l.last_visit_status = 'failed' and l.last_visit_kind = 'blocked'`;
  const failingKind = sql`l.last_visit_status = 'failed' and l.last_visit_kind is distinct from 'blocked'`;
  const [stores, counts, states, reasons, failing, runs, plans, chunks, measured, startedToday] = await Promise.all([
    sql<Array<{ id: StoreId; active: boolean }>>`select id, active from stores`,
    sql<
      Array<{
        store_id: StoreId;
        known: number;
        visited_day: number;
        visited_week: number;
        never: number;
        failing: number;
        blocked: number;
      }>
    >`
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
    sql<
      Array<{
        store_id: StoreId;
        id: number;
        retailer_location_id: string;
        name: string | null;
        address: string | null;
        city: string | null;
        state: string | null;
        zip: string;
        last_visit_kind: string | null;
        last_visit_message: string | null;
        last_visit_at: Date;
        last_priced_at: Date | null;
      }>
    >`
      select store_id, id, retailer_location_id, name, address, city, state, zip, last_visit_kind, last_visit_message, last_visit_at, last_priced_at from (
        select l.store_id, l.id, l.retailer_location_id, l.name, l.address, l.city, l.state, l.zip,
               l.last_visit_kind, l.last_visit_message, l.last_visit_at, l.last_priced_at,
               row_number() over (partition by l.store_id order by l.last_visit_at desc, l.id) as rank
        from store_locations l where ${known} and l.last_visit_status = 'failed') f
      where rank <= ${FAILING_STORES_LISTED} order by store_id, rank`,
    // The latest discovery, the latest visit day with stores to visit, and the latest that had none due.
    sql<Array<RunRow & { nothing_due: boolean }>>`
      select distinct on (store_id, kind, nothing_due) id, store_id, kind, status, trigger, scope, day, demo, points_planned, points_done,
             locator_calls, stores_found, stores_in_scope, stores_new, stores_closed, stores_skipped, skipped_reasons, stores_planned,
             stores_visited, stores_failed, stores_blocked, chunks_planned, chunks_done, requests, message, created_at, started_at,
             finished_at, heartbeat_at, nothing_due
      from coverage_runs order by store_id, kind, nothing_due, created_at desc, id desc`,
    sql<
      PlanRow[]
    >`select store_id, scope, revisit_days, daily_request_budget, enabled, paused_at, paused_reason, updated_at from coverage_plans`,
    sql<
      Array<{
        store_id: StoreId;
        run_id: number;
        chunk: number;
        chunks: number;
        stores: number;
        first_stores: string[];
      }>
    >`
      select distinct on (r.store_id) r.store_id, c.run_id, c.chunk, greatest(r.chunks_planned, (select count(*)::int from coverage_chunks a where a.run_id = r.id)) as chunks,
             coalesce(array_length(c.location_ids, 1), 0) as stores,
             array(select coalesce(l.name, l.city, l.zip) || coalesce(', ' || l.state, '')
                   from unnest(c.location_ids[1:${NEXT_CHUNK_NAMES}]) with ordinality as u(id, n) join store_locations l on l.id = u.id order by u.n) as first_stores
      from coverage_runs r join coverage_chunks c on c.run_id = r.id
      where r.kind = 'visit' and r.status in ('queued', 'running') and c.status = 'queued'
      order by r.store_id, c.chunk`,
    requestsPerVisit(sql),
    sql<Array<{ store_id: StoreId }>>`
      select distinct store_id from coverage_runs
      where kind = 'visit' and trigger = 'schedule' and day = ${utcDay(now)}::date`,
  ]);
  const active = new Map(stores.map((s) => [s.id, s.active]));
  const countsBy = new Map(counts.map((c) => [c.store_id, c]));
  const planBy = new Map(plans.map((p) => [p.store_id, toPlan(p)]));
  const chunkBy = new Map(chunks.map((c) => [c.store_id, c]));
  const inScope = new Map<StoreId, Awaited<ReturnType<typeof scopeFigures>>>();
  await Promise.all(
    [...planBy.values()].map(async (plan) =>
      inScope.set(plan.store, await scopeFigures(sql, plan.store, plan.scope, plan.revisitDays, now)),
    ),
  );

  return STORE_IDS.map((store): RetailerCoverage => {
    const c = countsBy.get(store);
    const plan = planBy.get(store) ?? null;
    const perVisit = measured[store];
    const visit = runs.find((r) => r.store_id === store && r.kind === 'visit' && !r.nothing_due);
    const quiet = runs.find((r) => r.store_id === store && r.kind === 'visit' && r.nothing_due);
    const discovery = runs.find((r) => r.store_id === store && r.kind === 'discover');
    const chunk = chunkBy.get(store);
    const visitActive = visit !== undefined && (visit.status === 'queued' || visit.status === 'running');
    const scoped = inScope.get(store);
    const storesInScope = scoped?.stores ?? 0;
    // Ids grow with creation: the day with none due is shown when no visit day came after it.
    const quietIsLatest = quiet !== undefined && (visit === undefined || quiet.id > visit.id);
    return {
      store,
      name: SCRAPER_NAMES[store],
      active: active.get(store) ?? false,
      known: c?.known ?? 0,
      inScope: scoped ? scoped.stores : (c?.known ?? 0),
      inScopeBasis: plan ? 'plan' : 'known',
      visitedDay: c?.visited_day ?? 0,
      visitedWeek: c?.visited_week ?? 0,
      neverVisited: scoped ? scoped.neverVisited : (c?.never ?? 0),
      failing: c?.failing ?? 0,
      blocked: c?.blocked ?? 0,
      reasons: reasons
        .filter((r) => r.store_id === store)
        .map((r) => ({ kind: r.kind, message: r.message, stores: r.stores })),
      states: states
        .filter((s) => s.store_id === store)
        .map((s) => ({
          state: s.state,
          known: s.known,
          visitedDay: s.visited_day,
          share: s.known === 0 ? 0 : s.visited_day / s.known,
        })),
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
      nextChunk: chunk
        ? {
            runId: chunk.run_id,
            chunk: chunk.chunk,
            chunks: chunk.chunks,
            stores: chunk.stores,
            firstStores: chunk.first_stores,
          }
        : null,
      nextDayAt:
        plan && plan.enabled && !plan.pausedAt && !visitActive
          ? nextVisitDayAt(
              now,
              startedToday.some((r) => r.store_id === store),
            ).toISOString()
          : null,
      discovery: discovery ? toRun(discovery) : null,
      visit: visit ? toRun(visit) : null,
      nothingDue:
        quiet && quietIsLatest
          ? {
              day: dayText(quiet.day),
              finishedAt: quiet.finished_at?.toISOString() ?? null,
              nextDueDay: scoped?.nextDueDay ?? null,
            }
          : null,
      plan: plan
        ? {
            ...plan,
            storesInScope,
            cost: planCost({
              storesInScope,
              requestsPerVisit: perVisit.value,
              revisitDays: plan.revisitDays,
              dailyRequestBudget: plan.dailyRequestBudget,
              delayMs: options.delayMs,
            }),
          }
        : null,
      requestsPerVisit: perVisit,
      defaultBudget: defaultDailyBudget(store, options.delayMs),
      delayMs: options.delayMs,
    };
  });
}
