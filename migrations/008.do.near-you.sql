-- Near you: where each store location is. Coordinates are the retailer's own when its locator
-- gives them, else the centroid of the location's ZIP code (src/server/geo.ts); the launcher's
-- backfill fills rows that lack them after every migration run (queries/locations.ts).

alter table store_locations
  add column coordinates_source text check (coordinates_source in ('retailer', 'zip'));
-- Coordinates written before this migration came from the retailers' locators; half a pair is
-- no position.
update store_locations set latitude = null, longitude = null where (latitude is null) <> (longitude is null);
update store_locations set coordinates_source = 'retailer' where latitude is not null and longitude is not null;
alter table store_locations add constraint store_locations_coordinates_check
  check ((latitude is null) = (longitude is null) and (latitude is null) = (coordinates_source is null));

-- The bounding-box prefilter of the distance query (queries/near.ts): a latitude band, then the
-- longitude inside it.
create index store_locations_coordinates_idx on store_locations (latitude, longitude) where latitude is not null;
