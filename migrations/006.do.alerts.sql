-- Price alerts: double opt-in, exactly-once deliveries, and the idempotency key of every email.

-- A subscription for an address the subscriber has not proven is pending until the link sent to
-- that address is followed. The token is stored only as its SHA-256 hash and expires in 7 days.
alter table subscriptions
  add column confirm_token_hash text unique,
  add column confirm_expires_at timestamptz,
  add column unsubscribed_at timestamptz;
create index subscriptions_deliverable_idx on subscriptions (notification_frequency)
  where active and confirmed_at is not null;

-- One row per subscription and period (a digest: 'daily:2026-11-23', 'weekly:2026-11-23') or price
-- event (an immediate alert: 'price:<product>:<location>:<price>'), written in the same transaction
-- as the email's outbox row: a retried, doubled or overlapping job finds it and sends nothing.
alter table alert_deliveries
  add column kind text not null default 'immediate' check (kind in ('immediate', 'daily', 'weekly')),
  add column email_id integer references email_outbox (id) on delete set null,
  add column product_id integer references products (id) on delete cascade,
  add column location_id integer references store_locations (id) on delete cascade,
  add column price numeric(8,2);
create index alert_deliveries_email_idx on alert_deliveries (email_id);
-- Which subscriptions already had a price event: looked up by the events of a scrape run.
create index alert_deliveries_period_idx on alert_deliveries (period_key);
-- The observations of one scrape run (immediate alerts read them).
create index price_observations_run_idx on price_observations (scrape_run_id) where scrape_run_id is not null;

-- Resend's idempotency key: a retried send of the same outbox row is not delivered twice. An alert
-- email belongs to its subscription: deleting the subscription removes its unsent mail, and an
-- unsubscribed subscription's pending mail is not sent.
alter table email_outbox
  add column idempotency_key text unique,
  add column subscription_id integer references subscriptions (id) on delete cascade;
create index email_outbox_subscription_idx on email_outbox (subscription_id) where subscription_id is not null;

-- Every worker beats here while it runs (worker/liveness.ts). A job locked by a worker whose beat
-- stopped (a killed process) is released for another worker by worker__recover, instead of staying
-- locked for graphile-worker's four hours.
create table worker_heartbeats (
  worker_id  text primary key,
  pid        integer,
  beat_at    timestamptz not null default now()
);
