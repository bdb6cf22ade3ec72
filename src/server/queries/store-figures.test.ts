// The store page's precomputed figures (migration 017, store-figures.ts) against a fresh
// computation from the entries (test/store-figures-reference.ts: the queries they replace, and
// freshStoreLocationFigures), on real PostgreSQL: after a full refresh, after a dirty day's
// refresh of a price change, after a store and region switches from sample to scraped prices,
// after a location closes, and once the 48-hour window has moved past a precomputed figure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { addListing } from '../../../test/listings.ts';
import {
  referenceEntriesPage,
  referenceFilterOptions,
  referenceMarketPositions,
  referencePriceInsights,
  referenceRegionalAnalysis,
} from '../../../test/store-figures-reference.ts';
import { STORE_IDS } from '../../shared/vocabulary.ts';
import {
  marketPositions,
  priceInsights,
  regionalAnalysis,
  storeEntriesPage,
  storeFilterOptions,
  type StoreFilters,
} from './insights.ts';
import { freshStoreLocationFigures, storeLocationFigures } from './location-figures.ts';
import { migrate } from '../migrate.ts';
import { seedStores } from '../seed.ts';
import { refreshRollups } from './rollups.ts';
import { refreshStoreFigures } from './store-figures.ts';

let db: TestDatabase;

const FILTERS: StoreFilters[] = [
  {},
  { region: 'northeast' },
  { region: 'west' },
  { eggType: 'standard' },
  { count: 12 },
  { region: 'northeast', eggType: 'standard', count: 12 },
  { region: 'midwest', eggType: 'organic' },
];

/** Every store's figures under every filter, precomputed and fresh. */
async function bothWays() {
  const sql = db.sql;
  const stored: unknown[] = [];
  const fresh: unknown[] = [];
  for (const store of STORE_IDS) {
    stored.push({ store, options: await storeFilterOptions(sql, store) });
    fresh.push({ store, options: await referenceFilterOptions(sql, store) });
    for (const filters of FILTERS) {
      for (const [page, size] of [
        [1, 9],
        [2, 3],
        [4, 2],
        [40, 9],
      ] as const) {
        stored.push({ store, filters, page, size, entries: await storeEntriesPage(sql, store, filters, page, size) });
        fresh.push({
          store,
          filters,
          page,
          size,
          entries: await referenceEntriesPage(sql, store, filters, page, size),
        });
      }
      stored.push({
        store,
        filters,
        insights: await priceInsights(sql, store, filters),
        market: await marketPositions(sql, store, filters),
        regional: await regionalAnalysis(sql, store, filters),
        locations: await storeLocationFigures(sql, store, filters),
      });
      fresh.push({
        store,
        filters,
        insights: await referencePriceInsights(sql, store, filters),
        market: await referenceMarketPositions(sql, store, filters),
        regional: await referenceRegionalAnalysis(sql, store, filters),
        locations: await freshStoreLocationFigures(sql, store, filters),
      });
    }
  }
  return { stored, fresh };
}

beforeAll(async () => {
  db = await createTestDatabase();
  const sql = db.sql;
  // Walmart's Northeast dozens at three stores (one with a week-old price too), an 18-pack, and a
  // second brand at Boston; Target's organic in the Midwest; a closed-to-be Walmart in Hartford.
  await addListing(sql, { store: 'walmart', zip: '02108', price: 3.6, previous: 3.9 });
  await addListing(sql, { store: 'walmart', zip: '10001', price: 4.2 });
  await addListing(sql, { store: 'walmart', zip: '19103', price: 3.0, previous: 2.8 });
  await addListing(sql, { store: 'walmart', zip: '02108', price: 5.4, count: 18 });
  await addListing(sql, { store: 'walmart', zip: '02108', price: 3.1, brand: 'Other Farms' });
  await addListing(sql, { store: 'walmart', zip: '06103', price: 2.9 });
  await addListing(sql, { store: 'target', zip: '60601', price: 7.49, eggType: 'organic' });
  await addListing(sql, { store: 'target', zip: '55401', price: 6.99, eggType: 'organic', source: 'demo' });
  // The week's change: some entries' reference price (a week old) and trend.
  await sql`update price_entries e set reference_price = e.price + 0.25, trend_direction = 'down'
            where e.id in (select id from price_entries order by id limit 7)`;
  await sql`update price_entries e set reference_price = e.price - 0.4, trend_direction = 'up'
            where e.id in (select id from price_entries order by id desc limit 3)`;
  await refreshRollups(sql, { all: true });
});
afterAll(async () => {
  await db?.drop();
});

