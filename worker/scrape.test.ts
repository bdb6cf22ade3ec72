// Scrape runs through graphile-worker's run-once API against the retailer stand-in: every
// retailer end to end, partial failures, demo versus retailer prices, idempotency of a re-run and
// of a doubled job, resuming, recovery of a dead worker's run, and the daily schedule.
import { greatCircleMiles, zipFacts } from '#server/geo.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import { getRun, queueRun } from '#server/queries/scrape.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { runJobs as runQueuedJobs } from '../test/jobs.ts';
import { startStandIn, type StandInServer } from '../test/retailers/server.ts';
import { SCENARIO_ZIPS } from '../test/retailers/scenarios.ts';
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
});

function scrape(over: Partial<ScrapeConfig> = {}): Partial<ScrapeConfig> {
  const origins = Object.fromEntries(STORE_IDS.map((store) => [store, standIn.url]));
  return {
    origins,
    credentials: { krogerClientId: 'test-client', krogerClientSecret: 'test-secret' },
    http: { delayMs: 0, retries: 2, timeoutMs: 5000, backoffBaseMs: 5, backoffCapMs: 20, maxRetryAfterMs: 3000 },
    ...over,
  };
}

const runJobs = (config: Partial<ScrapeConfig> = scrape()) =>
  runQueuedJobs(db, taskList({ sql: db.sql, email: { from: 'test@eggwatch.local' }, scrape: config }));

async function start(store: StoreId, zips: string[]): Promise<number> {
  const id = await db.sql.begin((tx) => queueRun(tx, { store, zipCodes: zips, requestedBy: null, trigger: 'manual' }));
  if (id === null) throw new Error('run not queued');
  return id;
}

const runRow = async (id: number) => {
  const [row] = await db.sql<
    {
      status: string;
      message: string | null;
      progress: number;
      accepted: number;
      observations_written: number;
      demo: boolean;
      finished_at: Date | null;
    }[]
  >`
    select status, message, progress, accepted, observations_written, demo, finished_at from scrape_runs where id = ${id}`;
  return row!;
};
const zipRows = (id: number) =>
  db.sql<{ zip: string; status: string; message: string | null; accepted: number; observations_written: number }[]>`
    select zip, status, message, accepted, observations_written from scrape_run_zips where run_id = ${id} order by zip`;
const observationsOf = (id: number) =>
  db.sql<{ source: string }[]>`select source from price_observations where scrape_run_id = ${id}`;

