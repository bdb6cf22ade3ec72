// The daily rollup behind the statistics: per UTC day, egg type and region, the average, lowest
// and highest price per dozen eggs. The observation trigger marks changed days; refreshRollups
// recomputes them (or every day) in one transaction and notifies the web processes. The days
// whose observations retention dropped (before price_history_retention.kept_from) keep their
// rollups as they are: they are the only record of those days left.
import type { Sql } from '../db.ts';

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
    if (options.all) await tx`delete from price_daily_rollups where day >= ${kept}`;
    else await tx`delete from price_daily_rollups where day = any(${tx.array(days)}::date[]) and day >= ${kept}`;

    // A store and region that has switched to retailers' prices counts only those, on every day
    // (its sample prices are hidden from the lists too); each row keeps the latest switch behind it,
    // where the series it belongs to starts, and whether any of its prices is sample or demo data.
    await tx`
      insert into price_daily_rollups (day, egg_type, region, avg_per_dozen, min_per_dozen, max_per_dozen, observations, series_since, sample)
      select o.observed_on, p.egg_type, l.region,
             avg(o.price / p.count * 12), min(o.price / p.count * 12), max(o.price / p.count * 12), count(*),
             max(sw.switched_on), bool_or(o.source <> 'scrape')
      from price_observations o
      join products p on p.id = o.product_id
      join store_locations l on l.id = o.location_id
      join stores s on s.id = l.store_id and s.active
      left join store_region_switches sw on sw.store_id = l.store_id and sw.region = l.region
      where (o.source <> 'sample' or sw.store_id is null) and o.observed_on >= ${kept}
        ${options.all ? tx`` : tx`and o.observed_on = any(${tx.array(days)}::date[])`}
      group by o.observed_on, p.egg_type, l.region`;
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
