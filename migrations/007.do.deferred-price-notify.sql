-- Two changes to the observation trigger, both for concurrent scrape runs.
--
-- Web processes learn of new prices from a NOTIFY the observation trigger sends. Sent by every
-- statement, it made concurrent scrape runs wait for one another: each notifying transaction holds a
-- database-wide lock while it commits. A writer that sets eggwatch.defer_notify for its transaction
-- (the scrape writer does, for each ZIP) sends it itself instead, at most once a second and at the
-- end of the run. Every other writer (seed, tests, hand-made inserts) still notifies at once.
--
-- And marking a day dirty no longer locks its row (see below): refreshRollups takes the day's
-- advisory lock instead (src/server/queries/rollups.ts).
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

  -- A shared advisory lock per touched day, held to commit, tells the rollup that a writer of that
  -- day has not committed yet (it skips the day and comes back). Writers share it, so concurrent
  -- runs no longer queue behind one another on the day's row lock, as they did with 005's
  -- "do update". A rollup holding a day makes the writer wait here until the rollup commits; the
  -- day is then marked dirty again below.
  perform pg_advisory_xact_lock_shared(7460, d.day - date '2000-01-01')
  from (select distinct observed_on as day from changed) d;

  with marked as (
    insert into rollup_dirty_days (day)
    select distinct observed_on from changed
    on conflict (day) do nothing
    returning 1
  )
  select count(*) into newly_dirty from marked;

  if newly_dirty > 0 and to_regnamespace('graphile_worker') is not null then
    perform graphile_worker.add_job('prices__rollup', '{}'::json,
      job_key := 'prices__rollup', run_at := now() + interval '1 second', job_key_mode := 'replace');
  end if;
  -- A scrape run's writer defers this (one NOTIFY per second of the run, not per ZIP): every
  -- notifying commit takes a database-wide lock, which serialised concurrent runs.
  if coalesce(current_setting('eggwatch.defer_notify', true), '') <> 'on' then
    perform pg_notify('eggwatch_prices', '');
  end if;
  return null;
end $$;
