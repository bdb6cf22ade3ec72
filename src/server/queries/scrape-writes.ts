// Writing one ZIP code of a scrape run: a single statement, so atomic on its own, that checks the
// run is still this worker's, upserts the store location, writes its products and observations
// (price-writes.ts: one observation per product, location and UTC day, a re-run the same day
// updates it), records the ZIP's outcome and advances the run's progress. Set-based: arrays in,
// one round trip; its commit does not wait for the WAL flush (price-writes.ts says why that is safe).
import type { Db } from '../db.ts';
import { durability, priceWriteCtes, type ListingWrite, type ObservationSource } from './price-writes.ts';

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
  /** Requests sent again after timeouts, network errors and 5xx; 429 waits and their time (ms). 0 when absent. */
  retries?: number;
  rateLimitWaits?: number;
  rateLimitWaitMs?: number;
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
    /** Whose coordinates: the retailer's locator's, or the ZIP code's centroid (null: none). */
    coordinatesSource?: 'retailer' | 'zip' | null;
  } | null;
  listings: ListingWrite[];
  source: ObservationSource;
  /** Write only while the run is running under this worker (the run row is locked meanwhile). */
  ownerWorkerId?: string;
  /**
   * The caller tells web processes of the new prices itself (a PriceChangeNotifier), so the
   * observation trigger sends no NOTIFY for this ZIP (migration 007).
   */
  deferNotify?: boolean;
}

export type ZipWriteResult = { observations: number } | 'already-written' | 'not-owner';

const STATE = /^[A-Z]{2}$/;

/**
 * Writes the ZIP's location, products, observations and outcome row. Answers the observations
 * written; 'already-written' when the ZIP already has an outcome for this run (a doubled job), or
 * 'not-owner' when the run is no longer this worker's: then nothing is written.
 */
