// The admin side of coverage against PostgreSQL: a start writes its run and its job (in the
// retailer's queue) together and refuses a second while one is queued or running; a visit day
// needs a saved, unpaused plan; saving clears a pause; the figures count the directory as it is
// (known, in scope, visited, never visited, failing and blocked with reasons, per state), measure
// requests per visit, name the next chunk and show a running run's counters; the public list pages.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  coverageScopeSchema,
  ESTIMATED_REQUESTS_PER_VISIT,
  planCost,
  type CoverageScopeInput,
} from '#shared/coverage.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { createAccount, type TestAccount } from '../../../test/users.ts';
import { AppError } from './errors.ts';
import { countLocations, listLocations, savePlan, scopeSize, startDiscovery, startVisitDay } from './coverage.ts';
import { coverageFigures } from './coverage-figures.ts';

let db: TestDatabase;
let admin: TestAccount;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createAccount(db.sql, { role: 'admin' });
});
afterAll(() => db.drop());
beforeEach(async () => {
  await db.sql`delete from coverage_runs`;
  await db.sql`delete from coverage_plans`;
  await db.sql`delete from store_locations where retailer_location_id like 'cov-%'`;
  await db.sql`delete from graphile_worker._private_jobs`;
  await db.sql`update stores set active = true`;
});

const scope = (input: CoverageScopeInput) => coverageScopeSchema.parse(input);

const jobs = () =>
  db.sql<{ task: string; queue: string | null; key: string; payload: { runId: number } }[]>`
    select t.identifier as task, q.queue_name as queue, j.key, j.payload
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    left join graphile_worker._private_job_queues q on q.id = j.job_queue_id order by j.id`;

interface StoreRow {
  store?: string;
  id: string;
  zip: string;
  state: string;
  city?: string;
  lat?: number | null;
  lon?: number | null;
  status?: 'open' | 'closed';
  visitHoursAgo?: number | null;
  visitStatus?: 'succeeded' | 'failed';
  kind?: string | null;
  message?: string | null;
}

async function addStore(row: StoreRow): Promise<number> {
  const visitAt = row.visitHoursAgo == null ? null : new Date(Date.now() - row.visitHoursAgo * 3_600_000);
  const [inserted] = await db.sql<{ id: number }[]>`
    insert into store_locations (store_id, zip, region, retailer_location_id, name, city, state, latitude, longitude, coordinates_source, status, closed_at,
                                 last_visit_at, last_visit_status, last_visit_kind, last_visit_message)
    values (${row.store ?? 'walmart'}, ${row.zip}, 'west', ${`cov-${row.id}`}, ${`Store ${row.id}`}, ${row.city ?? 'Town'}, ${row.state},
            ${row.lat ?? null}, ${row.lon ?? null}, ${row.lat == null ? null : 'retailer'}, ${row.status ?? 'open'}, ${row.status === 'closed' ? new Date() : null},
            ${visitAt}, ${visitAt ? (row.visitStatus ?? 'succeeded') : null}, ${row.kind ?? null}, ${row.message ?? null})
    returning id`;
  return inserted!.id;
}

