// The daily rollups behind the statistics, the ticker and the store page's series: per UTC day,
// store, region, egg type and pack size the sum, number, lowest and highest of the prices per
// dozen eggs (price_store_daily_rollups), and from those per day, egg type and region the average,
// lowest and highest (price_daily_rollups). The observation trigger marks changed days;
// refreshRollups recomputes them (or every day) in one transaction, reading the observations once,
// and notifies the web processes; the same transaction recomputes the store page's figures
// (store-figures.ts) of the store and region pairs it touched, and the map by state's
// (price-map-figures.ts) of their states and of these days. The days whose observations retention
// dropped (before price_history_retention.kept_from) keep their rollups as they are: they are
// the only record of those days left.
import type { Sql } from '../db.ts';
import { refreshPriceMapFigures } from './price-map-figures.ts';
import { refreshStoreFigures } from './store-figures.ts';

export async function refreshRollups(sql: Sql, options: { all?: boolean } = {}): Promise<{ days: number }> {
  return sql.begin(async (tx) => {
    // Taking the dirty days under a row lock lets a concurrent refresh skip them; a day whose
    // advisory lock a writer holds (shared, until it commits: migration 007) is skipped too.
    const dirty = options.all
      ? await tx<{ day: string }[]>`select distinct observed_on::text as day from price_observations`
      : await tx<{ day: string }[]>`
          delete from rollup_dirty_days
          where day in (
            select day from rollup_dirty_days
            where pg_try_advisory_xact_lock(7460, day - date '2000-01-01')
            for update skip locked)
          returning day::text as day`;
    if (options.all) await tx`delete from rollup_dirty_days`;
    if (dirty.length === 0 && !options.all) return { days: 0 };
    const days = dirty.map((d) => d.day);

    const kept = tx`(select coalesce(max(kept_from), '-infinity'::date) from price_history_retention)`;
    const onDays = options.all ? tx`day >= ${kept}` : tx`day = any(${tx.array(days)}::date[]) and day >= ${kept}`;
    await tx`delete from price_store_daily_rollups where ${onDays}`;
    await tx`delete from price_daily_rollups where ${onDays}`;

    // A store and region that has switched to retailers' prices counts only those, on every day
    // (its sample prices are hidden from the lists too); each row keeps the latest switch behind it,
    // where the series it belongs to starts, and whether any of its prices is sample or demo data.
    // The same pass names the store and region pairs with observations on these days, shown or
    // not: their current prices are summed again below.
    const touched = await tx<{ store_id: string; region: string }[]>`
      with grouped as (
        select o.observed_on as day, l.store_id, l.region, p.egg_type, p.count,
               s.active and (o.source <> 'sample' or sw.store_id is null) as shown,
               sum(o.price / p.count * 12) as sum_per_dozen, count(*) as observations,
               min(o.price / p.count * 12) as min_per_dozen, max(o.price / p.count * 12) as max_per_dozen,
               max(sw.switched_on) as series_since, bool_or(o.source <> 'scrape') as sample
        from price_observations o
        join products p on p.id = o.product_id
        join store_locations l on l.id = o.location_id
        join stores s on s.id = l.store_id
        left join store_region_switches sw on sw.store_id = l.store_id and sw.region = l.region
        where o.observed_on >= ${kept}
          ${options.all ? tx`` : tx`and o.observed_on = any(${tx.array(days)}::date[])`}
        group by o.observed_on, l.store_id, l.region, p.egg_type, p.count, 6
      ), stored as (
        insert into price_store_daily_rollups
          (day, store_id, region, egg_type, count, sum_per_dozen, observations, min_per_dozen, max_per_dozen, series_since, sample)
        select day, store_id, region, egg_type, count, sum_per_dozen, observations, min_per_dozen, max_per_dozen, series_since, sample
        from grouped where shown
      )
      select distinct store_id, region from grouped`;
    // The region rollup from the store rows just written: the exact average (sum over count, as
    // avg() divides), the lowest of the lowest, the highest of the highest.
    await tx`
      insert into price_daily_rollups (day, egg_type, region, avg_per_dozen, min_per_dozen, max_per_dozen, observations, series_since, sample)
      select day, egg_type, region, sum(sum_per_dozen) / sum(observations), min(min_per_dozen), max(max_per_dozen), sum(observations),
             max(series_since), bool_or(sample)
      from price_store_daily_rollups
      where ${onDays}
      group by day, egg_type, region`;
    // The current prices' sums (price_store_current_rollups, migration 016) of those pairs: a
    // price entry changes only with an observation of its day. All of them on a full refresh.
    // Upserted in key order, then the pairs' rows without entries deleted: two refreshes of other
    // days that share a pair wait for each other instead of failing on the key.
    const touchedPairs = tx`select * from unnest(${tx.array(touched.map((t) => t.store_id))}::text[], ${tx.array(touched.map((t) => t.region))}::text[])`;
    if (options.all || touched.length > 0) {
      await tx`
        with fresh as (
          select l.store_id, l.region, p.egg_type, e.source, sum(e.price / p.count * 12) as sum_per_dozen, count(*) as entries
          from price_entries e
          join store_locations l on l.id = e.location_id
          join products p on p.id = e.product_id
          ${options.all ? tx`` : tx`where (l.store_id, l.region) in (${touchedPairs})`}
          group by l.store_id, l.region, p.egg_type, e.source
        ), upserted as (
          insert into price_store_current_rollups as c (store_id, region, egg_type, source, sum_per_dozen, entries)
          select * from fresh order by store_id, region, egg_type, source
          on conflict (store_id, region, egg_type, source) do update
            set sum_per_dozen = excluded.sum_per_dozen, entries = excluded.entries
        )
        delete from price_store_current_rollups c
        where ${options.all ? tx`true` : tx`(c.store_id, c.region) in (${touchedPairs})`}
          and not exists (
            select 1 from fresh f
            where f.store_id = c.store_id and f.region = c.region and f.egg_type = c.egg_type and f.source = c.source)`;
    }
    // The store page's figures (migration 017) of the same pairs, from the same entries.
    await refreshStoreFigures(tx, options.all ? 'all' : touched);
    // The prices by state's figures (migration 020): those pairs' states, and these days.
    await refreshPriceMapFigures(tx, options.all ? 'all' : { pairs: touched, days });
    // Days a writer still holds (skipped above) are rolled up by another run once it commits.
    if (!options.all) {
      await tx`
        select graphile_worker.add_job('prices__rollup', '{}'::json, job_key := 'prices__rollup',
          run_at := now() + interval '1 second', job_key_mode := 'preserve_run_at')
        where exists (select 1 from rollup_dirty_days)`;
    }
    await tx`select pg_notify('eggwatch_rollups', '')`;
    return { days: days.length };
  }) as Promise<{ days: number }>;
}
