-- EggWatch schema: stores and their locations, products, the append-only price history with its
-- derived current-price snapshot and daily rollup, the BLS benchmark, accounts, alerts, scraping
-- and email. Forward-only; each numbered file runs once in its own transaction.

create table stores (
  id              text primary key check (id ~ '^[a-z0-9-]{1,64}$'),
  store_name      text not null check (length(store_name) between 1 and 120),
  store_logo_url  text,
  regions_served  text[] not null default '{}'
                  check (regions_served <@ array['northeast','midwest','south','west']),
  store_type      text not null default 'national',
  active          boolean not null default true,
  created_at      timestamptz not null default now()
);

-- A store at a ZIP code. A scrape for a ZIP records the location it found there.
create table store_locations (
  id                    integer generated always as identity primary key,
  store_id              text not null references stores (id) on delete cascade,
  zip                   text not null check (zip ~ '^[0-9]{5}$'),
  region                text not null check (region in ('northeast','midwest','south','west')),
  retailer_location_id  text,
  name                  text,
  created_at            timestamptz not null default now(),
  unique (store_id, zip)
);
create index store_locations_region_idx on store_locations (store_id, region);

create table products (
  id                   integer generated always as identity primary key,
  store_id             text not null references stores (id) on delete cascade,
  retailer_product_id  text not null check (length(retailer_product_id) between 1 and 200),
  title                text not null check (length(title) between 1 and 500),
  brand                text,
  egg_type             text not null check (egg_type in ('standard','cage_free','organic','pasture_raised')),
  count                integer not null default 12 check (count between 1 and 360),
  size_grade           text,
  url                  text,
  created_at           timestamptz not null default now(),
  updated_at           timestamptz not null default now(),
  unique (store_id, retailer_product_id)
);
create index products_egg_type_idx on products (egg_type, count);

create table users (
  id              text primary key,
  username        text not null check (length(username) between 3 and 50),
  email           text not null check (length(email) between 3 and 254),
  password_hash   text not null,
  first_name      text check (length(first_name) <= 100),
  last_name       text check (length(last_name) <= 100),
  email_verified  boolean not null default false,
  role            text not null default 'user' check (role in ('user','admin')),
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now()
);
create unique index users_email_key on users (lower(email));
create unique index users_username_key on users (lower(username));

-- lucia v3 session table (@lucia-auth/adapter-postgresql reads id, user_id, expires_at).
create table user_sessions (
  id          text primary key,
  user_id     text not null references users (id) on delete cascade,
  expires_at  timestamptz not null,
  created_at  timestamptz not null default now()
);
create index user_sessions_user_idx on user_sessions (user_id);

create table password_reset_tokens (
  token_hash  text primary key,
  user_id     text not null references users (id) on delete cascade,
  expires_at  timestamptz not null,
  used_at     timestamptz,
  created_at  timestamptz not null default now()
);
create index password_reset_tokens_user_idx on password_reset_tokens (user_id);

create table email_verification_tokens (
  token_hash  text primary key,
  user_id     text not null references users (id) on delete cascade,
  email       text not null,
  expires_at  timestamptz not null,
  used_at     timestamptz,
  created_at  timestamptz not null default now()
);
create index email_verification_tokens_user_idx on email_verification_tokens (user_id);

create table scrape_runs (
  id                    integer generated always as identity primary key,
  store_id              text not null references stores (id) on delete cascade,
  zip_codes             text[] not null,
  status                text not null default 'queued'
                        check (status in ('queued','running','succeeded','failed')),
  progress              integer not null default 0 check (progress >= 0),
  total                 integer not null default 0 check (total >= 0),
  products_found        integer not null default 0,
  observations_written  integer not null default 0,
  message               text,
  requested_by          text references users (id) on delete set null,
  created_at            timestamptz not null default now(),
  started_at            timestamptz,
  finished_at           timestamptz
);
create index scrape_runs_store_idx on scrape_runs (store_id, created_at desc);

-- Append-only price history: at most one row per product, location and UTC day, so a re-run the
-- same day updates its row and retries never duplicate.
create table price_observations (
  id             bigint generated always as identity primary key,
  product_id     integer not null references products (id) on delete cascade,
  location_id    integer not null references store_locations (id) on delete cascade,
  price          numeric(8,2) not null check (price > 0 and price < 1000),
  observed_at    timestamptz not null,
  observed_on    date not null generated always as ((observed_at at time zone 'UTC')::date) stored,
  scrape_run_id  integer references scrape_runs (id) on delete set null,
  source         text not null check (source in ('scrape','sample')),
  unique (product_id, location_id, observed_on)
);
create index price_observations_day_idx on price_observations (observed_on);

