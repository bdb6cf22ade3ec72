import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { refreshRollups } from '../queries/rollups.ts';
import { refreshStoreFigures } from '../queries/store-figures.ts';
import { compareByType } from '../queries/compare.ts';
import { compareByType as compareFromEntries } from '../../../test/compare-reference.ts';
import { EGG_TYPES, REGIONS } from '#shared/vocabulary.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
  // The seeded entries' precomputed figures (what refreshRollups keeps after a write; the summary
  // reads them), without the daily rollup, whose first run a test below checks.
  await refreshStoreFigures(db.sql, 'all');
});
afterAll(() => db.drop());

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

interface RawEntry {
  id: number;
  store_id: string;
  store_name: string;
  region: string;
  count: number;
  price: number;
  week_ago: number | null;
}

/** The current prices of one egg type with each one's price 7 days earlier, straight from the history. */
async function rawEntries(eggType: string, filters: { region?: string; count?: number } = {}): Promise<RawEntry[]> {
  return db.sql<RawEntry[]>`
    select e.id, l.store_id, s.store_name, l.region, p.count, o.price,
           (select r.price from price_observations r
            where r.product_id = o.product_id and r.location_id = o.location_id and r.observed_on <= o.observed_on - 7
            order by r.observed_on desc limit 1) as week_ago
    from price_entries e
    join price_observations o on o.id = e.observation_id
    join products p on p.id = e.product_id
    join store_locations l on l.id = e.location_id
    join stores s on s.id = l.store_id
    where p.egg_type = ${eggType}
      ${filters.region ? db.sql`and l.region = ${filters.region}` : db.sql``}
      ${filters.count ? db.sql`and p.count = ${filters.count}` : db.sql``}`;
}

