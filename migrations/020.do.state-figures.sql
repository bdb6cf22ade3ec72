-- The prices by state's figures, precomputed (docs/decisions/004, 010 and 011): prices.byState
-- grouped every visible current entry read within the last 48 hours by state on every call, and
-- last week's observations of a day, about 550 ms at nationwide scale. Kept by refreshRollups in
-- the transaction that refreshes the rollups (src/server/queries/state-figures.ts): the states of
-- the store and region pairs with observations on the days it recomputes (a price entry changes
-- only with an observation of its day, and a pair's sample prices are hidden once it has any
-- other, in whichever state its locations are), the days it recomputes, and everything on a full
-- refresh. Rows are per store, so that whether a store is active is applied where they are read,
-- as the store page's figures do. The statements here are those of state-figures.ts.

-- The text keys compare byte by byte (collate "C"): codes and ids, sorted and indexed by the
-- thousand at each refresh, where the database's collation costs several times as much.

-- Today's visible entries (the rule of visibleEntries but stores' active flag) per state, store,
-- egg type, pack size and price: how many, whether any is not scraped, and until when the row is
-- current (the oldest of its prices read plus 48 hours: prices only leave the window as time
-- passes, and a new price comes with a refresh). The reader sums the rows of the active stores,
-- a few per price per dozen, and works the median out from them exactly as percentile_cont does
-- over the entries one by one; a state with a row past valid_until is computed from its entries.
create table price_state_figures (
  egg_type     text collate "C" not null,
  count        integer not null,
  state        text collate "C" not null,
  store_id     text collate "C" not null references stores (id) on delete cascade,
  price        numeric(8,2) not null,
  -- The price per dozen as the entries' query works it out, so that no reader divides numerics.
  per_dozen    float8 not null,
  entries      integer not null,
  sample       boolean not null,
  valid_until  timestamptz not null,
  primary key (egg_type, count, state, store_id, price)
);

-- The distinct locations behind those entries per state, store, egg type and pack size, and per
-- state, store and egg type over every pack size (count 0: a location may sell several), current
-- until the oldest of their prices leaves the window, as above.
create table price_state_location_figures (
  egg_type     text collate "C" not null,
  count        integer not null,
  state        text collate "C" not null,
  store_id     text collate "C" not null references stores (id) on delete cascade,
  locations    integer not null,
  valid_until  timestamptz not null,
  primary key (egg_type, count, state, store_id)
);

-- Each day's observations per state, store, region, egg type, pack size, price and source, for
-- last week's median: only the days a reader can still ask for (the UTC day 7 days before today,
-- from the day of a refresh on). Which stores are active and which pairs' sample prices are hidden
-- (by their current entries, as for today's) is applied where they are read.
create table price_state_daily_values (
  day           date not null,
  egg_type      text collate "C" not null,
  count         integer not null,
  state         text collate "C" not null,
  store_id      text collate "C" not null references stores (id) on delete cascade,
  region        text collate "C" not null,
  price         numeric(8,2) not null,
  per_dozen     float8 not null,
  source        text collate "C" not null,
  observations  integer not null,
  primary key (day, egg_type, count, state, store_id, region, price, source)
);

-- What the map reads, from the rows above: per egg type, pack size (0: every pack size) and
-- state, today's figures, current until the first price behind them leaves the window; and per
-- day last week's median. Computed over the stores active and with the pairs' sample prices hidden
-- as price_state_summary_basis says: a reader takes them only while that is still so (and sums
-- the rows above otherwise); a refresh that finds it changed computes them all again. Filled by
-- the first refresh after this migration (until then the map sums the rows above).
create table price_state_summaries (
  egg_type     text collate "C" not null,
  count        integer not null,
  state        text collate "C" not null,
  median       float8 not null,
  lowest       float8 not null,
  highest      float8 not null,
  entries      integer not null,
  stores       integer not null,
  sample       boolean not null,
  valid_until  timestamptz not null,
  primary key (egg_type, count, state)
);

create table price_state_week_medians (
  day       date not null,
  egg_type  text collate "C" not null,
  count     integer not null,
  state     text collate "C" not null,
  median    float8 not null,
  primary key (day, egg_type, count, state)
);

-- The active stores' ids and the store and region pairs (store_id/region) whose sample prices were
-- hidden, both in order, when the summaries were computed.
create table price_state_summary_basis (
  id      boolean primary key default true check (id),
  stores  text[] not null,
  hidden  text[] not null
);

insert into price_state_figures (egg_type, count, state, store_id, price, per_dozen, entries, sample, valid_until)
select p.egg_type, p.count, l.state, l.store_id, e.price, (e.price / p.count * 12)::float8, count(*), bool_or(e.source <> 'scrape'),
       min(e.observed_at) + interval '48 hours'
from price_entries e
join store_locations l on l.id = e.location_id
join products p on p.id = e.product_id
where l.state is not null and e.observed_at >= now() - interval '48 hours'
  and (e.source <> 'sample' or not exists (
        select 1 from store_locations sl join price_entries se on se.location_id = sl.id and se.source <> 'sample'
        where sl.store_id = l.store_id and sl.region = l.region))
group by p.egg_type, p.count, l.state, l.store_id, e.price;

insert into price_state_location_figures (egg_type, count, state, store_id, locations, valid_until)
select p.egg_type, coalesce(p.count, 0), l.state, l.store_id, count(distinct e.location_id),
       min(e.observed_at) + interval '48 hours'
from price_entries e
join store_locations l on l.id = e.location_id
join products p on p.id = e.product_id
where l.state is not null and e.observed_at >= now() - interval '48 hours'
  and (e.source <> 'sample' or not exists (
        select 1 from store_locations sl join price_entries se on se.location_id = sl.id and se.source <> 'sample'
        where sl.store_id = l.store_id and sl.region = l.region))
group by grouping sets ((p.egg_type, p.count, l.state, l.store_id), (p.egg_type, l.state, l.store_id));

insert into price_state_daily_values (day, egg_type, count, state, store_id, region, price, per_dozen, source, observations)
select o.observed_on, p.egg_type, p.count, l.state, l.store_id, l.region, o.price, (o.price / p.count * 12)::float8, o.source, count(*)
from price_observations o
join store_locations l on l.id = o.location_id
join products p on p.id = o.product_id
where o.observed_on >= (now() at time zone 'UTC')::date - 7 and l.state is not null
group by o.observed_on, p.egg_type, p.count, l.state, l.store_id, l.region, o.price, o.source;

-- Statistics for the first reads' plans (autovacuum's come later).
analyze price_state_figures, price_state_location_figures, price_state_daily_values;
