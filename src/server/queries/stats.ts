import type { EggType } from '#shared/vocabulary.ts';
import type { Stats } from '#shared/types.ts';
import type { Db } from '../db.ts';
import { roundCents } from '#shared/format.ts';
import { cheapestEntry } from './cheapest.ts';
import { computeStats, type DailyTypeAverage, type SeriesHistory, type SeriesKey } from '../stats.ts';

/** Days of rollup the statistics need: 30 for the long chart, 14 for two weeks of volatility. */
const WINDOW_DAYS = 30;

/**
 * Each series' first comparable day (its first day, or the latest switch to retailers' prices behind
 * it, whichever is later) and its days with prices since, over the whole rollup: a few rows a day.
 */
export async function seriesHistories(sql: Db): Promise<Partial<Record<SeriesKey, SeriesHistory>>> {
  const rows = await sql<Array<{ series: SeriesKey; start: string; days: number }>>`
    with starts as (
      select 'national' as series, greatest(min(day), max(series_since)) as start from price_daily_rollups
      union all
      select egg_type, greatest(min(day), max(series_since)) from price_daily_rollups group by egg_type
    )
    select s.series, s.start::text as start,
           (select count(distinct r.day)::int from price_daily_rollups r
            where r.day >= s.start and (s.series = 'national' or r.egg_type = s.series)) as days
    from starts s
    where s.start is not null`;
  return Object.fromEntries(rows.map((r) => [r.series, { start: r.start, days: r.days }]));
}

type Lowest = NonNullable<Stats['lowest_price']>;

/**
 * The Lowest price card: the cheapest of every store's cheapest pack per dozen over every price
 * (cheapestEntry, the rule the dashboard's list uses, so its first card under no filters agrees).
 */
async function lowestEntry(sql: Db): Promise<Lowest | null> {
  const entry = await cheapestEntry(sql);
  if (!entry) return null;
  return {
    price: entry.price,
    count: entry.count,
    price_per_dozen: roundCents((entry.price / entry.count) * 12),
    egg_type: entry.egg_type,
    region: entry.region,
    store_id: entry.store_id,
    store_name: entry.store_name,
    source: entry.source,
  };
}

export async function readStats(sql: Db): Promise<Stats> {
  const [daily, lowest, histories] = await Promise.all([
    sql<DailyTypeAverage[]>`
      with latest as (select max(day) as day from price_daily_rollups)
      select r.day::text as day, r.egg_type,
             sum(r.avg_per_dozen * r.observations) / sum(r.observations) as average,
             sum(r.observations)::int as observations,
             bool_or(r.sample) as sample
      from price_daily_rollups r, latest
      where r.day > latest.day - ${WINDOW_DAYS}::int
      group by r.day, r.egg_type
      order by r.day`,
    lowestEntry(sql),
    seriesHistories(sql),
  ]);
  return computeStats(daily as Array<DailyTypeAverage & { egg_type: EggType }>, lowest, WINDOW_DAYS, histories);
}
