// The store page's precomputed figures (migration 017): per store, region, egg type and pack size,
// the current visible entries' sums (price_store_entry_figures: the price insights, the regional
// analysis, the market position, and the dashboard listing's choice per store: migration 021) and what the store's locations charge (price_location_figures:
// docs/decisions/010). Recomputed for the given store and region pairs (or all) from their
// entries, in the caller's transaction: refreshRollups for the pairs it touched, the coverage
// directory for the pairs whose locations closed or reopened. Upserted in key order and the pairs'
// rows without entries deleted, as the current prices' sums are: two refreshes sharing a pair wait
// for each other instead of failing on the key.
import { TODAY_HOURS } from '#shared/price-map.ts';
import type { Db } from '../db.ts';

export interface StoreRegion {
  store_id: string;
  region: string;
}

/** Recomputes the pairs' figures; every pair's when `pairs` is 'all'. */
export async function refreshStoreFigures(tx: Db, pairs: readonly StoreRegion[] | 'all'): Promise<void> {
  const all = pairs === 'all';
  if (!all && pairs.length === 0) return;
  const wanted = all
    ? tx``
    : tx`where (l.store_id, l.region) in (
           select * from unnest(${tx.array(pairs.map((p) => p.store_id))}::text[], ${tx.array(pairs.map((p) => p.region))}::text[]))`;
  const stale = (table: string) =>
    all
      ? tx`true`
      : tx`(${tx(table)}.store_id, ${tx(table)}.region) in (
             select * from unnest(${tx.array(pairs.map((p) => p.store_id))}::text[], ${tx.array(pairs.map((p) => p.region))}::text[]))`;
  // The pairs' entries, and the visibility rule of visibleEntries: a pair's sample prices are
  // hidden once it has any other (whether its store is active is applied where the rows are read).
  const shown = tx`
    pair_entries as materialized (
      select l.store_id, l.region, l.status, p.egg_type, p.count, e.id, e.location_id, e.product_id, e.price,
             e.reference_price, e.trend_direction, e.in_stock, e.observed_at, e.source
      from price_entries e
      join store_locations l on l.id = e.location_id
      join products p on p.id = e.product_id
      ${wanted}
    ), scraped as (
      select distinct store_id, region from pair_entries where source <> 'sample'
    ), shown as (
      select e.* from pair_entries e
      left join scraped x on x.store_id = e.store_id and x.region = e.region
      where e.source <> 'sample' or x.store_id is null
    )`;
  // One statement, one pass over the pairs' entries. The cheapest and dearest of a group are
  // picked with min and max over arrays (compared element by element: price, then id), which need
  // no sort, unlike array_agg(... order by) or distinct on.
  // The location figures are as of now() (the transaction's start): each open location's
  // cheapest in-stock price of a combination read within TODAY_HOURS, as location-figures.ts
  // computes them from the entries, and until when they stay so: the oldest in-window price read
  // plus TODAY_HOURS (prices only leave the window as time passes; a new one comes with a refresh).
  await tx`
    with ${shown}, fresh_entries as (
      select e.store_id, e.region, e.egg_type, e.count, count(*)::int as entries, sum(e.price) as sum_price,
             sum(e.price / e.count * 12) as sum_per_dozen, count(e.reference_price)::int as compared,
             sum(e.price - e.reference_price) as sum_change, sum((e.price - e.reference_price) / e.count * 12) as sum_change_per_dozen,
             count(*) filter (where e.trend_direction = 'down')::int as down, count(*) filter (where e.trend_direction = 'up')::int as up,
             bool_or(e.source <> 'scrape') as sample,
             min(array[e.price, e.id]) as lowest, max(array[e.price, e.id]) as highest,
             -- The dashboard listing's (migration 021): the first entry in id order, and the newest
             -- to the whole second, then the smallest id, as the listing's key orders them.
             min(e.id) as first_id, min(array[-floor(date_part('epoch', e.observed_at)), e.id]) as newest
      from shown e
      group by e.store_id, e.region, e.egg_type, e.count
    ), upserted_entries as (
      insert into price_store_entry_figures as f
        (store_id, region, egg_type, count, entries, sum_price, sum_per_dozen, compared, sum_change, sum_change_per_dozen,
         down, up, sample, lowest_entry_id, lowest_price, highest_entry_id, highest_price,
         first_entry_id, newest_entry_id, newest_observed_at)
      select store_id, region, egg_type, count, entries, sum_price, sum_per_dozen, compared, sum_change, sum_change_per_dozen,
             down, up, sample, lowest[2]::int, lowest[1], highest[2]::int, highest[1],
             first_id, newest[2]::int, to_timestamp(-newest[1])
      from fresh_entries order by store_id, region, egg_type, count
      on conflict (store_id, region, egg_type, count) do update set
        entries = excluded.entries, sum_price = excluded.sum_price, sum_per_dozen = excluded.sum_per_dozen,
        compared = excluded.compared, sum_change = excluded.sum_change, sum_change_per_dozen = excluded.sum_change_per_dozen,
        down = excluded.down, up = excluded.up, sample = excluded.sample,
        lowest_entry_id = excluded.lowest_entry_id, lowest_price = excluded.lowest_price,
        highest_entry_id = excluded.highest_entry_id, highest_price = excluded.highest_price,
        first_entry_id = excluded.first_entry_id, newest_entry_id = excluded.newest_entry_id,
        newest_observed_at = excluded.newest_observed_at
    ), deleted_entries as (
      delete from price_store_entry_figures
      where ${stale('price_store_entry_figures')}
        and not exists (
          select 1 from fresh_entries f
          where f.store_id = price_store_entry_figures.store_id and f.region = price_store_entry_figures.region
            and f.egg_type = price_store_entry_figures.egg_type and f.count = price_store_entry_figures.count)
    ), offers as (
      -- Each location's price of a combination: its cheapest in stock (price, then id), with
      -- that entry's product and whether it is sample or demo data; and its oldest in the window.
      select store_id, region, egg_type, count, location_id,
             min(array[price, id, product_id, (source <> 'scrape')::int]) as best, min(observed_at) as oldest
      from shown
      where status = 'open' and in_stock is not false and observed_at >= now() - make_interval(hours => ${TODAY_HOURS})
      group by store_id, region, egg_type, count, location_id
    ), fresh_locations as (
      select store_id, region, egg_type, count, count(*)::int as locations,
             percentile_cont(0.5) within group (order by best[1] / count * 12)::float8 as median,
             min(best[1] / count * 12)::float8 as lowest, max(best[1] / count * 12)::float8 as highest,
             bool_or(best[4] = 1) as sample,
             -- The cheapest location: per dozen, then price, then location.
             min(array[best[1] / count * 12, best[1], location_id, best[2], best[3]]) as cheapest,
             min(oldest) + make_interval(hours => ${TODAY_HOURS}) as valid_until
      from offers
      group by store_id, region, egg_type, count
    ), upserted_locations as (
      insert into price_location_figures as f
        (store_id, region, egg_type, count, locations, median, lowest, highest, sample, entry_id, product_id, location_id, price, computed_at, valid_until)
      select store_id, region, egg_type, count, locations, median, lowest, highest, sample,
             cheapest[4]::int, cheapest[5]::int, cheapest[3]::int, cheapest[2], now(), valid_until
      from fresh_locations order by store_id, region, egg_type, count
      on conflict (store_id, region, egg_type, count) do update set
        locations = excluded.locations, median = excluded.median, lowest = excluded.lowest, highest = excluded.highest,
        sample = excluded.sample, entry_id = excluded.entry_id, product_id = excluded.product_id,
        location_id = excluded.location_id, price = excluded.price, computed_at = excluded.computed_at,
        valid_until = excluded.valid_until
    )
    delete from price_location_figures
    where ${stale('price_location_figures')}
      and not exists (
        select 1 from fresh_locations f
        where f.store_id = price_location_figures.store_id and f.region = price_location_figures.region
          and f.egg_type = price_location_figures.egg_type and f.count = price_location_figures.count)`;
  // The read cache drops the answers that read these rows when the transaction commits (the same
  // notification as the rollup refresh's, which PostgreSQL sends once per transaction).
  await tx`select pg_notify('eggwatch_rollups', '')`;
}
