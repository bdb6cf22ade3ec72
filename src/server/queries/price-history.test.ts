// Migration 015 on a populated database (price history from October 2025 to February 2026: four
// month boundaries, one of them a year's), then the partitioned history it leaves: writers, the
// unique day, the triggers, partitions created ahead and retention.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { migrate } from '../migrate.ts';
import { seedStores } from '../seed.ts';
import { refreshRollups } from './rollups.ts';
import { PARTITION_MONTHS_AHEAD, addPricePartitions, dropOldPricePartitions } from './price-history.ts';

let db: TestDatabase;
let before: Observation[];
let entriesBefore: unknown[];
let lastIdBefore: number;
const ids = { walmart: 0, target: 0, dozen: 0, organic: 0, cageFree: 0 };

interface Observation {
  id: string;
  product_id: number;
  location_id: number;
  price: string;
  observed_at: string;
  observed_on: string;
  scrape_run_id: number | null;
  source: string;
  regular_price: string | null;
  in_stock: boolean | null;
}

const observations = () =>
  db.sql<Observation[]>`
    select id::text, product_id, location_id, price::text, observed_at::text, observed_on::text, scrape_run_id, source,
           regular_price::text, in_stock
    from price_observations order by id`;
const entries = () => db.sql`select * from price_entries order by product_id, location_id`;
const partitionOf = (day: string) => `price_observations_y${day.slice(0, 4)}m${day.slice(5, 7)}`;
const partitions = async () =>
  (
    await db.sql<{ name: string }[]>`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'price_observations'::regclass order by 1`
  ).map((p) => p.name);
/** The first day of the month `offset` months from the current UTC month. */
const monthStart = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
};

beforeAll(async () => {
  db = await createTestDatabase({ migratedTo: 14 });
  const sql = db.sql;
  await seedStores(sql);
  const [walmart, target] = await sql<{ id: number }[]>`
    insert into store_locations (store_id, zip, region, name)
    values ('walmart', '10001', 'northeast', 'Walmart 10001'), ('target', '60611', 'midwest', 'Target 60611')
    returning id`;
  const [dozen, organic, cageFree] = await sql<{ id: number }[]>`
    insert into products (store_id, retailer_product_id, title, egg_type, count)
    values ('walmart', 'w-12', 'Large Eggs, 12 ct', 'standard', 12), ('walmart', 'w-18', 'Organic Eggs, 18 ct', 'organic', 18),
           ('target', 't-12', 'Cage Free Eggs, 12 ct', 'cage_free', 12)
    returning id`;
  Object.assign(ids, {
    walmart: walmart!.id,
    target: target!.id,
    dozen: dozen!.id,
    organic: organic!.id,
    cageFree: cageFree!.id,
  });
  const [run] = await sql<{ id: number }[]>`
    insert into scrape_runs (store_id, zip_codes, total, status) values ('walmart', '{10001}', 1, 'succeeded') returning id`;
  // The 014 schema: observed_on is generated. Times on both sides of UTC midnight put a row on
  // the first and on the last day of each month; the organic pair's history ends in October.
  await sql`
    insert into price_observations (product_id, location_id, price, observed_at, source, regular_price, in_stock, scrape_run_id)
    select pair.product_id, pair.location_id, 2 + (d % 17) / 10.0,
           timestamptz '2025-10-20 00:00:00+00' + d * interval '1 day'
             + case when d % 2 = 0 then interval '23 hours 59 minutes 59.5 seconds' else interval '0' end,
           case when d % 5 = 0 then 'sample' else 'scrape' end,
           case when d % 3 = 0 then 3 + (d % 17) / 10.0 end,
           case when d % 4 = 0 then null else d % 4 <> 1 end,
           case when d = 110 then ${run!.id}::int end
    from (values (${dozen!.id}::int, ${walmart!.id}::int, 114), (${organic!.id}, ${walmart!.id}, 12), (${cageFree!.id}, ${target!.id}, 114)) as pair(product_id, location_id, days)
    cross join lateral generate_series(0, pair.days - 1) d`;
  // Ids handed out and never used: the new identity must not hand them out again.
  await sql`select nextval(pg_get_serial_sequence('price_observations', 'id')) from generate_series(1, 5)`;
  before = await observations();
  entriesBefore = await entries();
  lastIdBefore = (await sql<{ last: number }[]>`select last_value::int as last from price_observations_id_seq`)[0]!
    .last;

  await migrate(sql, db.url);
});
afterAll(() => db.drop());

