import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { refreshRollups } from '../queries/rollups.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
});
afterAll(() => db.drop());

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('stats.get', () => {
  it('has nothing to report before the rollup has run', async () => {
    const stats = await caller.stats.get();
    expect(stats.as_of).toBeNull();
    expect(stats.national_average.price_per_dozen).toBeNull();
    expect(stats.trends['7d'].days).toEqual([]);
    // The lowest price comes from current prices, which exist already.
    expect(stats.lowest_price).not.toBeNull();
  });

  it('computes the national average, its weekly trend, volatility and series from the data', async () => {
    await refreshRollups(db.sql);
    const stats = await caller.stats.get();
    const [latest] = await db.sql<{ day: string }[]>`select max(observed_on)::text as day from price_observations`;
    expect(stats.as_of).toBe(latest!.day);

    const dayAverage = async (offset: number) => {
      const [row] = await db.sql<{ avg: number }[]>`
        select avg(o.price / p.count * 12) as avg
        from price_observations o join products p on p.id = o.product_id
        where o.observed_on = ${latest!.day}::date - ${offset}::int`;
      return row!.avg;
    };
    const today = await dayAverage(0);
    const weekAgo = await dayAverage(7);
    expect(stats.national_average.price_per_dozen).toBeCloseTo(today, 2);
    const change = ((today - weekAgo) / weekAgo) * 100;
    expect(stats.national_average.trend!.value).toBeCloseTo(Math.abs(change), 2);
    expect(stats.national_average.trend!.direction).toBe(change > 0 ? 'up' : 'down');

    const week = await Promise.all([6, 5, 4, 3, 2, 1, 0].map(dayAverage));
    const m = mean(week);
    const cv = (Math.sqrt(mean(week.map((v) => (v - m) ** 2))) / m) * 100;
    expect(stats.weekly_volatility.value).toBeCloseTo(cv, 2);

    const seven = stats.trends['7d'];
    expect(seven.days).toHaveLength(7);
    expect(seven.days.at(-1)).toBe(latest!.day);
    expect(seven.series.national.map((v) => v!)).toEqual(week.map((v) => Math.round(v * 100) / 100));
    expect(stats.trends['30d'].days).toHaveLength(30);
    const plotted = [...seven.series.national, ...seven.series.organic, ...seven.series.standard].map((v) => v!);
    expect(seven.summary.high).toBe(Math.max(...plotted));
    expect(seven.summary.low).toBe(Math.min(...plotted));
    expect(seven.summary.trend!.isDown).toBe(seven.series.national[6]! < seven.series.national[0]!);
    expect(seven.series.organic[6]!).toBeGreaterThan(seven.series.standard[6]!);
  });

  it('reports the lowest current price per dozen with its type, region and store', async () => {
    const stats = await caller.stats.get();
    const [cheapest] = await db.sql<{ price: number; count: number; store_id: string }[]>`
      select e.price, p.count, l.store_id from price_entries e
      join products p on p.id = e.product_id join store_locations l on l.id = e.location_id
      order by e.price / p.count limit 1`;
    expect(stats.lowest_price).toMatchObject({
      price: cheapest!.price,
      count: cheapest!.count,
      store_id: cheapest!.store_id,
    });
    expect(stats.lowest_price!.price_per_dozen).toBeCloseTo((cheapest!.price / cheapest!.count) * 12, 2);
  });

  it("passes over the lowest price when it is not shown (an inactive store's, a sample price where scraped ones exist)", async () => {
    const lowestShown = () => db.sql<{ id: number; price: number; count: number; store_id: string; region: string }[]>`
      select e.id, e.price, p.count, l.store_id, l.region from price_entries e
      join products p on p.id = e.product_id join store_locations l on l.id = e.location_id join stores s on s.id = l.store_id
      where s.active and (e.source <> 'sample' or not exists (
        select 1 from price_entries se join store_locations sl on sl.id = se.location_id
        where se.source <> 'sample' and sl.store_id = l.store_id and sl.region = l.region))
      order by e.price / p.count, e.id limit 1`;
    const [first] = await lowestShown();
    await db.sql`update stores set active = false where id = ${first!.store_id}`;
    try {
      const [second] = await lowestShown();
      expect(second!.store_id).not.toBe(first!.store_id);
      // A scraped price in the second's store and region hides its sample prices there.
      const [other] = await db.sql<{ location_id: number; product_id: number }[]>`
        select e.location_id, e.product_id from price_entries e join store_locations l on l.id = e.location_id
        where l.store_id = ${second!.store_id} and l.region = ${second!.region} and e.id <> ${second!.id} limit 1`;
      await db.sql`update price_entries set source = 'scrape' where location_id = ${other!.location_id} and product_id = ${other!.product_id}`;
      const [third] = await lowestShown();
      expect(third!.id).not.toBe(second!.id);
      const stats = await caller.stats.get();
      expect(stats.lowest_price).toMatchObject({
        price: third!.price,
        count: third!.count,
        store_id: third!.store_id,
        region: third!.region,
      });
    } finally {
      await db.sql`update stores set active = true`;
    }
  });
});
