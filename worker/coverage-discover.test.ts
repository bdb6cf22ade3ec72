// coverage__discover through graphile-worker's run-once API against the retailer stand-in: a
// discovery run finds every store of its scope (with banners), job by job in the retailer's queue
// so other jobs of that queue run in between, with live counters; stores answered near the scope
// but outside it are kept and counted apart; a store missed by two complete sweeps closes and
// reopens when found again; on the metro network, whose locators answer the documented minimum
// fields, stores without a ZIP code are filed by their coordinates or city; a store that cannot be
// filed is counted with its reason, and a run that files nothing where the chain has stores fails;
// a bot wall or an unrecognised answer stops the run with its reason; a run resumes from its
// written state.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runOnce, type Task } from 'graphile-worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { retailerQueue, type CoverageScopeInput } from '#shared/coverage.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import { quietLogger } from '#server/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { runJobs as runQueuedJobs } from '../test/jobs.ts';
import { startStandIn, type StandInServer } from '../test/retailers/server.ts';
import { chainNetwork, networkStoresIn } from '../test/retailers/network.ts';
import { metroStoresIn } from '../test/retailers/metro-network.ts';
import { startMetroStandIn } from '../test/retailers/metro-locators.ts';
import type { ScrapeConfig } from '#shared/scrape.ts';
import { taskList } from './tasks.ts';
import { coverageDiscover } from './tasks/coverage__discover.ts';

let db: TestDatabase;
let standIn: StandInServer;
let metro: StandInServer;

beforeAll(async () => {
  db = await createTestDatabase();
  standIn = await startStandIn();
  metro = await startMetroStandIn();
});
afterAll(async () => {
  await standIn.close();
  await metro.close();
  await db.drop();
});
beforeEach(async () => {
  standIn.reset();
  standIn.setClosingStoresClosed(false);
  await db.sql`delete from graphile_worker._private_jobs`;
});

function scrape(origin = standIn.url): Partial<ScrapeConfig> {
  return {
    origins: Object.fromEntries(STORE_IDS.map((store) => [store, origin])),
    credentials: {
      krogerClientId: 'test-client',
      krogerClientSecret: 'test-secret',
      albertsonsApiKey: '0123456789abcdef0123456789abcdef',
    },
    http: { delayMs: 0, retries: 0, timeoutMs: 5000, backoffBaseMs: 5, backoffCapMs: 20, maxRetryAfterMs: 3000 },
  };
}

/** What the admin part's starter does: a queued run and its first job in the retailer's queue, in one transaction. */
async function startDiscovery(store: StoreId, scope: CoverageScopeInput): Promise<number> {
  return db.sql.begin(async (tx) => {
    const [run] = await tx<Array<{ id: number }>>`
      insert into coverage_runs (store_id, kind, scope, status) values (${store}, 'discover', ${tx.json(scope as never)}, 'queued') returning id`;
    await tx`select graphile_worker.add_job('coverage__discover', json_build_object('runId', ${run!.id}::int), queue_name := ${retailerQueue(store)})`;
    return run!.id;
  });
}

const order: string[] = [];
let passThrough = 0;

async function runJobs(config = scrape(), callsPerJob = 6, extra: Record<string, Task> = {}) {
  const deps = { sql: db.sql, email: { from: 'test@eggwatch.local' }, scrape: config };
  const discover = coverageDiscover(deps, { callsPerJob, callsPerWrite: 3 });
  const tasks = {
    ...taskList(deps),
    coverage__discover: (async (payload, helpers) => {
      order.push('discover');
      await discover(payload, helpers);
    }) as Task,
    ...extra,
  };
  // A discovery job queues the next chunk of its run: rounds until none is left.
  await runQueuedJobs(db, tasks, { untilDone: true, rounds: 1000 });
}

