-- The visibility rule's probe of a store and region (scrapedStoreRegions, queries/prices.ts):
-- the pair's locations in id order, read from this index alone, each until one has a scraped
-- entry. On (store_id, region) without the id, PostgreSQL scanned the table for each pair instead
-- (it expected a match within a few rows; the rows of a pair lie together, so it read 8,000 a
-- pair at 15,000 locations: 14 ms for Near you whenever a sample price was among its entries).
-- It serves every lookup the two-column index served.
drop index store_locations_region_idx;
create index store_locations_region_idx on store_locations (store_id, region, id);
