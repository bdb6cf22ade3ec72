// Stores of the coverage directory for tests and the bench: store_locations rows with the retailer
// ids today's stand-ins answer listings for (each stand-in derives a store's id from the ZIP code
// it serves and reads the ZIP back from the id), placed at their ZIP code's real centroid.
import { zipFacts } from '#server/geo.ts';
import type { Db } from '#server/db.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { albertsonsStoreIdOf } from './retailers/albertsons.ts';
import { aldiServicePointOf } from './retailers/aldi.ts';
import { krogerLocationIdForZip } from './retailers/kroger.ts';
import { scenarioOf } from './retailers/scenarios.ts';
import { targetStoreIdForZip } from './retailers/target.ts';
import { walmartStoreIdForZip } from './retailers/walmart.ts';
import { wholeFoodsStoreIdOf } from './retailers/whole-foods.ts';

const ID_OF: Record<StoreId, (zip: string) => string> = {
  walmart: walmartStoreIdForZip,
  target: targetStoreIdForZip,
  kroger: krogerLocationIdForZip,
  albertsons: albertsonsStoreIdOf,
  'whole-foods': wholeFoodsStoreIdOf,
  aldi: aldiServicePointOf,
};

/** The id a retailer's stand-in gives the store serving a ZIP code. */
export const standInStoreId = (store: StoreId, zip: string) => ID_OF[store](zip);

/** `count` ZIP codes the geodata knows, from `from` upwards, none a stand-in scenario's. */
export function ordinaryZips(count: number, from = 10001): string[] {
  const zips: string[] = [];
  for (let n = from; zips.length < count && n < 100_000; n++) {
    const zip = String(n).padStart(5, '0');
    if (zipFacts(zip) && scenarioOf(zip) === 'normal') zips.push(zip);
  }
  return zips;
}

/** Inserts (or finds) a directory store per ZIP code; answers their store_locations ids in order. */
export async function insertDirectoryStores(sql: Db, store: StoreId, zips: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const zip of zips) {
    const facts = zipFacts(zip);
    const retailerId = standInStoreId(store, zip);
    const [row] = await sql<Array<{ id: number }>>`
      insert into store_locations (store_id, zip, region, retailer_location_id, name, city, state, latitude, longitude, coordinates_source, last_seen_at)
      values (${store}, ${zip}, ${facts?.region ?? 'south'}, ${retailerId}, ${`Stand-in store ${retailerId}`}, ${facts?.city ?? null}, ${facts?.state ?? null},
              ${facts?.latitude ?? null}, ${facts?.longitude ?? null}, ${facts ? 'zip' : null}, now())
      on conflict (store_id, retailer_location_id) where retailer_location_id is not null do update set status = 'open', closed_at = null
      returning id`;
    ids.push(row!.id);
  }
  return ids;
}