const runRow = async (id: number) => {
  const [row] = await db.sql<
    Array<{
      status: string;
      message: string | null;
      demo: boolean;
      points_planned: number;
      points_done: number;
      locator_calls: number;
      stores_found: number;
      stores_in_scope: number;
      stores_new: number;
      stores_closed: number;
      stores_skipped: number;
      skipped_reasons: Array<{ reason: string; stores: number }>;
      worker_id: string | null;
      heartbeat_at: Date | null;
      finished_at: Date | null;
    }>
  >`select status, message, demo, points_planned, points_done, locator_calls, stores_found, stores_in_scope, stores_new, stores_closed,
            stores_skipped, skipped_reasons, worker_id, heartbeat_at, finished_at from coverage_runs where id = ${id}`;
  return row!;
};

const directory = (store: StoreId) =>
  db.sql<
    Array<{
      retailer_location_id: string;
      banner: string | null;
      state: string | null;
      zip: string;
      status: string;
      missed_sweeps: number;
    }>
  >`
    select retailer_location_id, banner, state, zip, status, missed_sweeps from store_locations where store_id = ${store} and retailer_location_id is not null`;

describe('a discovery run', () => {
  it('finds every store of its states job by job in the retailer queue, with banners and live counters', async () => {
    order.length = 0;
    const id = await startDiscovery('kroger', { kind: 'states', states: ['WV', 'DE'] });
    // Another job of the same retailer queue, added after the first discovery job.
    await db.sql`select graphile_worker.add_job('probe', '{}'::json, queue_name := ${retailerQueue('kroger')})`;
    await runJobs(scrape(), 2, { probe: (async () => void order.push('probe')) as Task });

    const run = await runRow(id);
    expect(run).toMatchObject({ status: 'succeeded', demo: true, stores_closed: 0 });
    expect(run.heartbeat_at).not.toBeNull();
    expect(run.worker_id).not.toBeNull();
    expect(run.points_done).toBe(run.locator_calls);
    expect(run.points_planned).toBe(run.points_done);
    expect(run.locator_calls).toBeGreaterThan(2);
    const present = networkStoresIn('kroger', ['WV', 'DE']);
    expect(run.stores_found).toBeGreaterThanOrEqual(present.length);
    expect(run.message).toMatch(
      /^Swept 2 states: DE, WV: \d+ found: \d+ in scope, \d+ nearby outside it \(\d+ new\) with \d+ locator calls; 0 not found$/,
    );
    expect(run.stores_in_scope).toBe(present.length);
    const rows = await directory('kroger');
    const known = new Set(rows.map((row) => row.retailer_location_id));
    for (const store of present) expect(known).toContain(store.id);
    expect(rows.every((row) => row.banner !== null)).toBe(true);
    expect(run.stores_new).toBe(rows.length);
    // The probe ran between two discovery jobs: each job handed the queue back.
    expect(order[0]).toBe('discover');
    expect(order.indexOf('probe')).toBeGreaterThan(0);
    expect(order.indexOf('probe')).toBeLessThan(order.length - 1);
    const [{ left }] = (await db.sql`select count(*)::int as left from graphile_worker.jobs`) as unknown as [
      { left: number },
    ];
    expect(left).toBe(0);
  });

  it('closes a store two complete sweeps in a row miss, and reopens it when it is found again', async () => {
    const scope: CoverageScopeInput = { kind: 'states', states: ['WV'] };
    const closing = chainNetwork('kroger').stores.find((store) => store.closing)!;
    expect(closing.state).toBe('WV');
    const first = await startDiscovery('kroger', scope);
    await runJobs(scrape(), 50);
    expect(await runRow(first)).toMatchObject({ status: 'succeeded', stores_closed: 0 });

    standIn.setClosingStoresClosed(true);
    const second = await startDiscovery('kroger', scope);
    await runJobs(scrape(), 50);
    expect(await runRow(second)).toMatchObject({ status: 'succeeded', stores_closed: 0 });
    expect((await directory('kroger')).find((row) => row.retailer_location_id === closing.id)).toMatchObject({
      status: 'open',
      missed_sweeps: 1,
    });

    const third = await startDiscovery('kroger', scope);
    await runJobs(scrape(), 50);
    const closedRun = await runRow(third);
    expect(closedRun).toMatchObject({ status: 'succeeded', stores_closed: 1 });
    expect(closedRun.message).toContain('1 closed');
    expect((await directory('kroger')).find((row) => row.retailer_location_id === closing.id)).toMatchObject({
      status: 'closed',
      missed_sweeps: 2,
    });
    // Stores outside the scope were never counted.
    expect(
      (await directory('kroger')).filter((row) => row.state === 'DE').every((row) => row.missed_sweeps === 0),
    ).toBe(true);

    standIn.setClosingStoresClosed(false);
    const fourth = await startDiscovery('kroger', scope);
    await runJobs(scrape(), 50);
    expect(await runRow(fourth)).toMatchObject({ status: 'succeeded', stores_closed: 0 });
    expect((await runRow(fourth)).message).toContain('1 reopened');
    expect((await directory('kroger')).find((row) => row.retailer_location_id === closing.id)).toMatchObject({
      status: 'open',
      missed_sweeps: 0,
    });
  });

  it('keeps the stores answered near the scope but outside it, and counts them apart', async () => {
    const id = await startDiscovery('target', { kind: 'states', states: ['RI'] });
    await runJobs(scrape(), 50);
    const run = await runRow(id);
    const inRhodeIsland = networkStoresIn('target', ['RI']).length;
    expect(run).toMatchObject({ status: 'succeeded', stores_in_scope: inRhodeIsland });
    expect(run.stores_found).toBeGreaterThan(inRhodeIsland);
    expect(run.message).toContain(
      `${run.stores_found} found: ${inRhodeIsland} in scope, ${run.stores_found - inRhodeIsland} nearby outside it`,
    );
    const states = new Set((await directory('target')).map((row) => row.state));
    expect(states).toContain('MA');
  });
});

