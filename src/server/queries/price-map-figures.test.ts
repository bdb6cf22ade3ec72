// The prices by state's precomputed figures (migration 020, price-map-figures.ts) against the query
// over the entries they replace (test/price-map-reference.ts), on real PostgreSQL: several states,
// a store and region whose sample prices its scraped ones hide, a stale price outside the 48-hour
// window, pack sizes, last week's observations (sample and scraped); after a full refresh, after a
// dirty day's refresh of a price change, after a pair switches from sample to scraped prices,
// with a store inactive, once the window has moved past a figure, after a store moves state, and
// as the migration fills them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { addListing } from '../../../test/listings.ts';
import { referencePriceMap } from '../../../test/price-map-reference.ts';
import type { EggType } from '../../shared/vocabulary.ts';
import type { Db } from '../db.ts';
import { migrate } from '../migrate.ts';
import { seedStores } from '../seed.ts';
import { readPriceMap } from './price-map.ts';
import { refreshRollups } from './rollups.ts';
import { refreshPriceMapFigures } from './price-map-figures.ts';

let db: TestDatabase;

const FILTERS: Array<{ eggType: EggType; count?: number }> = [
  { eggType: 'standard' },
  { eggType: 'standard', count: 12 },
  { eggType: 'standard', count: 18 },
  { eggType: 'organic' },
  { eggType: 'cage_free', count: 12 },
];

async function bothWays(sql: Db) {
  const stored = [];
  const fresh = [];
  for (const filters of FILTERS) {
    stored.push(await readPriceMap(sql, filters));
    fresh.push(await referencePriceMap(sql, filters));
  }
  return { stored, fresh };
}

/** A listing's observation of the UTC day 7 days before today, at this price and source. */
async function weekAgo(sql: Db, listing: { productId: number; locationId: number }, price: number, source = 'scrape') {
  await sql`
    insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
    values (${listing.productId}, ${listing.locationId}, ${price}, now() - interval '7 days', utc_day(now() - interval '7 days'), ${source})`;
}

/** Prices in New York, Massachusetts, Illinois, California and Utah, with last week's for most. */
async function addPrices(sql: Db) {
  // Walmart Northeast: scraped in New York, so its sample prices in Boston are hidden (today's and
  // last week's); an 18-pack, and a second dozen at the same price (a repeated value).
  const ny = await addListing(sql, { store: 'walmart', zip: '10001', price: 3.6 });
  await weekAgo(sql, ny, 3.3);
  const boston = await addListing(sql, { store: 'walmart', zip: '02108', price: 1.2, source: 'sample' });
  await weekAgo(sql, boston, 1.1, 'sample');
  await addListing(sql, { store: 'walmart', zip: '10001', price: 5.4, count: 18 });
  await addListing(sql, { store: 'walmart', zip: '02108', price: 3.6, brand: 'Other Farms' });
  const target = await addListing(sql, { store: 'target', zip: '02108', price: 4.2 });
  await weekAgo(sql, target, 4.5);
  await addListing(sql, { store: 'kroger', zip: '60601', price: 2.9 });
  const chicago = await addListing(sql, { store: 'target', zip: '60601', price: 3.1 });
  await weekAgo(sql, chicago, 3.0);
  await addListing(sql, { store: 'target', zip: '60601', price: 7.49, eggType: 'organic' });
  await addListing(sql, { store: 'target', zip: '60601', price: 6.99, eggType: 'organic', source: 'demo' });
  // Aldi West has sample prices only: shown.
  const sf = await addListing(sql, { store: 'aldi', zip: '94103', price: 2.2, source: 'sample' });
  await weekAgo(sql, sf, 2.4, 'sample');
  await addListing(sql, { store: 'aldi', zip: '94103', price: 4.0, eggType: 'cage_free', source: 'sample' });
  // Salt Lake City: a price read three days ago is not today's.
  await addListing(sql, { store: 'kroger', zip: '84101', price: 3.3 });
  const stale = await addListing(sql, { store: 'albertsons', zip: '84101', price: 1.0 });
  await sql`update price_observations set observed_at = now() - interval '3 days', observed_on = utc_day(now() - interval '3 days')
            where product_id = ${stale.productId}`;
  await sql`update price_entries set observed_at = now() - interval '3 days' where product_id = ${stale.productId}`;
}

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  await seedStores(db.sql);
  await addPrices(db.sql);
  await refreshRollups(db.sql, { all: true });
});
afterAll(async () => {
  await db?.drop();
});

