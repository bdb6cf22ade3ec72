-- Stock and promotions on the current price: each price entry carries its latest observation's
-- stock (true in stock, false out of stock, null when the retailer does not say) and the regular
-- price a shopper is shown beside a promotion (null when there is no promotion: a regular price
-- that is not above the shelf price is no promotion). Observations have kept both since 004.
alter table price_entries
  add column in_stock boolean,
  add column regular_price numeric(8,2);

update price_entries e
set in_stock = o.in_stock,
    regular_price = case when o.regular_price > o.price then o.regular_price end
from price_observations o
where o.id = e.observation_id;

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
     reference_price, trend_value, trend_direction, in_stock, regular_price)
  select k.product_id, k.location_id, latest.id, latest.price, latest.observed_at, latest.source,
         ref.price,
         coalesce(round((latest.price - ref.price) / ref.price * 100, 2), 0),
         case when ref.price is null or latest.price = ref.price then 'stable'
              when latest.price > ref.price then 'up' else 'down' end,
         latest.in_stock,
         case when latest.regular_price > latest.price then latest.regular_price end
  from (select distinct product_id, location_id from changed) k
  cross join lateral (
    select o.id, o.price, o.observed_at, o.observed_on, o.source, o.in_stock, o.regular_price
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
    trend_direction = excluded.trend_direction,
    in_stock = excluded.in_stock,
    regular_price = excluded.regular_price;

  -- A shared advisory lock per touched day, held to commit, tells the rollup that a writer of that
  -- day has not committed yet (007).
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
  -- A scrape run's writer defers this (007).
  if coalesce(current_setting('eggwatch.defer_notify', true), '') <> 'on' then
    perform pg_notify('eggwatch_prices', '');
  end if;
  return null;
end $$;
