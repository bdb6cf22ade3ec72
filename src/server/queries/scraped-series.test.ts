// A store and region switching from the sample catalogue to scraped prices, as a running app sees
// it: 120 days of sample prices already rolled up, then one, two and eight days of a retailer's
// prices for Walmart in the South, refreshed the way the worker does (the days marked dirty). No
// figure may compare the scraped prices with the sample series: the rollup, the statistics, the
// chart lines, the ticker and the store's trend lines all start the series on the switch day, and
// say how many days of prices they have instead of a change they cannot know yet.
import { afterEach, describe, expect, it } from 'vitest';
import type { EggType } from '#shared/vocabulary.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { refreshRollups } from './rollups.ts';

let db: TestDatabase | undefined;
afterEach(async () => {
  await db?.drop();
  db = undefined;
});

/** The scraped packs: well above the sample catalogue's level, so a comparison across the switch would show. */
const SCRAPED: Array<{ type: EggType; price: number }> = [
  { type: 'standard', price: 6.49 },
  { type: 'cage_free', price: 7.99 },
  { type: 'organic', price: 9.49 },
];

/** A seeded app whose sample prices are rolled up, then `days` days of Walmart South's scraped prices ending today. */
async function switchedDatabase(days: number): Promise<TestDatabase> {
  const created = await createTestDatabase();
  db = created;
  const sql = created.sql;
  await refreshRollups(sql);
  const [location] = await sql<{ id: number }[]>`
    insert into store_locations (store_id, zip, region, name) values ('walmart', '30303', 'south', 'Walmart Atlanta') returning id`;
  for (const { type, price } of SCRAPED) {
    const [product] = await sql<{ id: number }[]>`
      insert into products (store_id, retailer_product_id, title, egg_type, count)
      values ('walmart', ${`w-${type}`}, ${`Walmart ${type} eggs, 12 ct`}, ${type}, 12) returning id`;
    // Rising a cent a day, so the scraped series moves.
    await sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      select ${product!.id}, ${location!.id}, ${price} + (${days} - k) * 0.01, now() - k * interval '1 day', utc_day(now() - k * interval '1 day'), 'scrape'
      from generate_series(0, ${days - 1}::int) as k`;
  }
  await refreshRollups(sql);
  return created;
}

/** The national average per dozen of a day as a shopper could work it out: every observation shown, Walmart South's sample ones left out. */
async function nationalOn(sql: TestDatabase['sql'], daysAgo: number, type?: EggType): Promise<number> {
  const [row] = await sql<{ avg: number }[]>`
    select avg(o.price / p.count * 12)::float8 as avg
    from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
    where o.observed_on = (now() at time zone 'UTC')::date - ${daysAgo}::int
      and not (o.source = 'sample' and l.store_id = 'walmart' and l.region = 'south')
      ${type ? sql`and p.egg_type = ${type}` : sql``}`;
  return row!.avg;
}

const cents = (value: number) => Math.round(value * 100) / 100;
const nulls = (n: number) => Array.from({ length: n }, () => null);

async function readAll(sql: TestDatabase['sql']) {
  const caller = callerFor({ sql });
  return {
    stats: await caller.stats.get(),
    ticker: await caller.news.ticker(),
    walmart: await caller.stores.insights({ storeId: 'walmart' }),
    compare: await caller.compare.byType({ eggType: 'standard' }),
  };
}

/** No ticker item may rest on Walmart South's series, which has less than the two weeks a weekly item compares. */
function expectNoTickerItemAcrossTheSwitch(ticker: Array<{ kind: string; text: string }>) {
  for (const item of ticker) {
    if (item.kind === 'region-week') expect(item.text).not.toMatch(/^South /);
    if (item.kind === 'national-week') expect(item.text).not.toMatch(/^(Standard|Cage-free|Organic) eggs/);
    if (item.kind === 'store-streak') expect(item.text).not.toMatch(/^Walmart /);
    if (item.kind === 'sale') expect(item.text).not.toMatch(/Walmart in the South$/);
  }
}

describe('a store and region switching from sample to scraped prices', () => {
  it('rolls up every day without its sample prices, not only the days it recomputes', async () => {
    const { sql } = await switchedDatabase(1);
    const mismatched = await sql<{ day: string }[]>`
      with shown as (
        select o.observed_on as day, p.egg_type, l.region, avg(o.price / p.count * 12) as avg, count(*)::int as n
        from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
        where not (o.source = 'sample' and l.store_id = 'walmart' and l.region = 'south')
        group by 1, 2, 3
      )
      select coalesce(r.day, s.day)::text as day
      from price_daily_rollups r
      full join shown s on s.day = r.day and s.egg_type = r.egg_type and s.region = r.region
      where r.day is null or s.day is null or r.observations <> s.n or round(r.avg_per_dozen, 4) <> round(s.avg, 4)`;
    expect(mismatched).toEqual([]);
    const [since] = await sql<{ days: number; scraped_since: string; sample: boolean }[]>`
      select count(*)::int as days, max(series_since)::text as scraped_since, bool_and(sample) as sample
      from price_daily_rollups where region = 'south' and day < (now() at time zone 'UTC')::date`;
    // Before the switch the South's rows are all sample, and no switch lies behind them.
    expect(since).toMatchObject({ scraped_since: null, sample: true });
  });

  it('after one day: the average of that day, no weekly change or volatility but "1 day", lines of one point', async () => {
    const { sql } = await switchedDatabase(1);
    const { stats, ticker, walmart, compare } = await readAll(sql);
    const today = await nationalOn(sql, 0);
    expect(stats.national_average).toEqual({
      price_per_dozen: cents(today),
      trend: null,
      history_days: 1,
      sample: true,
    });
    expect(stats.weekly_volatility).toEqual({ value: null, trend: null, history_days: 1, sample: true });
    const week = stats.trends['7d'];
    expect(week.series.national).toEqual([...nulls(6), cents(today)]);
    expect(week.series.standard).toEqual([...nulls(6), cents(await nationalOn(sql, 0, 'standard'))]);
    expect(week.series.organic).toEqual([...nulls(6), cents(await nationalOn(sql, 0, 'organic'))]);
    // Pasture-raised eggs: Walmart South sells none, so that line kept its whole history.
    expect(week.series.pasture_raised.every((v) => v !== null)).toBe(true);
    expect(week.history_days).toMatchObject({ national: 1, standard: 1, organic: 1, cage_free: 1 });
    expect(week.history_days.pasture_raised).toBeGreaterThanOrEqual(120);
    expect(week.summary.trend).toBeNull();
    expect(week.sample).toBe(true);
    expect(stats.trends['30d'].series.national).toEqual([...nulls(29), cents(today)]);
    expectNoTickerItemAcrossTheSwitch(ticker);
    // The compare chart: the South's line starts today, the other regions' keep their history.
    const lines = new Map(compare.chart.lines.map((line) => [line.region, line.values]));
    expect(lines.get('south')!.slice(0, -1)).toEqual(nulls(29));
    expect(lines.get('south')!.at(-1)).not.toBeNull();
    expect(lines.get('northeast')!.every((v) => v !== null)).toBe(true);
    // The store's lines (all its regions) changed composition today: one point each.
    expect(walmart.series.lines.length).toBeGreaterThan(0);
    for (const line of walmart.series.lines) {
      if (line.egg_type === 'pasture_raised') continue;
      expect(line.values.slice(0, -1)).toEqual(nulls(29));
      expect(line.values.at(-1)).not.toBeNull();
      expect(line.history_days).toBe(1);
    }
  });

  it('after two days: "2 days" and lines of two points', async () => {
    const { sql } = await switchedDatabase(2);
    const { stats, ticker } = await readAll(sql);
    expect(stats.national_average).toMatchObject({ trend: null, history_days: 2 });
    expect(stats.weekly_volatility).toMatchObject({ value: null, trend: null, history_days: 2 });
    expect(stats.trends['7d'].series.national).toEqual([
      ...nulls(5),
      cents(await nationalOn(sql, 1)),
      cents(await nationalOn(sql, 0)),
    ]);
    expect(stats.trends['7d'].summary.trend).toBeNull();
    expectNoTickerItemAcrossTheSwitch(ticker);
  });

  it('after eight days: the weekly change and volatility over scraped prices only; the two-week figures still wait', async () => {
    const { sql } = await switchedDatabase(8);
    const { stats, ticker } = await readAll(sql);
    const today = await nationalOn(sql, 0);
    const weekAgo = await nationalOn(sql, 7);
    const change = ((today - weekAgo) / weekAgo) * 100;
    expect(stats.national_average.history_days).toBe(8);
    expect(stats.national_average.trend).toEqual({
      value: cents(Math.abs(change)),
      direction: change > 0 ? 'up' : 'down',
    });
    const week = await Promise.all([6, 5, 4, 3, 2, 1, 0].map((d) => nationalOn(sql, d)));
    const mean = week.reduce((a, b) => a + b, 0) / 7;
    const cv = (Math.sqrt(week.reduce((a, v) => a + (v - mean) ** 2, 0) / 7) / mean) * 100;
    expect(stats.weekly_volatility.value).toBeCloseTo(cv, 2);
    expect(stats.weekly_volatility).toMatchObject({ trend: null, history_days: 8 });
    expect(stats.trends['7d'].series.national).toEqual(week.map(cents));
    expect(stats.trends['7d'].summary.trend).not.toBeNull();
    expect(stats.trends['30d'].series.national.slice(0, 22)).toEqual(nulls(22));
    expect(stats.trends['30d'].summary.trend).toBeNull();
    expectNoTickerItemAcrossTheSwitch(ticker);
  });
});
