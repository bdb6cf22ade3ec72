// Writing a ZIP's outcome: location, products and one observation per product, location and day,
// in one statement; a doubled write and a same-day re-run leave the same rows; scraped prices
// replace the sample catalogue for their store and region in every reader.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { PriceChangeNotifier } from './price-writes.ts';
import { writeZipOutcome, type ZipWrite } from './scrape-writes.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

async function newRun(store: string, zips: string[]): Promise<number> {
  // One active run per store: earlier tests' runs are over.
  await db.sql`update scrape_runs set status = 'succeeded' where store_id = ${store} and status in ('queued', 'running')`;
  const [run] = await db.sql<{ id: number }[]>`
    insert into scrape_runs (store_id, zip_codes, total, status, started_at) values (${store}, ${db.sql.array(zips)}::text[], ${zips.length}, 'running', now()) returning id`;
  return run!.id;
}

const listing = (
  id: string,
  price: number,
  over: Partial<ZipWrite['listings'][number]> = {},
): ZipWrite['listings'][number] => ({
  retailerProductId: id,
  title: `Test Farms Large Eggs ${id}, 12 ct`,
  brand: 'Test Farms',
  eggType: 'standard',
  count: 12,
  sizeGrade: 'Large',
  price,
  regularPrice: price + 0.5,
  inStock: true,
  url: `https://www.walmart.com/ip/${id}`,
  ...over,
});

function zipWrite(runId: number, over: Partial<ZipWrite> = {}): ZipWrite {
  return {
    runId,
    storeId: 'walmart',
    zip: '94110',
    status: 'succeeded',
    message: null,
    startedAt: new Date(),
    pages: 2,
    listingsSeen: 5,
    skipped: { 'egg-product': 1 },
    rejected: { 'no-count': 1 },
    requests: 3,
    location: {
      zip: '94110',
      region: 'west',
      retailerLocationId: '2280',
      name: 'Walmart Supercenter #2280',
      city: 'San Francisco',
      state: 'CA',
      address: '1 Main St',
      latitude: 37.75,
      longitude: -122.41,
    },
    listings: [listing('100', 3.49), listing('200', 5.99, { eggType: 'organic', count: 18 })],
    source: 'scrape',
    ...over,
  };
}

const observations = (store: string) =>
  db.sql<
    {
      retailer_product_id: string;
      price: number;
      regular_price: number | null;
      in_stock: boolean | null;
      source: string;
      scrape_run_id: number;
    }[]
  >`
    select p.retailer_product_id, o.price, o.regular_price, o.in_stock, o.source, o.scrape_run_id
    from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
    where l.store_id = ${store} and o.source <> 'sample' order by p.retailer_product_id`;

