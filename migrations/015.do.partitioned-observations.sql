-- Price history partitioned by month (docs/decisions/009-partitioned-price-history.md).
--
-- price_observations becomes a table partitioned by range of observed_on, one partition per UTC
-- month (price_observations_y2026m11 holds November 2026), plus a default partition that catches
-- a row of a month that has no partition yet, so a writer never fails on a missing partition. The
-- worker creates the partitions of this month and the next ones ahead every day and moves what
-- the default partition holds into partitions of their own (price_observations_add_partitions);
-- with PRICE_HISTORY_RETENTION_MONTHS set, it detaches and drops the partitions of whole months
-- older than that (price_observations_drop_partitions): never a row-by-row delete.
--
-- PostgreSQL cannot partition by a generated column, so observed_on is a plain column that every
-- writer sets to utc_day(observed_at), guarded by a check. A unique key of a partitioned table
-- must hold the partition key: (product_id, location_id, observed_on) does, and `on conflict
-- (product_id, location_id, observed_on)` keeps merging a second price the same day; the primary
-- key becomes (id, observed_on) (nothing references an observation by foreign key; price_entries
-- keeps its observation's id as a plain number). Ids are kept and the identity continues from the
-- old one. The statement-level triggers (with their transition tables) move to the new parent;
-- the functions they run read price_observations by name and need no change.

-- The UTC day of an instant: the observation's observed_on. Writers set observed_on to
-- utc_day(observed_at); the check below holds the same expression.
create function utc_day(at timestamptz) returns date
language sql immutable parallel safe
as $$ select ($1 at time zone 'UTC')::date $$;

-- The old table steps aside with its indexes (index names are unique in a schema) and sequence.
alter table price_observations rename to price_observations_old;
alter index price_observations_pkey rename to price_observations_old_pkey;
alter index price_observations_product_id_location_id_observed_on_key rename to price_observations_old_key;
alter index price_observations_day_idx rename to price_observations_old_day_idx;
alter index price_observations_run_idx rename to price_observations_old_run_idx;
alter sequence price_observations_id_seq rename to price_observations_old_id_seq;

-- Same columns in the same order. Foreign keys and indexes are added after the rows are in, which
-- costs one pass each instead of a check per row.
create table price_observations (
  id             bigint generated always as identity,
  product_id     integer not null,
  location_id    integer not null,
  price          numeric(8,2) not null constraint price_observations_price_check check (price > 0 and price < 1000),
  observed_at    timestamptz not null,
  observed_on    date not null,
  scrape_run_id  integer,
  source         text not null constraint price_observations_source_check check (source in ('scrape', 'sample', 'demo')),
  regular_price  numeric(8,2) constraint price_observations_regular_price_check check (regular_price > 0 and regular_price < 1000),
  in_stock       boolean,
  constraint price_observations_observed_on_check check (observed_on = (observed_at at time zone 'UTC')::date)
) partition by range (observed_on);

create table price_observations_default partition of price_observations default;

-- Creates the partition of the month holding `day` unless it exists, and moves the rows of that
-- month out of the default partition into it (directly, between partitions: no trigger of the
-- parent fires, nothing is written twice). Created apart and then attached, so the parent is
-- only locked SHARE UPDATE EXCLUSIVE (writers go on); the default partition, scanned to prove it
-- holds nothing of the month, is empty or nearly. True when it created one.
create function price_observations_add_partition(day date) returns boolean
language plpgsql set datestyle = 'ISO, YMD' as $$
declare
  first_day date := date_trunc('month', day)::date;
  next_first date := (date_trunc('month', day) + interval '1 month')::date;
  name text := 'price_observations_' || to_char(date_trunc('month', day), '"y"YYYY"m"MM');
begin
  if to_regclass(quote_ident(name)) is not null then
    return false;
  end if;
  -- Attaching locks the default partition ACCESS EXCLUSIVE anyway: taken first, no writer can put
  -- a row of the month there between the move and the attach (readers wait a moment).
  lock table price_observations_default in access exclusive mode;
  execute format('create table %I (like price_observations including defaults including constraints including storage)', name);
  execute format(
    'with moved as (delete from price_observations_default where observed_on >= $1 and observed_on < $2 returning *)
     insert into %I select * from moved', name) using first_day, next_first;
  execute format('alter table price_observations attach partition %I for values from (%L) to (%L)', name, first_day, next_first);
  return true;
end $$;

-- The partitions of this month and `months_ahead` months after it, and of every month the default
-- partition holds rows of (moved out of it). Idempotent; one caller at a time. Returns how many
-- it created.
create function price_observations_add_partitions(months_ahead integer) returns integer
language plpgsql as $$
declare
  this_month date := date_trunc('month', utc_day(now()))::date;
  month date;
  created integer := 0;
begin
  perform pg_advisory_xact_lock(7461);
  for month in
    select distinct date_trunc('month', observed_on)::date from price_observations_default
    union
    select (this_month + make_interval(months => i))::date from generate_series(0, months_ahead) i
    order by 1
  loop
    if price_observations_add_partition(month) then
      created := created + 1;
    end if;
  end loop;
  return created;
end $$;

-- Where retention stopped (one row, once it dropped a partition): the days before kept_from lost
-- their observations, and their rollups are kept as they are from then on (refreshRollups).
create table price_history_retention (
  id         boolean primary key default true check (id),
  kept_from  date not null
);

-- Observations of the last `keep_months` whole months and of this month are kept: the partitions
-- of older months are detached and dropped, whole (rows of an old month still in the default
-- partition stay until it has a partition of its own). A price entry whose latest observation was
-- dropped keeps its price (price_entries holds its own copy of it). One caller at a time with the
-- partitions' creation. Returns the dropped partitions' names. (Bounds are read and written as
-- ISO dates, whatever the session's DateStyle.)
create function price_observations_drop_partitions(keep_months integer) returns text[]
language plpgsql set datestyle = 'ISO, YMD' as $$
declare
  cutoff date := (date_trunc('month', utc_day(now())) - make_interval(months => keep_months))::date;
  part record;
  dropped text[] := '{}';
begin
  if keep_months is null or keep_months < 0 then
    raise exception 'keep_months must be 0 or more, not %', keep_months;
  end if;
  perform pg_advisory_xact_lock(7461);
  for part in
    select c.relname, bound.upper
    from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    cross join lateral (
      select substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \(''([0-9-]+)''\)')::date as upper
    ) bound
    where i.inhparent = 'price_observations'::regclass and bound.upper <= cutoff
    order by bound.upper
  loop
    execute format('alter table price_observations detach partition %I', part.relname);
    execute format('drop table %I', part.relname);
    dropped := dropped || part.relname::text;
    insert into price_history_retention as r (kept_from) values (part.upper)
    on conflict (id) do update set kept_from = greatest(r.kept_from, excluded.kept_from);
  end loop;
  return dropped;
end $$;

-- The partitions for the existing rows: one per month that has any (found month by month through
-- the old day index, without reading every row), and this month and the next three (as the
-- worker's PARTITION_MONTHS_AHEAD).
do $$
declare
  month date := (select date_trunc('month', min(observed_on))::date from price_observations_old);
begin
  while month is not null loop
    perform price_observations_add_partition(month);
    month := (select date_trunc('month', min(observed_on))::date from price_observations_old
              where observed_on >= month + interval '1 month');
  end loop;
end $$;
select price_observations_add_partitions(3);

-- Every row, once, with its id (one set-based statement; no trigger is on the new parent yet).
insert into price_observations
  (id, product_id, location_id, price, observed_at, observed_on, scrape_run_id, source, regular_price, in_stock)
overriding system value
select id, product_id, location_id, price, observed_at, observed_on, scrape_run_id, source, regular_price, in_stock
from price_observations_old;

-- The identity goes on where the old one stopped (an id is never handed out twice).
select setval(pg_get_serial_sequence('price_observations', 'id'), s.last_value, s.is_called)
from price_observations_old_id_seq s;

drop table price_observations_old;

alter table price_observations
  add constraint price_observations_pkey primary key (id, observed_on),
  add constraint price_observations_product_id_location_id_observed_on_key unique (product_id, location_id, observed_on),
  add constraint price_observations_product_id_fkey foreign key (product_id) references products (id) on delete cascade,
  add constraint price_observations_location_id_fkey foreign key (location_id) references store_locations (id) on delete cascade,
  add constraint price_observations_scrape_run_id_fkey foreign key (scrape_run_id) references scrape_runs (id) on delete set null;
create index price_observations_day_idx on price_observations (observed_on);
create index price_observations_run_idx on price_observations (scrape_run_id) where scrape_run_id is not null;

-- The triggers of 001 and 009, on the new parent: statement-level, so each sees all the rows a
-- statement routed to any partition in its transition table.
create trigger price_observations_inserted
  after insert on price_observations
  referencing new table as changed
  for each statement execute function price_observations_changed();

create trigger price_observations_updated
  after update on price_observations
  referencing new table as changed
  for each statement execute function price_observations_changed();

create trigger price_observations_switch_inserted
  after insert on price_observations
  referencing new table as changed
  for each statement execute function price_observations_switched();

create trigger price_observations_switch_updated
  after update on price_observations
  referencing new table as changed
  for each statement execute function price_observations_switched();

-- 010's function with its two look-ups bounded by day, so that only a few partitions are read:
-- a bound on the partition key lets PostgreSQL skip the partitions outside it (while a look-up by
-- product and location alone reads one index of every month, and made a scrape's writes three
-- times slower with two years of history).
--   latest: the statement wrote a row of the pair on its latest day in `changed`, so the pair's
--     latest observation is on that day or after.
--   ref: the latest observation at least 7 days older than that, looked for in the two months
--     before first, and in the whole history only when they have none (the same row either way).
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
  from (select product_id, location_id, max(observed_on) as written_on from changed group by product_id, location_id) k
  cross join lateral (
    select o.id, o.price, o.observed_at, o.observed_on, o.source, o.in_stock, o.regular_price
    from price_observations o
    where o.product_id = k.product_id and o.location_id = k.location_id
      and o.observed_on >= k.written_on
    order by o.observed_on desc
    limit 1
  ) latest
  cross join lateral (
    select coalesce(
      (select o.price
       from price_observations o
       where o.product_id = k.product_id and o.location_id = k.location_id
         and o.observed_on <= latest.observed_on - 7 and o.observed_on > latest.observed_on - 69
       order by o.observed_on desc
       limit 1),
      (select o.price
       from price_observations o
       where o.product_id = k.product_id and o.location_id = k.location_id
         and o.observed_on <= latest.observed_on - 7
       order by o.observed_on desc
       limit 1)) as price
    offset 0 -- (computed once: flattened, the look-ups would run again for each use of ref.price)
  ) ref
  -- New entries get their ids in product and location order, as 010's distinct gave them.
  order by k.product_id, k.location_id
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
