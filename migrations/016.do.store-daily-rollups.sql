-- The daily rollup per store (docs/decisions/001, "Statistics read a daily rollup").
--
-- Per UTC day, store, region, egg type and pack size: the sum and number of the prices per dozen
-- (so any set of rows averages exactly as the observations behind them would: sum over count), the
-- lowest and highest, the latest switch behind the row (the store and region's, as
-- price_daily_rollups.series_since) and whether any of its prices is sample or demo data. The same
-- visibility rule as price_daily_rollups: a store and region that has switched to retailers'
-- prices counts only those, on every day (009); inactive stores are left out. refreshRollups
-- recomputes both rollups in one transaction, the region rollup from this one; the days before
-- price_history_retention.kept_from keep their rows as they are (015). The readers that used to
-- scan weeks of observations per call (the ticker's streak and sale, the store page's 30-day
-- series) read this table instead: about 400 rows a day at 15,000 locations instead of 300,000.
create table price_store_daily_rollups (
  day            date not null,
  store_id       text not null references stores (id) on delete cascade,
  region         text not null,
  egg_type       text not null,
  count          integer not null,
  -- Unrounded: a sum of them over any rows, divided by the sum of their observations, is the
  -- exact average of the observations (what avg() over them gives).
  sum_per_dozen  numeric not null,
  observations   integer not null,
  min_per_dozen  numeric not null,
  max_per_dozen  numeric not null,
  series_since   date,
  sample         boolean not null,
  primary key (day, store_id, region, egg_type, count)
);
-- The store page's series: one store's last 30 days.
create index price_store_daily_rollups_store_idx on price_store_daily_rollups (store_id, day);

-- Filled from the history in one statement. The days before kept_from have no observations left:
-- they have no rows here (their price_daily_rollups rows stay as they are). Dirty days are filled
-- too; the next refresh recomputes them anyway.
insert into price_store_daily_rollups
  (day, store_id, region, egg_type, count, sum_per_dozen, observations, min_per_dozen, max_per_dozen, series_since, sample)
select o.observed_on, l.store_id, l.region, p.egg_type, p.count,
       sum(o.price / p.count * 12), count(*), min(o.price / p.count * 12), max(o.price / p.count * 12),
       max(sw.switched_on), bool_or(o.source <> 'scrape')
from price_observations o
join products p on p.id = o.product_id
join store_locations l on l.id = o.location_id
join stores s on s.id = l.store_id and s.active
left join store_region_switches sw on sw.store_id = l.store_id and sw.region = l.region
where (o.source <> 'sample' or sw.store_id is null)
  and o.observed_on >= (select coalesce(max(kept_from), '-infinity'::date) from price_history_retention)
group by o.observed_on, l.store_id, l.region, p.egg_type, p.count;

-- The current prices (price_entries) summed per store, region, egg type and source: what the
-- ticker's sale compares with the 30-day average. A function of price_entries alone (which stores
-- are active and which pairs switched is applied where it is read), kept by refreshRollups in the
-- same transaction for the store and region pairs that have observations on the days it
-- recomputes (a price entry changes only with an observation of its day), and rebuilt whole by a
-- full refresh. Reading price_entries instead costs a pass over every current price (300,000 at
-- nationwide scale: more than the ticker's whole budget), and the rollup's latest day cannot stand
-- in for it: it holds only the pairs observed that day, while a price entry is its pair's latest
-- price whatever day that was.
create table price_store_current_rollups (
  store_id       text not null references stores (id) on delete cascade,
  region         text not null,
  egg_type       text not null,
  source         text not null,
  sum_per_dozen  numeric not null,
  entries        integer not null,
  primary key (store_id, region, egg_type, source)
);

insert into price_store_current_rollups (store_id, region, egg_type, source, sum_per_dozen, entries)
select l.store_id, l.region, p.egg_type, e.source, sum(e.price / p.count * 12), count(*)
from price_entries e
join store_locations l on l.id = e.location_id
join products p on p.id = e.product_id
group by l.store_id, l.region, p.egg_type, e.source;