describe('writeZipOutcome', () => {
  it('writes the location, products, observations and the outcome row', async () => {
    const runId = await newRun('walmart', ['94110']);
    expect(await writeZipOutcome(db.sql, zipWrite(runId))).toEqual({ observations: 2 });
    const [location] =
      await db.sql`select zip, region, retailer_location_id, name, city, state, latitude from store_locations where store_id = 'walmart' and zip = '94110'`;
    expect(location).toEqual({
      zip: '94110',
      region: 'west',
      retailer_location_id: '2280',
      name: 'Walmart Supercenter #2280',
      city: 'San Francisco',
      state: 'CA',
      latitude: 37.75,
    });
    expect(await observations('walmart')).toEqual([
      {
        retailer_product_id: '100',
        price: 3.49,
        regular_price: 3.99,
        in_stock: true,
        source: 'scrape',
        scrape_run_id: runId,
      },
      {
        retailer_product_id: '200',
        price: 5.99,
        regular_price: 6.49,
        in_stock: true,
        source: 'scrape',
        scrape_run_id: runId,
      },
    ]);
    const [product] =
      await db.sql`select egg_type, count, size_grade, url from products where store_id = 'walmart' and retailer_product_id = '200'`;
    expect(product).toEqual({
      egg_type: 'organic',
      count: 18,
      size_grade: 'Large',
      url: 'https://www.walmart.com/ip/200',
    });
    const [zip] =
      await db.sql`select status, listings_seen, accepted, observations_written, skipped, rejected, pages, requests from scrape_run_zips where run_id = ${runId}`;
    expect(zip).toEqual({
      status: 'succeeded',
      listings_seen: 5,
      accepted: 2,
      observations_written: 2,
      skipped: { 'egg-product': 1 },
      rejected: { 'no-count': 1 },
      pages: 2,
      requests: 3,
    });
  });

  it('a doubled write of the same ZIP writes nothing and says so', async () => {
    const runId = await newRun('target', ['94110']);
    const write = zipWrite(runId, { storeId: 'target' });
    await writeZipOutcome(db.sql, write);
    const before = await observations('target');
    expect(await writeZipOutcome(db.sql, { ...write, listings: [listing('100', 1.99)] })).toBe('already-written');
    expect(await observations('target')).toEqual(before);
    expect(await db.sql`select zip from scrape_run_zips where run_id = ${runId}`).toHaveLength(1);
  });

  it('a re-run the same day updates the day’s observation instead of adding one', async () => {
    const first = await newRun('kroger', ['94110']);
    await writeZipOutcome(db.sql, zipWrite(first, { storeId: 'kroger' }));
    const second = await newRun('kroger', ['94110']);
    await writeZipOutcome(
      db.sql,
      zipWrite(second, {
        storeId: 'kroger',
        listings: [listing('100', 3.29, { inStock: false }), listing('200', 5.99, { eggType: 'organic', count: 18 })],
      }),
    );
    const rows = await observations('kroger');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ retailer_product_id: '100', price: 3.29, in_stock: false, scrape_run_id: second });
    const [entry] = await db.sql`
      select e.price from price_entries e join products p on p.id = e.product_id where p.store_id = 'kroger' and p.retailer_product_id = '100'`;
    expect(entry!.price).toBe(3.29);
  });

  it('written as a worker that no longer owns the run, writes nothing', async () => {
    const runId = await newRun('walmart', ['94110']);
    await db.sql`update scrape_runs set worker_id = 'worker-b' where id = ${runId}`;
    expect(await writeZipOutcome(db.sql, zipWrite(runId, { ownerWorkerId: 'worker-a', zip: '94111' }))).toBe(
      'not-owner',
    );
    expect(await db.sql`select zip from scrape_run_zips where run_id = ${runId}`).toEqual([]);
    expect(await writeZipOutcome(db.sql, zipWrite(runId, { ownerWorkerId: 'worker-b', zip: '94111' }))).toEqual({
      observations: 2,
    });
    const [run] = await db.sql`select progress from scrape_runs where id = ${runId}`;
    expect(run!.progress).toBe(1);
  });

  it('a failed ZIP records only its outcome', async () => {
    const runId = await newRun('aldi', ['99501']);
    const result = await writeZipOutcome(
      db.sql,
      zipWrite(runId, {
        storeId: 'aldi',
        zip: '99501',
        status: 'failed',
        message: "blocked by Aldi's bot protection",
        location: null,
        listings: [],
      }),
    );
    expect(result).toEqual({ observations: 0 });
    expect(await observations('aldi')).toEqual([]);
    const [zip] = await db.sql`select status, message, location_id from scrape_run_zips where run_id = ${runId}`;
    expect(zip).toEqual({ status: 'failed', message: "blocked by Aldi's bot protection", location_id: null });
  });
});

describe('scraped prices replace the sample catalogue for their store and region', () => {
  it('in the price list, the store page, the statistics and the compare page', async () => {
    const caller = callerFor({ sql: db.sql });
    const sampleWest = (await caller.prices.list({ store: 'albertsons', region: 'west' })).filter(
      (e) => e.source === 'sample',
    );
    expect(sampleWest.length).toBeGreaterThan(0);
    const runId = await newRun('albertsons', ['94110']);
    await writeZipOutcome(db.sql, zipWrite(runId, { storeId: 'albertsons' }));

    const west = await caller.prices.list({ store: 'albertsons', region: 'west' });
    expect(west.map((e) => [e.source, e.title])).toEqual([
      ['scrape', 'Test Farms Large Eggs 100, 12 ct'],
      ['scrape', 'Test Farms Large Eggs 200, 12 ct'],
    ]);
    // Other regions of the same store keep their sample prices.
    expect(
      (await caller.prices.list({ store: 'albertsons', region: 'south' })).every((e) => e.source === 'sample'),
    ).toBe(true);
    const storePrices = await caller.stores.prices({ storeId: 'albertsons', region: 'west' });
    expect(storePrices.every((e) => e.source === 'scrape')).toBe(true);
  });

  it('demo prices replace them too, and stay marked as not a retailer’s', async () => {
    const caller = callerFor({ sql: db.sql });
    const runId = await newRun('whole-foods', ['94110']);
    await writeZipOutcome(db.sql, zipWrite(runId, { storeId: 'whole-foods', source: 'demo' }));
    const west = await caller.prices.list({ store: 'whole-foods', region: 'west' });
    expect(west.map((e) => e.source)).toEqual(['demo', 'demo']);
  });
});