describe('startDiscovery', () => {
  it('writes a queued run and its coverage__discover job in the retailer queue', async () => {
    const { runId } = await startDiscovery(db.sql, {
      store: 'kroger',
      scope: scope({ kind: 'states', states: ['ut', 'RI'] }),
      userId: admin.user.id,
      trigger: 'manual',
    });
    const [run] =
      await db.sql`select store_id, kind, status, scope, trigger, created_by, day from coverage_runs where id = ${runId}`;
    expect(run).toEqual({
      store_id: 'kroger',
      kind: 'discover',
      status: 'queued',
      scope: { kind: 'states', states: ['RI', 'UT'] },
      trigger: 'manual',
      created_by: admin.user.id,
      day: null,
    });
    expect(await jobs()).toEqual([
      { task: 'coverage__discover', queue: 'retailer:kroger', key: `coverage-discover:${runId}`, payload: { runId } },
    ]);
  });

  it('refuses a second discovery of the same retailer while one is queued or running (409), not another kind or retailer', async () => {
    await startDiscovery(db.sql, {
      store: 'target',
      scope: scope({ kind: 'nationwide' }),
      userId: null,
      trigger: 'manual',
    });
    const again = startDiscovery(db.sql, {
      store: 'target',
      scope: scope({ kind: 'nationwide' }),
      userId: null,
      trigger: 'manual',
    });
    await expect(again).rejects.toThrow(AppError);
    await expect(again).rejects.toMatchObject({
      status: 409,
      message: 'A Target discovery is already queued or running; wait for it to finish.',
    });
    await db.sql`update coverage_runs set status = 'running'`;
    await expect(
      startDiscovery(db.sql, {
        store: 'target',
        scope: scope({ kind: 'nationwide' }),
        userId: null,
        trigger: 'manual',
      }),
    ).rejects.toMatchObject({ status: 409 });
    await startDiscovery(db.sql, {
      store: 'aldi',
      scope: scope({ kind: 'nationwide' }),
      userId: null,
      trigger: 'manual',
    });
    await db.sql`update coverage_runs set status = 'succeeded' where store_id = 'target'`;
    await startDiscovery(db.sql, {
      store: 'target',
      scope: scope({ kind: 'nationwide' }),
      userId: null,
      trigger: 'manual',
    });
    expect((await jobs()).map((j) => j.queue)).toEqual(['retailer:target', 'retailer:aldi', 'retailer:target']);
  });

  it('refuses an inactive store (409) and writes nothing', async () => {
    await db.sql`update stores set active = false where id = 'aldi'`;
    await expect(
      startDiscovery(db.sql, { store: 'aldi', scope: scope({ kind: 'nationwide' }), userId: null, trigger: 'manual' }),
    ).rejects.toMatchObject({
      status: 409,
      message: 'Aldi is inactive; activate the store first.',
    });
    expect(await db.sql`select id from coverage_runs`).toHaveLength(0);
    expect(await jobs()).toHaveLength(0);
  });
});

describe('startVisitDay and savePlan', () => {
  it('needs a saved plan', async () => {
    await expect(startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' })).rejects.toMatchObject({
      status: 409,
      message: 'Walmart has no coverage plan yet; save a plan before starting its visits.',
    });
  });

  it("needs a known store in the plan's scope when started by hand", async () => {
    await savePlan(db.sql, {
      store: 'walmart',
      scope: scope({ kind: 'states', states: ['RI'] }),
      revisitDays: 1,
      userId: admin.user.id,
      delayMs: 1500,
    });
    await expect(startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' })).rejects.toMatchObject({
      status: 409,
      message: "No known Walmart store is in the plan's scope (1 state: RI); run a discovery first.",
    });
  });

  it("queues the plan's visit day with its scope and day, in the retailer queue; 409 while one runs", async () => {
    await addStore({ id: 'ri1', zip: '02903', state: 'RI' });
    await savePlan(db.sql, {
      store: 'walmart',
      scope: scope({ kind: 'states', states: ['RI'] }),
      revisitDays: 2,
      dailyRequestBudget: 500,
      userId: admin.user.id,
      delayMs: 1500,
    });
    const { runId } = await startVisitDay(db.sql, { store: 'walmart', userId: admin.user.id, trigger: 'manual' });
    const [run] =
      await db.sql`select kind, status, scope, trigger, day::text as day, created_by from coverage_runs where id = ${runId}`;
    expect(run).toEqual({
      kind: 'visit',
      status: 'queued',
      scope: { kind: 'states', states: ['RI'] },
      trigger: 'manual',
      day: new Date().toISOString().slice(0, 10),
      created_by: admin.user.id,
    });
    expect(await jobs()).toEqual([
      {
        task: 'coverage__visit_day',
        queue: 'retailer:walmart',
        key: `coverage-visit-day:${runId}`,
        payload: { runId },
      },
    ]);
    await expect(startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' })).rejects.toMatchObject({
      status: 409,
      message: 'A Walmart visit day is already queued or running; wait for it to finish.',
    });
    // A discovery may run beside it (the queue keeps them one at a time).
    await startDiscovery(db.sql, {
      store: 'walmart',
      scope: scope({ kind: 'nationwide' }),
      userId: null,
      trigger: 'manual',
    });
  });

  it('one scheduled visit day per day: a second is a 409 that leaves the caller transaction usable', async () => {
    await savePlan(db.sql, {
      store: 'target',
      scope: scope({ kind: 'nationwide' }),
      revisitDays: 1,
      userId: null,
      delayMs: 1500,
    });
    await startVisitDay(db.sql, { store: 'target', userId: null, trigger: 'schedule', day: '2026-11-20' });
    await db.sql`update coverage_runs set status = 'succeeded'`;
    const result = await db.sql.begin(async (tx) => {
      await expect(
        startVisitDay(tx, { store: 'target', userId: null, trigger: 'schedule', day: '2026-11-20' }),
      ).rejects.toMatchObject({
        status: 409,
        message: 'Target already has the scheduled visit day of 2026-11-20.',
      });
      return startVisitDay(tx, { store: 'target', userId: null, trigger: 'schedule', day: '2026-11-21' });
    });
    expect(result.runId).toBeGreaterThan(0);
    expect(await db.sql`select day::text from coverage_runs order by id`).toEqual([
      { day: '2026-11-20' },
      { day: '2026-11-21' },
    ]);
  });

  it('a paused plan starts no visit until it is saved again; saving clears the pause and keeps one plan', async () => {
    await addStore({ id: 'p1', zip: '84101', state: 'UT' });
    const first = await savePlan(db.sql, {
      store: 'walmart',
      scope: scope({ kind: 'nationwide' }),
      revisitDays: 1,
      userId: admin.user.id,
      delayMs: 1500,
    });
    expect(first).toMatchObject({
      revisitDays: 1,
      dailyRequestBudget: 57_600,
      enabled: true,
      pausedAt: null,
      scopeText: 'Nationwide',
    });
    await db.sql`update coverage_plans set paused_at = now(), paused_reason = '12 of 20 visits were blocked today'`;
    await expect(startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' })).rejects.toMatchObject({
      status: 409,
      message: "Walmart's plan is paused (12 of 20 visits were blocked today); save the plan to resume it.",
    });
    const saved = await savePlan(db.sql, {
      store: 'walmart',
      scope: scope({ kind: 'states', states: ['UT'] }),
      revisitDays: 3,
      dailyRequestBudget: 900,
      userId: admin.user.id,
      delayMs: 1500,
    });
    expect(saved).toMatchObject({
      scope: { kind: 'states', states: ['UT'] },
      revisitDays: 3,
      dailyRequestBudget: 900,
      pausedAt: null,
      pausedReason: null,
    });
    expect(await db.sql`select store_id from coverage_plans`).toEqual([{ store_id: 'walmart' }]);
    await startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' });
  });

  it("Kroger's default budget stays under its API's daily limit", async () => {
    expect(
      (
        await savePlan(db.sql, {
          store: 'kroger',
          scope: scope({ kind: 'nationwide' }),
          revisitDays: 1,
          userId: null,
          delayMs: 1500,
        })
      ).dailyRequestBudget,
    ).toBe(9000);
  });
});

