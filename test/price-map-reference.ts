// Prices by state as computed before migration 020 (src/server/queries/price-map.ts before the
// precomputed figures): every visible current entry read within TODAY_HOURS grouped by state, and
// last week's observations of a day, on every call. What the precomputed figures are checked
// against. Kept verbatim but for the names.
import { TODAY_HOURS, type PriceMapResult } from '../src/shared/price-map.ts';
import type { EggType } from '../src/shared/vocabulary.ts';
import type { Db } from '../src/server/db.ts';
import { priceMapResult, medians, type StateRow } from '../src/server/queries/price-map.ts';
import { scrapedStoreRegions, visibleEntries } from '../src/server/queries/prices.ts';

export async function referencePriceMap(
  sql: Db,
  { eggType, count }: { eggType: EggType; count?: number | undefined },
): Promise<PriceMapResult> {
  const rows = await sql<StateRow[]>`
    with today_groups as (
      select l.state, (e.price / p.count * 12)::float8 as per_dozen, count(*)::int as n,
             bool_or(e.source <> 'scrape') as sample, grouping(e.location_id) = 1 as by_value
      ${visibleEntries(sql, { eggType, count })}
        and l.state is not null and e.observed_at >= now() - make_interval(hours => ${TODAY_HOURS})
      group by grouping sets ((l.state, p.count, e.price), (l.state, e.location_id))
    ), today_values as (
      select state, per_dozen, n, sample from today_groups where by_value
    ), today_stores as (
      select state, count(*)::int as stores from today_groups where not by_value group by state
    ), week_values as (
      select l.state, (o.price / p.count * 12)::float8 as per_dozen, count(*)::int as n, false as sample
      from price_observations o
      join store_locations l on l.id = o.location_id
      join stores s on s.id = l.store_id
      join products p on p.id = o.product_id
      where o.observed_on = (now() at time zone 'UTC')::date - 7
        and s.active and l.state is not null and p.egg_type = ${eggType}
        ${count ? sql`and p.count = ${count}` : sql``}
        and (o.source <> 'sample' or (l.store_id, l.region) not in (${scrapedStoreRegions(sql)}))
      group by l.state, p.count, o.price
    ), now_figures as (
      select m.state, m.median, m.lowest, m.highest, m.entries, t.stores, m.sample
      from ${medians(sql, sql.unsafe('today_values'))} m join today_stores t using (state)
    ), week_figures as (
      select state, median as week_median from ${medians(sql, sql.unsafe('week_values'))} w
    )
    select coalesce(n.state, w.state) as state, n.median, n.lowest, n.highest, coalesce(n.entries, 0) as entries,
           coalesce(n.stores, 0) as stores, coalesce(n.sample, false) as sample, w.week_median,
           to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as day
    from now_figures n full join week_figures w on w.state = n.state`;
  return priceMapResult(rows, { eggType, count });
}