describe('each retailer end to end', () => {
  it.each(STORE_IDS)('%s: locates the store, reads every page, classifies and writes the prices', async (store) => {
    const id = await start(store, ['10001']);
    await runJobs();
    const run = await runRow(id);
    expect(run).toMatchObject({ status: 'succeeded', progress: 1, demo: true });
    expect(run.accepted).toBeGreaterThanOrEqual(5);
    expect(run.observations_written).toBe(run.accepted);
    const [zip] = await zipRows(id);
    expect(zip).toMatchObject({ zip: '10001', status: 'succeeded' });
    // Non-egg products and ads were seen and left out.
    const [counts] = await db.sql<{ listings_seen: number; accepted: number; skipped: Record<string, number> }[]>`
      select listings_seen, accepted, skipped from scrape_run_zips where run_id = ${id}`;
    expect(counts!.listings_seen).toBeGreaterThan(counts!.accepted);
    expect(Object.values(counts!.skipped).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // More than one listing page was requested.
    expect(standIn.requests.filter((r) => r.store === store && r.status === 200).length).toBeGreaterThanOrEqual(3);
    const entries = await db.sql<{ source: string; region: string; egg_type: string }[]>`
      select e.source, l.region, p.egg_type from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
      where e.observation_id in (select id from price_observations where scrape_run_id = ${id})`;
    expect(entries.length).toBe(run.accepted);
    expect(new Set(entries.map((e) => e.region))).toEqual(new Set(['northeast']));
    expect(new Set(entries.map((e) => e.egg_type)).size).toBeGreaterThanOrEqual(3);
    // The location has a position (the retailer's own, else its ZIP code's centroid), a city and a state.
    const [place] = await db.sql<
      {
        latitude: number | null;
        longitude: number | null;
        coordinates_source: string | null;
        city: string | null;
        state: string | null;
      }[]
    >`
      select l.latitude, l.longitude, l.coordinates_source, l.city, l.state
      from store_locations l join scrape_run_zips z on z.location_id = l.id where z.run_id = ${id}`;
    expect(place).toMatchObject({
      latitude: expect.any(Number),
      longitude: expect.any(Number),
      city: expect.any(String),
      state: 'NY',
    });
    expect(['retailer', 'zip']).toContain(place!.coordinates_source);
    // The stand-in's store has the ZIP code's real city, and where its locator gives coordinates
    // (Kroger, ALDI, Whole Foods), a point a little away from the ZIP code's centre.
    const centre = zipFacts('10001')!;
    expect(place!.city).toBe(centre.city);
    if (['kroger', 'aldi', 'whole-foods'].includes(store)) {
      expect(place!.coordinates_source).toBe('retailer');
      const miles = greatCircleMiles(centre, { latitude: place!.latitude!, longitude: place!.longitude! });
      expect(miles).toBeGreaterThan(0.3);
      expect(miles).toBeLessThan(3);
    }
    // A demo price links to no retailer page: the retailer never published it.
    const links = await db.sql<{ url: string | null }[]>`
      select p.url from products p join price_observations o on o.product_id = p.id where o.scrape_run_id = ${id}`;
    expect(links.every((l) => l.url === null)).toBe(true);
  });
});

describe('a run', () => {
  it('commits the ZIPs that parsed and says which failed and why', async () => {
    const id = await start('walmart', [
      '60611',
      SCENARIO_ZIPS.blocked,
      SCENARIO_ZIPS.changed,
      SCENARIO_ZIPS.noStore,
      SCENARIO_ZIPS.flaky,
    ]);
    await runJobs();
    const run = await runRow(id);
    expect(run.status).toBe('partial');
    const zips = await zipRows(id);
    expect(zips.map((z) => [z.zip, z.status])).toEqual([
      [SCENARIO_ZIPS.noStore, 'failed'],
      [SCENARIO_ZIPS.flaky, 'succeeded'],
      ['60611', 'succeeded'],
      [SCENARIO_ZIPS.changed, 'failed'],
      [SCENARIO_ZIPS.blocked, 'failed'],
    ]);
    const message = (zip: string) => zips.find((z) => z.zip === zip)!.message;
    expect(message(SCENARIO_ZIPS.blocked)).toBe("blocked by Walmart's bot protection (PerimeterX)");
    expect(message(SCENARIO_ZIPS.changed)).toMatch(/^page structure not recognised/);
    expect(message(SCENARIO_ZIPS.noStore)).toBe(`no Walmart store near ${SCENARIO_ZIPS.noStore}`);
    expect(zips.filter((z) => z.status === 'failed').every((z) => z.observations_written === 0)).toBe(true);
    expect((await observationsOf(id)).length).toBe(run.observations_written);
    expect(run.observations_written).toBeGreaterThan(0);
  });

  it("records each ZIP code's retries and rate-limit waits, which the run's details list", async () => {
    const id = await start('walmart', ['60611', SCENARIO_ZIPS.flaky, SCENARIO_ZIPS.rateLimited]);
    await runJobs();
    const run = (await getRun(db.sql, id))!;
    expect(run.status).toBe('succeeded');
    const byZip = Object.fromEntries(
      run.zips.map((z) => [
        z.zip,
        { retries: z.retries, rateLimitWaits: z.rateLimitWaits, rateLimitWaitMs: z.rateLimitWaitMs },
      ]),
    );
    expect(byZip).toEqual({
      '60611': { retries: 0, rateLimitWaits: 0, rateLimitWaitMs: 0 },
      // The stand-in answers this ZIP's first request with a 500, then the page.
      [SCENARIO_ZIPS.flaky]: { retries: 1, rateLimitWaits: 0, rateLimitWaitMs: 0 },
      // And this one's with a 429 asking for one second.
      [SCENARIO_ZIPS.rateLimited]: { retries: 0, rateLimitWaits: 1, rateLimitWaitMs: 1000 },
    });
    for (const zip of run.zips) expect(zip.requests).toBeGreaterThan(zip.retries + zip.rateLimitWaits);
  });

  it('that fails every ZIP is failed, with the reasons', async () => {
    const id = await start('target', [SCENARIO_ZIPS.blocked]);
    await runJobs();
    expect(await runRow(id)).toMatchObject({
      status: 'failed',
      message: `The ZIP code failed: ${SCENARIO_ZIPS.blocked}: blocked by Target's bot protection (Akamai)`,
      observations_written: 0,
    });
  });

  it('of Kroger without credentials fails at once, naming the two variables', async () => {
    const id = await start('kroger', ['10001']);
    await runJobs(scrape({ credentials: {} }));
    const run = await runRow(id);
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/KROGER_CLIENT_ID.*KROGER_CLIENT_SECRET/);
    expect(standIn.requests.filter((r) => r.store === 'kroger')).toEqual([]);
  });

  it('through an origin declared to be the retailer records scraped prices, not demo prices', async () => {
    const id = await start('aldi', ['30301']);
    await runJobs(scrape({ originsAreRetailers: true }));
    const run = await runRow(id);
    expect(run).toMatchObject({ status: 'succeeded', demo: false });
    expect(new Set((await observationsOf(id)).map((o) => o.source))).toEqual(new Set(['scrape']));
    const links = await db.sql<{ url: string | null }[]>`
      select p.url from products p join price_observations o on o.product_id = p.id where o.scrape_run_id = ${id}`;
    expect(links.some((l) => l.url?.startsWith('https://'))).toBe(true);
  });

  it('run again the same day updates its observations: the same rows, no duplicates', async () => {
    const first = await start('albertsons', ['77001']);
    await runJobs();
    const before = (await db.sql<{ n: number }[]>`select count(*)::int as n from price_observations`)[0]!.n;
    standIn.setPriceFactor('albertsons', 1.2);
    const second = await start('albertsons', ['77001']);
    await runJobs();
    standIn.setPriceFactor('albertsons', 1);
    const after = (await db.sql<{ n: number }[]>`select count(*)::int as n from price_observations`)[0]!.n;
    expect(after).toBe(before);
    expect((await runRow(second)).observations_written).toBe((await runRow(first)).observations_written);
    // The day's rows now carry the second run's (higher) prices.
    expect((await observationsOf(first)).length).toBe(0);
  });

  it('run twice as a job (a doubled or retried job) does nothing the second time', async () => {
    const id = await start('whole-foods', ['10001']);
    await runJobs();
    const finished = await runRow(id);
    standIn.reset();
    await db.sql`select graphile_worker.add_job('stores__scrape', json_build_object('runId', ${id}::int))`;
    await runJobs();
    expect(await runRow(id)).toEqual(finished);
    expect(standIn.requests).toEqual([]);
  });

  it('resumes after the ZIPs already written', async () => {
    const id = await start('aldi', ['10001', '60611', '90210']);
    await db.sql`
      insert into scrape_run_zips (run_id, zip, status, message, started_at) values (${id}, '10001', 'failed', 'written before a crash', now())`;
    await db.sql`update scrape_runs set status = 'running', started_at = now() where id = ${id}`;
    await runJobs();
    const zips = await zipRows(id);
    expect(zips.map((z) => [z.zip, z.status])).toEqual([
      ['10001', 'failed'],
      ['60611', 'succeeded'],
      ['90210', 'succeeded'],
    ]);
    expect(standIn.requests.some((r) => r.query.includes('10001'))).toBe(false);
    expect((await runRow(id)).status).toBe('partial');
  });
});