describe('scopeSize', () => {
  it('counts open stores with a retailer id inside a nationwide, states or ZIP-radius scope', async () => {
    await addStore({ id: 'slc', zip: '84101', state: 'UT', lat: 40.756, lon: -111.9 });
    await addStore({ id: 'provo', zip: '84601', state: 'UT', lat: 40.23, lon: -111.66 });
    await addStore({ id: 'prov', zip: '02903', state: 'RI', lat: 41.82, lon: -71.41 });
    await addStore({ id: 'gone', zip: '02904', state: 'RI', lat: 41.85, lon: -71.43, status: 'closed' });
    await addStore({ store: 'target', id: 't1', zip: '84101', state: 'UT', lat: 40.756, lon: -111.9 });
    const base = Number(
      (
        await db.sql`select count(*)::int as n from store_locations where store_id = 'walmart' and status = 'open' and retailer_location_id is not null`
      )[0]!.n,
    );
    expect(await scopeSize(db.sql, 'walmart', scope({ kind: 'nationwide' }))).toBe(base);
    expect(await scopeSize(db.sql, 'walmart', scope({ kind: 'states', states: ['UT', 'RI'] }))).toBe(3);
    expect(await scopeSize(db.sql, 'walmart', scope({ kind: 'states', states: ['RI'] }))).toBe(1);
    // Salt Lake City to Provo is about 40 miles.
    expect(await scopeSize(db.sql, 'walmart', scope({ kind: 'zips', zipCodes: ['84101'], radiusMiles: 10 }))).toBe(1);
    expect(await scopeSize(db.sql, 'walmart', scope({ kind: 'zips', zipCodes: ['84101'], radiusMiles: 50 }))).toBe(2);
    expect(
      await scopeSize(db.sql, 'walmart', scope({ kind: 'zips', zipCodes: ['84101', '02903'], radiusMiles: 10 })),
    ).toBe(2);
  });
});

