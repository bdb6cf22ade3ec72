// The per-store daily rollup (price_store_daily_rollups, migration 016) and the region rollup
// derived from it: both equal what the observations give under the visibility rule, after a full
// refresh and after the refresh of a dirty day; a switch to scraped prices hides the pair's sample
// prices on every day; the days before retention's kept_from keep their rows; the current prices'
// sums follow the price entries.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { migrate } from '../migrate.ts';
import { seedStores } from '../seed.ts';
import { refreshRollups } from './rollups.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

/** The store rollup as the observations give it, straight: shown prices of active stores only. */
const expectedStoreRows = () => db.sql`
  select o.observed_on::text as day, l.store_id, l.region, p.egg_type, p.count,
         sum(o.price / p.count * 12)::text as sum_per_dozen, count(*)::int as observations,
         min(o.price / p.count * 12)::text as min_per_dozen, max(o.price / p.count * 12)::text as max_per_dozen,
         max(sw.switched_on)::text as series_since, bool_or(o.source <> 'scrape') as sample
  from price_observations o
  join products p on p.id = o.product_id
  join store_locations l on l.id = o.location_id
  join stores s on s.id = l.store_id and s.active
  left join store_region_switches sw on sw.store_id = l.store_id and sw.region = l.region
  where o.source <> 'sample' or sw.store_id is null
  group by 1, 2, 3, 4, 5
  order by 1, 2, 3, 4, 5`;
const storeRows = () => db.sql`
  select day::text as day, store_id, region, egg_type, count, sum_per_dozen::text, observations,
         min_per_dozen::text, max_per_dozen::text, series_since::text, sample
  from price_store_daily_rollups order by 1, 2, 3, 4, 5`;
/** The region rollup as it was computed from the observations before migration 016 (avg(), not sums). */
const expectedRegionRows = () => db.sql`
  select o.observed_on::text as day, p.egg_type, l.region,
         avg(o.price / p.count * 12)::numeric(10,4)::text as avg_per_dozen,
         min(o.price / p.count * 12)::numeric(10,4)::text as min_per_dozen,
         max(o.price / p.count * 12)::numeric(10,4)::text as max_per_dozen,
         count(*)::int as observations, max(sw.switched_on)::text as series_since, bool_or(o.source <> 'scrape') as sample
  from price_observations o
  join products p on p.id = o.product_id
  join store_locations l on l.id = o.location_id
  join stores s on s.id = l.store_id and s.active
  left join store_region_switches sw on sw.store_id = l.store_id and sw.region = l.region
  where o.source <> 'sample' or sw.store_id is null
  group by 1, 2, 3
  order by 1, 2, 3`;
const regionRows = () => db.sql`
  select day::text as day, egg_type, region, avg_per_dozen::text, min_per_dozen::text, max_per_dozen::text,
         observations, series_since::text, sample
  from price_daily_rollups order by 1, 2, 3`;
const expectedCurrent = () => db.sql`
  select l.store_id, l.region, p.egg_type, e.source, sum(e.price / p.count * 12)::text as sum_per_dozen, count(*)::int as entries
  from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
  group by 1, 2, 3, 4 order by 1, 2, 3, 4`;
const currentRows = () => db.sql`
  select store_id, region, egg_type, source, sum_per_dozen::text, entries from price_store_current_rollups order by 1, 2, 3, 4`;

async function expectRollupsMatchTheHistory() {
  const stores = await storeRows();
  expect(stores.length).toBeGreaterThan(0);
  expect(stores).toEqual(await expectedStoreRows());
  expect(await regionRows()).toEqual(await expectedRegionRows());
  expect(await currentRows()).toEqual(await expectedCurrent());
}

/** Walmart's first location and its 18-pack of cage-free eggs in the seeded catalogue (a pack count other than 12). */
async function walmartPair(region = 'south'): Promise<{ location: number; product: number }> {
  const [row] = await db.sql<{ location: number; product: number }[]>`
    select l.id as location, p.id as product
    from store_locations l join products p on p.store_id = l.store_id
    where l.store_id = 'walmart' and l.region = ${region} and p.egg_type = 'cage_free' and p.count = 18
    order by l.id, p.id limit 1`;
  return row!;
}

