// Coverage visit days through graphile-worker's run-once API against the retailer stand-in: a day
// planned into chunks in the retailer's queue and every due store visited by its id; the budget;
// failing stores and the blocked-share pause; a resumed chunk; a doubled job; the schedule; and
// worker__recover for a visit day of a dead worker.
import { runOnce } from 'graphile-worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ESTIMATED_REQUESTS_PER_VISIT } from '#shared/coverage.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import { quietLogger } from '#server/migrate.ts';
import { startVisitDay } from '#server/queries/coverage.ts';
import { queueRun } from '#server/queries/scrape.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { runJobs as runQueuedJobs, settleJobs } from '../test/jobs.ts';
import { insertDirectoryStores, ordinaryZips, standInStoreId } from '../test/directory-stores.ts';
import { SCENARIO_ZIPS } from '../test/retailers/scenarios.ts';
import { startStandIn, type StandInServer } from '../test/retailers/server.ts';
import type { ScrapeConfig } from '#shared/scrape.ts';
import { taskList } from './tasks.ts';

let db: TestDatabase;
let standIn: StandInServer;

beforeAll(async () => {
  db = await createTestDatabase();
  standIn = await startStandIn();
});
afterAll(async () => {
  await standIn.close();
  await db.drop();
});
beforeEach(async () => {
  standIn.reset();
  await db.sql`delete from graphile_worker._private_jobs`;
  await db.sql`delete from coverage_runs`;
  await db.sql`delete from coverage_plans`;
  await db.sql`update store_locations set status = 'closed', closed_at = now() where retailer_location_id is not null`;
});

function scrape(over: Partial<ScrapeConfig> = {}): Partial<ScrapeConfig> {
  const origins = Object.fromEntries(STORE_IDS.map((store) => [store, standIn.url]));
  return {
    origins,
    credentials: { krogerClientId: 'test-client', krogerClientSecret: 'test-secret' },
    http: { delayMs: 0, retries: 2, timeoutMs: 5000, backoffBaseMs: 5, backoffCapMs: 20, maxRetryAfterMs: 3000 },
    visitChunkSize: 3,
    ...over,
  };
}

const tasks = (config: Partial<ScrapeConfig>) =>
  taskList({ sql: db.sql, email: { from: 'test@eggwatch.local' }, scrape: config });

const settle = () => settleJobs(db.sql);

async function runOnly(
  task: 'coverage__visit_day' | 'coverage__schedule' | 'worker__recover',
  config: Partial<ScrapeConfig> = scrape(),
) {
  await runOnce({ connectionString: db.url, taskList: { [task]: tasks(config)[task]! }, logger: quietLogger });
  await settle();
}

/** Runs the due jobs until none is left (a run-once worker stops when a fetch finds nothing). */
const runJobs = (config: Partial<ScrapeConfig> = scrape()) => runQueuedJobs(db, tasks(config), { untilDone: true });

async function plan(store: StoreId, over: { budget?: number; revisitDays?: number; scope?: unknown } = {}) {
  await db.sql`
    insert into coverage_plans (store_id, scope, revisit_days, daily_request_budget)
    values (${store}, ${db.sql.json((over.scope ?? { kind: 'nationwide' }) as never)}, ${over.revisitDays ?? 1}, ${over.budget ?? 10_000})
    on conflict (store_id) do update set scope = excluded.scope, revisit_days = excluded.revisit_days,
      daily_request_budget = excluded.daily_request_budget, paused_at = null, paused_reason = null`;
}

const runRow = async (id: number) =>
  (
    await db.sql<
      {
        status: string;
        message: string | null;
        demo: boolean;
        stores_planned: number;
        stores_visited: number;
        stores_failed: number;
        stores_blocked: number;
        chunks_planned: number;
        chunks_done: number;
        requests: number;
        nothing_due: boolean;
        finished_at: Date | null;
      }[]
    >`
    select status, message, demo, stores_planned, stores_visited, stores_failed, stores_blocked, chunks_planned, chunks_done, requests,
           nothing_due, finished_at
    from coverage_runs where id = ${id}`
  )[0]!;
const visits = (id: number) =>
  db.sql<{ location_id: number; chunk: number; status: string; kind: string | null; observations_written: number }[]>`
    select location_id, chunk, status, kind, observations_written from coverage_visits where run_id = ${id} order by chunk, location_id`;

