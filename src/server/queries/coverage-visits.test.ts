// Writing one directory store's visit (prices, coverage_visits row, last visit, run counters) in
// one statement, as the run's owner, once; the stores a plan's day is due to visit; and the store
// directory's rows: one per retailer id (two stores of a chain in one ZIP code are two rows), a
// located store taking over the sample row at its ZIP code.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { requestsPerVisit } from './coverage-figures.ts';
import {
  finishVisitRun,
  planDueStores,
  writeVisit,
  writeVisits,
  type VisitBatchWrite,
  type VisitWrite,
} from './coverage-visits.ts';
import type { ListingWrite } from './price-writes.ts';
import { writeZipOutcome, type ZipWrite } from './scrape-writes.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());
beforeEach(async () => {
  await db.sql`update coverage_runs set status = 'succeeded' where status in ('queued', 'running')`;
});

const listing = (id: string, price: number, over: Partial<ListingWrite> = {}): ListingWrite => ({
  retailerProductId: id,
  title: `Test Farms Large Eggs ${id}, 12 ct`,
  brand: 'Test Farms',
  eggType: 'standard',
  count: 12,
  sizeGrade: 'Large',
  price,
  regularPrice: null,
  inStock: true,
  url: null,
  ...over,
});

async function newRun(store: string, worker = 'worker-a'): Promise<number> {
  const [run] = await db.sql<{ id: number }[]>`
    insert into coverage_runs (store_id, kind, scope, status, started_at, worker_id, stores_planned)
    values (${store}, 'visit', '{"kind":"nationwide"}', 'running', now(), ${worker}, 2) returning id`;
  return run!.id;
}

let nextStore = 1;
async function directoryStore(
  store: string,
  zip: string,
  over: { state?: string; latitude?: number; longitude?: number; lastVisit?: string; status?: 'open' | 'closed' } = {},
): Promise<number> {
  const id = `T${nextStore++}`;
  const [row] = await db.sql<{ id: number }[]>`
    insert into store_locations (store_id, zip, region, retailer_location_id, name, state, latitude, longitude, coordinates_source, last_visit_at, status, closed_at)
    values (${store}, ${zip}, 'south', ${id}, ${`Store ${id}`}, ${over.state ?? 'TX'}, ${over.latitude ?? null}, ${over.longitude ?? null},
            ${over.latitude !== undefined ? 'retailer' : null},
            ${over.lastVisit ?? null}, ${over.status ?? 'open'}, ${over.status === 'closed' ? db.sql`now()` : null})
    returning id`;
  return row!.id;
}

function visit(runId: number, locationId: number, over: Partial<VisitWrite> = {}): VisitWrite {
  return {
    runId,
    storeId: 'aldi',
    locationId,
    chunk: 0,
    status: 'succeeded',
    kind: null,
    message: null,
    startedAt: new Date(),
    requests: 2,
    listingsSeen: 6,
    listings: [listing('a1', 3.49), listing('a2', 5.99, { eggType: 'organic' })],
    source: 'demo',
    ownerWorkerId: 'worker-a',
    ...over,
  };
}

const runRow = async (id: number) =>
  (
    await db.sql<
      {
        stores_visited: number;
        stores_failed: number;
        stores_blocked: number;
        requests: number;
        status: string;
        message: string | null;
      }[]
    >`
    select stores_visited, stores_failed, stores_blocked, requests, status, message from coverage_runs where id = ${id}`
  )[0]!;
const observationsAt = (locationId: number) =>
  db.sql<{ retailer_product_id: string; price: number; source: string; scrape_run_id: number | null }[]>`
    select p.retailer_product_id, o.price, o.source, o.scrape_run_id from price_observations o join products p on p.id = o.product_id
    where o.location_id = ${locationId} order by p.retailer_product_id`;
const locationRow = async (id: number) =>
  (
    await db.sql<
      {
        last_visit_status: string | null;
        last_visit_kind: string | null;
        last_visit_message: string | null;
        visited: boolean;
        priced: boolean;
      }[]
    >`
    select last_visit_status, last_visit_kind, last_visit_message, last_visit_at is not null as visited, last_priced_at is not null as priced
    from store_locations where id = ${id}`
  )[0]!;

