-- One kind of price per series (docs/decisions/008-one-kind-of-price-per-series.md).
--
-- A store and region switches from the sample catalogue to retailers' prices (scrape or demo) once,
-- on the first day it has such a price. From then on its sample prices leave every aggregate on
-- every day, and a series that covers it (national, an egg type's, a region's, a store's) starts on
-- that day: before it, the series was made of other prices.
create table store_region_switches (
  store_id     text not null references stores (id) on delete cascade,
  region       text not null check (region in ('northeast','midwest','south','west')),
  switched_on  date not null,
  primary key (store_id, region)
);

-- Per rollup row: the latest switch day among the store and region pairs behind it (null when none
-- of them has switched), and whether any of its prices is sample or demo data.
alter table price_daily_rollups
  add column series_since date,
  add column sample boolean not null default false;

-- Records a switch in the same transaction as the observation that makes it, and marks the days of
-- the pair's sample prices dirty so the rollup drops them on every day, not only on the new day.
-- Its own trigger (the price entries' trigger is untouched).
create function price_observations_switched() returns trigger
language plpgsql as $$
declare
  marked integer;
begin
  -- Every statement of a scrape run after its first finds its pair switched already: two index
  -- probes per row, and out.
  if not exists (
    select 1
    from changed c
    join store_locations l on l.id = c.location_id
    where c.source <> 'sample'
      and not exists (
        select 1 from store_region_switches s
        where s.store_id = l.store_id and s.region = l.region and s.switched_on <= c.observed_on)
  ) then
    return null;
  end if;

  with firsts as (
    select l.store_id, l.region, min(c.observed_on) as day
    from changed c
    join store_locations l on l.id = c.location_id
    where c.source <> 'sample'
    group by l.store_id, l.region
  ), switched as (
    insert into store_region_switches as s (store_id, region, switched_on)
    select f.store_id, f.region, f.day
    from firsts f
    where not exists (
      select 1 from store_region_switches s
      where s.store_id = f.store_id and s.region = f.region and s.switched_on <= f.day)
    on conflict (store_id, region) do update set switched_on = excluded.switched_on
      where excluded.switched_on < s.switched_on
    returning s.store_id, s.region
  ), dirty as (
    insert into rollup_dirty_days (day)
    select distinct o.observed_on
    from switched sw
    join products p on p.store_id = sw.store_id
    join price_observations o on o.product_id = p.id and o.source = 'sample'
    join store_locations l on l.id = o.location_id and l.region = sw.region
    on conflict (day) do nothing
    returning 1
  )
  select count(*) into marked from dirty;

  if marked > 0 and to_regnamespace('graphile_worker') is not null then
    perform graphile_worker.add_job('prices__rollup', '{}'::json,
      job_key := 'prices__rollup', run_at := now() + interval '1 second', job_key_mode := 'replace');
  end if;
  return null;
end $$;

create trigger price_observations_switch_inserted
  after insert on price_observations
  referencing new table as changed
  for each statement execute function price_observations_switched();

create trigger price_observations_switch_updated
  after update on price_observations
  referencing new table as changed
  for each statement execute function price_observations_switched();

-- The pairs that switched before this migration; every rolled-up day is recomputed (for the new
-- columns, and without the switched pairs' sample prices) by the next rollup.
insert into store_region_switches (store_id, region, switched_on)
select l.store_id, l.region, min(o.observed_on)
from price_observations o
join store_locations l on l.id = o.location_id
where o.source <> 'sample'
group by l.store_id, l.region;

insert into rollup_dirty_days (day)
select distinct day from price_daily_rollups
on conflict (day) do nothing;

do $$
begin
  if to_regnamespace('graphile_worker') is not null and exists (select 1 from rollup_dirty_days) then
    perform graphile_worker.add_job('prices__rollup', '{}'::json, job_key := 'prices__rollup', job_key_mode := 'replace');
  end if;
end $$;
