-- The observation trigger queues the rollup only when it marks a day dirty that was not dirty yet:
-- a day already dirty already has its rollup job queued. The existing row is locked (do update)
-- until the writer commits, so a rollup running meanwhile skips that day (skip locked) and queues
-- itself again for what it skipped (refreshRollups), instead of missing the writer's rows.
-- A scrape writes one statement per ZIP; calling add_job for each cost a third of the trigger.
create or replace function price_observations_changed() returns trigger
language plpgsql as $$
declare
  newly_dirty integer;
begin
  if not exists (select 1 from changed) then
    return null;
  end if;

  insert into price_entries as pe
    (product_id, location_id, observation_id, price, observed_at, source,
     reference_price, trend_value, trend_direction)
  select k.product_id, k.location_id, latest.id, latest.price, latest.observed_at, latest.source,
         ref.price,
         coalesce(round((latest.price - ref.price) / ref.price * 100, 2), 0),
         case when ref.price is null or latest.price = ref.price then 'stable'
              when latest.price > ref.price then 'up' else 'down' end
  from (select distinct product_id, location_id from changed) k
  cross join lateral (
    select o.id, o.price, o.observed_at, o.observed_on, o.source
    from price_observations o
    where o.product_id = k.product_id and o.location_id = k.location_id
    order by o.observed_on desc
    limit 1
  ) latest
  left join lateral (
    select o.price
    from price_observations o
    where o.product_id = k.product_id and o.location_id = k.location_id
      and o.observed_on <= latest.observed_on - 7
    order by o.observed_on desc
    limit 1
  ) ref on true
  on conflict (product_id, location_id) do update set
    observation_id = excluded.observation_id,
    price = excluded.price,
    observed_at = excluded.observed_at,
    source = excluded.source,
    reference_price = excluded.reference_price,
    trend_value = excluded.trend_value,
    trend_direction = excluded.trend_direction;

  with marked as (
    insert into rollup_dirty_days as d (day)
    select distinct observed_on from changed
    on conflict (day) do update set day = d.day
    returning (xmax = 0) as inserted
  )
  select count(*) filter (where inserted) into newly_dirty from marked;

  if newly_dirty > 0 and to_regnamespace('graphile_worker') is not null then
    perform graphile_worker.add_job('prices__rollup', '{}'::json,
      job_key := 'prices__rollup', run_at := now() + interval '1 second', job_key_mode := 'replace');
  end if;
  perform pg_notify('eggwatch_prices', '');
  return null;
end $$;
