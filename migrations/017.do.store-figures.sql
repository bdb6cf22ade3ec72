-- The store page's figures, precomputed (docs/decisions/004 and 010): what stores.insights read
-- from every visible entry of the store (or of the whole catalogue, for the market position) on
-- every call, a few hundred milliseconds each at nationwide scale, kept per store, region, egg
-- type and pack size by refreshRollups in the transaction that refreshes the rollups, for the
-- store and region pairs with observations on the days it recomputes (a price entry changes only
-- with an observation of its day), and rebuilt whole by a full refresh. A few hundred rows in all;
-- the store page sums the rows its filters select. The visibility rule of visibleEntries is
-- applied when they are computed (a pair's sample prices are hidden once it has any other price:
-- a function of the pair's own entries), except that stores are active, which is applied where
-- they are read. The statements here are those of src/server/queries/store-figures.ts.

-- The current visible entries' sums per combination: enough for the price insights (averages as
-- sums over numbers of entries, the week's change, up and down), the regional analysis and the
-- market position (the cheapest entry of each combination: the representative offer is chosen
-- among these, as among the entries).
create table price_store_entry_figures (
  store_id              text not null references stores (id) on delete cascade,
  region                text not null,
  egg_type              text not null,
  count                 integer not null,
  entries               integer not null,
  -- Unrounded sums: a sum of them over any rows, divided by the sum of their entries, is the
  -- exact average (what avg() over the entries gives).
  sum_price             numeric not null,
  sum_per_dozen         numeric not null,
  -- Entries with a reference price (a week old), and the sums of their change against it.
  compared              integer not null,
  sum_change            numeric,
  sum_change_per_dozen  numeric,
  down                  integer not null,
  up                    integer not null,
  sample                boolean not null,
  -- The cheapest and dearest entry (by price, then id: one pack size, so by price per dozen too).
  lowest_entry_id       integer not null,
  lowest_price          numeric(8,2) not null,
  highest_entry_id      integer not null,
  highest_price         numeric(8,2) not null,
  primary key (store_id, region, egg_type, count)
);

-- What the store's locations charge (docs/decisions/010) per combination, as computed at
-- computed_at. The figure depends on the clock (prices read within the last 48 hours count): it
-- is the current figure only while no price behind it has left that window, until valid_until
-- (the oldest of the in-window prices read plus 48 hours; prices only leave the window as time
-- passes, and a new price comes with a refresh). A reader takes a row only while valid_until is
-- ahead of now() and computes any other from the entries. A combination without any in-window
-- price has no row. Locations that close or reopen recompute their pairs' rows in the same
-- transaction (coverage-directory.ts).
create table price_location_figures (
  store_id      text not null references stores (id) on delete cascade,
  region        text not null,
  egg_type      text not null,
  count         integer not null,
  locations     integer not null,
  median        float8 not null,
  lowest        float8 not null,
  highest       float8 not null,
  sample        boolean not null,
  entry_id      integer not null,
  product_id    integer not null,
  location_id   integer not null,
  price         numeric(8,2) not null,
  computed_at   timestamptz not null,
  valid_until   timestamptz not null,
  primary key (store_id, region, egg_type, count)
);

insert into price_store_entry_figures
  (store_id, region, egg_type, count, entries, sum_price, sum_per_dozen, compared, sum_change, sum_change_per_dozen,
   down, up, sample, lowest_entry_id, lowest_price, highest_entry_id, highest_price)
with pair_entries as (
  select l.store_id, l.region, p.egg_type, p.count, e.id, e.price, e.reference_price, e.trend_direction, e.source
  from price_entries e
  join store_locations l on l.id = e.location_id
  join products p on p.id = e.product_id
), scraped as (
  select distinct store_id, region from pair_entries where source <> 'sample'
)
select e.store_id, e.region, e.egg_type, e.count, count(*), sum(e.price), sum(e.price / e.count * 12),
       count(e.reference_price), sum(e.price - e.reference_price), sum((e.price - e.reference_price) / e.count * 12),
       count(*) filter (where e.trend_direction = 'down'), count(*) filter (where e.trend_direction = 'up'),
       bool_or(e.source <> 'scrape'),
       (array_agg(e.id order by e.price, e.id))[1], min(e.price),
       (array_agg(e.id order by e.price desc, e.id desc))[1], max(e.price)
from pair_entries e
left join scraped x on x.store_id = e.store_id and x.region = e.region
where e.source <> 'sample' or x.store_id is null
group by e.store_id, e.region, e.egg_type, e.count;

insert into price_location_figures
  (store_id, region, egg_type, count, locations, median, lowest, highest, sample, entry_id, product_id, location_id, price, computed_at, valid_until)
with pair_entries as (
  select l.store_id, l.region, l.status, p.egg_type, p.count, e.id, e.location_id, e.product_id, e.price, e.in_stock, e.observed_at, e.source
  from price_entries e
  join store_locations l on l.id = e.location_id
  join products p on p.id = e.product_id
), scraped as (
  select distinct store_id, region from pair_entries where source <> 'sample'
), qualifying as (
  select e.* from pair_entries e
  left join scraped x on x.store_id = e.store_id and x.region = e.region
  where (e.source <> 'sample' or x.store_id is null)
    and e.status = 'open' and e.in_stock is not false and e.observed_at >= now() - interval '48 hours'
), offers as (
  select distinct on (store_id, region, egg_type, count, location_id)
         store_id, region, egg_type, count, location_id, id as entry_id, product_id, price, price / count * 12 as per_dozen, source
  from qualifying
  order by store_id, region, egg_type, count, location_id, price, id
), figures as (
  select store_id, region, egg_type, count, count(*)::int as locations,
         percentile_cont(0.5) within group (order by per_dozen)::float8 as median,
         min(per_dozen)::float8 as lowest, max(per_dozen)::float8 as highest, bool_or(source <> 'scrape') as sample
  from offers group by store_id, region, egg_type, count
), cheapest as (
  select distinct on (store_id, region, egg_type, count) store_id, region, egg_type, count, location_id, entry_id, product_id, price
  from offers
  order by store_id, region, egg_type, count, per_dozen, price, location_id
), expiry as (
  select store_id, region, egg_type, count, min(observed_at) + interval '48 hours' as valid_until
  from qualifying group by store_id, region, egg_type, count
)
select f.store_id, f.region, f.egg_type, f.count, f.locations, f.median, f.lowest, f.highest, f.sample,
       c.entry_id, c.product_id, c.location_id, c.price, now(), x.valid_until
from figures f
join cheapest c using (store_id, region, egg_type, count)
join expiry x using (store_id, region, egg_type, count);

-- The store page's entries, cheapest per dozen first: within one product (one pack size) that is
-- the order of the price, then the id, so a page is read from each of the store's products' first
-- entries in this index instead of sorting every entry of the store (insights.ts, storeEntriesPage).
create index price_entries_product_price_idx on price_entries (product_id, price, id);