describe('a discovery run on the metro network (documented minimum fields)', () => {
  it.each([
    ['whole-foods', ['CO', 'UT', 'NM']],
    ['albertsons', ['NM']],
    ['aldi', ['DE']],
  ] as const)('%s: files every store of %s under a ZIP code and a state, skipping none', async (store, states) => {
    const id = await startDiscovery(store, { kind: 'states', states: [...states] });
    await runJobs(scrape(metro.url), 200);
    const run = await runRow(id);
    const present = metroStoresIn(store, states);
    expect(run).toMatchObject({ status: 'succeeded', stores_in_scope: present.length, stores_skipped: 0 });
    const rows = new Map((await directory(store)).map((row) => [row.retailer_location_id, row]));
    for (const expected of present) {
      const row = rows.get(expected.id);
      expect(row, expected.id).toBeDefined();
      expect(row!.state).toBe(expected.state);
      expect(row!.zip).toMatch(/^\d{5}$/);
    }
  });
});

describe('a discovery run whose answers cannot be filed', () => {
  let finder: http.Server;
  let finderUrl: string;
  beforeAll(async () => {
    // A Whole Foods store finder whose stores have a street but no ZIP code, coordinates or city.
    finder = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        req.url === '/stores/search'
          ? JSON.stringify([
              { storeId: 10401, location: { address: { line1: '1 Main St' } } },
              { storeId: 10402, location: { address: { line1: '2 Main St', state: 'RI' } } },
            ])
          : '{}',
      );
    });
    await new Promise<void>((resolve) => finder.listen(0, '127.0.0.1', resolve));
    finderUrl = `http://127.0.0.1:${(finder.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => finder.close(() => resolve())));

  it('counts each store it skips with the reason, and fails rather than finding nothing', async () => {
    const id = await startDiscovery('whole-foods', { kind: 'states', states: ['RI'] });
    await runJobs(scrape(finderUrl), 50);
    const run = await runRow(id);
    const reason = 'the answer gives no ZIP code, coordinates or city to file it under';
    expect(run).toMatchObject({
      status: 'failed',
      stores_found: 0,
      stores_skipped: 2,
      skipped_reasons: [{ reason, stores: 2 }],
    });
    expect(run.message).toBe(
      `Found no store in 1 state: RI with ${run.locator_calls} locator call${run.locator_calls === 1 ? '' : 's'}, although the locator answered 2 stores that could not be filed; nothing was closed; 2 stores skipped: ${reason} (2)`,
    );
  });

  it('fails, closing nothing, when the locator answers no store where the directory knows some', async () => {
    const seeded = await startDiscovery('whole-foods', { kind: 'states', states: ['MA'] });
    await runJobs(scrape(), 100);
    expect(await runRow(seeded)).toMatchObject({ status: 'succeeded', stores_skipped: 0 });
    const [known] = await db.sql<Array<{ n: number }>>`
      select count(*)::int as n from store_locations where store_id = 'whole-foods' and state = 'MA' and status = 'open'`;
    expect(known!.n).toBeGreaterThan(0);
    const empty = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    await new Promise<void>((resolve) => empty.listen(0, '127.0.0.1', resolve));
    try {
      const id = await startDiscovery('whole-foods', { kind: 'states', states: ['MA'] });
      await runJobs(scrape(`http://127.0.0.1:${(empty.address() as AddressInfo).port}`), 50);
      const run = await runRow(id);
      expect(run.status).toBe('failed');
      expect(run.message).toMatch(
        /^Found no store in 1 state: MA with \d+ locator calls?, although \d+ known stores? (is|are) in it; nothing was closed$/,
      );
      const [after] = await db.sql<Array<{ missed: number }>>`
        select count(*)::int as missed from store_locations where store_id = 'whole-foods' and missed_sweeps > 0`;
      expect(after!.missed).toBe(0);
    } finally {
      await new Promise<void>((resolve) => empty.close(() => resolve()));
    }
  });
});

