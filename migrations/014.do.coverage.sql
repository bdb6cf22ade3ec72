-- Nationwide coverage (decision in README, "Coverage"): store_locations becomes each chain's store
-- directory. A store is known by the retailer's own id wherever the locator gives one (several
-- stores of a chain can share a ZIP code); rows without one (the sample catalogue's locations,
-- older scrapes whose locator named no id) stay unique by ZIP code. Discovery keeps when each
-- store was first and last seen and closes a store that two complete sweeps in a row no longer
-- find (nothing is deleted); visits keep the last visit's outcome and when it last gave prices.

-- Two rows of one store id (an older scrape located it from two ZIP codes and the locator named
-- no ZIP of its own): the oldest keeps the id, the others stay as ZIP-code rows.
update store_locations l set retailer_location_id = null
where l.retailer_location_id is not null and exists (
  select 1 from store_locations o
  where o.store_id = l.store_id and o.retailer_location_id = l.retailer_location_id and o.id < l.id);

alter table store_locations drop constraint store_locations_store_id_zip_key;
-- (Every `on conflict` on store_locations names the index's predicate.)
create unique index store_locations_retailer_id_idx on store_locations (store_id, retailer_location_id) where retailer_location_id is not null;
create unique index store_locations_zip_only_idx on store_locations (store_id, zip) where retailer_location_id is null;

alter table store_locations
  add column banner text check (length(banner) <= 80),
  add column status text not null default 'open' check (status in ('open', 'closed')),
  add column first_seen_at timestamptz not null default now(),
  add column last_seen_at timestamptz,
  -- Complete sweeps in a row that did not find the store (discovery); 2 closes it.
  add column missed_sweeps integer not null default 0 check (missed_sweeps >= 0),
  add column closed_at timestamptz,
  add column last_visit_at timestamptz,
  add column last_visit_status text check (last_visit_status in ('succeeded', 'failed')),
  -- Why the last visit failed: blocked, structure, http, no-store, config, rate-limited.
  add column last_visit_kind text check (length(last_visit_kind) <= 40),
  add column last_visit_message text check (length(last_visit_message) <= 1000),
  add column last_priced_at timestamptz,
  add constraint store_locations_closed_check check ((status = 'closed') = (closed_at is not null));

update store_locations set first_seen_at = created_at, last_seen_at = case when retailer_location_id is not null then updated_at end;

create index store_locations_state_idx on store_locations (store_id, state) where status = 'open';
create index store_locations_visit_idx on store_locations (store_id, last_visit_at nulls first) where status = 'open' and retailer_location_id is not null;

-- A retailer's coverage plan, set by admins: where its stores are visited (scope), how often
-- (every revisit_days days) and how many requests a day it may send. A plan whose blocked rate
-- passed the threshold in a day is paused (paused_at, paused_reason) until an admin saves or
-- resumes it.
create table coverage_plans (
  store_id              text primary key references stores (id) on delete cascade,
  scope                 jsonb not null,
  revisit_days          integer not null default 1 check (revisit_days between 1 and 30),
  daily_request_budget  integer not null check (daily_request_budget between 1 and 1000000),
  enabled               boolean not null default true,
  paused_at             timestamptz,
  paused_reason         text check (length(paused_reason) <= 1000),
  updated_at            timestamptz not null default now(),
  updated_by            text references users (id) on delete set null
);

-- A discovery sweep or a visit day of one retailer. Its figures grow as it runs (live counts in
-- the admin area); a crash resumes it where its written progress ends.
create table coverage_runs (
  id              integer generated always as identity primary key,
  store_id        text not null references stores (id) on delete cascade,
  kind            text not null check (kind in ('discover', 'visit')),
  scope           jsonb not null,
  trigger         text not null default 'manual' check (trigger in ('manual', 'schedule')),
  status          text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'partial', 'failed', 'paused')),
  -- The UTC day a scheduled visit day belongs to (one per store and day).
  day             date,
  demo            boolean not null default false,
  -- discovery: sweep points planned and asked, locator calls, stores found / new / reopened / closed
  points_planned  integer not null default 0,
  points_done     integer not null default 0,
  locator_calls   integer not null default 0,
  stores_found    integer not null default 0,
  stores_new      integer not null default 0,
  stores_closed   integer not null default 0,
  -- visits: stores planned, visited, failed, blocked; chunks planned and done
  stores_planned  integer not null default 0,
  stores_visited  integer not null default 0,
  stores_failed   integer not null default 0,
  stores_blocked  integer not null default 0,
  chunks_planned  integer not null default 0,
  chunks_done     integer not null default 0,
  requests        integer not null default 0,
  -- Resumable state of the sweep (discovery) kept by the task.
  state           jsonb not null default '{}',
  message         text check (length(message) <= 2000),
  created_by      text references users (id) on delete set null,
  created_at      timestamptz not null default now(),
  started_at      timestamptz,
  finished_at     timestamptz,
  heartbeat_at    timestamptz,
  worker_id       text
);
create unique index coverage_runs_one_active_idx on coverage_runs (store_id, kind) where status in ('queued', 'running');
create unique index coverage_runs_day_idx on coverage_runs (store_id, day) where kind = 'visit' and trigger = 'schedule';
create index coverage_runs_store_idx on coverage_runs (store_id, kind, created_at desc);

-- One store's visit within a visit day, written in the same transaction as its prices.
create table coverage_visits (
  run_id                integer not null references coverage_runs (id) on delete cascade,
  location_id           integer not null references store_locations (id) on delete cascade,
  chunk                 integer not null check (chunk >= 0),
  status                text not null check (status in ('succeeded', 'failed')),
  kind                  text check (length(kind) <= 40),
  message               text check (length(message) <= 1000),
  requests              integer not null default 0 check (requests >= 0),
  listings_seen         integer not null default 0,
  accepted              integer not null default 0,
  observations_written  integer not null default 0,
  started_at            timestamptz not null,
  finished_at           timestamptz not null default now(),
  primary key (run_id, location_id)
);
create index coverage_visits_location_idx on coverage_visits (location_id, finished_at desc);

-- A visit day's stores, split into chunks when the day is planned (each chunk one job of the
-- retailer's queue): the stores of a chunk are fixed, so a chunk resumed after a crash visits the
-- ones its coverage_visits rows do not have yet.
create table coverage_chunks (
  run_id        integer not null references coverage_runs (id) on delete cascade,
  chunk         integer not null check (chunk >= 0),
  location_ids  integer[] not null,
  status        text not null default 'queued' check (status in ('queued', 'running', 'done', 'skipped')),
  started_at    timestamptz,
  finished_at   timestamptz,
  primary key (run_id, chunk)
);