describe('the per-store daily rollup', () => {
  beforeEach(async () => {
    await refreshRollups(db.sql, { all: true });
  });

  it('holds, per day, store, region, egg type and pack count, the sums of the shown prices; the region rollup is the one avg() gave', async () => {
    await expectRollupsMatchTheHistory();
    // Several pack counts per store and day: the store page filters on them.
    const [{ counts }] = (await db.sql<{ counts: number }[]>`
      select count(distinct count)::int as counts from price_store_daily_rollups where store_id = 'walmart'`) as unknown as [
      { counts: number },
    ];
    expect(counts).toBeGreaterThan(1);
  });

  it('recomputes a dirty day only, and the current sums of the pairs observed on it', async () => {
    const { location, product } = await walmartPair();
    const [day] = await db.sql<{ day: string; price: string }[]>`
      select observed_on::text as day, price::text as price from price_observations
      where product_id = ${product} and location_id = ${location} order by observed_on desc limit 1`;
    const rowOf = () => db.sql`
      select sum_per_dozen::text, observations from price_store_daily_rollups r
      where r.day = ${day!.day} and r.store_id = 'walmart' and r.region = 'south' and r.egg_type = 'cage_free' and r.count = 18`;
    const before = await rowOf();
    const otherDays =
      await db.sql`select * from price_store_daily_rollups where day <> ${day!.day} order by 1, 2, 3, 4, 5`;

    // Walmart South's organic price entries gone (as a deleted product's): its current sums go
    // with the next refresh of a day the pair was observed on.
    const deleted = await db.sql`
      delete from price_entries e using store_locations l, products p
      where l.id = e.location_id and p.id = e.product_id and l.store_id = 'walmart' and l.region = 'south' and p.egg_type = 'organic'
      returning e.id`;
    expect(deleted.length).toBeGreaterThan(0);
    // A price change on its latest day (as a second scrape the same day writes it).
    await db.sql`
      update price_observations set price = price + 1.8
      where product_id = ${product} and location_id = ${location} and observed_on = ${day!.day}`;
    expect(await db.sql`select day::text from rollup_dirty_days`).toEqual([{ day: day!.day }]);
    expect(await refreshRollups(db.sql)).toEqual({ days: 1 });

    const after = await rowOf();
    expect(after[0]!.observations).toBe(before[0]!.observations);
    // 1.80 more for an 18-pack is 1.20 more per dozen in the sum.
    expect(Number(after[0]!.sum_per_dozen) - Number(before[0]!.sum_per_dozen)).toBeCloseTo(1.2, 10);
    expect(
      await db.sql`select * from price_store_daily_rollups where day <> ${day!.day} order by 1, 2, 3, 4, 5`,
    ).toEqual(otherDays);
    await expectRollupsMatchTheHistory();
  });

  it('drops a store and region’s sample prices on every day once it switches to scraped prices, and starts its series there', async () => {
    const { location, product } = await walmartPair('west');
    const sampleDays = async () =>
      (
        await db.sql<{ n: number }[]>`
          select count(*)::int as n from price_store_daily_rollups where store_id = 'walmart' and region = 'west' and sample`
      )[0]!.n;
    expect(await sampleDays()).toBeGreaterThan(10);
    const [today] = await db.sql<{ day: string }[]>`select utc_day(now())::text as day`;

    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${product}, ${location}, 7.49, now(), utc_day(now()), 'scrape')
      on conflict (product_id, location_id, observed_on) do update set price = excluded.price, source = excluded.source`;
    await refreshRollups(db.sql);

    expect(await sampleDays()).toBe(0);
    expect(
      await db.sql`
      select day::text, egg_type, count, observations, series_since::text, sample from price_store_daily_rollups
      where store_id = 'walmart' and region = 'west'`,
    ).toEqual([
      { day: today!.day, egg_type: 'cage_free', count: 18, observations: 1, series_since: today!.day, sample: false },
    ]);
    // Walmart's other regions keep their sample days.
    const [{ others }] = (await db.sql<{ others: number }[]>`
      select count(*)::int as others from price_store_daily_rollups where store_id = 'walmart' and region <> 'west' and sample`) as unknown as [
      { others: number },
    ];
    expect(others).toBeGreaterThan(10);
    await expectRollupsMatchTheHistory();
  });

  it('keeps the rows of the days before retention’s kept_from, through a dirty day among them and a full refresh', async () => {
    const [{ first, kept }] = (await db.sql<{ first: string; kept: string }[]>`
      select min(observed_on)::text as first, (min(observed_on) + 3)::text as kept from price_observations`) as unknown as [
      { first: string; kept: string },
    ];
    const old = () => db.sql`select * from price_store_daily_rollups where day < ${kept} order by 1, 2, 3, 4, 5`;
    const oldRegion = () => db.sql`select * from price_daily_rollups where day < ${kept} order by 1, 2, 3`;
    const keptStore = await old();
    const keptRegion = await oldRegion();
    expect(keptStore.length).toBeGreaterThan(0);

    // What dropping those days' partitions leaves: no observations before kept_from, and its mark.
    await db.sql`insert into price_history_retention (kept_from) values (${kept})`;
    await db.sql`delete from price_observations where observed_on < ${kept}`;
    await db.sql`insert into rollup_dirty_days (day) values (${first}) on conflict do nothing`;
    await refreshRollups(db.sql);
    await refreshRollups(db.sql, { all: true });

    expect(await old()).toEqual(keptStore);
    expect(await oldRegion()).toEqual(keptRegion);
    // The days from kept_from on still follow the history.
    const from = (rows: Array<Record<string, unknown>>) => rows.filter((r) => (r.day as string) >= kept);
    expect(from(await storeRows())).toEqual(from(await expectedStoreRows()));
    expect(from(await regionRows())).toEqual(from(await expectedRegionRows()));
    await db.sql`delete from price_history_retention`;
  });
});

describe('migration 016 on a populated history', () => {
  it('fills the per-store rollup and the current sums from the history, set-based, with nothing before kept_from', async () => {
    const old = await createTestDatabase({ migratedTo: 15 });
    try {
      const sql = old.sql;
      await seedStores(sql);
      await sql`
        insert into store_locations (store_id, zip, region, name)
        values ('walmart', '10001', 'northeast', 'Walmart 10001'), ('walmart', '60611', 'midwest', 'Walmart 60611'), ('target', '60614', 'midwest', 'Target 60614')`;
      await sql`
        insert into products (store_id, retailer_product_id, title, egg_type, count)
        values ('walmart', 'w-12', 'Eggs, 12 ct', 'standard', 12), ('walmart', 'w-18', 'Organic Eggs, 18 ct', 'organic', 18),
               ('target', 't-12', 'Cage Free Eggs, 12 ct', 'cage_free', 12)`;
      // 20 days of each store's products at each of its locations: sample prices, then for Walmart
      // Northeast scraped ones over the last 5 days (a switch).
      await sql`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        select p.id, l.id, 2 + (d % 7) / 10.0 + p.count / 12.0, now() - d * interval '1 day', utc_day(now() - d * interval '1 day'),
               case when l.zip = '10001' and d < 5 then 'scrape' else 'sample' end
        from products p join store_locations l on l.store_id = p.store_id
        cross join generate_series(0, 19) d`;
      await sql`insert into price_history_retention (kept_from) values (utc_day(now()) - 15)`;
      await migrate(sql, old.url);

      const rows = await sql`
        select day::text as day, store_id, region, egg_type, count, sum_per_dozen::text, observations, series_since::text, sample
        from price_store_daily_rollups order by 1, 2, 3, 4, 5`;
      const expected = await sql`
        select o.observed_on::text as day, l.store_id, l.region, p.egg_type, p.count, sum(o.price / p.count * 12)::text as sum_per_dozen,
               count(*)::int as observations, max(sw.switched_on)::text as series_since, bool_or(o.source <> 'scrape') as sample
        from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
        left join store_region_switches sw on sw.store_id = l.store_id and sw.region = l.region
        where (o.source <> 'sample' or sw.store_id is null) and o.observed_on >= utc_day(now()) - 15
        group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`;
      expect(rows).toEqual(expected);
      // 16 days of Walmart Midwest's and Target's two and one products, 5 of Walmart Northeast's two.
      expect(rows).toHaveLength(16 * 3 + 5 * 2);
      expect(rows.filter((r) => r.region === 'northeast').every((r) => !r.sample && r.series_since !== null)).toBe(
        true,
      );
      expect(
        await sql`
        select store_id, region, egg_type, source, sum_per_dozen::text, entries from price_store_current_rollups order by 1, 2, 3, 4`,
      ).toEqual(
        await sql`
          select l.store_id, l.region, p.egg_type, e.source, sum(e.price / p.count * 12)::text as sum_per_dozen, count(*)::int as entries
          from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
          group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
      );
    } finally {
      await old.drop();
    }
  });
});