describe('coverageFigures', () => {
  it("counts each retailer's directory, its reasons, states and failing stores, and the plan's cost", async () => {
    await db.sql`delete from store_locations where store_id = 'aldi'`;
    const base = { store: 'aldi', state: 'UT', zip: '84101', lat: 40.7, lon: -111.9 };
    await addStore({ ...base, id: 'a1', visitHoursAgo: 2 });
    await addStore({ ...base, id: 'a2', visitHoursAgo: 30 });
    await addStore({ ...base, id: 'a3', visitHoursAgo: null });
    await addStore({
      ...base,
      id: 'a4',
      visitHoursAgo: 1,
      visitStatus: 'failed',
      kind: 'blocked',
      message: 'The retailer answered its block page',
    });
    await addStore({
      ...base,
      id: 'a5',
      visitHoursAgo: 3,
      visitStatus: 'failed',
      kind: 'blocked',
      message: 'The retailer answered its block page',
    });
    await addStore({
      ...base,
      id: 'a6',
      state: 'RI',
      zip: '02903',
      visitHoursAgo: 200,
      visitStatus: 'failed',
      kind: 'structure',
      message: 'No product grid',
    });
    await addStore({ ...base, id: 'a7', state: 'RI', zip: '02903', status: 'closed', visitHoursAgo: 1 });
    // Never visited, but outside the plan's scope: not among the plan's stores never visited.
    await addStore({ ...base, id: 'a8', state: 'RI', zip: '02903', visitHoursAgo: null });
    // Target has known stores and no plan.
    await addStore({ store: 'target', id: 'tp1', zip: '84101', state: 'UT', visitHoursAgo: null });
    await savePlan(db.sql, {
      store: 'aldi',
      scope: scope({ kind: 'states', states: ['UT'] }),
      revisitDays: 1,
      dailyRequestBudget: 3,
      userId: null,
      delayMs: 1500,
    });

    const all = await coverageFigures(db.sql, { delayMs: 1500 });
    expect(all.map((r) => r.store)).toEqual(['walmart', 'target', 'kroger', 'albertsons', 'whole-foods', 'aldi']);
    const aldi = all.find((r) => r.store === 'aldi')!;
    expect(aldi).toMatchObject({
      name: 'Aldi',
      known: 7,
      inScope: 5,
      inScopeBasis: 'plan',
      visitedDay: 3,
      visitedWeek: 4,
      neverVisited: 1,
      failing: 1,
      blocked: 2,
      delayMs: 1500,
    });
    expect(aldi.reasons).toEqual([
      { kind: 'blocked', message: 'The retailer answered its block page', stores: 2 },
      { kind: 'structure', message: 'No product grid', stores: 1 },
    ]);
    expect(aldi.states).toEqual([
      { state: 'RI', known: 2, visitedDay: 0, share: 0 },
      { state: 'UT', known: 5, visitedDay: 3, share: 0.6 },
    ]);
    expect(aldi.failingStores.map((f) => [f.retailerId, f.kind])).toEqual([
      ['cov-a4', 'blocked'],
      ['cov-a5', 'blocked'],
      ['cov-a6', 'structure'],
    ]);
    expect(aldi.requestsPerVisit).toEqual({ value: ESTIMATED_REQUESTS_PER_VISIT.aldi, source: 'estimate', samples: 0 });
    expect(aldi.plan).toMatchObject({ storesInScope: 5, revisitDays: 1, dailyRequestBudget: 3 });
    expect(aldi.plan!.cost).toEqual(
      planCost({
        storesInScope: 5,
        requestsPerVisit: ESTIMATED_REQUESTS_PER_VISIT.aldi,
        revisitDays: 1,
        dailyRequestBudget: 3,
        delayMs: 1500,
      }),
    );
    expect(aldi.plan!.cost.fits).toBe(false);
    // No visit day today yet: the scheduler's next tick (minute 5 of an hour) starts it.
    const now = Date.now();
    const next = Date.parse(aldi.nextDayAt!);
    expect(aldi.nextDayAt).toMatch(/:05:00\.000Z$/);
    expect(next).toBeGreaterThan(now - 60_000);
    expect(next).toBeLessThanOrEqual(now + 3_600_000);
    const target = all.find((r) => r.store === 'target')!;
    // Without a plan, every known store is in scope (labelled so), and the never visited are all of them.
    expect(target.known).toBeGreaterThan(0);
    expect(target.neverVisited).toBeGreaterThan(0);
    expect(target).toMatchObject({
      plan: null,
      inScope: target.known,
      inScopeBasis: 'known',
      neverVisited: target.known,
      nextDayAt: null,
      nextChunk: null,
      discovery: null,
      visit: null,
    });
    // Once today's scheduled day has run, the next one begins at tomorrow's first tick.
    await db.sql`insert into coverage_runs (store_id, kind, scope, status, trigger, day) values ('aldi', 'visit', '{"kind":"nationwide"}', 'succeeded', 'schedule', (now() at time zone 'UTC')::date)`;
    const after = (await coverageFigures(db.sql, { delayMs: 1500 })).find((r) => r.store === 'aldi')!;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(after.nextDayAt).toBe(`${tomorrow}T00:05:00.000Z`);
  });

  it('keeps the last visit day with stores in view when a later day had none due, and says when one is due', async () => {
    await db.sql`delete from store_locations where store_id = 'albertsons'`;
    const base = { store: 'albertsons', state: 'UT', zip: '84101', lat: 40.7, lon: -111.9 };
    await addStore({ ...base, id: 'b1', visitHoursAgo: 2 });
    await addStore({ ...base, id: 'b2', visitHoursAgo: 50 });
    await savePlan(db.sql, {
      store: 'albertsons',
      scope: scope({ kind: 'states', states: ['UT'] }),
      revisitDays: 7,
      userId: null,
      delayMs: 1500,
    });
    const [visited] = await db.sql<Array<{ id: number }>>`
      insert into coverage_runs (store_id, kind, scope, status, trigger, day, stores_planned, stores_visited, finished_at)
      values ('albertsons', 'visit', '{"kind":"states","states":["UT"]}', 'succeeded', 'schedule', (now() at time zone 'UTC')::date - 1, 2, 2, now() - interval '1 day')
      returning id`;
    await db.sql`
      insert into coverage_runs (store_id, kind, scope, status, trigger, day, nothing_due, message, finished_at)
      values ('albertsons', 'visit', '{"kind":"states","states":["UT"]}', 'succeeded', 'schedule', (now() at time zone 'UTC')::date, true, 'No store was due', now())`;
    const albertsons = (await coverageFigures(db.sql, { delayMs: 1500 })).find((r) => r.store === 'albertsons')!;
    expect(albertsons.visit).toMatchObject({ id: visited!.id, storesVisited: 2, storesPlanned: 2 });
    // b2 was visited 50 hours ago: due again 7 days after its visit day.
    const b2Day = new Date(Date.now() - 50 * 3_600_000).toISOString().slice(0, 10);
    const due = new Date(Date.parse(`${b2Day}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    expect(albertsons.nothingDue).toMatchObject({
      day: new Date().toISOString().slice(0, 10),
      nextDueDay: due,
    });
    // A later day that visits stores replaces both.
    const [later] = await db.sql<Array<{ id: number }>>`
      insert into coverage_runs (store_id, kind, scope, status, trigger) values ('albertsons', 'visit', '{"kind":"nationwide"}', 'running', 'manual') returning id`;
    const again = (await coverageFigures(db.sql, { delayMs: 1500 })).find((r) => r.store === 'albertsons')!;
    expect(again.visit).toMatchObject({ id: later!.id, active: true });
    expect(again.nothingDue).toBeNull();
    await db.sql`update coverage_runs set status = 'succeeded' where id = ${later!.id}`;
  });

  it('measures requests per visit from the last 7 days of visits, else from ZIP runs', async () => {
    const location = await addStore({ store: 'target', id: 'm1', zip: '84101', state: 'UT' });
    const [zipRun] = await db.sql<
      { id: number }[]
    >`insert into scrape_runs (store_id, zip_codes, total, status) values ('target', '{84101,84102}', 2, 'succeeded') returning id`;
    await db.sql`insert into scrape_run_zips (run_id, zip, status, requests, started_at) values (${zipRun!.id}, '84101', 'succeeded', 4, now()), (${zipRun!.id}, '84102', 'succeeded', 5, now())`;
    expect(
      (await coverageFigures(db.sql, { delayMs: 1500 })).find((r) => r.store === 'target')!.requestsPerVisit,
    ).toEqual({ value: 4.5, source: 'zip-runs', samples: 2 });
    const [run] = await db.sql<
      { id: number }[]
    >`insert into coverage_runs (store_id, kind, scope, status) values ('target', 'visit', '{"kind":"nationwide"}', 'succeeded') returning id`;
    await db.sql`insert into coverage_visits (run_id, location_id, chunk, status, requests, started_at) values (${run!.id}, ${location}, 0, 'succeeded', 3, now())`;
    const old = await addStore({ store: 'target', id: 'm2', zip: '84101', state: 'UT' });
    await db.sql`insert into coverage_visits (run_id, location_id, chunk, status, requests, started_at, finished_at) values (${run!.id}, ${old}, 0, 'succeeded', 40, now() - interval '9 days', now() - interval '9 days')`;
    expect(
      (await coverageFigures(db.sql, { delayMs: 1500 })).find((r) => r.store === 'target')!.requestsPerVisit,
    ).toEqual({ value: 3, source: 'visits', samples: 1 });
  });

  it("shows the running visit day's counters and its next queued chunk", async () => {
    const ids = [
      await addStore({ store: 'kroger', id: 'k1', zip: '84101', state: 'UT', city: 'Salt Lake City' }),
      await addStore({ store: 'kroger', id: 'k2', zip: '84601', state: 'UT' }),
    ];
    await savePlan(db.sql, {
      store: 'kroger',
      scope: scope({ kind: 'states', states: ['UT'] }),
      revisitDays: 1,
      userId: null,
      delayMs: 1500,
    });
    const { runId } = await startVisitDay(db.sql, { store: 'kroger', userId: null, trigger: 'manual' });
    await db.sql`update coverage_runs set status = 'running', started_at = now(), stores_planned = 52, stores_visited = 27, stores_blocked = 1, chunks_planned = 3, chunks_done = 1 where id = ${runId}`;
    await db.sql`insert into coverage_chunks (run_id, chunk, location_ids, status) values
      (${runId}, 0, ${db.sql.array([ids[0]!])}::int[], 'done'), (${runId}, 1, ${db.sql.array(ids)}::int[], 'queued'), (${runId}, 2, ${db.sql.array([ids[1]!])}::int[], 'queued')`;
    const kroger = (await coverageFigures(db.sql, { delayMs: 1500 })).find((r) => r.store === 'kroger')!;
    expect(kroger.visit).toMatchObject({
      id: runId,
      status: 'running',
      active: true,
      storesPlanned: 52,
      storesVisited: 27,
      storesBlocked: 1,
      chunksPlanned: 3,
      chunksDone: 1,
      scopeText: '1 state: UT',
    });
    expect(kroger.nextChunk).toEqual({
      runId,
      chunk: 1,
      chunks: 3,
      stores: 2,
      firstStores: ['Store k1, UT', 'Store k2, UT'],
    });
    expect(kroger.nextDayAt).toBeNull();
  });
});

describe('listLocations', () => {
  it("pages a chain's known open stores by state, with a total", async () => {
    await db.sql`delete from store_locations where store_id = 'whole-foods'`;
    for (const [id, state] of [
      ['w1', 'UT'],
      ['w2', 'UT'],
      ['w3', 'RI'],
    ] as const)
      await addStore({ store: 'whole-foods', id, zip: state === 'UT' ? '84101' : '02903', state, lat: 40, lon: -111 });
    await addStore({ store: 'whole-foods', id: 'w4', zip: '84101', state: 'UT', status: 'closed' });
    expect(await countLocations(db.sql, { store: 'whole-foods' })).toBe(3);
    expect(await countLocations(db.sql, { store: 'whole-foods', state: 'UT' })).toBe(2);
    const page = await listLocations(db.sql, { store: 'whole-foods', limit: 2, offset: 0 });
    expect(page.map((l) => l.retailer_location_id)).toEqual(['cov-w3', 'cov-w1']);
    expect(page[0]).toMatchObject({ state: 'RI', zip: '02903', latitude: 40, longitude: -111, last_priced_at: null });
    expect(
      (await listLocations(db.sql, { store: 'whole-foods', state: 'UT', limit: 10, offset: 1 })).map(
        (l) => l.retailer_location_id,
      ),
    ).toEqual(['cov-w2']);
  });
});
