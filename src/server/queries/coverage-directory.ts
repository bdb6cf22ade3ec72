// The store directory as discovery writes it (migration 014: store_locations, one row per store of
// a chain by the retailer's own id). Found stores are upserted with what the locator said (banner,
// name, address, city, state, ZIP, coordinates) and seen now; a store closed earlier and found
// again reopens. After a complete sweep of a scope, every open store of the scope that the sweep
// did not find has missed one more sweep, and CLOSE_AFTER_MISSED_SWEEPS in a row close it.
// Nothing is ever deleted.
import type { Db } from '../db.ts';
import { zipFacts } from '../geo.ts';
import { CLOSE_AFTER_MISSED_SWEEPS } from '#shared/coverage.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { zipToRegion } from '#shared/zip.ts';
import { refreshPriceMapFigures } from './price-map-figures.ts';
import { refreshStoreFigures } from './store-figures.ts';

/** A store as a locator described it (worker/scrapers/types.ts DiscoveredStore). */
export interface FoundStore {
  retailerLocationId: string;
  banner: string | null;
  name: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface UpsertResult {
  /** Distinct stores written (found with an id and a US ZIP code). */
  found: number;
  /** Of those, stores the directory did not know. */
  created: number;
  /** Of those, closed stores found again (open again). */
  reopened: number;
  /** Stores left out: no ZIP code of a US state to file them under. */
  skipped: number;
}

const clip = (value: string | null, max: number) => (value === null ? null : value.trim().slice(0, max) || null);

/**
 * Upserts found stores by the retailer's id, in one statement: new stores are inserted, known
 * ones take the locator's newer details (a blank keeps the old value); every one is seen now,
 * open, with no missed sweep. A sample-catalogue row of the same ZIP code without an id is
 * claimed first, as a scrape does (scrape-writes.ts claimZipRow). Call inside a transaction when
 * it goes with other writes.
 */
export async function upsertFoundStores(
  sql: Db,
  storeId: StoreId,
  stores: readonly FoundStore[],
): Promise<UpsertResult> {
  const byId = new Map<string, FoundStore & { zip: string; region: string }>();
  let skipped = 0;
  for (const store of stores) {
    const id = store.retailerLocationId.trim().slice(0, 200);
    const region = store.zip ? zipToRegion(store.zip) : null;
    if (!id || !store.zip || !region) {
      skipped++;
      continue;
    }
    byId.set(id, { ...store, retailerLocationId: id, zip: store.zip, region });
  }
  const rows = [...byId.values()];
  if (rows.length === 0) return { found: 0, created: 0, reopened: 0, skipped };

  const ids = rows.map((row) => row.retailerLocationId);
  const zips = rows.map((row) => row.zip);
  // A position is a whole, valid pair from the locator, else the ZIP code's centre.
  const positions = rows.map((row) => {
    if (
      row.latitude !== null &&
      row.longitude !== null &&
      Math.abs(row.latitude) <= 90 &&
      Math.abs(row.longitude) <= 180
    ) {
      return { latitude: row.latitude, longitude: row.longitude, source: 'retailer' as const };
    }
    const facts = zipFacts(row.zip);
    return facts
      ? { latitude: facts.latitude, longitude: facts.longitude, source: 'zip' as const }
      : { latitude: null, longitude: null, source: null };
  });
  const state = (value: string | null) => {
    const code = value?.trim().toUpperCase() ?? '';
    return /^[A-Z]{2}$/.test(code) ? code : null;
  };

  await sql`
    update store_locations l set retailer_location_id = d.id, updated_at = now()
    from (select distinct on (zip) zip, id from unnest(${sql.array(zips)}::text[], ${sql.array(ids)}::text[]) as d(zip, id) order by zip, id) d
    where l.store_id = ${storeId} and l.zip = d.zip and l.retailer_location_id is null
      and not exists (select 1 from store_locations o where o.store_id = ${storeId} and o.retailer_location_id = d.id)`;

  const [result] = await sql<
    Array<{ created: number; reopened: number; regions: string[]; moved: string[]; states: string[] }>
  >`
    with prior as (
      select retailer_location_id, status, region, state from store_locations
      where store_id = ${storeId} and retailer_location_id = any(${sql.array(ids)}::text[])
    ), written as (
      insert into store_locations (store_id, retailer_location_id, zip, region, banner, name, address, city, state,
                                   latitude, longitude, coordinates_source, first_seen_at, last_seen_at)
      select ${storeId}, d.id, d.zip, d.region, d.banner, d.name, d.address, d.city, d.state,
             d.latitude, d.longitude, d.source, now(), now()
      from unnest(
        ${sql.array(ids)}::text[], ${sql.array(zips)}::text[], ${sql.array(rows.map((row) => row.region))}::text[],
        ${sql.array(rows.map((row) => clip(row.banner, 80)))}::text[], ${sql.array(rows.map((row) => clip(row.name, 200)))}::text[],
        ${sql.array(rows.map((row) => clip(row.address, 300)))}::text[], ${sql.array(rows.map((row) => clip(row.city, 120)))}::text[],
        ${sql.array(rows.map((row) => state(row.state)))}::text[],
        ${sql.array(positions.map((p) => p.latitude))}::float8[], ${sql.array(positions.map((p) => p.longitude))}::float8[],
        ${sql.array(positions.map((p) => p.source))}::text[]
      ) as d(id, zip, region, banner, name, address, city, state, latitude, longitude, source)
      on conflict (store_id, retailer_location_id) where retailer_location_id is not null do update set
        zip = excluded.zip,
        region = excluded.region,
        banner = coalesce(excluded.banner, store_locations.banner),
        name = coalesce(excluded.name, store_locations.name),
        address = coalesce(excluded.address, store_locations.address),
        city = coalesce(excluded.city, store_locations.city),
        state = coalesce(excluded.state, store_locations.state),
        -- The retailer's own coordinates win; a ZIP centre only fills a store that has none.
        latitude = case when excluded.coordinates_source = 'retailer' or store_locations.latitude is null then excluded.latitude else store_locations.latitude end,
        longitude = case when excluded.coordinates_source = 'retailer' or store_locations.latitude is null then excluded.longitude else store_locations.longitude end,
        coordinates_source = case when excluded.coordinates_source = 'retailer' or store_locations.latitude is null then excluded.coordinates_source else store_locations.coordinates_source end,
        status = 'open', closed_at = null, missed_sweeps = 0, last_seen_at = now(), updated_at = now()
      returning retailer_location_id, region, state
    )
    select count(*) filter (where p.retailer_location_id is null)::int as created,
           count(*) filter (where p.status = 'closed')::int as reopened,
           -- The regions whose locations' figures change: a store reopened, or moved region.
           array(select distinct unnest(array[w2.region, p2.region]) from written w2 join prior p2 using (retailer_location_id)
                 where p2.status = 'closed' or p2.region <> w2.region) as regions,
           -- The regions and states a store moved out of and into: the prices by state's figures
           -- count its prices where it is now, and its pairs' hidden sample prices.
           array(select distinct unnest(array[w2.region, p2.region]) from written w2 join prior p2 using (retailer_location_id)
                 where p2.region <> w2.region) as moved,
           array(select distinct s from written w2 join prior p2 using (retailer_location_id), unnest(array[w2.state, p2.state]) s
                 where s is not null and (p2.state is distinct from w2.state or p2.region <> w2.region)) as states
    from written w left join prior p using (retailer_location_id)`;
  // What the store's locations charge (migration 017) counts open locations only: recomputed now.
  await refreshStoreFigures(
    sql,
    result!.regions.map((region) => ({ store_id: storeId, region })),
  );
  await refreshPriceMapFigures(sql, {
    pairs: result!.moved.map((region) => ({ store_id: storeId, region })),
    states: result!.states,
  });
  return { found: rows.length, created: result!.created, reopened: result!.reopened, skipped };
}

export interface ClosureResult {
  /** Open stores of the scope the sweep did not find (each missed one more sweep). */
  missed: number;
  /** Of those, stores closed now (their CLOSE_AFTER_MISSED_SWEEPS-th missed sweep in a row). */
  closed: number;
}

/** A directory row as the scope test sees it. */
export interface ScopedRow {
  state: string | null;
  zip: string | null;
  latitude: number | null;
  longitude: number | null;
}

/**
 * After a complete sweep of a scope that started at `sweepStartedAt`: every open store of the
 * chain with a retailer id, in the scope (`inScope`), not seen since the sweep started, missed one
 * more sweep; the ones that reach CLOSE_AFTER_MISSED_SWEEPS close (closed_at now). Stores seen
 * during the sweep (found by it, or visited) are not touched. Run it in the transaction that
 * finishes the sweep.
 */
export async function recordMissedStores(
  sql: Db,
  storeId: StoreId,
  sweepStartedAt: Date,
  inScope: (row: ScopedRow) => boolean,
): Promise<ClosureResult> {
  const candidates = await sql<Array<ScopedRow & { id: number }>>`
    select id, state, zip, latitude, longitude from store_locations
    where store_id = ${storeId} and status = 'open' and retailer_location_id is not null
      and (last_seen_at is null or last_seen_at < ${sweepStartedAt})
    for update`;
  const ids = candidates.filter(inScope).map((row) => row.id);
  if (ids.length === 0) return { missed: 0, closed: 0 };
  const [result] = await sql<Array<{ missed: number; closed: number; regions: string[] }>>`
    with updated as (
      update store_locations set
        missed_sweeps = missed_sweeps + 1,
        status = case when missed_sweeps + 1 >= ${CLOSE_AFTER_MISSED_SWEEPS} then 'closed' else 'open' end,
        closed_at = case when missed_sweeps + 1 >= ${CLOSE_AFTER_MISSED_SWEEPS} then now() end,
        updated_at = now()
      where id = any(${sql.array(ids)}::int[])
      returning status, region
    )
    select count(*)::int as missed, count(*) filter (where status = 'closed')::int as closed,
           array(select distinct region from updated where status = 'closed') as regions
    from updated`;
  // What the store's locations charge (migration 017) counts open locations only: recomputed now.
  await refreshStoreFigures(
    sql,
    result!.regions.map((region) => ({ store_id: storeId, region })),
  );
  return { missed: result!.missed, closed: result!.closed };
}