describe("the store page's precomputed figures", () => {
  it('equal a fresh computation from the entries after a full refresh, for every store and filter', async () => {
    const { stored, fresh } = await bothWays();
    expect(stored).toEqual(fresh);
    // Not vacuous: the figures are there.
    const walmart = await priceInsights(db.sql, 'walmart', { region: 'northeast' });
    expect(walmart.entries).toBeGreaterThan(4);
    expect((await storeLocationFigures(db.sql, 'walmart', { region: 'northeast', count: 12 }))[0]).toMatchObject({
      locations: 4,
    });
  });

  it("equal a fresh computation after a dirty day's refresh of a price change, and not before it", async () => {
    const sql = db.sql;
    // Boston's dozen drops to $1.80: the store's cheapest, and the Northeast median moves.
    const [boston] = await sql<{ product_id: number; location_id: number }[]>`
      select e.product_id, e.location_id from price_entries e join store_locations l on l.id = e.location_id
      join products p on p.id = e.product_id
      where l.store_id = 'walmart' and l.zip = '02108' and p.count = 12 and e.price = 3.6`;
    await sql`update price_observations set price = 1.8
              where product_id = ${boston!.product_id} and location_id = ${boston!.location_id} and observed_on = utc_day(now())`;
    const before = await bothWays();
    expect(before.stored).not.toEqual(before.fresh);
    expect(await refreshRollups(sql)).toEqual({ days: 1 });
    const after = await bothWays();
    expect(after.stored).toEqual(after.fresh);
    expect((await priceInsights(sql, 'walmart', { region: 'northeast' })).lowest).toMatchObject({
      price: 1.8,
      price_per_dozen: 1.8,
    });
  });

  it('equal a fresh computation after a store and region switches from sample to scraped prices', async () => {
    const sql = db.sql;
    const west = { region: 'west' } as const;
    expect((await priceInsights(sql, 'aldi', west)).sample).toBe(true);
    await addListing(sql, { store: 'aldi', zip: '94103', price: 2.49 });
    await refreshRollups(sql);
    const { stored, fresh } = await bothWays();
    expect(stored).toEqual(fresh);
    // Aldi's West sample prices are hidden now: one entry, a retailer's.
    expect(await priceInsights(sql, 'aldi', west)).toMatchObject({ entries: 1, sample: false, average_price: 2.49 });
    expect(await storeLocationFigures(sql, 'aldi', west)).toEqual([
      expect.objectContaining({ locations: 1, sample: false, median_per_dozen: 2.49 }),
    ]);
  });

  it('leave out a location that closes, in the transaction that closes it', async () => {
    const sql = db.sql;
    const { recordMissedStores } = await import('./coverage-directory.ts');
    await sql`update store_locations set retailer_location_id = 'hartford-1', missed_sweeps = 99 where store_id = 'walmart' and zip = '06103'`;
    const before = await storeLocationFigures(sql, 'walmart', { region: 'northeast', count: 12, eggType: 'standard' });
    await sql.begin((tx) => recordMissedStores(tx, 'walmart', new Date(), (row) => row.zip === '06103'));
    const after = await storeLocationFigures(sql, 'walmart', { region: 'northeast', count: 12, eggType: 'standard' });
    expect(after[0]!.locations).toBe(before[0]!.locations - 1);
    const { stored, fresh } = await bothWays();
    expect(stored).toEqual(fresh);
  });

  it('are computed from the entries once the 48-hour window has moved past a price behind them', async () => {
    const sql = db.sql;
    // A precomputed figure past its time (and wrong, to tell): never shown.
    await sql`update price_location_figures set valid_until = now() - interval '1 minute', median = 99, locations = 99 where store_id = 'walmart'`;
    const figures = await storeLocationFigures(sql, 'walmart');
    expect(figures.length).toBeGreaterThan(0);
    expect(figures.some((f) => f.locations === 99)).toBe(false);
    expect(figures).toEqual(await freshStoreLocationFigures(sql, 'walmart'));
    // And valid_until is the oldest in-window price read plus 48 hours.
    await refreshRollups(sql, { all: true });
    const [row] = await sql<{ ok: boolean }[]>`
      select bool_and(f.valid_until = (select min(e.observed_at) + interval '48 hours' from price_entries e
                                       join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
                                       where l.store_id = f.store_id and l.region = f.region and p.egg_type = f.egg_type and p.count = f.count
                                         and l.status = 'open' and e.in_stock is not false and e.observed_at >= now() - interval '48 hours'
                                         and (e.source <> 'sample' or not exists (
                                           select 1 from price_entries x join store_locations xl on xl.id = x.location_id
                                           where xl.store_id = l.store_id and xl.region = l.region and x.source <> 'sample')))) as ok
      from price_location_figures f`;
    expect(row!.ok).toBe(true);
  });

  it('are filled by the migration from the existing entries as the refresh computes them', async () => {
    const old = await createTestDatabase({ migratedTo: 16 });
    try {
      const sql = old.sql;
      await seedStores(sql);
      await sql`
        insert into store_locations (store_id, zip, region, name)
        values ('walmart', '10001', 'northeast', 'Walmart 10001'), ('walmart', '02108', 'northeast', 'Walmart 02108'),
               ('walmart', '60611', 'midwest', 'Walmart 60611'), ('target', '60614', 'midwest', 'Target 60614')`;
      await sql`
        insert into products (store_id, retailer_product_id, title, egg_type, count)
        values ('walmart', 'w-12', 'Eggs, 12 ct', 'standard', 12), ('walmart', 'w-18', 'Organic Eggs, 18 ct', 'organic', 18),
               ('target', 't-12', 'Cage Free Eggs, 12 ct', 'cage_free', 12)`;
      // Three days of prices: sample ones, and scraped ones at Walmart's Northeast stores (which hide its samples there).
      await sql`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        select p.id, l.id, 2 + (d % 3) / 10.0 + p.count / 12.0 + l.id / 100.0, now() - d * interval '1 day', utc_day(now() - d * interval '1 day'),
               case when l.region = 'northeast' and l.zip = '10001' then 'scrape' else 'sample' end
        from products p join store_locations l on l.store_id = p.store_id
        cross join generate_series(0, 2) d`;
      await migrate(sql, old.url);
      const read = () =>
        Promise.all([
          sql`select * from price_store_entry_figures order by store_id, region, egg_type, count`,
          sql`select store_id, region, egg_type, count, locations, median, lowest, highest, sample, entry_id, product_id, location_id, price, valid_until
            from price_location_figures order by store_id, region, egg_type, count`,
        ]);
      const migrated = await read();
      expect(migrated[0].length).toBe(5);
      expect(migrated[1].length).toBe(5);
      await sql.begin((tx) => refreshStoreFigures(tx, 'all'));
      expect(await read()).toEqual(migrated);
    } finally {
      await old.drop();
    }
  });
});
