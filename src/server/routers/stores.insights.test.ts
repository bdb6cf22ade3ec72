import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { sortEntries } from '#shared/sort.ts';
import { listPriceEntries } from '../queries/prices.ts';
import { refreshRollups } from '../queries/rollups.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
  // The daily series reads the rollup, which the worker refreshes after the seed's prices.
  await refreshRollups(db.sql);
});
afterAll(() => db.drop());

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

interface RawEntry {
  id: number;
  store_id: string;
  region: string;
  egg_type: string;
  count: number;
  price: number;
  week_ago: number | null;
}

/** Every current price of a store with the price at least 7 days before it, straight from the history. */
async function rawEntries(storeId?: string): Promise<RawEntry[]> {
  return db.sql<RawEntry[]>`
    select e.id, l.store_id, l.region, p.egg_type, p.count, o.price,
           (select r.price from price_observations r
            where r.product_id = o.product_id and r.location_id = o.location_id and r.observed_on <= o.observed_on - 7
            order by r.observed_on desc limit 1) as week_ago
    from price_entries e
    join price_observations o on o.id = e.observation_id
    join products p on p.id = e.product_id
    join store_locations l on l.id = e.location_id
    ${storeId ? db.sql`where l.store_id = ${storeId}` : db.sql``}`;
}

/** Every page of the store's entries, in page order. */
async function allEntries(storeId: string, pageSize = 5) {
  const first = await caller.stores.insights({ storeId, pageSize });
  const entries = [...first.entries];
  for (let page = 2; page <= first.pageCount; page++)
    entries.push(...(await caller.stores.insights({ storeId, page, pageSize })).entries);
  return entries;
}

