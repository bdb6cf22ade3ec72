-- Official sources (docs/features/data-sources.md): the government figures EggWatch reads beside
-- its own scraped prices: the BLS average price series, USDA AMS Market News' weekly retail egg
-- feature report and daily National Shell Egg Index, and USDA APHIS's confirmed bird-flu
-- detections. They are kept apart from the scraped prices (no table of these is read by a scraped
-- statistic), each value as the source published it, with where and when it was read.

-- One row per source: what the worker last saw of it.
create table official_sources (
  source             text primary key check (source in ('bls', 'usda_retail', 'usda_wholesale', 'aphis_hpai')),
  -- The newest period the source has published, and the day it was published (or first seen).
  last_period        date,
  last_published_on  date,
  -- The last fetch whose answer was read (whatever it held), and the last attempt of any outcome.
  last_fetched_at    timestamptz,
  last_attempt_at    timestamptz,
  -- The last failure, kept until a fetch succeeds; failing_since is the first failure of the run.
  last_error         text check (length(last_error) <= 2000),
  failing_since      timestamptz,
  -- When the worker asks next (a schedule, a source's Retry-After, or a daily limit reached).
  next_due_at        timestamptz,
  -- Not to be asked before this (the source's Retry-After, or its daily limit reached): a
  -- "Fetch now" waits for it too.
  not_before         timestamptz,
  -- Requests sent on the UTC day requests_day (the source's daily limit is counted here).
  requests_day       date,
  requests_count     integer not null default 0 check (requests_count >= 0)
);
insert into official_sources (source) values ('bls'), ('usda_retail'), ('usda_wholesale'), ('aphis_hpai');

-- Every answer a source gave, compressed (gzip), with its fetch time, for audit. An answer
-- identical to the source's previous one keeps no second copy of its body (same_as names it).
create table official_fetches (
  id           bigint generated always as identity primary key,
  source       text not null references official_sources (source),
  -- The address asked, without any key.
  url          text not null check (length(url) <= 2000),
  http_status  integer,
  fetched_at   timestamptz not null default now(),
  body_gzip    bytea,
  body_sha256  text check (body_sha256 ~ '^[0-9a-f]{64}$'),
  same_as      bigint references official_fetches (id),
  outcome      text not null check (outcome in ('parsed', 'refused', 'failed')),
  message      text check (length(message) <= 2000)
);
create index official_fetches_source_idx on official_fetches (source, fetched_at desc);

-- The figures, one per series and period, as published: value_text is the source's own spelling,
-- value its number. A period the source never published has no row (a gap, never a zero).
-- `detail` holds what a figure carries beside its value (USDA retail: low, high, stores).
create table official_observations (
  source        text not null references official_sources (source),
  series_id     text not null check (length(series_id) between 1 and 120),
  period        date not null,
  value         numeric(14,4) not null,
  value_text    text not null check (length(value_text) <= 40),
  unit          text not null check (length(unit) <= 40),
  detail        jsonb,
  -- The day the source published the figure: its own date where it gives one (USDA's report
  -- date, APHIS's confirmation date), else (BLS gives none) the day the worker first read it when
  -- it read the month before too (so it read it within a day of its release); null when unknown.
  published_on  date,
  fetched_at    timestamptz not null,
  fetch_id      bigint references official_fetches (id),
  primary key (series_id, period)
);
create index official_observations_source_idx on official_observations (source, period);

-- A figure the source changed: the value it replaced, kept (nothing is overwritten in silence).
create table official_revisions (
  id                bigint generated always as identity primary key,
  series_id         text not null,
  period            date not null,
  old_value         numeric(14,4) not null,
  old_value_text    text not null,
  old_published_on  date,
  old_fetched_at    timestamptz not null,
  new_value         numeric(14,4) not null,
  new_value_text    text not null,
  revised_at        timestamptz not null default now(),
  fetch_id          bigint references official_fetches (id),
  foreign key (series_id, period) references official_observations (series_id, period) on delete cascade
);
create index official_revisions_series_idx on official_revisions (series_id, period);

-- The BLS benchmark as the app reads it: each month the worker read from BLS, and for the months
-- it has not read, the seed data of data/ (market_prices).
create view benchmark_prices as
  select o.series_id, o.period, o.value as price, o.published_on
  from official_observations o
  where o.source = 'bls'
  union all
  select m.series_id, m.period, m.price, null::date
  from market_prices m
  where not exists (select 1 from official_observations o where o.series_id = m.series_id and o.period = m.period);