describe("the prices by state's precomputed figures", () => {
  it('equal the query over the entries after a full refresh, for each egg type and pack size', async () => {
    const { stored, fresh } = await bothWays(db.sql);
    expect(stored).toEqual(fresh);
    // Not vacuous: read from the summaries, with states, a hidden sample price and last week's median.
    expect(await db.sql`select count(*)::int as n from price_state_summary_basis`).toEqual([{ n: 1 }]);
    const states = stored[0]!.states.filter((s) => s.entries > 0).map((s) => s.state);
    expect(states).toEqual(['CA', 'IL', 'MA', 'NY', 'UT']);
    expect(stored[0]!.states.find((s) => s.state === 'MA')).toMatchObject({
      entries: 2,
      stores: 2,
      median_per_dozen: 3.9,
      week_ago_median_per_dozen: 4.5,
    });
    expect(stored[0]!.states.find((s) => s.state === 'UT')).toMatchObject({ entries: 1, lowest_per_dozen: 3.3 });
    expect(stored[0]!.states.find((s) => s.state === 'CA')).toMatchObject({
      sample: true,
      week_ago_median_per_dozen: 2.4,
    });
  });

  it("equal the query after a dirty day's refresh of a price change, and not before it", async () => {
    const sql = db.sql;
    await sql`update price_observations o set price = 1.8 from store_locations l, products p
              where l.id = o.location_id and p.id = o.product_id and l.zip = '60601' and l.store_id = 'kroger'
                and p.count = 12 and o.observed_on = utc_day(now())`;
    const before = await bothWays(sql);
    expect(before.stored).not.toEqual(before.fresh);
    expect(await refreshRollups(sql)).toEqual({ days: 1 });
    const after = await bothWays(sql);
    expect(after.stored).toEqual(after.fresh);
    expect(after.stored[0]!.states.find((s) => s.state === 'IL')).toMatchObject({ lowest_per_dozen: 1.8 });
  });

  it('equal the query after new observations of last week and today, and a pair switching to scraped prices', async () => {
    const sql = db.sql;
    // Aldi West's first scraped price hides its sample prices, today's and last week's.
    const la = await addListing(sql, { store: 'aldi', zip: '90012', price: 2.49 });
    await weekAgo(sql, la, 2.6);
    await refreshRollups(sql);
    const { stored, fresh } = await bothWays(sql);
    expect(stored).toEqual(fresh);
    expect(stored[0]!.states.find((s) => s.state === 'CA')).toMatchObject({
      entries: 1,
      sample: false,
      median_per_dozen: 2.49,
      week_ago_median_per_dozen: 2.6,
    });
  });

  it('equal the query with a store inactive (summed from the per-store rows), and again once it is back', async () => {
    const sql = db.sql;
    await sql`update stores set active = false where id = 'target'`;
    const inactive = await bothWays(sql);
    expect(inactive.stored).toEqual(inactive.fresh);
    expect(inactive.stored[0]!.states.find((s) => s.state === 'MA')).toMatchObject({ entries: 1, stores: 1 });
    await sql`update stores set active = true where id = 'target'`;
    const back = await bothWays(sql);
    expect(back.stored).toEqual(back.fresh);
  });

  it('are computed from the entries once the 48-hour window has moved past a price behind them', async () => {
    const sql = db.sql;
    // Figures past their time (and wrong, to tell): never shown.
    await sql`update price_state_summaries set valid_until = now() - interval '1 minute', median = 99, entries = 99 where state = 'NY'`;
    await sql`update price_state_figures set valid_until = now() - interval '1 minute', entries = 99 where state = 'IL'`;
    const { stored, fresh } = await bothWays(sql);
    expect(stored).toEqual(fresh);
    await sql`delete from price_state_summary_basis`;
    const perStore = await bothWays(sql);
    expect(perStore.stored).toEqual(perStore.fresh);
    await refreshRollups(sql, { all: true });
    // And valid_until is the oldest in-window price read plus 48 hours.
    const [row] = await sql<{ ok: boolean }[]>`
      select bool_and(f.valid_until = (select min(e.observed_at) + interval '48 hours' from price_entries e
                                       join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
                                       where l.state = f.state and l.store_id = f.store_id and p.egg_type = f.egg_type
                                         and p.count = f.count and e.price = f.price and e.observed_at >= now() - interval '48 hours')) as ok
      from price_state_figures f`;
    expect(row!.ok).toBe(true);
  });

  it('follow a store that moves to another state, in the transaction that moves it', async () => {
    const sql = db.sql;
    const { upsertFoundStores } = await import('./coverage-directory.ts');
    await sql`update store_locations set retailer_location_id = 'kroger-slc' where store_id = 'kroger' and zip = '84101'`;
    await sql.begin((tx) =>
      upsertFoundStores(tx, 'kroger', [
        {
          retailerLocationId: 'kroger-slc',
          zip: '84101',
          banner: null,
          name: 'Kroger',
          address: null,
          city: 'Boise',
          state: 'ID',
          latitude: null,
          longitude: null,
        },
      ]),
    );
    const { stored, fresh } = await bothWays(sql);
    expect(stored).toEqual(fresh);
    expect(stored[0]!.states.find((s) => s.state === 'ID')).toMatchObject({ entries: 1 });
  });

  it('are filled by the migration from the existing entries as the refresh computes them', async () => {
    const old = await createTestDatabase({ migratedTo: 19 });
    try {
      const sql = old.sql;
      await seedStores(sql);
      await addPrices(sql);
      await migrate(sql, old.url);
      // Until the first refresh the map sums the per-store rows.
      const migrated = await bothWays(sql);
      expect(migrated.stored).toEqual(migrated.fresh);
      const read = () =>
        Promise.all([
          sql`select * from price_state_figures order by egg_type, count, state, store_id, price`,
          sql`select * from price_state_location_figures order by egg_type, count, state, store_id`,
          sql`select * from price_state_daily_values order by day, egg_type, count, state, store_id, region, price, source`,
        ]);
      const rows = await read();
      expect(rows.map((r) => r.length > 0)).toEqual([true, true, true]);
      await sql.begin((tx) => refreshPriceMapFigures(tx, 'all'));
      expect(await read()).toEqual(rows);
      const refreshed = await bothWays(sql);
      expect(refreshed.stored).toEqual(refreshed.fresh);
    } finally {
      await old.drop();
    }
  });
});
