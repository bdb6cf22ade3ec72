-- The switch trigger (009) with its store and region look-ups made by location id.
--
-- 009's first check, which every write of retailers' prices runs (and which finds the pair
-- switched already on every statement but a pair's first), joined the statement's rows to
-- store_locations: with the few rows of one store's visit PostgreSQL hashed them and read the whole
-- directory, so the check cost a sequential scan of store_locations per statement (12 ms of a
-- 16 ms visit at 3,000 locations, and five times that at 15,000). Here the rows are grouped by
-- location first (the earliest day of each) and each location is looked up by its primary key
-- (a lateral subquery kept apart by `offset 0`, so it cannot be flattened into a hash join): one
-- index probe per location. The answer is the same: a pair is switched for every row of a
-- location when it is switched on the location's earliest day. `firsts` reads the same way.
create or replace function price_observations_switched() returns trigger
language plpgsql as $$
declare
  marked integer;
begin
  -- Every statement of a scrape run after its first finds its pair switched already: one index
  -- probe per location (and one per store and region), and out.
  if not exists (
    select 1
    from (select location_id, min(observed_on) as day from changed where source <> 'sample' group by location_id) c
    cross join lateral (select l.store_id, l.region from store_locations l where l.id = c.location_id offset 0) l
    where not exists (
      select 1 from store_region_switches s
      where s.store_id = l.store_id and s.region = l.region and s.switched_on <= c.day)
  ) then
    return null;
  end if;

  with firsts as (
    select l.store_id, l.region, min(c.day) as day
    from (select location_id, min(observed_on) as day from changed where source <> 'sample' group by location_id) c
    cross join lateral (select l.store_id, l.region from store_locations l where l.id = c.location_id offset 0) l
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