describe('migration 015 on a populated history', () => {
  it('moves every row once, ids and values unchanged, into the partition of its month', async () => {
    expect(before).toHaveLength(114 + 12 + 114);
    expect(
      before.some((o) => o.observed_on === '2025-12-31') && before.some((o) => o.observed_on === '2026-01-01'),
    ).toBe(true);
    expect(await observations()).toEqual(before);

    const placed = await db.sql<{ partition: string; day: string }[]>`
      select tableoid::regclass::text as partition, observed_on::text as day from price_observations`;
    expect(placed).toHaveLength(before.length);
    for (const row of placed) expect(row.partition).toBe(partitionOf(row.day));
    const months = ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02'];
    const ahead = Array.from({ length: PARTITION_MONTHS_AHEAD + 1 }, (_, i) => monthStart(i));
    expect(await partitions()).toEqual(
      [...new Set([...months.map(partitionOf), ...ahead.map(partitionOf)]), 'price_observations_default'].sort(),
    );
    expect(await entries()).toEqual(entriesBefore);
  });

  it('keeps the unique day: a second price the same day is refused, or merged by on conflict', async () => {
    const day = '2026-01-15';
    const insert = (price: number, at: string) => db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${ids.dozen}, ${ids.walmart}, ${price}, ${at}::timestamptz, utc_day(${at}::timestamptz), 'scrape')`;
    await expect(insert(9.99, `${day} 12:00:00+00`)).rejects.toMatchObject({ code: '23505' });
    const [merged] = await db.sql<{ id: string }[]>`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${ids.dozen}, ${ids.walmart}, 9.99, ${`${day} 12:00:00+00`}::timestamptz, utc_day(${`${day} 12:00:00+00`}::timestamptz), 'scrape')
      on conflict (product_id, location_id, observed_on) do update set price = excluded.price, observed_at = excluded.observed_at
      returning id::text`;
    expect(merged!.id).toBe(before.find((o) => o.product_id === ids.dozen && o.observed_on === day)!.id);
    const [count] = await db.sql<{ n: number }[]>`select count(*)::int as n from price_observations`;
    expect(count!.n).toBe(before.length);
  });

  it('refuses an observed_on that is not the UTC day of observed_at, or none', async () => {
    await expect(db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${ids.dozen}, ${ids.walmart}, 2.5, '2026-02-01 23:30:00-05', '2026-02-01', 'scrape')`).rejects.toMatchObject(
      { code: '23514' },
    );
    await expect(db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, source)
      values (${ids.dozen}, ${ids.walmart}, 2.5, now(), 'scrape')`).rejects.toMatchObject({ code: '23502' });
  });

  it('fires the observation triggers on the new table: price entries, dirty days, switches', async () => {
    await db.sql`delete from rollup_dirty_days`;
    const [written] = await db.sql<{ id: number }[]>`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${ids.cageFree}, ${ids.target}, 4.44, now(), utc_day(now()), 'scrape')
      returning id::int`;
    // The identity goes on after the last id the old one handed out.
    expect(written!.id).toBeGreaterThan(lastIdBefore);
    const today = new Date().toISOString().slice(0, 10);
    const [entry] = await db.sql<{ observation_id: number; price: number }[]>`
      select observation_id::int, price from price_entries where product_id = ${ids.cageFree} and location_id = ${ids.target}`;
    expect(entry).toEqual({ observation_id: written!.id, price: 4.44 });
    expect((await db.sql`select day::text from rollup_dirty_days`).map((d) => d.day)).toEqual([today]);

    // The update trigger (on conflict's) too.
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${ids.cageFree}, ${ids.target}, 4.55, now(), utc_day(now()), 'scrape')
      on conflict (product_id, location_id, observed_on) do update set price = excluded.price`;
    const [updated] = await db.sql<{ price: number }[]>`
      select price from price_entries where product_id = ${ids.cageFree} and location_id = ${ids.target}`;
    expect(updated!.price).toBe(4.55);

    // A first scraped price of a store in a region records its switch (009's trigger).
    const [west] = await db.sql<{ id: number }[]>`
      insert into store_locations (store_id, zip, region, name) values ('target', '90210', 'west', 'Target 90210') returning id`;
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${ids.cageFree}, ${west!.id}, 4.99, now(), utc_day(now()), 'scrape')`;
    const switches =
      await db.sql`select switched_on::text from store_region_switches where store_id = 'target' and region = 'west'`;
    expect(switches).toEqual([{ switched_on: today }]);
  });

  it("keeps a price entry's latest price and its reference a week or more older, across months and gaps", async () => {
    const [product] = await db.sql<{ id: number }[]>`
      insert into products (store_id, retailer_product_id, title, egg_type, count)
      values ('walmart', 'w-6', 'Large Eggs, 6 ct', 'standard', 6) returning id`;
    const write = async (at: string, price: number) => {
      const [row] = await db.sql<{ id: number }[]>`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        values (${product!.id}, ${ids.walmart}, ${price}, ${at}::timestamptz, utc_day(${at}::timestamptz), 'scrape')
        returning id::int`;
      return row!.id;
    };
    const entry = async () =>
      (
        await db.sql<
          { observation_id: number; price: number; reference_price: number | null; trend_direction: string }[]
        >`
          select observation_id::int, price, reference_price, trend_direction from price_entries
          where product_id = ${product!.id} and location_id = ${ids.walmart}`
      )[0];
    await write('2025-10-25 08:00:00+00', 2);
    // The reference is more than two months older (beyond the first, bounded look-up).
    const latest = await write('2026-02-05 08:00:00+00', 3);
    expect(await entry()).toEqual({ observation_id: latest, price: 3, reference_price: 2, trend_direction: 'up' });
    // An older day written later: the latest stays, the reference is now the newer of the older days.
    await write('2026-01-20 08:00:00+00', 3.5);
    expect(await entry()).toEqual({ observation_id: latest, price: 3, reference_price: 3.5, trend_direction: 'down' });
  });

  it('takes a row of a month without a partition in the default one; the partition task gives it its own, once', async () => {
    const at = '2031-07-04 10:00:00+00';
    const [far] = await db.sql<{ id: string; partition: string }[]>`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${ids.dozen}, ${ids.walmart}, 3.33, ${at}::timestamptz, utc_day(${at}::timestamptz), 'scrape')
      returning id::text, tableoid::regclass::text as partition`;
    expect(far!.partition).toBe('price_observations_default');

    expect(await addPricePartitions(db.sql)).toBe(1);
    const [moved] = await db.sql<{ id: string; partition: string; price: number }[]>`
      select id::text, tableoid::regclass::text as partition, price from price_observations where observed_on = '2031-07-04'`;
    expect(moved).toEqual({ id: far!.id, partition: 'price_observations_y2031m07', price: 3.33 });
    expect(await db.sql`select 1 from price_observations_default`).toHaveLength(0);

    expect(await addPricePartitions(db.sql)).toBe(0);
    const names = await partitions();
    expect(await addPricePartitions(db.sql, PARTITION_MONTHS_AHEAD + 2)).toBe(2);
    expect((await partitions()).filter((p) => !names.includes(p))).toEqual([
      partitionOf(monthStart(PARTITION_MONTHS_AHEAD + 1)),
      partitionOf(monthStart(PARTITION_MONTHS_AHEAD + 2)),
    ]);
  });

  it('retention drops whole months older than the setting, keeps the newer rows, the rollups and the price entries', async () => {
    await refreshRollups(db.sql, { all: true });
    const rollups = () => db.sql`select * from price_daily_rollups order by day, egg_type, region`;
    const rollupsBefore = await rollups();
    expect(rollupsBefore.some((r) => r.day < new Date('2026-01-01'))).toBe(true);
    const all = await observations();
    const organicEntry = await db.sql`select * from price_entries where product_id = ${ids.organic}`;
    expect(organicEntry).toHaveLength(1);

    // Keeping the months since January 2026 (whatever the current month is).
    const now = new Date();
    const keep = now.getUTCFullYear() * 12 + now.getUTCMonth() - (2026 * 12 + 0);
    expect(await dropOldPricePartitions(db.sql, keep)).toEqual([
      'price_observations_y2025m10',
      'price_observations_y2025m11',
      'price_observations_y2025m12',
    ]);

    expect(await observations()).toEqual(all.filter((o) => o.observed_on >= '2026-01-01'));
    expect(await db.sql`select to_regclass('price_observations_y2025m12') as gone`).toEqual([{ gone: null }]);
    expect(await db.sql`select kept_from::text from price_history_retention`).toEqual([{ kept_from: '2026-01-01' }]);
    // The organic pair's history is gone; its current price stays.
    expect(await db.sql`select * from price_entries where product_id = ${ids.organic}`).toEqual(organicEntry);

    // A full rebuild, and a dirty day among the dropped ones, keep the dropped days' rollups.
    await db.sql`insert into rollup_dirty_days (day) values ('2025-12-31') on conflict do nothing`;
    await refreshRollups(db.sql);
    await refreshRollups(db.sql, { all: true });
    expect(await rollups()).toEqual(rollupsBefore);

    expect(await dropOldPricePartitions(db.sql, keep)).toEqual([]);
    expect(await observations()).toEqual(all.filter((o) => o.observed_on >= '2026-01-01'));
  });
});