describe('stock and promotions on the price entries', () => {
  it('serve in_stock as true, false or null and regular_price only beside a promotion, in every list', async () => {
    const caller = callerFor({ sql: db.sql });
    const runId = await newRun('aldi', ['60611']);
    await writeZipOutcome(
      db.sql,
      zipWrite(runId, {
        storeId: 'aldi',
        zip: '60611',
        location: {
          zip: '60611',
          region: 'midwest',
          retailerLocationId: '440-018',
          name: 'ALDI Chicago',
          city: 'Chicago',
          state: 'IL',
          address: '1 Main St',
          latitude: 41.89,
          longitude: -87.62,
        },
        listings: [
          listing('on-sale', 4.69, { regularPrice: 5.19, inStock: true }),
          listing('sold-out', 3.49, { regularPrice: 3.49, inStock: false }),
          listing('not-said', 2.99, { regularPrice: null, inStock: null }),
        ],
      }),
    );
    const byId = (
      entries: Array<{ title: string; in_stock: boolean | null; regular_price: number | null; price: number }>,
    ) =>
      Object.fromEntries(
        entries.map((e) => [
          e.title.replace('Test Farms Large Eggs ', '').replace(', 12 ct', ''),
          [e.price, e.regular_price, e.in_stock],
        ]),
      );
    const expected = { 'on-sale': [4.69, 5.19, true], 'sold-out': [3.49, null, false], 'not-said': [2.99, null, null] };
    expect(byId(await caller.prices.list({ store: 'aldi', region: 'midwest' }))).toEqual(expected);
    expect(byId(await caller.stores.prices({ storeId: 'aldi', region: 'midwest' }))).toEqual(expected);
    const near = await caller.prices.near({ zip: '60611', radius: 5 });
    expect(byId(near.entries.filter((e) => e.store_id === 'aldi'))).toEqual(expected);

    // A re-run the same day that ends the promotion and restocks updates the entry.
    const rerun = await newRun('aldi', ['60611']);
    await writeZipOutcome(
      db.sql,
      zipWrite(rerun, {
        storeId: 'aldi',
        zip: '60611',
        location: {
          zip: '60611',
          region: 'midwest',
          retailerLocationId: '440-018',
          name: 'ALDI Chicago',
          city: 'Chicago',
          state: 'IL',
          address: '1 Main St',
          latitude: 41.89,
          longitude: -87.62,
        },
        listings: [
          listing('on-sale', 5.19, { regularPrice: 5.19, inStock: true }),
          listing('sold-out', 3.49, { regularPrice: 3.49, inStock: true }),
        ],
      }),
    );
    const after = byId(await caller.prices.list({ store: 'aldi', region: 'midwest' }));
    expect(after['on-sale']).toEqual([5.19, null, true]);
    expect(after['sold-out']).toEqual([3.49, null, true]);
  });
});

describe('telling web processes of new prices', () => {
  /** The payloads of eggwatch_prices notifications, in commit order, until `marker` arrives. */
  async function noticesUntilMarker(act: () => Promise<void>): Promise<string[]> {
    const seen: string[] = [];
    let done!: () => void;
    const arrived = new Promise<void>((resolve) => (done = resolve));
    const listener = await db.sql.listen('eggwatch_prices', (payload) => {
      seen.push(payload);
      if (payload === 'marker') done();
    });
    try {
      await act();
      await db.sql`select pg_notify('eggwatch_prices', 'marker')`;
      await arrived;
      return seen;
    } finally {
      await listener.unlisten();
    }
  }

  it('a plain write notifies from the trigger; a deferred one leaves it to its notifier', async () => {
    const plainRun = await newRun('target', ['94110']);
    expect(
      await noticesUntilMarker(
        async () => void (await writeZipOutcome(db.sql, zipWrite(plainRun, { storeId: 'target' }))),
      ),
    ).toEqual(['', 'marker']);

    const deferredRun = await newRun('target', ['94111']);
    expect(
      await noticesUntilMarker(
        async () =>
          void (await writeZipOutcome(
            db.sql,
            zipWrite(deferredRun, { storeId: 'target', zip: '94111', deferNotify: true }),
          )),
      ),
    ).toEqual(['marker']);

    // The notifier sends one at once, holds back a second inside its interval, and sends it on flush.
    const notifier = new PriceChangeNotifier(db.sql, 60_000);
    expect(await noticesUntilMarker(() => notifier.changed())).toEqual(['', 'marker']);
    expect(await noticesUntilMarker(() => notifier.changed())).toEqual(['marker']);
    expect(await noticesUntilMarker(() => notifier.flush())).toEqual(['', 'marker']);
    expect(await noticesUntilMarker(() => notifier.flush())).toEqual(['marker']);
  });
});