describe('worker__recover', () => {
  it("releases a dead worker's job so a live worker resumes the run", async () => {
    const id = await start('walmart', ['10001', '30301']);
    // A worker took the job, wrote one ZIP, then died: the job stays locked, the heartbeat ages.
    await db.sql`update graphile_worker._private_jobs set locked_by = 'dead-worker', locked_at = now() - interval '5 minutes', attempts = 1 where key = ${`scrape:${id}`}`;
    await db.sql`update scrape_runs set status = 'running', started_at = now() - interval '5 minutes', heartbeat_at = now() - interval '5 minutes', worker_id = 'dead-worker' where id = ${id}`;
    await db.sql`insert into scrape_run_zips (run_id, zip, status, started_at) values (${id}, '10001', 'succeeded', now())`;
    await db.sql`select graphile_worker.add_job('worker__recover', '{}'::json)`;
    await runJobs(scrape({ staleMs: 1000 }));
    const run = await runRow(id);
    expect(run.status).toBe('succeeded');
    expect((await zipRows(id)).map((z) => z.zip)).toEqual(['10001', '30301']);
    const [recovered] = await db.sql`select recovered from scrape_runs where id = ${id}`;
    expect(recovered!.recovered).toBe(1);
  });

  it('leaves the job to a live worker that has just picked it up, before the run beats again', async () => {
    const id = await start('albertsons', ['10001']);
    // The run's worker died; a live worker (fresh heartbeat) has locked the released job and its
    // task has not claimed the run yet.
    await db.sql`update scrape_runs set status = 'running', started_at = now() - interval '5 minutes', heartbeat_at = now() - interval '5 minutes', worker_id = 'dead-worker' where id = ${id}`;
    await db.sql`update graphile_worker._private_jobs set locked_by = 'live-worker', locked_at = now(), attempts = 2 where key = ${`scrape:${id}`}`;
    await db.sql`insert into worker_heartbeats (worker_id, pid, beat_at) values ('live-worker', 1, now())`;
    await db.sql`select graphile_worker.add_job('worker__recover', '{}'::json)`;
    await runJobs(scrape({ staleMs: 60_000 }));
    const [job] = await db.sql`select locked_by from graphile_worker._private_jobs where key = ${`scrape:${id}`}`;
    expect(job!.locked_by).toBe('live-worker');
    expect((await runRow(id)).status).toBe('running');
    await db.sql`update scrape_runs set status = 'failed' where id = ${id}`;
    await db.sql`delete from worker_heartbeats where worker_id = 'live-worker'`;
  });

  it('marks failed a run whose job is gone, and leaves a live run alone', async () => {
    const lost = await start('target', ['10001']);
    await db.sql`delete from graphile_worker._private_jobs where key = ${`scrape:${lost}`}`;
    await db.sql`update scrape_runs set status = 'running', heartbeat_at = now() - interval '5 minutes' where id = ${lost}`;
    const live = await start('kroger', ['10001']);
    await db.sql`update graphile_worker._private_jobs set locked_by = 'busy-worker', locked_at = now() where key = ${`scrape:${live}`}`;
    await db.sql`update scrape_runs set status = 'running', heartbeat_at = now(), worker_id = 'busy-worker' where id = ${live}`;
    await db.sql`select graphile_worker.add_job('worker__recover', '{}'::json)`;
    await runJobs(scrape({ staleMs: 60_000 }));
    expect(await runRow(lost)).toMatchObject({
      status: 'failed',
      message: 'Stopped: its job no longer exists; 0 of 1 ZIP codes written.',
    });
    expect((await runRow(live)).status).toBe('running');
    const [job] = await db.sql`select locked_by from graphile_worker._private_jobs where key = ${`scrape:${live}`}`;
    expect(job!.locked_by).toBe('busy-worker');
    await db.sql`update scrape_runs set status = 'failed' where id = ${live}`;
  });
});