describe('a discovery run that cannot start', () => {
  it('Kroger without credentials fails with the configuration message, asking nothing', async () => {
    const id = await startDiscovery('kroger', { kind: 'states', states: ['RI'] });
    await runJobs({ ...scrape(), credentials: {} });
    const run = await runRow(id);
    expect(run).toMatchObject({ status: 'failed', locator_calls: 0 });
    expect(run.message).toMatch(/KROGER_CLIENT_ID/);
  });

  it('a scope that is not valid fails the run and says why', async () => {
    const [row] = await db.sql<Array<{ id: number }>>`
      insert into coverage_runs (store_id, kind, scope, status) values ('target', 'discover', ${db.sql.json({ kind: 'states', states: ['XX'] })}, 'queued') returning id`;
    await db.sql`select graphile_worker.add_job('coverage__discover', json_build_object('runId', ${row!.id}::int), queue_name := ${retailerQueue('target')})`;
    await runJobs();
    const run = await runRow(row!.id);
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^The run's scope is not valid: Not US state codes: "XX"/);
  });

  it('read through origins that are the retailers (a forwarding proxy), the run is not a demo', async () => {
    const id = await startDiscovery('target', { kind: 'states', states: ['RI'] });
    await runJobs({ ...scrape(), originsAreRetailers: true });
    expect(await runRow(id)).toMatchObject({ status: 'succeeded', demo: false });
  });
});