-- The current price of each product at each location (SPEC "price entry"), kept by the trigger
-- below in the same transaction as the observation, so reads are one indexed query.
create table price_entries (
  id               integer generated always as identity primary key,
  product_id       integer not null references products (id) on delete cascade,
  location_id      integer not null references store_locations (id) on delete cascade,
  observation_id   bigint not null,
  price            numeric(8,2) not null,
  observed_at      timestamptz not null,
  source           text not null,
  reference_price  numeric(8,2),
  trend_value      numeric(8,2) not null default 0,
  trend_direction  text not null default 'stable' check (trend_direction in ('up','down','stable')),
  unique (product_id, location_id)
);
create index price_entries_location_idx on price_entries (location_id);
create index price_entries_scrape_idx on price_entries (location_id) where source = 'scrape';

-- Days whose rollup must be recomputed; the worker drains it.
create table rollup_dirty_days (
  day  date primary key
);

-- Daily aggregate per egg type and region, normalised to a dozen eggs; statistics read this.
create table price_daily_rollups (
  day             date not null,
  egg_type        text not null,
  region          text not null,
  avg_per_dozen   numeric(10,4) not null,
  min_per_dozen   numeric(10,4) not null,
  max_per_dozen   numeric(10,4) not null,
  observations    integer not null,
  primary key (day, egg_type, region)
);

-- BLS average price series ("Eggs, grade A, large, per doz." and the grade AA series).
create table market_prices (
  series_id  text not null,
  region     text not null check (region in ('national','northeast','midwest','south','west')),
  item       text not null,
  grade      text not null check (grade in ('A','AA')),
  period     date not null check (extract(day from period) = 1),
  price      numeric(7,3) not null check (price > 0),
  primary key (series_id, period)
);
create index market_prices_region_idx on market_prices (region, period);

create table subscriptions (
  id                      integer generated always as identity primary key,
  user_id                 text references users (id) on delete cascade,
  email                   text not null check (length(email) between 3 and 254),
  region                  text check (region in ('northeast','midwest','south','west')),
  egg_type                text check (egg_type in ('standard','cage_free','organic','pasture_raised')),
  preferred_stores        text[] not null default '{}',
  notification_frequency  text not null default 'weekly'
                          check (notification_frequency in ('immediately','daily','weekly')),
  notification_channel    text not null default 'email' check (notification_channel in ('email')),
  price_threshold         numeric(8,2) check (price_threshold >= 0),
  active                  boolean not null default true,
  confirmed_at            timestamptz,
  unsubscribe_token       text not null unique,
  created_at              timestamptz not null default now(),
  updated_at              timestamptz not null default now()
);
create index subscriptions_user_idx on subscriptions (user_id);
create index subscriptions_email_idx on subscriptions (lower(email));

-- One row per subscription and period or price event: an alert is never sent twice.
create table alert_deliveries (
  id               integer generated always as identity primary key,
  subscription_id  integer not null references subscriptions (id) on delete cascade,
  period_key       text not null,
  created_at       timestamptz not null default now(),
  unique (subscription_id, period_key)
);

-- Every email the app sends: the local transport's mailbox and the audit trail for Resend.
create table email_outbox (
  id           integer generated always as identity primary key,
  to_address   text not null,
  subject      text not null,
  html         text not null,
  text         text not null,
  headers      jsonb not null default '{}',
  status       text not null default 'pending' check (status in ('pending','sent','logged','failed')),
  provider_id  text,
  error        text,
  created_at   timestamptz not null default now(),
  sent_at      timestamptz
);
create index email_outbox_to_idx on email_outbox (lower(to_address), created_at desc);

-- Keeps price_entries current for every (product, location) an INSERT or UPDATE touched: the
-- latest observation, and its trend against the latest observation at least 7 days older.
-- Set-based, so a bulk load of millions of rows costs one pass. Also marks the touched days
-- for the rollup, queues the rollup job and tells web processes that prices changed.
create function price_observations_changed() returns trigger
language plpgsql as $$
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

  insert into rollup_dirty_days (day)
  select distinct observed_on from changed
  on conflict do nothing;

  -- graphile-worker's schema is installed with ours (src/server/migrate.ts); the guard keeps a
  -- database migrated by hand usable.
  if to_regnamespace('graphile_worker') is not null then
    perform graphile_worker.add_job('prices__rollup', '{}'::json,
      job_key := 'prices__rollup', run_at := now() + interval '1 second', job_key_mode := 'replace');
  end if;
  perform pg_notify('eggwatch_prices', '');
  return null;
end $$;

create trigger price_observations_inserted
  after insert on price_observations
  referencing new table as changed
  for each statement execute function price_observations_changed();

create trigger price_observations_updated
  after update on price_observations
  referencing new table as changed
  for each statement execute function price_observations_changed();
