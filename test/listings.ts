// Test listings: a store location at a real ZIP code (its coordinates, city and state filled from
// the geodata as the backfill does), a product, and today's price with, optionally, yesterday's.
import crypto from 'node:crypto';
import type { Db } from '../src/server/db.ts';
import { zipFacts } from '../src/server/geo.ts';
import { backfillLocationPlaces } from '../src/server/queries/locations.ts';
import type { EggType, StoreId } from '../src/shared/vocabulary.ts';

export interface ListingSpec {
  store: StoreId;
  zip: string;
  price: number;
  /** Yesterday's price (UTC day), when there is one. */
  previous?: number;
  eggType?: EggType;
  count?: number;
  title?: string;
  brand?: string | null;
  source?: 'scrape' | 'demo' | 'sample';
  locationName?: string;
}

export interface Listing {
  productId: number;
  locationId: number;
}

export async function addListing(sql: Db, spec: ListingSpec): Promise<Listing> {
  const facts = zipFacts(spec.zip);
  if (!facts) throw new Error(`addListing: ${spec.zip} is not in the geodata`);
  const eggType = spec.eggType ?? 'standard';
  const count = spec.count ?? 12;
  const [location] = await sql<{ id: number }[]>`
    insert into store_locations (store_id, zip, region, name)
    values (${spec.store}, ${spec.zip}, ${facts.region}, ${spec.locationName ?? `${spec.store} ${facts.city}`})
    on conflict (store_id, zip) where retailer_location_id is null do update set name = excluded.name
    returning id`;
  await backfillLocationPlaces(sql);
  const [product] = await sql<{ id: number }[]>`
    insert into products (store_id, retailer_product_id, title, brand, egg_type, count, size_grade, url)
    values (${spec.store}, ${`test-${crypto.randomBytes(6).toString('hex')}`}, ${spec.title ?? `Test ${eggType} eggs, ${count} ct`},
            ${spec.brand === undefined ? 'Test Farms' : spec.brand}, ${eggType}, ${count}, 'Large, Grade A', ${`https://example.com/${spec.store}/${count}`})
    returning id`;
  const source = spec.source ?? 'scrape';
  if (spec.previous !== undefined) {
    await sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${product!.id}, ${location!.id}, ${spec.previous}, now() - interval '1 day', utc_day(now() - interval '1 day'), ${source})`;
  }
  await sql`
    insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
    values (${product!.id}, ${location!.id}, ${spec.price}, now(), utc_day(now()), ${source})`;
  return { productId: product!.id, locationId: location!.id };
}