describe('compare.byType', () => {
  it('rejects an invalid egg type with BAD_REQUEST and a message, and other bad filters', async () => {
    for (const input of [
      { eggType: 'brown' },
      { eggType: 'all' },
      { eggType: '' },
      { eggType: 'organic', region: 'mars' },
      { eggType: 'organic', count: -1 },
      { eggType: 'organic', store: 'aldi' },
    ]) {
      const error = await caller.compare.byType(input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe('BAD_REQUEST');
    }
    await expect(caller.compare.byType({ eggType: 'brown' })).rejects.toThrow(/Unknown egg type 'brown'/);
  });

  it('pages every current entry of the type, cheapest per dozen first, each with its last 7 days', async () => {
    const raw = await rawEntries('cage_free');
    const first = await caller.compare.byType({ eggType: 'Cage-Free', pageSize: 7 });
    expect(first.egg_type).toBe('cage_free');
    expect(first).toMatchObject({ total: raw.length, page: 1, pageSize: 7, pageCount: Math.ceil(raw.length / 7) });
    expect(first.pageCount).toBeGreaterThan(2);
    const listed = [...first.entries];
    for (let page = 2; page <= first.pageCount; page++) {
      const next = await caller.compare.byType({ eggType: 'cage_free', page, pageSize: 7 });
      expect(next).toMatchObject({ page, total: raw.length, pageCount: first.pageCount });
      expect(next.entries.length).toBe(page < first.pageCount ? 7 : raw.length - 7 * (first.pageCount - 1));
      listed.push(...next.entries);
    }
    expect(listed.map((e) => e.id).sort()).toEqual(raw.map((e) => e.id).sort());
    // Per dozen, then the cheaper pack, then the lower id: the shared sort's order.
    const order = [...listed].sort(
      (a, b) => (a.price / a.count) * 12 - (b.price / b.count) * 12 || a.price - b.price || a.id - b.id,
    );
    expect(listed.map((e) => e.id)).toEqual(order.map((e) => e.id));
    for (const entry of listed) {
      expect(entry.egg_type).toBe('cage_free');
      expect(entry.history).toHaveLength(7);
      expect(entry.history.at(-1)).toBe(entry.price);
    }
    // The summary's lowest and highest are the listing's first and last.
    expect(first.summary.lowest).toMatchObject({
      store_id: listed[0]!.store_id,
      price: listed[0]!.price,
      count: listed[0]!.count,
    });
    expect(first.summary.highest).toMatchObject({
      store_id: listed.at(-1)!.store_id,
      price: listed.at(-1)!.price,
      count: listed.at(-1)!.count,
    });
    // A page past the end is the last page; the default page is the first 9.
    const past = await caller.compare.byType({ eggType: 'cage_free', page: 1000, pageSize: 7 });
    expect(past.page).toBe(first.pageCount);
    expect(past.entries.map((e) => e.id)).toEqual(listed.slice(7 * (first.pageCount - 1)).map((e) => e.id));
    const byDefault = await caller.compare.byType({ eggType: 'cage_free' });
    expect(byDefault).toMatchObject({ page: 1, pageSize: 9 });
    expect(byDefault.entries.map((e) => e.id)).toEqual(listed.slice(0, 9).map((e) => e.id));
    for (const bad of [{ page: 0 }, { pageSize: 0 }, { pageSize: 61 }, { page: 1.5 }]) {
      await expect(caller.compare.byType({ eggType: 'cage_free', ...bad })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    }
  });

  it('summarises the price range and average per dozen, stores and unit prices', async () => {
    const raw = await rawEntries('standard');
    const { summary, counts } = await caller.compare.byType({ eggType: 'standard' });
    const perDozen = (e: RawEntry) => (e.price / e.count) * 12;
    const cheapest = raw.reduce((a, b) => (perDozen(b) < perDozen(a) ? b : a));
    const dearest = raw.reduce((a, b) => (perDozen(b) > perDozen(a) ? b : a));
    expect(summary.products).toBe(raw.length);
    expect(summary.stores).toBe(new Set(raw.map((e) => e.store_id)).size);
    expect(summary.regions).toEqual(['northeast', 'midwest', 'south', 'west']);
    expect(summary.lowest!.price_per_dozen).toBeCloseTo(perDozen(cheapest), 2);
    expect(summary.highest!.price_per_dozen).toBeCloseTo(perDozen(dearest), 2);
    expect(summary.difference_per_dozen).toBeCloseTo(
      summary.highest!.price_per_dozen - summary.lowest!.price_per_dozen,
      2,
    );
    expect(summary.average_per_dozen).toBeCloseTo(mean(raw.map(perDozen)), 2);
    expect(summary.average_price).toBeCloseTo(mean(raw.map((e) => e.price)), 2);
    expect(summary.by_region.map((r) => r.region)).toEqual(summary.regions);
    for (const region of summary.by_region) {
      const within = raw.filter((e) => e.region === region.region);
      expect(region.products).toBe(within.length);
      expect(region.average_per_dozen).toBeCloseTo(mean(within.map(perDozen)), 2);
      expect(region.lowest!.price_per_dozen).toBeCloseTo(Math.min(...within.map(perDozen)), 2);
      expect(region.lowest!.region).toBe(region.region);
      expect(region.highest!.region).toBe(region.region);
    }
    expect(summary.some_decreasing).toBe(raw.some((e) => e.week_ago !== null && e.price < e.week_ago));
    expect(summary.some_increasing).toBe(raw.some((e) => e.week_ago !== null && e.price > e.week_ago));
    expect(summary.unit_price!.min).toBeCloseTo(Math.min(...raw.map((e) => e.price / e.count)), 4);
    expect(summary.unit_price!.max).toBeCloseTo(Math.max(...raw.map((e) => e.price / e.count)), 4);

    const [{ counts: present }] = (await db.sql<{ counts: number[] }[]>`
      select array_agg(distinct p.count order by p.count) as counts
      from price_entries e join products p on p.id = e.product_id where p.egg_type = 'standard'`) as unknown as [
      { counts: number[] },
    ];
    expect(counts).toEqual(present);
  });

  it('filters by region and pack size', async () => {
    const raw = await rawEntries('standard', { region: 'west', count: 18 });
    const result = await caller.compare.byType({ eggType: 'STANDARD', region: 'West', count: 18 });
    expect(result.total).toBe(raw.length);
    expect(result.entries.length).toBe(Math.min(raw.length, 9));
    expect(result.entries.every((e) => e.region === 'west' && e.count === 18)).toBe(true);
    expect(result.summary.products).toBe(raw.length);
    expect(result.summary.regions).toEqual(['west']);
    // The count options do not shrink with the chosen filters.
    expect(result.counts).toEqual([6, 12, 18]);

    const none = await caller.compare.byType({ eggType: 'standard', count: 60 });
    expect(none).toMatchObject({ entries: [], total: 0, page: 1, pageCount: 0 });
    expect(none.summary).toMatchObject({
      products: 0,
      stores: 0,
      regions: [],
      by_region: [],
      lowest: null,
      highest: null,
      difference_per_dozen: null,
      average_per_dozen: null,
      average_price: null,
      unit_price: null,
      some_decreasing: false,
    });
    expect(none.chart).toEqual({ unit: 'pack', count: 60, days: [], lines: [] });
  });

  it('charts the daily average per dozen per region from the rollup once it has run', async () => {
    expect((await caller.compare.byType({ eggType: 'organic' })).chart).toEqual({
      unit: 'dozen',
      count: null,
      days: [],
      lines: [],
    });
    await refreshRollups(db.sql);
    const { chart } = await caller.compare.byType({ eggType: 'organic' });
    const [latest] = await db.sql<{ day: string }[]>`select max(observed_on)::text as day from price_observations`;
    expect(chart.unit).toBe('dozen');
    expect(chart.days).toHaveLength(30);
    expect(chart.days.at(-1)).toBe(latest!.day);
    expect(chart.lines.map((l) => l.region)).toEqual(['northeast', 'midwest', 'south', 'west']);
    for (const line of chart.lines) {
      const [row] = await db.sql<{ avg: number }[]>`
        select avg(o.price / p.count * 12) as avg
        from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
        where p.egg_type = 'organic' and l.region = ${line.region} and o.observed_on = ${chart.days[10]!}::date`;
      expect(line.values[10]).toBeCloseTo(row!.avg, 2);
    }
    const south = await caller.compare.byType({ eggType: 'organic', region: 'south' });
    expect(south.chart.lines.map((l) => l.region)).toEqual(['south']);
  });

  it('charts the average shelf price of the chosen pack size per region', async () => {
    const { chart } = await caller.compare.byType({ eggType: 'cage_free', count: 18 });
    expect(chart).toMatchObject({ unit: 'pack', count: 18 });
    expect(chart.days).toHaveLength(30);
    const west = chart.lines.find((l) => l.region === 'west')!;
    const [row] = await db.sql<{ avg: number }[]>`
      select avg(o.price) as avg
      from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
      where p.egg_type = 'cage_free' and p.count = 18 and l.region = 'west' and o.observed_on = ${chart.days.at(-1)!}::date`;
    expect(west.values.at(-1)).toBeCloseTo(row!.avg, 2);
  });

  it('gives what reading every entry gives, for every egg type, region, pack size and page, after a write is refreshed', async () => {
    const check = async () => {
      for (const eggType of EGG_TYPES) {
        const counts = (
          await db.sql<{ count: number }[]>`select distinct count from products where egg_type = ${eggType}`
        ).map((r) => r.count);
        for (const region of [undefined, ...REGIONS]) {
          for (const count of [undefined, ...counts]) {
            for (const paging of [
              { page: 1, pageSize: 9 },
              { page: 2, pageSize: 4 },
              { page: 1000, pageSize: 9 },
            ]) {
              const filters = { eggType, region, count };
              expect(await compareByType(db.sql, filters, paging), JSON.stringify({ filters, paging })).toEqual(
                await compareFromEntries(db.sql, filters, paging),
              );
            }
          }
        }
      }
    };
    await check();
    // A new cheapest organic entry, written directly and refreshed as a write is.
    const [entry] = await db.sql<{ id: number; product_id: number; location_id: number; price: number }[]>`
      select e.id, e.product_id, e.location_id, e.price from price_entries e join products p on p.id = e.product_id
      where p.egg_type = 'organic' order by e.id limit 1`;
    await db.sql`update price_entries set price = 0.5 where id = ${entry!.id}`;
    await refreshStoreFigures(db.sql, 'all');
    const after = await compareByType(db.sql, { eggType: 'organic' });
    expect(after.entries[0]!.id).toBe(entry!.id);
    expect(after.summary.lowest!.price).toBe(0.5);
    await check();
  });
});
