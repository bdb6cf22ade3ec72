import type { EggType } from '#shared/vocabulary.ts';
import type { Stats } from '#shared/types.ts';
import type { Db } from '../db.ts';
import { shownSource } from './prices.ts';
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
 * The entry with the lowest price per egg (then the lowest id) among every entry (visible =
 * false) or the visible ones, as one sort of those entries by price / count would give it, in
 * less work: each product's lowest price first (among every entry, one look-up per product at
 * the head of the `price_entries (product_id, price, id)` index, rather than a pass over every
 * entry; among the visible ones, one pass without a sort: a pack's count is its product's), then
 * the products whose lowest price per egg is the lowest of all, and among their entries at that
 * price (read through the entries' product index) the lowest id, with whether it is shown.
 */
function lowestAmong(sql: Db, visible: boolean) {
  const where = visible ? sql`where s.active and ${shownSource(sql)}` : sql``;
  return sql<Array<Lowest & { shown: boolean }>>`
    with per_product as (
      ${
        visible
          ? sql`select e.product_id, min(e.price) as price
              from price_entries e
              join store_locations l on l.id = e.location_id join stores s on s.id = l.store_id
              ${where}
              group by e.product_id`
          : sql`select * from (
                select p.id as product_id,
                       (select min(e.price) from price_entries e where e.product_id = p.id) as price
                from products p
              ) m
              where m.price is not null`
      }
    ), ratios as (
      select pp.product_id, pp.price, pp.price / p.count as ratio
      from per_product pp join products p on p.id = pp.product_id
    ), winners as (
      select product_id, price from ratios where ratio = (select min(ratio) from ratios)
    )
    select e.price, p.count, round(e.price / p.count * 12, 2)::numeric as price_per_dozen,
           p.egg_type, l.region, l.store_id, s.store_name, e.source,
           s.active and ${shownSource(sql)} as shown
    from winners w
    join price_entries e on e.product_id = w.product_id and e.price = w.price
    join store_locations l on l.id = e.location_id
    join stores s on s.id = l.store_id
    join products p on p.id = e.product_id
    ${where}
    order by e.id
    limit 1`;
}

/**
 * The visible entry with the lowest price per egg. The lowest of every entry first, without the
 * visibility rule's joins: when that one is shown (nearly always: it is hidden only for an
 * inactive store, or as a sample price where scraped ones exist), it is the lowest shown one too;
 * otherwise the lowest among the shown entries.
 */
async function lowestEntry(sql: Db): Promise<Lowest | null> {
  const [lowest] = await lowestAmong(sql, false);
  const [shown] = lowest?.shown ? [lowest] : await lowestAmong(sql, true);
  if (!shown) return null;
  const { shown: _, ...entry } = shown;
  return entry;
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
