-- Egress (docs/features/scraping.md, "Running against the real sites"): how each retailer's
-- requests leave the machine. Proxies are never stored with their credentials: a proxy is named by
-- its host and port.

-- Every request a retailer was sent, by UTC hour and tier: answered, walled, or failed (no answer,
-- a proxy that refused, a 5xx or a 429). The admin area's last 24 hours by tier, and the daily
-- budget (requests of the UTC day, every kind of run counted). The worker writes it in batches.
create table egress_usage (
  store_id  text not null references stores (id) on delete cascade,
  hour      timestamptz not null check (date_trunc('hour', hour) = hour),
  tier      text not null check (length(tier) between 1 and 40),
  requests  integer not null default 0 check (requests >= 0),
  walls     integer not null default 0 check (walls >= 0),
  failures  integer not null default 0 check (failures >= 0),
  primary key (store_id, hour, tier)
);

-- The tier a retailer uses now: walled at a tier, it moves one up until cool_until, then steps down
-- one tier at a time (src/shared/egress.ts). Shared by every worker process.
create table egress_tiers (
  store_id    text primary key references stores (id) on delete cascade,
  tier_index  integer not null check (tier_index >= 0),
  tier        text not null check (length(tier) between 1 and 40),
  cool_until  timestamptz,
  reason      text check (length(reason) <= 500),
  updated_at  timestamptz not null default now()
);

-- Test connection (admin): one locator call and one product-list call for a ZIP code through the
-- retailer's egress, run by the worker (never inside a request); the result says per request the
-- tier, the proxy (host and port), the transport, the status, the wall recognised and the time.
create table egress_tests (
  id            integer generated always as identity primary key,
  store_id      text not null references stores (id) on delete cascade,
  zip           text not null check (zip ~ '^[0-9]{5}$'),
  status        text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed')),
  result        jsonb,
  message       text check (length(message) <= 2000),
  requested_by  text references users (id) on delete set null,
  created_at    timestamptz not null default now(),
  started_at    timestamptz,
  finished_at   timestamptz
);
create index egress_tests_store_idx on egress_tests (store_id, id desc);
-- One test at a time per retailer.
create unique index egress_tests_open_idx on egress_tests (store_id) where status in ('queued', 'running');

-- The tier a visit's last request went through: a plan pauses when its retailer's last tier (where
-- nothing is left to escalate to) walls most of a day's visits.
alter table coverage_visits add column egress_tier text check (length(egress_tier) <= 40);