export async function writeZipOutcome(sql: Db, write: ZipWrite): Promise<ZipWriteResult> {
  const l = write.location;
  const listings = write.status === 'succeeded' && l ? write.listings : [];
  const state = l?.state && STATE.test(l.state.toUpperCase()) ? l.state.toUpperCase() : null;
  // A position is a whole, valid pair or nothing.
  const positioned =
    l !== null &&
    l.latitude !== null &&
    l.longitude !== null &&
    Math.abs(l.latitude) <= 90 &&
    Math.abs(l.longitude) <= 180;
  const lat = positioned ? l.latitude : null;
  const lon = positioned ? l.longitude : null;
  const coordinatesSource = positioned ? (l.coordinatesSource ?? 'retailer') : null;

  const retailerId = l?.retailerLocationId?.slice(0, 200) ?? null;
  if (l && retailerId !== null && write.status === 'succeeded')
    await claimZipRow(sql, write.storeId, l.zip, retailerId);
  // A store is one row per retailer id (migration 014); a location whose locator named no id is
  // one row per ZIP code.
  const target =
    retailerId !== null
      ? sql`(store_id, retailer_location_id) where retailer_location_id is not null`
      : sql`(store_id, zip) where retailer_location_id is null`;
  const priced = listings.length > 0;

  const [row] = await sql<Array<{ written: number | null; owned: boolean; commit_mode: string }>>`
    with owner as (
      select id from scrape_runs
      where id = ${write.runId}
        ${write.ownerWorkerId !== undefined ? sql`and status = 'running' and worker_id = ${write.ownerWorkerId}` : sql``}
      for update
    ), done as (
      select 1 from scrape_run_zips where run_id = ${write.runId} and zip = ${write.zip}
      union all
      select 1 where not exists (select 1 from owner)
    ), loc as (
      insert into store_locations (store_id, zip, region, retailer_location_id, name, city, state, address, latitude, longitude, coordinates_source,
                                   last_seen_at, last_visit_at, last_visit_status, last_priced_at)
      select ${write.storeId}, ${l?.zip ?? write.zip}, ${l?.region ?? 'south'}, ${retailerId},
             ${l?.name?.slice(0, 200) ?? null}, ${l?.city?.slice(0, 120) ?? null}, ${state}, ${l?.address?.slice(0, 300) ?? null}, ${lat}, ${lon},
             ${coordinatesSource}, now(), now(), 'succeeded', case when ${priced} then now() end
      where ${l !== null && write.status === 'succeeded'} and not exists (select 1 from done)
      on conflict ${target} do update set
        zip = excluded.zip,
        region = excluded.region,
        name = coalesce(excluded.name, store_locations.name),
        city = coalesce(excluded.city, store_locations.city),
        state = coalesce(excluded.state, store_locations.state),
        address = coalesce(excluded.address, store_locations.address),
        -- The retailer's own coordinates win; a ZIP centroid only fills a location that has none.
        latitude = case when excluded.coordinates_source = 'retailer' or store_locations.latitude is null
                        then excluded.latitude else store_locations.latitude end,
        longitude = case when excluded.coordinates_source = 'retailer' or store_locations.latitude is null
                         then excluded.longitude else store_locations.longitude end,
        coordinates_source = case when excluded.coordinates_source = 'retailer' or store_locations.latitude is null
                                  then excluded.coordinates_source else store_locations.coordinates_source end,
        updated_at = now(),
        -- a scrape that found the store proves it open (it reappears if discovery had closed it)
        status = 'open', closed_at = null, missed_sweeps = 0, last_seen_at = now(),
        last_visit_at = now(), last_visit_status = 'succeeded', last_visit_kind = null, last_visit_message = null,
        last_priced_at = case when ${priced} then now() else store_locations.last_priced_at end
      returning id
    ), ${priceWriteCtes(sql, { storeId: write.storeId, listings, scrapeRunId: write.runId, source: write.source })}, outcome as (
      insert into scrape_run_zips (run_id, zip, status, message, location_id, retailer_location_id, location_name, pages,
                                   listings_seen, accepted, skipped, rejected, observations_written, requests,
                                   retries, rate_limit_waits, rate_limit_wait_ms, started_at)
      select ${write.runId}, ${write.zip}, ${write.status}, ${write.message?.slice(0, 1000) ?? null}, (select id from loc),
             ${l?.retailerLocationId ?? null}, ${l?.name ?? null}, ${write.pages}, ${write.listingsSeen}, ${listings.length},
             ${sql.json(write.skipped)}, ${sql.json(write.rejected)}, (select count(*) from observation), ${write.requests},
             ${write.retries ?? 0}, ${write.rateLimitWaits ?? 0}, ${write.rateLimitWaitMs ?? 0}, ${write.startedAt}
      where not exists (select 1 from done)
      returning observations_written
    ), progress as (
      update scrape_runs set heartbeat_at = now(), progress = progress + 1
      where id = ${write.runId} and exists (select 1 from outcome)
      returning 1
    ), ${durability(sql, write.deferNotify ?? false)}
    select (select observations_written from outcome) as written, exists (select 1 from owner) as owned,
           (select value from durability) as commit_mode`;
  if (!row?.owned) return 'not-owner';
  return row.written === null ? 'already-written' : { observations: row.written };
}

/**
 * A store located with the retailer's id at a ZIP code whose row has no id yet (the sample
 * catalogue's location there, or an older scrape's) takes that row over, prices and all, as
 * before stores were known by id, unless the id already has a row of its own. Two writers racing
 * for the same row: the loser's update breaks the unique index and changes nothing.
 */
export async function claimZipRow(sql: Db, storeId: string, zip: string, retailerId: string): Promise<void> {
  try {
    await sql`
      update store_locations set retailer_location_id = ${retailerId}, updated_at = now()
      where store_id = ${storeId} and zip = ${zip} and retailer_location_id is null
        and not exists (select 1 from store_locations where store_id = ${storeId} and retailer_location_id = ${retailerId})`;
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
  }
}