describe('scrape__schedule', () => {
  it('queues one run per active store at the configured hour, once per slot', async () => {
    await db.sql`update scrape_runs set status = 'succeeded' where status in ('queued', 'running')`;
    await db.sql`update scrape_settings set daily_enabled = true, hour_utc = 4, zip_codes = '{10001,30301}'`;
    await db.sql`update stores set active = false where id = 'aldi'`;
    const tick = (now: string) =>
      db.sql`select graphile_worker.add_job('scrape__schedule', json_build_object('now', ${now}::text))`;
    // Through the helper, which waits for the jobs' completions to commit: one still on its way
    // when the file's database is dropped would fail the run as an unhandled rejection.
    const runSchedule = () =>
      runQueuedJobs(db, { scrape__schedule: taskList({ sql: db.sql, email: { from: 'x@y.z' } }).scrape__schedule! });
    const scheduled = () => db.sql<{ store_id: string; zip_codes: string[]; trigger: string }[]>`
      select store_id, zip_codes, trigger from scrape_runs where trigger = 'schedule' order by store_id`;
    try {
      await tick('2026-11-23T03:00:00Z');
      await runSchedule();
      expect(await scheduled()).toEqual([]);
      await tick('2026-11-23T04:00:00Z');
      await tick('2026-11-23T04:00:00Z');
      await runSchedule();
      const runs = await scheduled();
      expect(runs.map((r) => r.store_id)).toEqual(['albertsons', 'kroger', 'target', 'walmart', 'whole-foods']);
      expect(runs.every((r) => r.zip_codes.join() === '10001,30301')).toBe(true);
    } finally {
      await db.sql`update stores set active = true where id = 'aldi'`;
      await db.sql`update scrape_settings set daily_enabled = false`;
      await db.sql`delete from scrape_runs where trigger = 'schedule'`;
    }
  });
});
