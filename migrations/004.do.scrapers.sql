-- Scrapers: runs with per-ZIP outcomes, observations that keep the regular price and stock,
-- store locations with their address, demo prices (from a stand-in, never a retailer's), and
-- the admin's scraping schedule.

-- 'demo': prices a scraper read from a stand-in server (npm run demo). They replace the sample
-- catalogue like scraped prices do, but are shown as sample data and never trigger alerts.
alter table price_observations drop constraint price_observations_source_check;
alter table price_observations add constraint price_observations_source_check check (source in ('scrape', 'sample', 'demo'));
alter table price_observations
  add column regular_price numeric(8,2) check (regular_price > 0 and regular_price < 1000),
  add column in_stock boolean;

drop index price_entries_scrape_idx;
create index price_entries_scraped_idx on price_entries (location_id) where source <> 'sample';

alter table store_locations
  add column city text check (length(city) <= 120),
  add column state text check (state ~ '^[A-Z]{2}$'),
  add column address text check (length(address) <= 300),
  add column latitude double precision check (latitude between -90 and 90),
  add column longitude double precision check (longitude between -180 and 180),
  add column updated_at timestamptz not null default now();

alter table scrape_runs drop constraint scrape_runs_status_check;
alter table scrape_runs add constraint scrape_runs_status_check
  check (status in ('queued', 'running', 'succeeded', 'partial', 'failed'));
alter table scrape_runs
  add column trigger text not null default 'manual' check (trigger in ('manual', 'schedule')),
  add column demo boolean not null default false,
  add column listings_seen integer not null default 0,
  add column accepted integer not null default 0,
  add column skipped jsonb not null default '{}',
  add column rejected jsonb not null default '{}',
  add column requests integer not null default 0,
  add column heartbeat_at timestamptz,
  add column worker_id text,
  add column scheduled_for timestamptz,
  add column recovered integer not null default 0;

-- One active (queued or running) run per store: a second start answers 409.
create unique index scrape_runs_one_active_idx on scrape_runs (store_id) where status in ('queued', 'running');
-- The daily schedule creates one run per store and slot, however many workers tick.
create unique index scrape_runs_scheduled_idx on scrape_runs (store_id, scheduled_for) where scheduled_for is not null;
create index scrape_runs_status_idx on scrape_runs (status) where status in ('queued', 'running');

-- The outcome of each ZIP code of a run, written in the same transaction as its prices, so a
-- ZIP is either fully written and marked done, or neither (a resumed run skips the done ones).
create table scrape_run_zips (
  run_id                integer not null references scrape_runs (id) on delete cascade,
  zip                   text not null check (zip ~ '^[0-9]{5}$'),
  status                text not null check (status in ('succeeded', 'failed')),
  message               text,
  location_id           integer references store_locations (id) on delete set null,
  retailer_location_id  text,
  location_name         text,
  pages                 integer not null default 0,
  listings_seen         integer not null default 0,
  accepted              integer not null default 0,
  skipped               jsonb not null default '{}',
  rejected              jsonb not null default '{}',
  observations_written  integer not null default 0,
  requests              integer not null default 0,
  started_at            timestamptz not null,
  finished_at           timestamptz not null default now(),
  primary key (run_id, zip)
);

-- The admin's scraping schedule (one row): daily scrape of every active store over a ZIP list.
create table scrape_settings (
  id             boolean primary key default true check (id),
  daily_enabled  boolean not null default false,
  hour_utc       integer not null default 6 check (hour_utc between 0 and 23),
  zip_codes      text[] not null default array['10001', '60611', '90210', '30301', '77001']
                 check (cardinality(zip_codes) between 1 and 25),
  updated_at     timestamptz not null default now(),
  updated_by     text references users (id) on delete set null
);
insert into scrape_settings (id) values (true);