describe('a discovery run that fails', () => {
  let wall: http.Server;
  let wallUrl: string;
  beforeAll(async () => {
    // Walmart's bot wall (after `passThrough` requests answered by the stand-in); for Albertsons a
    // resolver answer of another structure.
    wall = http.createServer((req, res) => {
      if (passThrough > 0) {
        passThrough--;
        fetch(`${standIn.url}${req.url ?? '/'}`, {
          headers: { 'x-forwarded-host': String(req.headers['x-forwarded-host'] ?? '') },
        })
          .then(async (response) => {
            res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'text/plain' });
            res.end(await response.text());
          })
          .catch(() => res.destroy());
        return;
      }
      if ((req.headers['x-forwarded-host'] ?? '') === 'www.walmart.com') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<html><head><title>Robot or human?</title></head><body>Activate and hold the button to confirm that you are human.</body></html>',
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ storeList: [] }));
    });
    await new Promise<void>((resolve) => wall.listen(0, '127.0.0.1', resolve));
    wallUrl = `http://127.0.0.1:${(wall.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => wall.close(() => resolve())));

  it('blocked: the run fails with the reason, and nothing closes', async () => {
    const id = await startDiscovery('walmart', { kind: 'states', states: ['RI'] });
    await runJobs(scrape(wallUrl));
    const run = await runRow(id);
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^Blocked: blocked by Walmart's bot protection \(PerimeterX\) after 0 points/);
    expect(run.finished_at).not.toBeNull();
  });

  it('an answer of another structure: the run fails and says so', async () => {
    const id = await startDiscovery('albertsons', { kind: 'states', states: ['DE'] });
    await runJobs(scrape(wallUrl));
    const run = await runRow(id);
    expect(run.status).toBe('failed');
    expect(run.message).toMatch(/^The locator's answer was not recognised: page structure not recognised/);
  });

  it('a failure after stores were found is partial and keeps them', async () => {
    const id = await startDiscovery('walmart', { kind: 'states', states: ['RI'] });
    // The first 5 calls reach the stand-in, then the bot wall answers.
    passThrough = 5;
    await runJobs(scrape(wallUrl), 50);
    passThrough = 0;
    const run = await runRow(id);
    expect(run.status).toBe('partial');
    expect(run.message).toMatch(
      /^Blocked: blocked by Walmart's bot protection \(PerimeterX\) after 5 points; \d+ stores? found so far/,
    );
    expect(run.stores_found).toBeGreaterThan(0);
    expect(run.locator_calls).toBe(5);
    expect((await directory('walmart')).length).toBeGreaterThanOrEqual(run.stores_found);
  });
});

describe('resuming', () => {
  it('a run left running by a dead worker resumes from its written state, without asking its points again', async () => {
    const scope: CoverageScopeInput = { kind: 'states', states: ['RI', 'CT'] };
    const id = await startDiscovery('aldi', scope);
    await runJobs(scrape(), 50, {});
    const whole = await runRow(id);
    expect(whole.status).toBe('succeeded');
    const again = await startDiscovery('aldi', scope);
    const deps = { sql: db.sql, email: { from: 'test@eggwatch.local' }, scrape: scrape() };
    const limited = coverageDiscover(deps, { callsPerJob: 6, callsPerWrite: 3 });
    await runOnce({
      connectionString: db.url,
      taskList: {
        coverage__discover: (async (payload, helpers) => {
          await limited(payload, helpers);
          await db.sql`delete from graphile_worker._private_jobs where task_id = (select id from graphile_worker._private_tasks where identifier = 'coverage__discover') and locked_at is null`;
        }) as Task,
      },
      logger: quietLogger,
    });
    const paused = await runRow(again);
    expect(paused).toMatchObject({ status: 'running', points_done: 6, locator_calls: 6 });
    // A new job for the run (as worker__recover adds) finishes it, asking only the rest.
    standIn.reset();
    await db.sql`update coverage_runs set worker_id = null where id = ${again}`;
    await db.sql`select graphile_worker.add_job('coverage__discover', json_build_object('runId', ${again}::int), queue_name := ${retailerQueue('aldi')})`;
    await runJobs(scrape(), 50);
    const finished = await runRow(again);
    expect(finished.status).toBe('succeeded');
    expect(finished.locator_calls).toBe(whole.locator_calls);
    expect(standIn.requests.filter((r) => r.path === '/v1/merchant-search').length).toBe(whole.locator_calls - 6);
  });
});