describe('stores.insights', () => {
  it('answers NOT_FOUND for an unknown store and BAD_REQUEST for bad filters', async () => {
    await expect(caller.stores.insights({ storeId: 'costco' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    for (const input of [
      { storeId: '' },
      { storeId: 'kroger', egg_type: 'brown' },
      { storeId: 'kroger', region: 'mars' },
      { storeId: 'kroger', count: 0 },
      { storeId: 'kroger', extra: 1 },
      { storeId: 'kroger', page: 0 },
      { storeId: 'kroger', pageSize: 0 },
      { storeId: 'kroger', pageSize: 61 },
      { storeId: 'kroger', page: 'two' },
    ]) {
      const error = await caller.stores.insights(input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe('BAD_REQUEST');
    }
  });

  it('computes the price insights and the weekly change from the history', async () => {
    const raw = await rawEntries('kroger');
    const result = await caller.stores.insights({ storeId: 'Kroger' });
    const { insights } = result;

    expect(insights.entries).toBe(raw.length);
    expect(result.total).toBe(raw.length);
    const all = await allEntries('kroger');
    expect(all.map((e) => e.id).sort()).toEqual(raw.map((e) => e.id).sort());
    const perDozen = (e: { price: number; count: number }) => (e.price / e.count) * 12;
    const sorted = all.map(perDozen);
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));
    for (const entry of all) {
      expect(entry.history).toHaveLength(7);
      expect(entry.history.at(-1)).toBe(entry.price);
    }
    expect(insights.regions).toEqual(['midwest', 'south', 'west']);
    expect(insights.average_price).toBeCloseTo(mean(raw.map((e) => e.price)), 2);
    expect(insights.average_per_dozen).toBeCloseTo(mean(raw.map(perDozen)), 2);
    expect(insights.lowest!.price_per_dozen).toBeCloseTo(Math.min(...raw.map(perDozen)), 2);
    expect(insights.highest!.price_per_dozen).toBeCloseTo(Math.max(...raw.map(perDozen)), 2);

    const compared = raw.filter((e) => e.week_ago !== null);
    expect(compared.length).toBeGreaterThan(0);
    expect(insights.weekly_compared).toBe(compared.length);
    expect(insights.weekly_change).toBeCloseTo(mean(compared.map((e) => e.price - e.week_ago!)), 2);
    expect(insights.weekly_change_per_dozen).toBeCloseTo(
      mean(compared.map((e) => ((e.price - e.week_ago!) / e.count) * 12)),
      2,
    );

    const down = raw.filter((e) => e.week_ago !== null && e.price < e.week_ago).length;
    expect(result.competitive.down).toBe(down);
    expect(result.competitive.downwardTrend).toBe(down > raw.length / 2);
  });

  it("gives a 30-day daily series per egg type of the store's price per dozen", async () => {
    const { series } = await caller.stores.insights({ storeId: 'walmart' });
    const [latest] = await db.sql<{ day: string }[]>`
      select max(o.observed_on)::text as day from price_observations o
      join store_locations l on l.id = o.location_id where l.store_id = 'walmart'`;
    expect(series.days).toHaveLength(30);
    expect(series.days.at(-1)).toBe(latest!.day);
    expect(series.lines.map((l) => l.egg_type)).toEqual(['standard', 'cage_free', 'organic', 'pasture_raised']);

    const organic = series.lines.find((l) => l.egg_type === 'organic')!;
    for (const index of [0, 14, 29]) {
      const [row] = await db.sql<{ avg: number }[]>`
        select avg(o.price / p.count * 12) as avg
        from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
        where l.store_id = 'walmart' and p.egg_type = 'organic' and o.observed_on = ${series.days[index]!}::date`;
      expect(organic.values[index]).toBeCloseTo(row!.avg, 2);
    }
  });

  it('ranks the store among the stores offering each type in each region, by the price per dozen of their dozen pack', async () => {
    const { competitive } = await caller.stores.insights({ storeId: 'target' });
    const dozens = await db.sql<{ store_id: string; store_name: string; per_dozen: number }[]>`
      select l.store_id, s.store_name, min(e.price) as per_dozen
      from price_entries e join products p on p.id = e.product_id
      join store_locations l on l.id = e.location_id join stores s on s.id = l.store_id
      where p.egg_type = 'organic' and p.count = 12 and l.region = 'south'
      group by l.store_id, s.store_name
      order by per_dozen, l.store_id`;
    const own = dozens.find((d) => d.store_id === 'target')!;
    const competitor = dozens.find((d) => d.store_id !== 'target')!;
    const organic = competitive.market_position.find((p) => p.egg_type === 'organic' && p.region === 'south')!;

    expect(organic.count).toBe(12);
    expect(organic.price).toBe(own.per_dozen);
    expect(organic.of).toBe(dozens.length);
    expect(organic.rank).toBe(1 + dozens.filter((d) => d.per_dozen < own.per_dozen).length);
    expect(organic.cheapest_competitor).toMatchObject({
      store_id: competitor.store_id,
      store_name: competitor.store_name,
      price: competitor.per_dozen,
      region: 'south',
    });
    expect(organic.cheapest_competitor!.difference_pct).toBeCloseTo(
      ((own.per_dozen - competitor.per_dozen) / competitor.per_dozen) * 100,
      1,
    );
    // One comparison per egg type and region the store sells it in, each within its region.
    const [{ pairs }] = (await db.sql<{ pairs: number }[]>`
      select count(distinct (p.egg_type, l.region))::int as pairs
      from price_entries e join products p on p.id = e.product_id join store_locations l on l.id = e.location_id
      where l.store_id = 'target'`) as unknown as [{ pairs: number }];
    expect(competitive.market_position).toHaveLength(pairs);
    expect([...new Set(competitive.market_position.map((p) => p.egg_type))]).toEqual([
      'standard',
      'cage_free',
      'organic',
      'pasture_raised',
    ]);
    for (const position of competitive.market_position) {
      if (position.cheapest_competitor) expect(position.cheapest_competitor.region).toBe(position.region);
    }
  });

  it("pages the entries in the 'price' sort's order (sortEntries), with the total, and clamps a page past the end", async () => {
    const listed = sortEntries(await listPriceEntries(db.sql, { store: 'walmart' }), 'price');
    expect(listed.length).toBeGreaterThan(20);
    const first = await caller.stores.insights({ storeId: 'walmart' });
    expect(first).toMatchObject({
      total: listed.length,
      page: 1,
      pageSize: 9,
      pageCount: Math.ceil(listed.length / 9),
    });
    expect(first.entries.map((e) => e.id)).toEqual(listed.slice(0, 9).map((e) => e.id));

    const pages = await allEntries('walmart', 7);
    expect(pages.map((e) => e.id)).toEqual(listed.map((e) => e.id));
    // Each card is the full entry with its sparkline and its locations' figures.
    const { history: _history, locations: _locations, ...card } = pages[3]!;
    expect(card).toEqual(listed[3]);
    expect(_history.at(-1)).toBe(listed[3]!.price);

    const last = Math.ceil(listed.length / 7);
    const beyond = await caller.stores.insights({ storeId: 'walmart', page: last + 5, pageSize: 7 });
    expect(beyond.page).toBe(last);
    expect(beyond.entries.map((e) => e.id)).toEqual(listed.slice((last - 1) * 7).map((e) => e.id));

    // Lowest and highest are the first and last of that order; the regions those of the entries.
    expect(first.insights.lowest).toMatchObject({
      price: listed[0]!.price,
      count: listed[0]!.count,
      region: listed[0]!.region,
      egg_type: listed[0]!.egg_type,
    });
    expect(first.insights.highest).toMatchObject({
      price: listed.at(-1)!.price,
      count: listed.at(-1)!.count,
      region: listed.at(-1)!.region,
      egg_type: listed.at(-1)!.egg_type,
    });
    expect(first.insights.sample).toBe(listed.some((e) => e.source !== 'scrape'));

    const none = await caller.stores.insights({ storeId: 'walmart', count: 360, page: 3 });
    expect(none).toMatchObject({ entries: [], total: 0, page: 1, pageCount: 0 });
  });

  it('breaks the store down by region', async () => {
    const { competitive } = await caller.stores.insights({ storeId: 'kroger' });
    const raw = await rawEntries('kroger');
    expect(competitive.regional.map((r) => r.region)).toEqual(['midwest', 'south', 'west']);
    const walmart = await caller.stores.insights({ storeId: 'walmart' });
    expect(walmart.competitive.regional.map((r) => r.region)).toEqual(['northeast', 'midwest', 'south', 'west']);
    for (const region of competitive.regional) {
      const rows = raw.filter((e) => e.region === region.region);
      expect(region.product_count).toBe(rows.length);
      expect(region.average_price).toBeCloseTo(mean(rows.map((e) => e.price)), 2);
      expect(new Set(region.egg_types)).toEqual(new Set(rows.map((e) => e.egg_type)));
    }
  });

  it('applies the region, egg type (either spelling) and count filters to every part', async () => {
    const result = await caller.stores.insights({
      storeId: 'kroger',
      region: 'South',
      egg_type: 'Cage-Free',
      count: 18,
    });
    expect(result.entries.length).toBe(1);
    expect(result.entries[0]).toMatchObject({ region: 'south', egg_type: 'cage_free', count: 18 });
    expect(result.insights.entries).toBe(1);
    expect(result.series.lines.map((l) => l.egg_type)).toEqual(['cage_free']);
    expect(result.competitive.regional.map((r) => r.region)).toEqual(['south']);
    const position = result.competitive.market_position;
    expect(position).toHaveLength(1);
    expect(position[0]).toMatchObject({ egg_type: 'cage_free', count: 18, region: 'south' });
    const [offered] = await db.sql<{ stores: number }[]>`
      select count(distinct l.store_id)::int as stores from price_entries e
      join products p on p.id = e.product_id join store_locations l on l.id = e.location_id
      where p.egg_type = 'cage_free' and p.count = 18 and l.region = 'south'`;
    expect(position[0]!.of).toBe(offered!.stores);

    const empty = await caller.stores.insights({ storeId: 'kroger', count: 60 });
    expect(empty.entries).toEqual([]);
    expect(empty.total).toBe(0);
    expect(empty.insights).toMatchObject({
      entries: 0,
      average_price: null,
      lowest: null,
      highest: null,
      weekly_change: null,
    });
    expect(empty.series).toEqual({ days: [], lines: [] });
    expect(empty.competitive).toMatchObject({ downwardTrend: false, market_position: [], regional: [] });
  });

  it('hides sample history for a store and region once scraped prices arrive there', async () => {
    const [location] = await db.sql<
      { id: number }[]
    >`select id from store_locations where store_id = 'aldi' and region = 'west'`;
    const [product] = await db.sql<
      { id: number }[]
    >`select id from products where store_id = 'aldi' and retailer_product_id = 'sample-standard-12'`;
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${product!.id}, ${location!.id}, 2.99, now(), utc_day(now()), 'scrape')
      on conflict (product_id, location_id, observed_on) do update set price = excluded.price, source = excluded.source`;
    await refreshRollups(db.sql);

    const west = await caller.stores.insights({ storeId: 'aldi', region: 'west' });
    expect(west.entries.map((e) => [e.source, e.price])).toEqual([['scrape', 2.99]]);
    expect(west.insights.sample).toBe(false);
    expect(west.series.lines.map((l) => l.egg_type)).toEqual(['standard']);
    const values = west.series.lines[0]!.values;
    expect(values.at(-1)).toBe(2.99);
    // The sample days before the first scraped price are gaps, not sample prices.
    expect(values.slice(0, -1).every((v) => v === null)).toBe(true);

    // Other regions keep their sample history.
    const south = await caller.stores.insights({ storeId: 'aldi', region: 'south' });
    expect(south.series.lines[0]!.values.every((v) => v !== null)).toBe(true);
  });

  it("gives the store's filter options from the values of its visible prices", async () => {
    const entries = await listPriceEntries(db.sql, { store: 'kroger' });
    const options = await caller.stores.filterOptions({ storeId: 'Kroger' });
    expect(options.regions).toEqual(['midwest', 'south', 'west'].filter((r) => entries.some((e) => e.region === r)));
    expect(options.egg_types).toEqual(
      ['standard', 'cage_free', 'organic', 'pasture_raised'].filter((t) => entries.some((e) => e.egg_type === t)),
    );
    expect(options.counts).toEqual([...new Set(entries.map((e) => e.count))].sort((a, b) => a - b));
    await expect(caller.stores.filterOptions({ storeId: 'costco' })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // A pack size sold only as a sample price where scraped prices exist is hidden, as in the lists.
    await db.sql.begin(async (tx) => {
      const [product] = await tx<{ id: number }[]>`
        insert into products (store_id, retailer_product_id, title, egg_type, count)
        values ('kroger', 'sample-standard-30-only', 'Thirty eggs', 'standard', 30) returning id`;
      const [location] = await tx<
        { id: number }[]
      >`select id from store_locations where store_id = 'kroger' and region = 'south' limit 1`;
      await tx`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        values (${product!.id}, ${location!.id}, 7.49, now(), utc_day(now()), 'sample')`;
      await tx`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        select p.id, ${location!.id}, 3.19, now(), utc_day(now()), 'scrape' from products p
        where p.store_id = 'kroger' and p.id <> ${product!.id} order by p.id limit 1
        on conflict (product_id, location_id, observed_on) do update set price = excluded.price, source = excluded.source`;
    });
    const visible = await listPriceEntries(db.sql, { store: 'kroger' });
    expect(visible.some((e) => e.count === 30)).toBe(false);
    expect((await caller.stores.filterOptions({ storeId: 'kroger' })).counts).toEqual(
      [...new Set(visible.map((e) => e.count))].sort((a, b) => a - b),
    );
  });
});