describe('a visit day', () => {
  it("plans the due stores into chunks in the retailer's queue and visits each by its id", async () => {
    const ids = await insertDirectoryStores(db.sql, 'aldi', ordinaryZips(7, 20001));
    await plan('aldi');
    const { runId } = await startVisitDay(db.sql, { store: 'aldi', userId: null, trigger: 'manual' });
    expect((await runRow(runId)).status).toBe('queued');
    // Planning sends nothing; its chunks' jobs go into ALDI's queue.
    await runOnly('coverage__visit_day');
    expect(standIn.requests).toEqual([]);
    const jobs = await db.sql<
      { task_identifier: string; queue_name: string | null }[]
    >`select task_identifier, queue_name from graphile_worker.jobs order by id`;
    expect(jobs).toEqual([0, 1, 2].map(() => ({ task_identifier: 'coverage__visit', queue_name: 'retailer:aldi' })));
    expect(await runRow(runId)).toMatchObject({ status: 'running', stores_planned: 7, chunks_planned: 3, demo: true });
    const chunks = await db.sql<
      { chunk: number; location_ids: number[] }[]
    >`select chunk, location_ids from coverage_chunks where run_id = ${runId} order by chunk`;
    expect(chunks.map((c) => c.location_ids)).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);

    await runJobs();
    const run = await runRow(runId);
    expect(run).toMatchObject({
      status: 'succeeded',
      stores_visited: 7,
      stores_failed: 0,
      chunks_done: 3,
      message: '7 stores priced of 7 planned',
    });
    const written = await visits(runId);
    expect(written.map((v) => v.location_id).sort()).toEqual([...ids].sort());
    expect(written.every((v) => v.status === 'succeeded' && v.observations_written >= 3)).toBe(true);
    // No locator call: only the listings of each store, by its service point.
    expect(standIn.requests.some((r) => r.path.includes('merchant-search'))).toBe(false);
    for (const zip of ordinaryZips(7, 20001))
      expect(standIn.requests.some((r) => r.query.includes(standInStoreId('aldi', zip)))).toBe(true);
    expect(run.requests).toBe(standIn.requests.length);
    // Demo prices (no retailer link), one per product and store, and the stores' last visit.
    const [prices] = await db.sql<{ n: number; linked: number; sources: string[] }[]>`
      select count(*)::int as n, count(p.url)::int as linked, array_agg(distinct o.source) as sources
      from price_observations o join products p on p.id = o.product_id where o.location_id = any(${db.sql.array(ids)}::int[])`;
    expect(prices).toEqual({
      n: written.reduce((n, v) => n + v.observations_written, 0),
      linked: 0,
      sources: ['demo'],
    });
    const stores = await db.sql<{ last_visit_status: string; priced: boolean }[]>`
      select last_visit_status, last_priced_at is not null as priced from store_locations where id = any(${db.sql.array(ids)}::int[])`;
    expect(stores.every((s) => s.last_visit_status === 'succeeded' && s.priced)).toBe(true);
    // The stores' new prices are in the price list of their region.
    const [listed] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from price_entries where location_id = any(${db.sql.array(ids)}::int[]) and source = 'demo'`;
    expect(listed!.n).toBe(prices!.n);

    // The same day again: every store was visited today, nothing is due.
    standIn.reset();
    const again = await startVisitDay(db.sql, { store: 'aldi', userId: null, trigger: 'manual' });
    await runJobs();
    expect(await runRow(again.runId)).toMatchObject({ status: 'succeeded', stores_planned: 0, nothing_due: true });
    expect((await runRow(again.runId)).message).toMatch(/^No store was due/);
    expect(standIn.requests).toEqual([]);
  });

  it('gathers the immediate price alerts of the chunks that commit within the window into one job, and each batch matches only visits not matched yet', async () => {
    const ids = await insertDirectoryStores(db.sql, 'aldi', ordinaryZips(4, 23001));
    await plan('aldi');
    await db.sql`
      insert into subscriptions (email, preferred_stores, price_threshold, notification_frequency, confirmed_at, active)
      values ('visits@example.com', array['aldi'], 50, 'immediately', now(), true)`;
    // Prices read through a forwarding proxy are the retailer's own ('scrape'), not demo prices.
    const config = scrape({ originsAreRetailers: true, visitChunkSize: 2 });
    const { runId } = await startVisitDay(db.sql, { store: 'aldi', userId: null, trigger: 'manual' });
    await runOnly('coverage__visit_day', config);
    const visitTasks = { coverage__visit: tasks(config).coverage__visit! };
    for (let round = 0; round < 5; round++) {
      await runOnce({ connectionString: db.url, taskList: visitTasks, logger: quietLogger });
      await settle();
    }
    expect(await runRow(runId)).toMatchObject({ status: 'succeeded', stores_visited: 4, demo: false });
    const alertJobs = () => db.sql<
      { payload: { coverageRunId: number; chunk?: number }; key: string | null; minutes: number }[]
    >`
      select j.payload, j.key, extract(epoch from j.run_at - now())::float8 / 60 as minutes
      from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'alerts__immediate' order by j.id`;
    // Both chunks' prices wait in one job, due at the end of the first chunk's window (10 minutes).
    const [queued, ...more] = await alertJobs();
    expect(more).toEqual([]);
    expect([queued!.payload, queued!.key]).toEqual([{ coverageRunId: runId }, `alerts:coverage:${runId}`]);
    expect(queued!.minutes).toBeGreaterThan(9);
    expect(queued!.minutes).toBeLessThanOrEqual(10);
    // When it runs: one email with the prices of all four stores (the best ten of them).
    await runJobs(config);
    const sent = await db.sql<
      { text: string }[]
    >`select text from email_outbox where to_address = 'visits@example.com'`;
    expect(sent).toHaveLength(1);
    const [priced] = await db.sql<{ stores: number; events: number }[]>`
      select count(distinct location_id)::int as stores, count(*)::int as events from alert_deliveries where location_id = any(${db.sql.array(ids)}::int[])`;
    expect(priced!.events).toBe(10);
    expect(priced!.stores).toBeGreaterThan(1);
    const matched = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from coverage_visits where run_id = ${runId} and alerts_matched_at is not null`;
    expect(matched[0]!.n).toBe(4);
    // A job of the run found nothing left to match: no email, nothing claimed.
    await db.sql`select graphile_worker.add_job('alerts__immediate', json_build_object('coverageRunId', ${runId}::int))`;
    await runJobs(config);
    expect(await db.sql`select 1 from email_outbox where to_address = 'visits@example.com'`).toHaveLength(1);
    // A visit not matched yet (here: its mark undone) is the next batch's, and its prices that the
    // first email did not list are alerted now, the ones it listed never twice.
    const listedAt = async (location: number) =>
      (
        await db.sql<{ n: number }[]>`select count(*)::int as n from alert_deliveries where location_id = ${location}`
      )[0]!.n;
    const before = await listedAt(ids[0]!);
    await db.sql`update coverage_visits set alerts_matched_at = null where run_id = ${runId} and location_id = ${ids[0]!}`;
    await db.sql`select graphile_worker.add_job('alerts__immediate', json_build_object('coverageRunId', ${runId}::int))`;
    await runJobs(config);
    const [after] = await db.sql<{ n: number; dup: number }[]>`
      select count(*)::int as n, (count(*) - count(distinct (subscription_id, period_key)))::int as dup from alert_deliveries`;
    expect(after!.dup).toBe(0);
    const [visitEvents] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from price_entries where location_id = ${ids[0]!} and source = 'scrape'`;
    expect(await db.sql`select 1 from email_outbox where to_address = 'visits@example.com'`).toHaveLength(2);
    expect(await listedAt(ids[0]!)).toBe(Math.min(visitEvents!.n, before + 10));
    expect(await listedAt(ids[0]!)).toBeGreaterThan(before);
  });

  it('plans only what the day budget allows at the measured requests per visit, never visited first', async () => {
    const ids = await insertDirectoryStores(db.sql, 'walmart', ordinaryZips(6, 30002));
    await db.sql`update store_locations set last_visit_at = now() - interval '3 days' where id = ${ids[0]!}`;
    // No visit measured yet: the estimate (2 requests per Walmart visit); 7 requests buy 3 visits.
    expect(ESTIMATED_REQUESTS_PER_VISIT.walmart).toBe(2);
    await plan('walmart', { budget: 7 });
    const first = await startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' });
    await runJobs();
    const run = await runRow(first.runId);
    expect(run).toMatchObject({ status: 'succeeded', stores_planned: 3 });
    expect((await visits(first.runId)).map((v) => v.location_id)).toEqual(ids.slice(1, 4));
    // The measured average now counts (the stand-in's Walmart visit reads three listing pages),
    // and the requests the day already sent come off its budget.
    const [measured] = await db.sql<
      { average: number }[]
    >`select avg(requests)::float8 as average from coverage_visits where run_id = ${first.runId}`;
    expect(measured!.average).toBeGreaterThan(2);
    await plan('walmart', { budget: run.requests + Math.ceil(measured!.average * 2) });
    const second = await startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' });
    await runJobs();
    expect((await visits(second.runId)).map((v) => v.location_id)).toEqual([ids[4]!, ids[5]!]);
    expect((await runRow(second.runId)).message).toBe('2 stores priced of 2 planned');
  });

  it('keeps each failing store with its reason, and the run says which failed and why', async () => {
    const ids = await insertDirectoryStores(db.sql, 'target', [
      ...ordinaryZips(2, 40003),
      SCENARIO_ZIPS.blocked,
      SCENARIO_ZIPS.changed,
    ]);
    await plan('target');
    const { runId } = await startVisitDay(db.sql, { store: 'target', userId: null, trigger: 'manual' });
    await runJobs();
    const run = await runRow(runId);
    expect(run).toMatchObject({ status: 'partial', stores_visited: 4, stores_failed: 2, stores_blocked: 1 });
    expect(run.message).toBe('2 stores priced of 4 planned; 2 failed (blocked 1, structure 1)');
    const stores = await db.sql<
      { id: number; last_visit_status: string; last_visit_kind: string | null; last_visit_message: string | null }[]
    >`
      select id, last_visit_status, last_visit_kind, last_visit_message from store_locations where id = any(${db.sql.array(ids)}::int[]) order by id`;
    expect(stores.find((s) => s.id === ids[2])).toMatchObject({
      last_visit_status: 'failed',
      last_visit_kind: 'blocked',
      last_visit_message: "blocked by Target's bot protection (Akamai)",
    });
    expect(stores.find((s) => s.id === ids[3])).toMatchObject({
      last_visit_status: 'failed',
      last_visit_kind: 'structure',
    });
    expect(stores.find((s) => s.id === ids[3])!.last_visit_message).toMatch(/^page structure not recognised/);
  });

  it("writes a chunk's fast visits in batches (one statement each), and slow ones one by one", async () => {
    // The visits written by one statement share its transaction's time (finished_at's now()).
    const statements = async (runId: number) =>
      (
        await db.sql<{ chunk: number; n: number }[]>`
        select chunk, count(distinct finished_at)::int as n from coverage_visits where run_id = ${runId} group by chunk order by chunk`
      ).map((r) => [r.chunk, r.n]);
    await insertDirectoryStores(db.sql, 'aldi', ordinaryZips(7, 15001));
    await plan('aldi');
    const fast = await startVisitDay(db.sql, { store: 'aldi', userId: null, trigger: 'manual' });
    await runJobs(scrape({ visitChunkSize: 5, visitBatch: { stores: 2, ms: 60_000 } }));
    expect(await runRow(fast.runId)).toMatchObject({ status: 'succeeded', stores_visited: 7 });
    // Chunk 0: 2 + 2 + 1 stores; chunk 1: 2.
    expect(await statements(fast.runId)).toEqual([
      [0, 3],
      [1, 1],
    ]);

    await db.sql`update store_locations set last_visit_at = null where store_id = 'aldi' and status = 'open'`;
    const slow = await startVisitDay(db.sql, { store: 'aldi', userId: null, trigger: 'manual' });
    await runJobs(scrape({ visitChunkSize: 5, visitBatch: { stores: 2, ms: 0 } }));
    expect(await runRow(slow.runId)).toMatchObject({ status: 'succeeded', stores_visited: 7 });
    expect(await statements(slow.runId)).toEqual([
      [0, 5],
      [1, 2],
    ]);
  });

  it("pauses the plan when the day's blocked share passes the threshold, skipping the chunks left", async () => {
    // Earlier today, 19 of 20 Walmart visits were blocked (another run's).
    const earlier = await insertDirectoryStores(db.sql, 'walmart', ordinaryZips(20, 50001));
    const [old] = await db.sql<{ id: number }[]>`
      insert into coverage_runs (store_id, kind, scope, status, finished_at) values ('walmart', 'visit', '{"kind":"nationwide"}', 'succeeded', now()) returning id`;
    await db.sql`
      insert into coverage_visits (run_id, location_id, chunk, status, kind, message, started_at)
      select ${old!.id}, id, 0, case when n = 1 then 'succeeded' else 'failed' end, case when n = 1 then null else 'blocked' end, null, now()
      from unnest(${db.sql.array(earlier)}::int[]) with ordinality as t(id, n)`;
    await db.sql`update store_locations set last_visit_at = now() where id = any(${db.sql.array(earlier)}::int[])`;
    await insertDirectoryStores(db.sql, 'walmart', [SCENARIO_ZIPS.blocked, ...ordinaryZips(8, 60002)]);
    await plan('walmart');
    const { runId } = await startVisitDay(db.sql, { store: 'walmart', userId: null, trigger: 'manual' });
    await runJobs();
    const run = await runRow(runId);
    expect(run).toMatchObject({
      status: 'paused',
      stores_planned: 9,
      stores_visited: 3,
      chunks_planned: 3,
      chunks_done: 1,
      stores_blocked: 1,
    });
    expect(run.message).toMatch(
      /^Paused: 20 of today's 23 visits of Walmart stores were blocked by its bot protection \(87%; the plan pauses at 50% once 20 visits are made\)\. Save or resume the plan to visit again\. 3 of 9 planned stores visited; 2 chunks skipped\.$/,
    );
    const [paused] = await db.sql<
      { paused: boolean; paused_reason: string }[]
    >`select paused_at is not null as paused, paused_reason from coverage_plans where store_id = 'walmart'`;
    expect(paused).toEqual({ paused: true, paused_reason: expect.stringMatching(/^Paused: 20 of today's 23 visits/) });
    const chunks = await db.sql<
      { status: string }[]
    >`select status from coverage_chunks where run_id = ${runId} order by chunk`;
    expect(chunks.map((c) => c.status)).toEqual(['done', 'skipped', 'skipped']);
    // No visit job is left that could run after the pause (a job graphile-worker cannot delete at
    // once stays behind with its attempts spent, which never runs); the row is shown if one is.
    expect(
      await db.sql`
        select key, attempts, max_attempts, locked_by, last_error from graphile_worker.jobs
        where task_identifier = 'coverage__visit' and attempts < max_attempts`,
    ).toEqual([]);
    // The schedule leaves a paused plan alone.
    await db.sql`select graphile_worker.add_job('coverage__schedule', '{}'::json)`;
    await runJobs();
    expect(await db.sql`select 1 from coverage_runs where store_id = 'walmart' and trigger = 'schedule'`).toHaveLength(
      0,
    );
  });

  it('of Kroger without credentials fails at once, sending nothing', async () => {
    await insertDirectoryStores(db.sql, 'kroger', ordinaryZips(4, 70001));
    await plan('kroger');
    const { runId } = await startVisitDay(db.sql, { store: 'kroger', userId: null, trigger: 'manual' });
    await runJobs(scrape({ credentials: {} }));
    const run = await runRow(runId);
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/KROGER_CLIENT_ID.*KROGER_CLIENT_SECRET/);
    expect(standIn.requests).toEqual([]);
    expect(
      (await db.sql<{ status: string }[]>`select status from coverage_chunks where run_id = ${runId}`).every(
        (c) => c.status === 'skipped',
      ),
    ).toBe(true);
  });

  it('resumes a chunk after its stores already written, and a doubled chunk job does nothing', async () => {
    const zips = ordinaryZips(3, 80002);
    const ids = await insertDirectoryStores(db.sql, 'aldi', zips);
    await plan('aldi');
    const { runId } = await startVisitDay(db.sql, { store: 'aldi', userId: null, trigger: 'manual' });
    await runOnly('coverage__visit_day');
    // A worker visited the first store, then died before the chunk was done.
    await db.sql`update coverage_chunks set status = 'running', started_at = now() - interval '1 minute' where run_id = ${runId}`;
    await db.sql`insert into coverage_visits (run_id, location_id, chunk, status, kind, message, started_at) values (${runId}, ${ids[0]!}, 0, 'failed', 'http', 'written before a crash', now())`;
    await runJobs();
    expect(standIn.requests.some((r) => r.query.includes(standInStoreId('aldi', zips[0]!)))).toBe(false);
    expect((await visits(runId)).map((v) => v.location_id)).toEqual(ids);
    expect((await runRow(runId)).status).toBe('partial');
    const finished = await runRow(runId);
    standIn.reset();
    await db.sql`select graphile_worker.add_job('coverage__visit', json_build_object('runId', ${runId}::int, 'chunk', 0))`;
    await runJobs();
    expect(await runRow(runId)).toEqual(finished);
    expect(standIn.requests).toEqual([]);
  });
});

describe('coverage__schedule', () => {
  it("starts each enabled, unpaused plan's visit day once per UTC day", async () => {
    await insertDirectoryStores(db.sql, 'aldi', ordinaryZips(2, 90001));
    await plan('aldi');
    await plan('target');
    await plan('kroger');
    await db.sql`update coverage_plans set enabled = false where store_id = 'kroger'`;
    const tick = (now: string) =>
      db.sql`select graphile_worker.add_job('coverage__schedule', json_build_object('now', ${now}::text))`;
    const scheduled = () => db.sql<{ store_id: string; day: string }[]>`
      select store_id, day::text from coverage_runs where trigger = 'schedule' order by store_id, day`;
    await tick('2026-11-24T00:05:00Z');
    await tick('2026-11-24T00:05:00Z');
    await runOnly('coverage__schedule');
    expect(await scheduled()).toEqual([
      { store_id: 'aldi', day: '2026-11-24' },
      { store_id: 'target', day: '2026-11-24' },
    ]);
    // Later ticks of the day start nothing more, even once the day is over.
    await db.sql`update coverage_runs set status = 'succeeded'`;
    await tick('2026-11-24T07:05:00Z');
    await runOnly('coverage__schedule');
    expect(await scheduled()).toHaveLength(2);
    // The next day starts the next ones.
    await tick('2026-11-25T00:05:00Z');
    await runOnly('coverage__schedule');
    expect((await scheduled()).map((r) => `${r.store_id} ${r.day}`)).toEqual([
      'aldi 2026-11-24',
      'aldi 2026-11-25',
      'target 2026-11-24',
      'target 2026-11-25',
    ]);
  });
});

describe('worker__recover and visit days', () => {
  it("releases a dead worker's chunk so a live worker resumes the day after its written stores", async () => {
    const ids = await insertDirectoryStores(db.sql, 'albertsons', ordinaryZips(5, 12001));
    await plan('albertsons');
    const { runId } = await startVisitDay(db.sql, { store: 'albertsons', userId: null, trigger: 'manual' });
    await runOnly('coverage__visit_day');
    // A worker took chunk 0, wrote one store, then died: its job and the queue stay locked.
    await db.sql`update coverage_runs set worker_id = 'dead-worker', heartbeat_at = now() - interval '5 minutes' where id = ${runId}`;
    await db.sql`update coverage_chunks set status = 'running', started_at = now() - interval '5 minutes' where run_id = ${runId} and chunk = 0`;
    await db.sql`insert into coverage_visits (run_id, location_id, chunk, status, started_at) values (${runId}, ${ids[0]!}, 0, 'succeeded', now())`;
    await db.sql`
      update graphile_worker._private_jobs set locked_by = 'dead-worker', locked_at = now() - interval '5 minutes', attempts = 1
      where key = ${`coverage-visit:${runId}:0`}`;
    await db.sql`update graphile_worker._private_job_queues set locked_by = 'dead-worker', locked_at = now() - interval '5 minutes' where queue_name = 'retailer:albertsons'`;
    await db.sql`insert into worker_heartbeats (worker_id, pid, beat_at) values ('dead-worker', 1, now() - interval '5 minutes')`;
    await db.sql`select graphile_worker.add_job('worker__recover', '{}'::json)`;
    await runJobs(scrape({ staleMs: 1000 }));
    const run = await runRow(runId);
    expect(run).toMatchObject({ status: 'succeeded', stores_planned: 5, chunks_done: 2 });
    const written = await db.sql<
      { location_id: number; n: number }[]
    >`select location_id, count(*)::int as n from coverage_visits where run_id = ${runId} group by location_id`;
    expect(written.map((w) => w.location_id).sort()).toEqual([...ids].sort());
  });

  it('skips a chunk whose job is gone and finishes the day with what it visited', async () => {
    await insertDirectoryStores(db.sql, 'whole-foods', ordinaryZips(4, 13001));
    await plan('whole-foods');
    const { runId } = await startVisitDay(db.sql, { store: 'whole-foods', userId: null, trigger: 'manual' });
    await runOnly('coverage__visit_day');
    await db.sql`delete from graphile_worker._private_jobs where key = ${`coverage-visit:${runId}:1`}`;
    await runJobs();
    expect((await runRow(runId)).status).toBe('running');
    await db.sql`update coverage_runs set heartbeat_at = now() - interval '5 minutes' where id = ${runId}`;
    await db.sql`select graphile_worker.add_job('worker__recover', '{}'::json)`;
    await runJobs(scrape({ staleMs: 1000 }));
    const run = await runRow(runId);
    expect(run).toMatchObject({ status: 'partial', stores_visited: 3 });
    expect(run.message).toBe("3 stores priced of 4 planned; 1 not visited; Stopped: chunk 1's job no longer exists");
  });
});

describe('worker__recover and coverage runs', () => {
  it("fails a visit day queued a minute ago whose planning job is gone, and releases a dead worker's discovery", async () => {
    await insertDirectoryStores(db.sql, 'target', ordinaryZips(1, 14001));
    await plan('target');
    const { runId } = await startVisitDay(db.sql, { store: 'target', userId: null, trigger: 'manual' });
    await db.sql`delete from graphile_worker._private_jobs`;
    await db.sql`update coverage_runs set created_at = now() - interval '2 minutes' where id = ${runId}`;
    const [sweep] = await db.sql<{ id: number }[]>`
      insert into coverage_runs (store_id, kind, scope, status, started_at, heartbeat_at, worker_id)
      values ('aldi', 'discover', '{"kind":"nationwide"}', 'running', now(), now() - interval '5 minutes', 'gone-worker') returning id`;
    await db.sql`insert into worker_heartbeats (worker_id, pid, beat_at) values ('gone-worker', 1, now() - interval '5 minutes')`;
    // The sweep's job, held by the dead worker.
    await db.sql`select graphile_worker.add_job('coverage__discover', json_build_object('runId', ${sweep!.id}::int), job_key := 'test-sweep')`;
    await db.sql`update graphile_worker._private_jobs set locked_by = 'gone-worker', locked_at = now() - interval '5 minutes' where key = 'test-sweep'`;
    await db.sql`select graphile_worker.add_job('worker__recover', '{}'::json)`;
    await runOnly('worker__recover', scrape({ staleMs: 1000 }));
    const [job] = await db.sql<
      { locked_by: string | null }[]
    >`select locked_by from graphile_worker._private_jobs where key = 'test-sweep'`;
    expect(job).toEqual({ locked_by: null });
    expect(await runRow(runId)).toMatchObject({
      status: 'failed',
      message: 'Stopped: its planning job no longer exists.',
    });
    const [released] = await db.sql<
      { status: string; worker_id: string | null }[]
    >`select status, worker_id from coverage_runs where id = ${sweep!.id}`;
    expect(released).toEqual({ status: 'running', worker_id: null });
  });
});

describe('manual ZIP runs', () => {
  it("go into the retailer's queue", async () => {
    await db.sql`update scrape_runs set status = 'succeeded' where status in ('queued', 'running')`;
    await db.sql.begin((tx) =>
      queueRun(tx, { store: 'target', zipCodes: ['10001'], requestedBy: null, trigger: 'manual' }),
    );
    const jobs = await db.sql<
      { task_identifier: string; queue_name: string | null }[]
    >`select task_identifier, queue_name from graphile_worker.jobs`;
    expect(jobs).toEqual([{ task_identifier: 'stores__scrape', queue_name: 'retailer:target' }]);
  });
});
