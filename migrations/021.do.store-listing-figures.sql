-- The dashboard listing's choice per store, precomputed (src/server/queries/prices.ts,
-- listingEntries): it read every visible entry matching the filters (300,000 at 15,000 locations)
-- to keep one per store. Per store, region, egg type and pack size, price_store_entry_figures
-- (017) keeps what that choice needs of the visible entries: the smallest id (the listing's store
-- order is each store's first entry in id order) and the newest entry, by the listing's key (the
-- newest to the whole second, as last_updated gives it, then the smallest id). The newest of a
-- store's rows of one preference (standard type first, then a dozen) is then the newest of their
-- entries, and its smallest id the smallest of theirs. refreshRollups keeps them with the other
-- columns (store-figures.ts).
alter table price_store_entry_figures
  add column first_entry_id integer,
  add column newest_entry_id integer,
  add column newest_observed_at timestamptz;

-- The backfill, from the visible entries as 017 computes the rows. A row without a visible entry
-- left (its entries went after the last refresh) is one the next refresh deletes: deleted here.
with pair_entries as (
  select l.store_id, l.region, p.egg_type, p.count, e.id, e.observed_at, e.source
  from price_entries e
  join store_locations l on l.id = e.location_id
  join products p on p.id = e.product_id
), scraped as (
  select distinct store_id, region from pair_entries where source <> 'sample'
), fresh as (
  select e.store_id, e.region, e.egg_type, e.count, min(e.id) as first_id,
         min(array[-floor(date_part('epoch', e.observed_at)), e.id]) as newest
  from pair_entries e
  left join scraped x on x.store_id = e.store_id and x.region = e.region
  where e.source <> 'sample' or x.store_id is null
  group by e.store_id, e.region, e.egg_type, e.count
)
update price_store_entry_figures f
set first_entry_id = fresh.first_id, newest_entry_id = fresh.newest[2]::int, newest_observed_at = to_timestamp(-fresh.newest[1])
from fresh
where fresh.store_id = f.store_id and fresh.region = f.region and fresh.egg_type = f.egg_type and fresh.count = f.count;

delete from price_store_entry_figures where first_entry_id is null;

alter table price_store_entry_figures
  alter column first_entry_id set not null,
  alter column newest_entry_id set not null,
  alter column newest_observed_at set not null;
