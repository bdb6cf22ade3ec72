import type { EggType } from '#shared/vocabulary.ts';
import type { Stats } from '#shared/types.ts';
import type { Db } from '../db.ts';
import { visibleEntries } from './prices.ts';
import { computeStats, type DailyTypeAverage } from '../stats.ts';

/** Days of rollup the statistics need: 30 for the long chart, 14 for two weeks of volatility. */
const WINDOW_DAYS = 30;

export async function readStats(sql: Db): Promise<Stats> {
  const daily = await sql<DailyTypeAverage[]>`
    with latest as (select max(day) as day from price_daily_rollups)
    select r.day::text as day, r.egg_type,
           sum(r.avg_per_dozen * r.observations) / sum(r.observations) as average,
           sum(r.observations)::int as observations
    from price_daily_rollups r, latest
    where r.day > latest.day - ${WINDOW_DAYS}::int
    group by r.day, r.egg_type
    order by r.day`;
  const [lowest] = await sql<Array<NonNullable<Stats['lowest_price']>>>`
    select e.price, p.count, round(e.price / p.count * 12, 2)::numeric as price_per_dozen,
           p.egg_type, l.region, l.store_id, s.store_name, e.source
    ${visibleEntries(sql)}
    order by e.price / p.count, e.id
    limit 1`;
  return computeStats(daily as Array<DailyTypeAverage & { egg_type: EggType }>, lowest ?? null, WINDOW_DAYS);
}
