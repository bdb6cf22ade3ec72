// The store page's precomputed figures (migration 017): per store, region, egg type and pack size,
// the current visible entries' sums (price_store_entry_figures: the price insights, the regional
// analysis, the market position) and what the store's locations charge (price_location_figures:
// docs/decisions/010). Recomputed for the given store and region pairs (or all) from their
// entries, in the caller's transaction: refreshRollups for the pairs it touched, the coverage
// directory for the pairs whose locations closed or reopened. Upserted in key order and the pairs'
// rows without entries deleted, as the current prices' sums are: two refreshes sharing a pair wait
// for each other instead of failing on the key.
import { TODAY_HOURS } from '#shared/by-state.ts';
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
  await tx`
    with ${shown}, fresh as (
      select e.store_id, e.region, e.egg_type, e.count, count(*)::int as entries, sum(e.price) as sum_price,
             sum(e.price / e.count * 12) as sum_per_dozen, count(e.reference_price)::int as compared,
             sum(e.price - e.reference_price) as sum_change, sum((e.price - e.reference_price) / e.count * 12) as sum_change_per_dozen,
             count(*) filter (where e.trend_direction = 'down')::int as down, count(*) filter (where e.trend_direction = 'up')::int as up,
             bool_or(e.source <> 'scrape') as sample,
             (array_agg(e.id order by e.price, e.id))[1] as lowest_entry_id, min(e.price) as lowest_price,
             (array_agg(e.id order by e.price desc, e.id desc))[1] as highest_entry_id, max(e.price) as highest_price
      from shown e
      group by e.store_id, e.region, e.egg_type, e.count
    ), upserted as (
      insert into price_store_entry_figures as f
        (store_id, region, egg_type, count, entries, sum_price, sum_per_dozen, compared, sum_change, sum_change_per_dozen,
         down, up, sample, lowest_entry_id, lowest_price, highest_entry_id, highest_price)
      select * from fresh order by store_id, region, egg_type, count
      on conflict (store_id, region, egg_type, count) do update set
        entries = excluded.entries, sum_price = excluded.sum_price, sum_per_dozen = excluded.sum_per_dozen,
        compared = excluded.compared, sum_change = excluded.sum_change, sum_change_per_dozen = excluded.sum_change_per_dozen,
        down = excluded.down, up = excluded.up, sample = excluded.sample,
        lowest_entry_id = excluded.lowest_entry_id, lowest_price = excluded.lowest_price,
        highest_entry_id = excluded.highest_entry_id, highest_price = excluded.highest_price
    )
    delete from price_store_entry_figures
    where ${stale('price_store_entry_figures')}
      and not exists (
        select 1 from fresh f
        where f.store_id = price_store_entry_figures.store_id and f.region = price_store_entry_figures.region
          and f.egg_type = price_store_entry_figures.egg_type and f.count = price_store_entry_figures.count)`;
  // The location figures as of now() (the transaction's start): each open location's cheapest
  // in-stock price of a combination read within TODAY_HOURS, as location-figures.ts computes them
  // from the entries, and until when they stay so: the oldest in-window price read plus
  // TODAY_HOURS (prices only leave the window as time passes; a new one comes with a refresh).
  await tx`
    with ${shown}, qualifying as (
      select * from shown
      where status = 'open' and in_stock is not false and observed_at >= now() - make_interval(hours => ${TODAY_HOURS})
    ), offers as (
      select distinct on (store_id, region, egg_type, count, location_id)
             store_id, region, egg_type, count, location_id, id as entry_id, product_id, price, price / count * 12 as per_dozen, source
      from qualifying
      order by store_id, region, egg_type, count, location_id, price, id
    ), figures as (
      select store_id, region, egg_type, count, count(*)::int as locations,
             percentile_cont(0.5) within group (order by per_dozen)::float8 as median,
             min(per_dozen)::float8 as lowest, max(per_dozen)::float8 as highest, bool_or(source <> 'scrape') as sample
      from offers group by store_id, region, egg_type, count
    ), cheapest as (
      select distinct on (store_id, region, egg_type, count) store_id, region, egg_type, count, location_id, entry_id, product_id, price
      from offers
      order by store_id, region, egg_type, count, per_dozen, price, location_id
    ), expiry as (
      select store_id, region, egg_type, count, min(observed_at) + make_interval(hours => ${TODAY_HOURS}) as valid_until
      from qualifying group by store_id, region, egg_type, count
    ), fresh as (
      select f.store_id, f.region, f.egg_type, f.count, f.locations, f.median, f.lowest, f.highest, f.sample,
             c.entry_id, c.product_id, c.location_id, c.price, now() as computed_at, x.valid_until
      from figures f
      join cheapest c using (store_id, region, egg_type, count)
      join expiry x using (store_id, region, egg_type, count)
    ), upserted as (
      insert into price_location_figures as f
        (store_id, region, egg_type, count, locations, median, lowest, highest, sample, entry_id, product_id, location_id, price, computed_at, valid_until)
      select * from fresh order by store_id, region, egg_type, count
      on conflict (store_id, region, egg_type, count) do update set
        locations = excluded.locations, median = excluded.median, lowest = excluded.lowest, highest = excluded.highest,
        sample = excluded.sample, entry_id = excluded.entry_id, product_id = excluded.product_id,
        location_id = excluded.location_id, price = excluded.price, computed_at = excluded.computed_at,
        valid_until = excluded.valid_until
    )
    delete from price_location_figures
    where ${stale('price_location_figures')}
      and not exists (
        select 1 from fresh f
        where f.store_id = price_location_figures.store_id and f.region = price_location_figures.region
          and f.egg_type = price_location_figures.egg_type and f.count = price_location_figures.count)`;
}
