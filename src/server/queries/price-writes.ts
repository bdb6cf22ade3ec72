// The one writer of products and price observations. A store's prices are written by two kinds of
// statement: a ZIP code of a scrape run (scrape-writes.ts) and a batch of a coverage plan's store
// visits (coverage-visits.ts). Each is a single statement, so atomic on its own, that defines its
// `loc` CTE (the store locations it writes) and then takes the product and observation CTEs from
// here, with `durability` for its commit.
//
// Such a statement's commit does not wait for the WAL flush (synchronous_commit off for this
// statement only): if the database itself crashed in the next fraction of a second, the prices and
// the outcome row written with them would be lost together, and the resumed run writes them again.
// Nothing half-written either way; it roughly halves the time per statement.
import type { Db } from '../db.ts';

export type ObservationSource = 'scrape' | 'demo';

/** A product of a store's shelf and its price there, as written (pipeline's AcceptedListing). */
export interface ListingWrite {
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
}

/** A listing and the store location (store_locations.id) it was seen at. */
export type LocatedListingWrite = ListingWrite & { locationId: number };

/**
 * The CTEs that write a store's prices:
 * - `listing` (location_id, the listing's columns, n: its order): with `listings`, every listing at
 *   the one location of the statement's `loc` CTE (none when `loc` has no row); with
 *   `locatedListings`, each listing at its own location, kept only when `loc` has that location's id;
 * - `latest`: one listing per product, the last given, whose title and details the product takes;
 * - `inserted`/`changed`/`product`: the store's products (new ones inserted, changed ones updated,
 *   the unchanged rest only read, since an upsert would lock and so write each);
 * - `observation`: one per product, location and UTC day (a second write the same day updates it),
 *   returning location_id.
 * The caller's statement defines `loc` (an `id` column) before them and may read `observation`.
 */
export function priceWriteCtes(
  sql: Db,
  options: { storeId: string; scrapeRunId: number | null; source: ObservationSource } & (
    { listings: ListingWrite[] } | { locatedListings: LocatedListingWrite[] }
  ),
) {
  const { storeId, scrapeRunId, source } = options;
  const located = 'locatedListings' in options;
  const rows: Array<ListingWrite & { locationId?: number }> = located ? options.locatedListings : options.listings;
  const col = <T>(pick: (x: (typeof rows)[number]) => T) => rows.map(pick);
  const unnested = sql`unnest(
        ${sql.array(col((x) => x.retailerProductId))}::text[], ${sql.array(col((x) => x.title))}::text[],
        ${sql.array(col((x) => x.brand))}::text[], ${sql.array(col((x) => x.eggType))}::text[],
        ${sql.array(col((x) => x.count))}::int[], ${sql.array(col((x) => x.sizeGrade))}::text[],
        ${sql.array(col((x) => x.url))}::text[], ${sql.array(col((x) => x.price))}::numeric[],
        ${sql.array(col((x) => x.regularPrice))}::numeric[], ${sql.array(col((x) => x.inStock))}::boolean[],
        ${sql.array(col((x) => x.locationId ?? null))}::int[]
      ) with ordinality as t(retailer_product_id, title, brand, egg_type, count, size_grade, url, price, regular_price, in_stock, location_id, n)`;
  const listing = located
    ? sql`select t.* from ${unnested} where t.location_id in (select id from loc)`
    : sql`select t.retailer_product_id, t.title, t.brand, t.egg_type, t.count, t.size_grade, t.url, t.price,
             t.regular_price, t.in_stock, loc.id as location_id, t.n
      from ${unnested} cross join loc`;
  return sql`listing as (
      ${listing}
    ), latest as (
      select distinct on (retailer_product_id) * from listing order by retailer_product_id, n desc
    ), inserted as (
      insert into products (store_id, retailer_product_id, title, brand, egg_type, count, size_grade, url)
      select ${storeId}, retailer_product_id, title, brand, egg_type, count, size_grade, url from latest order by n
      on conflict (store_id, retailer_product_id) do nothing
      returning id, retailer_product_id
    ), changed as (
      update products p set
        title = latest.title, brand = latest.brand, egg_type = latest.egg_type, count = latest.count,
        size_grade = latest.size_grade, url = latest.url, updated_at = now()
      from latest
      where p.store_id = ${storeId} and p.retailer_product_id = latest.retailer_product_id
        and (p.title, p.brand, p.egg_type, p.count, p.size_grade, p.url)
          is distinct from (latest.title, latest.brand, latest.egg_type, latest.count, latest.size_grade, latest.url)
      returning p.id
    ), product as (
      select id, retailer_product_id from inserted
      union all
      select p.id, p.retailer_product_id from products p
      where p.store_id = ${storeId}
        and p.retailer_product_id in (select retailer_product_id from latest)
        and p.retailer_product_id not in (select retailer_product_id from inserted)
    ), observation as (
      insert into price_observations (product_id, location_id, price, regular_price, in_stock, observed_at, observed_on, scrape_run_id, source)
      select product.id, listing.location_id, listing.price, listing.regular_price, listing.in_stock, now(), utc_day(now()), ${scrapeRunId}, ${source}
      from listing
      join product on product.retailer_product_id = listing.retailer_product_id
      order by listing.n
      on conflict (product_id, location_id, observed_on) do update set
        price = excluded.price, regular_price = excluded.regular_price, in_stock = excluded.in_stock,
        observed_at = excluded.observed_at, scrape_run_id = excluded.scrape_run_id, source = excluded.source
      returning location_id
    )`;
}

/**
 * The CTE `durability`, which the statement must select from: its commit does not wait for the WAL
 * flush (see the top of this file), and deferNotify silences the observation trigger's NOTIFY.
 */
export function durability(sql: Db, deferNotify: boolean) {
  return sql`durability as (
      select set_config('synchronous_commit', 'off', true) as value,
             set_config('eggwatch.defer_notify', ${deferNotify ? 'on' : 'off'}, true) as notify
    )`;
}

/**
 * Tells web processes that prices changed (the NOTIFY their caches listen for) on behalf of a
 * writer that defers the trigger's: at once after the first change, then at most once per
 * interval while changes go on, and on flush (the end of a run). A change between two notices
 * waits for the next statement's commit or the flush, so a cached answer lags a run by about a ZIP.
 */
export class PriceChangeNotifier {
  private last = 0;
  private pending = false;

  constructor(
    private readonly sql: Db,
    private readonly minIntervalMs = 1000,
  ) {}

  async changed(): Promise<void> {
    if (Date.now() - this.last >= this.minIntervalMs) await this.notify();
    else this.pending = true;
  }

  async flush(): Promise<void> {
    if (this.pending) await this.notify();
  }

  private async notify(): Promise<void> {
    this.pending = false;
    this.last = Date.now();
    await this.sql`select pg_notify('eggwatch_prices', '')`;
  }
}
