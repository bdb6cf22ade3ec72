// Prices by state for the shoppers' US map (src/shared/by-state.ts). Today's entries are the
// visible current entries (sample prices hidden where a store and region has scraped ones, as
// everywhere) read within TODAY_HOURS; last week's median comes from the history's observations
// of the UTC day 7 days before, under the same visibility rule. One statement each.
import { TODAY_HOURS, type ByStateResult, type StateCheapestResult, type StateFigures } from '#shared/by-state.ts';
import { STATE_REGIONS, type UsState } from '#shared/zip.ts';
import type { EggType } from '#shared/vocabulary.ts';
import type { Db } from '../db.ts';
import { listPriceEntries, scrapedStoreRegions, visibleEntries } from './prices.ts';

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Per state, from rows (state, per_dozen, n: how many entries have that price per dozen, and
 * sample), the median per dozen as percentile_cont(0.5) works it out over the entries one by one
 * (the value at position floor((total - 1) / 2) of the sorted values, and when the count is even
 * that value plus half the way to the next, in double precision as it does), the lowest, the
 * highest, the entries and whether any is not scraped. The entries of a state share a few prices
 * per dozen (a product's price across a state's stores), so this sorts a few rows, not every
 * entry, and no text sort by state over every entry.
 */
function medians(sql: Db, values: ReturnType<Db['unsafe']>) {
  return sql`(
    select state,
           case when total % 2 = 1 then low_value else low_value + 0.5 * (high_value - low_value) end as median,
           lowest, highest, total::int as entries, sample
    from (
      select state, total,
             min(per_dozen) filter (where before <= (total - 1) / 2 and (total - 1) / 2 < upto) as low_value,
             min(per_dozen) filter (where before <= total / 2 and total / 2 < upto) as high_value,
             min(per_dozen) as lowest, max(per_dozen) as highest, bool_or(sample) as sample
      from (
        select state, per_dozen, sample,
               sum(n) over w - n as before, sum(n) over w as upto, sum(n) over (partition by state) as total
        from ${values} v
        window w as (partition by state order by per_dozen rows unbounded preceding)) ranked
      group by state, total) positions)`;
}

export async function pricesByState(sql: Db, { eggType, count }: { eggType: EggType; count?: number | undefined }): Promise<ByStateResult> {
  const rows = await sql<Array<{
    state: string;
    median: number | null;
    lowest: number | null;
    highest: number | null;
    entries: number;
    stores: number;
    sample: boolean;
    week_median: number | null;
    day: string;
  }>>`
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
  const byState = new Map(rows.map((row) => [row.state, row]));
  const day = rows[0]?.day ?? new Date().toISOString().slice(0, 10);
  const states: StateFigures[] = (Object.keys(STATE_REGIONS) as UsState[]).sort().map((state) => {
    const row = byState.get(state);
    const median = row?.median ?? null;
    const week = row?.week_median ?? null;
    const change = median !== null && week !== null ? round(median - week, 2) : null;
    return {
      state,
      region: STATE_REGIONS[state],
      median_per_dozen: median === null ? null : round(median, 2),
      lowest_per_dozen: row?.lowest == null ? null : round(row.lowest, 2),
      highest_per_dozen: row?.highest == null ? null : round(row.highest, 2),
      entries: row?.entries ?? 0,
      stores: row?.stores ?? 0,
      sample: row?.sample ?? false,
      week_ago_median_per_dozen: week === null ? null : round(week, 2),
      change,
      change_percent: median !== null && week !== null && week > 0 ? round(((median - week) / week) * 100, 1) : null,
    };
  });
  return { egg_type: eggType, count: count ?? null, day, states };
}

/** A state's cheapest entries today (per dozen, then price, then id). */
export async function cheapestInState(
  sql: Db,
  { state, eggType, count, limit }: { state: UsState; eggType: EggType; count?: number | undefined; limit: number },
): Promise<StateCheapestResult> {
  const picked = await sql<Array<{ id: number; per_dozen: number; city: string | null; name: string | null }>>`
    select e.id, (e.price / p.count * 12)::float8 as per_dozen, l.city, l.name
    ${visibleEntries(sql, { eggType, count })}
      and l.state = ${state} and e.observed_at >= now() - make_interval(hours => ${TODAY_HOURS})
    order by e.price / p.count, e.price, e.id
    limit ${limit}`;
  const entries = picked.length > 0 ? await listPriceEntries(sql, { ids: picked.map((row) => row.id) }) : [];
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return {
    state,
    egg_type: eggType,
    count: count ?? null,
    entries: picked.flatMap((row) => {
      const entry = byId.get(row.id);
      return entry ? [{ ...entry, price_per_dozen: round(row.per_dozen, 2), city: row.city, location_name: row.name }] : [];
    }),
  };
}
