// Writing one ZIP code of a scrape run: a single statement (inside the caller's transaction) that
// upserts the store location and the products, writes one observation per product, location and
// UTC day (a re-run the same day updates it), and records the ZIP's outcome. Set-based: arrays
// in, no per-row round trips.
import type { Db } from '../db.ts';

export type ObservationSource = 'scrape' | 'demo';

export interface ZipWrite {
  runId: number;
  storeId: string;
  zip: string;
  status: 'succeeded' | 'failed';
  message: string | null;
  startedAt: Date;
  pages: number;
  listingsSeen: number;
  skipped: Record<string, number>;
  rejected: Record<string, number>;
  requests: number;
  /** Present when the store was located. */
  location: {
    zip: string;
    region: string;
    retailerLocationId: string | null;
    name: string | null;
    city: string | null;
    state: string | null;
    address: string | null;
    latitude: number | null;
    longitude: number | null;
  } | null;
  listings: Array<{
    retailerProductId: string;
    title: string;
    brand: string | null;
    eggType: string;
    count: number;
    sizeGrade: string | null;
    price: number;
    regularPrice: number | null;
    inStock: boolean | null;
    url: string | null;
  }>;
  source: ObservationSource;
}

const STATE = /^[A-Z]{2}$/;

/**
 * Writes the ZIP's location, products, observations and outcome row. Answers the observations
 * written, or null when the ZIP already has an outcome for this run (a doubled job): then
 * nothing is written.
 */
export async function writeZipOutcome(sql: Db, write: ZipWrite): Promise<{ observations: number } | null> {
  const l = write.location;
  const listings = write.status === 'succeeded' && l ? write.listings : [];
  const col = <T>(pick: (x: ZipWrite['listings'][number]) => T) => listings.map(pick);
  const state = l?.state && STATE.test(l.state.toUpperCase()) ? l.state.toUpperCase() : null;
  const lat = l?.latitude !== null && l?.latitude !== undefined && Math.abs(l.latitude) <= 90 ? l.latitude : null;
  const lon = l?.longitude !== null && l?.longitude !== undefined && Math.abs(l.longitude) <= 180 ? l.longitude : null;

  const [row] = await sql<Array<{ written: number | null }>>`
    with done as (
      select 1 from scrape_run_zips where run_id = ${write.runId} and zip = ${write.zip}
    ), loc as (
      insert into store_locations (store_id, zip, region, retailer_location_id, name, city, state, address, latitude, longitude)
      select ${write.storeId}, ${l?.zip ?? write.zip}, ${l?.region ?? 'south'}, ${l?.retailerLocationId?.slice(0, 200) ?? null},
             ${l?.name?.slice(0, 200) ?? null}, ${l?.city?.slice(0, 120) ?? null}, ${state}, ${l?.address?.slice(0, 300) ?? null}, ${lat}, ${lon}
      where ${l !== null && write.status === 'succeeded'} and not exists (select 1 from done)
      on conflict (store_id, zip) do update set
        region = excluded.region,
        retailer_location_id = coalesce(excluded.retailer_location_id, store_locations.retailer_location_id),
        name = coalesce(excluded.name, store_locations.name),
        city = coalesce(excluded.city, store_locations.city),
        state = coalesce(excluded.state, store_locations.state),
        address = coalesce(excluded.address, store_locations.address),
        latitude = coalesce(excluded.latitude, store_locations.latitude),
        longitude = coalesce(excluded.longitude, store_locations.longitude),
        updated_at = now()
      returning id
    ), listing as (
      select * from unnest(
        ${sql.array(col((x) => x.retailerProductId))}::text[], ${sql.array(col((x) => x.title))}::text[],
        ${sql.array(col((x) => x.brand))}::text[], ${sql.array(col((x) => x.eggType))}::text[],
        ${sql.array(col((x) => x.count))}::int[], ${sql.array(col((x) => x.sizeGrade))}::text[],
        ${sql.array(col((x) => x.url))}::text[], ${sql.array(col((x) => x.price))}::numeric[],
        ${sql.array(col((x) => x.regularPrice))}::numeric[], ${sql.array(col((x) => x.inStock))}::boolean[]
      ) as t(retailer_product_id, title, brand, egg_type, count, size_grade, url, price, regular_price, in_stock)
      where exists (select 1 from loc)
    ), product as (
      insert into products (store_id, retailer_product_id, title, brand, egg_type, count, size_grade, url, in_stock)
      select ${write.storeId}, retailer_product_id, title, brand, egg_type, count, size_grade, url, in_stock from listing
      on conflict (store_id, retailer_product_id) do update set
        title = excluded.title, brand = excluded.brand, egg_type = excluded.egg_type, count = excluded.count,
        size_grade = excluded.size_grade, url = excluded.url, in_stock = excluded.in_stock, updated_at = now()
      returning id, retailer_product_id
    ), observation as (
      insert into price_observations (product_id, location_id, price, regular_price, in_stock, observed_at, scrape_run_id, source)
      select product.id, loc.id, listing.price, listing.regular_price, listing.in_stock, now(), ${write.runId}, ${write.source}
      from listing
      join product on product.retailer_product_id = listing.retailer_product_id
      cross join loc
      on conflict (product_id, location_id, observed_on) do update set
        price = excluded.price, regular_price = excluded.regular_price, in_stock = excluded.in_stock,
        observed_at = excluded.observed_at, scrape_run_id = excluded.scrape_run_id, source = excluded.source
      returning 1
    ), outcome as (
      insert into scrape_run_zips (run_id, zip, status, message, location_id, retailer_location_id, location_name, pages,
                                   listings_seen, accepted, skipped, rejected, observations_written, requests, started_at)
      select ${write.runId}, ${write.zip}, ${write.status}, ${write.message?.slice(0, 1000) ?? null}, (select id from loc),
             ${l?.retailerLocationId ?? null}, ${l?.name ?? null}, ${write.pages}, ${write.listingsSeen}, ${listings.length},
             ${sql.json(write.skipped)}, ${sql.json(write.rejected)}, (select count(*) from observation), ${write.requests}, ${write.startedAt}
      where not exists (select 1 from done)
      returning observations_written
    )
    select (select observations_written from outcome) as written`;
  return row?.written === null || row?.written === undefined ? null : { observations: row.written };
}