describe('writeVisit', () => {
  it("writes the store's products and observations, its visit row, its last visit and the run's counters", async () => {
    const runId = await newRun('aldi');
    const loc = await directoryStore('aldi', '75201');
    expect(await writeVisit(db.sql, visit(runId, loc))).toEqual({ observations: 2 });
    expect(await observationsAt(loc)).toEqual([
      { retailer_product_id: 'a1', price: 3.49, source: 'demo', scrape_run_id: null },
      { retailer_product_id: 'a2', price: 5.99, source: 'demo', scrape_run_id: null },
    ]);
    const [row] =
      await db.sql`select chunk, status, kind, requests, listings_seen, accepted, observations_written from coverage_visits where run_id = ${runId} and location_id = ${loc}`;
    expect(row).toEqual({
      chunk: 0,
      status: 'succeeded',
      kind: null,
      requests: 2,
      listings_seen: 6,
      accepted: 2,
      observations_written: 2,
    });
    expect(await locationRow(loc)).toEqual({
      last_visit_status: 'succeeded',
      last_visit_kind: null,
      last_visit_message: null,
      visited: true,
      priced: true,
    });
    expect(await runRow(runId)).toMatchObject({ stores_visited: 1, stores_failed: 0, stores_blocked: 0, requests: 2 });
    // The product is the chain's: a second store's visit reuses it.
    const other = await directoryStore('aldi', '75201');
    await writeVisit(db.sql, visit(runId, other));
    const [products] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from products where store_id = 'aldi' and retailer_product_id in ('a1', 'a2')`;
    expect(products!.n).toBe(2);
    expect((await requestsPerVisit(db.sql)).aldi).toMatchObject({ value: 2, source: 'visits' });
  });

  it('a visit written again (a chunk run twice) writes nothing and counts nothing', async () => {
    const runId = await newRun('aldi');
    const loc = await directoryStore('aldi', '75202');
    await writeVisit(db.sql, visit(runId, loc));
    expect(await writeVisit(db.sql, visit(runId, loc, { listings: [listing('a1', 9.99)] }))).toBe('already-written');
    expect((await observationsAt(loc)).map((o) => o.price)).toEqual([3.49, 5.99]);
    expect(await runRow(runId)).toMatchObject({ stores_visited: 1, requests: 2 });
  });

  it('written by a worker that no longer owns the run, or to a run that is over, writes nothing', async () => {
    const runId = await newRun('aldi', 'worker-b');
    const loc = await directoryStore('aldi', '75203');
    expect(await writeVisit(db.sql, visit(runId, loc))).toBe('not-owner');
    await db.sql`update coverage_runs set status = 'paused', worker_id = 'worker-a' where id = ${runId}`;
    expect(await writeVisit(db.sql, visit(runId, loc))).toBe('not-owner');
    expect(await observationsAt(loc)).toEqual([]);
    expect(await locationRow(loc)).toMatchObject({ visited: false });
    expect((await db.sql`select 1 from coverage_visits where run_id = ${runId}`).length).toBe(0);
  });

  it('a blocked visit keeps its reason on the store and in the counters, and no price', async () => {
    const runId = await newRun('aldi');
    const loc = await directoryStore('aldi', '75204');
    const blocked = visit(runId, loc, {
      status: 'failed',
      kind: 'blocked',
      message: "blocked by ALDI's bot protection",
      listings: [listing('a1', 1)],
    });
    expect(await writeVisit(db.sql, blocked)).toEqual({ observations: 0 });
    expect(await observationsAt(loc)).toEqual([]);
    expect(await locationRow(loc)).toEqual({
      last_visit_status: 'failed',
      last_visit_kind: 'blocked',
      last_visit_message: "blocked by ALDI's bot protection",
      visited: true,
      priced: false,
    });
    expect(await runRow(runId)).toMatchObject({ stores_visited: 1, stores_failed: 1, stores_blocked: 1 });
    const structure = await directoryStore('aldi', '75204');
    await writeVisit(
      db.sql,
      visit(runId, structure, { status: 'failed', kind: 'structure', message: 'page structure not recognised (x)' }),
    );
    expect(await runRow(runId)).toMatchObject({ stores_visited: 2, stores_failed: 2, stores_blocked: 1 });
    await db.sql`update coverage_runs set stores_planned = 3 where id = ${runId}`;
    expect(await finishVisitRun(db.sql, runId, { workerId: 'worker-a' })).toBe('failed');
    expect((await runRow(runId)).message).toBe(
      '0 stores priced of 3 planned; 2 failed (blocked 1, structure 1); 1 not visited',
    );
  });

  it('a second visit the same day (another run) updates the observation instead of adding one', async () => {
    const loc = await directoryStore('aldi', '75205');
    const first = await newRun('aldi');
    await writeVisit(db.sql, visit(first, loc));
    await db.sql`update coverage_runs set status = 'succeeded' where id = ${first}`;
    const second = await newRun('aldi');
    expect(
      await writeVisit(
        db.sql,
        visit(second, loc, { listings: [listing('a1', 3.79), listing('a2', 5.99, { eggType: 'organic' })] }),
      ),
    ).toEqual({ observations: 2 });
    expect((await observationsAt(loc)).map((o) => o.price)).toEqual([3.79, 5.99]);
  });

  it('finishing: succeeded when every visit gave an outcome without failure, only once, only by its worker', async () => {
    const runId = await newRun('aldi');
    await writeVisit(db.sql, visit(runId, await directoryStore('aldi', '75206')));
    await writeVisit(db.sql, visit(runId, await directoryStore('aldi', '75206')));
    expect(await finishVisitRun(db.sql, runId, { workerId: 'worker-b' })).toBeNull();
    expect(await finishVisitRun(db.sql, runId, { workerId: 'worker-a' })).toBe('succeeded');
    expect(await finishVisitRun(db.sql, runId, { workerId: 'worker-a' })).toBeNull();
    expect(await runRow(runId)).toMatchObject({ status: 'succeeded', message: '2 stores priced of 2 planned' });
  });
});

describe("writeVisits (a batch of a chunk's visits)", () => {
  const batch = (runId: number, visits: VisitWrite[], over: Partial<VisitBatchWrite> = {}): VisitBatchWrite => ({
    runId,
    storeId: 'aldi',
    chunk: 1,
    source: 'demo',
    ownerWorkerId: 'worker-a',
    visits,
    ...over,
  });
  const productTitle = async (id: string) =>
    (
      await db.sql<
        { title: string }[]
      >`select title from products where store_id = 'aldi' and retailer_product_id = ${id}`
    )[0]?.title;

  it("writes every store of the batch: prices, visit rows, last visits, and the run's counters once for the batch", async () => {
    const runId = await newRun('aldi');
    const [a, b, c] = [
      await directoryStore('aldi', '75211'),
      await directoryStore('aldi', '75212'),
      await directoryStore('aldi', '75213'),
    ];
    const result = await writeVisits(
      db.sql,
      batch(runId, [
        visit(runId, a, { listings: [listing('b1', 2.49, { title: 'Old title, 12 ct' }), listing('b2', 4.99)] }),
        visit(runId, b, { status: 'failed', kind: 'blocked', message: 'blocked', requests: 1 }),
        visit(runId, c, { listings: [listing('b1', 2.59, { title: 'New title, 12 ct' })], requests: 3 }),
      ]),
    );
    expect(result).toEqual({
      written: new Map([
        [a, 2],
        [b, 0],
        [c, 1],
      ]),
    });
    expect((await observationsAt(a)).map((o) => [o.retailer_product_id, o.price])).toEqual([
      ['b1', 2.49],
      ['b2', 4.99],
    ]);
    expect(await observationsAt(b)).toEqual([]);
    expect((await observationsAt(c)).map((o) => [o.retailer_product_id, o.price])).toEqual([['b1', 2.59]]);
    // A product listed by two stores of the batch: one row, with the last store's title.
    expect(await productTitle('b1')).toBe('New title, 12 ct');
    const rows =
      await db.sql`select location_id, chunk, status, kind, requests, accepted, observations_written from coverage_visits where run_id = ${runId} order by location_id`;
    expect(rows).toEqual([
      { location_id: a, chunk: 1, status: 'succeeded', kind: null, requests: 2, accepted: 2, observations_written: 2 },
      {
        location_id: b,
        chunk: 1,
        status: 'failed',
        kind: 'blocked',
        requests: 1,
        accepted: 0,
        observations_written: 0,
      },
      { location_id: c, chunk: 1, status: 'succeeded', kind: null, requests: 3, accepted: 1, observations_written: 1 },
    ]);
    expect(await locationRow(b)).toMatchObject({
      last_visit_status: 'failed',
      last_visit_kind: 'blocked',
      visited: true,
      priced: false,
    });
    expect(await locationRow(c)).toMatchObject({ last_visit_status: 'succeeded', visited: true, priced: true });
    expect(await runRow(runId)).toMatchObject({ stores_visited: 3, stores_failed: 1, stores_blocked: 1, requests: 6 });
  });

  it('is all or nothing: a store whose write fails leaves the whole batch unwritten', async () => {
    const runId = await newRun('aldi');
    const [a, b] = [await directoryStore('aldi', '75214'), await directoryStore('aldi', '75215')];
    // A price the table refuses (over $1,000) at the second store.
    await expect(
      writeVisits(
        db.sql,
        batch(runId, [
          visit(runId, a, { listings: [listing('c1', 3.09)] }),
          visit(runId, b, { listings: [listing('c2', 5000)] }),
        ]),
      ),
    ).rejects.toMatchObject({ code: '23514' });
    expect(await observationsAt(a)).toEqual([]);
    expect(await locationRow(a)).toMatchObject({ visited: false });
    expect(await productTitle('c1')).toBeUndefined();
    expect(await db.sql`select 1 from coverage_visits where run_id = ${runId}`).toHaveLength(0);
    expect(await runRow(runId)).toMatchObject({ stores_visited: 0, requests: 0 });
  });

  it('written again (a chunk retried or doubled): the stores written already are left out, the others written, nothing counted twice', async () => {
    const runId = await newRun('aldi');
    const [a, b] = [await directoryStore('aldi', '75216'), await directoryStore('aldi', '75217')];
    await writeVisits(db.sql, batch(runId, [visit(runId, a, { listings: [listing('d1', 2.99)] })]));
    const again = await writeVisits(
      db.sql,
      batch(runId, [
        visit(runId, a, { listings: [listing('d1', 9.99)] }),
        visit(runId, b, { listings: [listing('d1', 3.19)] }),
      ]),
    );
    expect(again).toEqual({ written: new Map([[b, 1]]) });
    expect((await observationsAt(a)).map((o) => o.price)).toEqual([2.99]);
    expect((await observationsAt(b)).map((o) => o.price)).toEqual([3.19]);
    expect(
      (await db.sql`select location_id from coverage_visits where run_id = ${runId} order by 1`).map(
        (r) => r.location_id,
      ),
    ).toEqual([a, b]);
    expect(await runRow(runId)).toMatchObject({ stores_visited: 2, requests: 4 });
    // The same batch a third time: nothing.
    expect(await writeVisits(db.sql, batch(runId, [visit(runId, a), visit(runId, b)]))).toEqual({ written: new Map() });
    expect(await runRow(runId)).toMatchObject({ stores_visited: 2, requests: 4 });
  });

  it('writes nothing for a run another worker took over, nor a store of another retailer, nor a store twice in one batch', async () => {
    const runId = await newRun('aldi', 'worker-b');
    const [a, b] = [await directoryStore('aldi', '75218'), await directoryStore('aldi', '75219')];
    expect(await writeVisits(db.sql, batch(runId, [visit(runId, a), visit(runId, b)]))).toBe('not-owner');
    expect(await observationsAt(a)).toEqual([]);
    expect(await locationRow(b)).toMatchObject({ visited: false });
    expect(await runRow(runId)).toMatchObject({ stores_visited: 0 });
    await db.sql`update coverage_runs set worker_id = 'worker-a' where id = ${runId}`;
    const walmart = await directoryStore('walmart', '75220');
    expect(await writeVisits(db.sql, batch(runId, [visit(runId, walmart), visit(runId, a)]))).toEqual({
      written: new Map([[a, 2]]),
    });
    expect(await locationRow(walmart)).toMatchObject({ visited: false });
    await expect(writeVisits(db.sql, batch(runId, [visit(runId, b), visit(runId, b)]))).rejects.toThrow(/twice/);
    expect(await runRow(runId)).toMatchObject({ stores_visited: 1 });
  });
});

describe('planDueStores', () => {
  it('open stores of the scope with a retailer id, never visited first, then the longest unvisited, at most once per revisitDays', async () => {
    await db.sql`update store_locations set status = 'closed', closed_at = now() where store_id = 'target'`;
    const never = await directoryStore('target', '84101', { state: 'UT', latitude: 40.76, longitude: -111.89 });
    const old = await directoryStore('target', '84102', {
      state: 'UT',
      latitude: 40.75,
      longitude: -111.86,
      lastVisit: '2026-11-20T12:00:00Z',
    });
    const yesterday = await directoryStore('target', '84103', {
      state: 'UT',
      latitude: 40.79,
      longitude: -111.88,
      lastVisit: '2026-11-24T23:00:00Z',
    });
    const today = await directoryStore('target', '84104', {
      state: 'UT',
      latitude: 40.74,
      longitude: -111.9,
      lastVisit: '2026-11-25T01:00:00Z',
    });
    await directoryStore('target', '84105', { state: 'UT', status: 'closed' });
    const ri = await directoryStore('target', '02903', { state: 'RI', latitude: 41.82, longitude: -71.41 });
    await db.sql`insert into store_locations (store_id, zip, region, name, state) values ('target', '84106', 'west', 'No retailer id', 'UT')`;
    const plan = (over: Partial<Parameters<typeof planDueStores>[1]> = {}) =>
      planDueStores(db.sql, {
        storeId: 'target',
        scope: { kind: 'nationwide' },
        revisitDays: 1,
        day: '2026-11-25',
        limit: 100,
        ...over,
      });
    expect(await plan()).toEqual([never, ri, old, yesterday]);
    expect(await plan({ limit: 2 })).toEqual([never, ri]);
    expect(await plan({ revisitDays: 2 })).toEqual([never, ri, old]);
    expect(await plan({ scope: { kind: 'states', states: ['UT'] } })).toEqual([never, old, yesterday]);
    // Salt Lake City's 84101 within 3 miles: the stores around it, not Providence's.
    expect(await plan({ scope: { kind: 'zips', zipCodes: ['84101'], radiusMiles: 3 } })).toEqual([
      never,
      old,
      yesterday,
    ]);
    expect(await plan({ scope: { kind: 'zips', zipCodes: ['02903'], radiusMiles: 5 } })).toEqual([ri]);
    expect(today).toBeGreaterThan(0);
  });
});

describe('the store directory', () => {
  function located(runId: number, zip: string, retailerId: string, over: Partial<ZipWrite> = {}): ZipWrite {
    return {
      runId,
      storeId: 'walmart',
      zip,
      status: 'succeeded',
      message: null,
      startedAt: new Date(),
      pages: 1,
      listingsSeen: 1,
      skipped: {},
      rejected: {},
      requests: 2,
      location: {
        zip,
        region: 'northeast',
        retailerLocationId: retailerId,
        name: `Walmart #${retailerId}`,
        city: 'New York',
        state: 'NY',
        address: null,
        latitude: 40.75,
        longitude: -73.99,
      },
      listings: [listing('w1', 3.29)],
      source: 'demo',
      ...over,
    };
  }
  async function scrapeRun(zips: string[]): Promise<number> {
    await db.sql`update scrape_runs set status = 'succeeded' where store_id = 'walmart' and status in ('queued', 'running')`;
    const [run] = await db.sql<{ id: number }[]>`
      insert into scrape_runs (store_id, zip_codes, total, status, started_at) values ('walmart', ${db.sql.array(zips)}::text[], ${zips.length}, 'running', now()) returning id`;
    return run!.id;
  }

  it("a ZIP code's scrape takes over the sample row at its ZIP; a second store of the chain there is a row of its own", async () => {
    const [sample] = await db.sql<
      { id: number }[]
    >`select id from store_locations where store_id = 'walmart' and zip = '10001' and retailer_location_id is null`;
    expect(sample).toBeDefined();
    const first = await scrapeRun(['10001']);
    await writeZipOutcome(db.sql, located(first, '10001', '89999'));
    const rows = () => db.sql<{ id: number; retailer_location_id: string | null }[]>`
      select id, retailer_location_id from store_locations where store_id = 'walmart' and zip = '10001' order by id`;
    expect(await rows()).toEqual([{ id: sample!.id, retailer_location_id: '89999' }]);
    // Another Walmart in the same ZIP code (another retailer id): a second row, the first kept.
    const second = await scrapeRun(['10001']);
    await writeZipOutcome(db.sql, located(second, '10001', '5432'));
    const after = await rows();
    expect(after).toEqual([
      { id: sample!.id, retailer_location_id: '89999' },
      { id: expect.any(Number), retailer_location_id: '5432' },
    ]);
    // Each has its own prices.
    expect((await observationsAt(after[0]!.id)).some((o) => o.retailer_product_id === 'w1')).toBe(true);
    expect((await observationsAt(after[1]!.id)).map((o) => o.retailer_product_id)).toEqual(['w1']);
    // Located again by the first id, the same row is updated, not a third one added.
    const third = await scrapeRun(['10001']);
    await writeZipOutcome(db.sql, located(third, '10001', '89999'));
    expect((await rows()).length).toBe(2);
  });
});
