// Price entries: the current price of each product at each store location, read from the
// price_entries snapshot that the observation trigger keeps. Sample prices are hidden for a
// store and region as soon as scraped prices exist there (docs/features/comparing.md).
import { REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { PriceEntry } from '#shared/types.ts';
import type { Db } from '../db.ts';

export interface EntryFilters {
  /** One entry by its id. */
  id?: number | undefined;
  store?: string | undefined;
  region?: Region | undefined;
  eggType?: EggType | undefined;
  count?: number | undefined;
  /** Only these entries. */
  ids?: readonly number[] | undefined;
  /** Only entries with a larger id (keyset paging of a streamed download). */
  afterId?: number | undefined;
}

export interface Page {
  limit?: number | undefined;
  offset?: number | undefined;
}

/**
 * The (store_id, region) pairs that have scraped (or demo) prices, whose sample prices are hidden.
 * One probe per pair (each store x each region, at most 6 x 4) that stops at its first non-sample
 * entry: the LIMIT keeps PostgreSQL from turning it into a join over every scraped entry, which
 * cost the Near you query most of its time. The pairs come from the stores and the regions, not
 * from a distinct over every location (15,000 index entries read for 24 pairs); a pair without
 * locations finds nothing. The order by id reads the pair's locations from their index
 * (store_id, region, id; migration 022): without it PostgreSQL scanned the table for each pair.
 */
export function scrapedStoreRegions(sql: Db) {
  return sql`
    select pair.store_id, pair.region
    from (select s.id as store_id, r.region from stores s cross join (values ${sql(REGIONS.map((region) => [region]))}) as r (region)) pair
    cross join lateral (
      select 1 from store_locations sl
      join price_entries se on se.location_id = sl.id and se.source <> 'sample'
      where sl.store_id = pair.store_id and sl.region = pair.region
      order by sl.id
      limit 1) scraped`;
}

/** The visibility rule on an entry e at location l: its sample price is hidden where scraped ones exist. */
export function shownSource(sql: Db) {
  return sql`(e.source <> 'sample' or (l.store_id, l.region) not in (${scrapedStoreRegions(sql)}))`;
}

/**
 * FROM and WHERE of the visible price entries (aliases e, l, s, p), for every reader.
 *
 * locationSet: with a store or region filter, also require the entry's location among that
 * store's or region's locations (the same rows, as a semi-join). A reader of the first entries in
 * id order (listPriceEntries) needs it: without it PostgreSQL walked the entries in id order and
 * compared each with every matching location (a join filter against all of a store's locations
 * in a region, millions of comparisons for a page of 20: docs/decisions/005); with it, it reads
 * the matching locations' entries through their index.
 */
export function visibleEntries(sql: Db, filters: EntryFilters = {}, { locationSet = false } = {}) {
  const locations = locationSet && (filters.store || filters.region);
  return sql`
    from price_entries e
    join store_locations l on l.id = e.location_id
    join stores s on s.id = l.store_id
    join products p on p.id = e.product_id
    where s.active
      and ${shownSource(sql)}
      ${filters.id !== undefined ? sql`and e.id = ${filters.id}` : sql``}
      ${filters.store ? sql`and l.store_id = ${filters.store}` : sql``}
      ${filters.region ? sql`and l.region = ${filters.region}` : sql``}
      ${filters.eggType ? sql`and p.egg_type = ${filters.eggType}` : sql``}
      ${filters.count ? sql`and p.count = ${filters.count}` : sql``}
      ${
        locations
          ? sql`and e.location_id in (
                select sl.id from store_locations sl
                where ${filters.store ? sql`sl.store_id = ${filters.store}` : sql`true`}
                  and ${filters.region ? sql`sl.region = ${filters.region}` : sql`true`})`
          : sql``
      }
      ${filters.afterId !== undefined ? sql`and e.id > ${filters.afterId}` : sql``}
      ${filters.ids !== undefined ? entriesOf(sql, filters.ids) : sql``}`;
}

/**
 * An entry e's trend_value and trend_direction: its change against its latest price at least 7
 * days older, both null while its series is shorter than that (no such price: reference_price is
 * null), so "no history yet" never reads as "no change".
 */
export function trendColumns(sql: Db) {
  return sql`case when e.reference_price is null then null else e.trend_value end as trend_value,
             case when e.reference_price is null then null else e.trend_direction end as trend_direction`;
}

/**
 * Only the given entries, and only their store locations, named as an array computed once, so that
 * the locations are read by their key: without it PostgreSQL hashed every store location to join
 * a few entries (measured in docs/decisions/010-location-figures.md).
 */
function entriesOf(sql: Db, ids: readonly number[]) {
  const wanted = sql.array([...ids]);
  return sql`and e.id = any(${wanted}::int[])
             and l.id = any(array(select location_id from price_entries where id = any(${wanted}::int[])))`;
}

/**
 * The one row listPriceEntries reads: each per-entry column as a JSON array in id order, and the
 * details of the store locations and products those entries refer to. observed_at is in whole
 * seconds since 1970. With no entries, every aggregate is null (json_agg of no rows).
 */
interface EntryColumns {
  id: number[];
  product_id: number[];
  location_id: number[];
  price: number[];
  regular_price: Array<number | null>;
  in_stock: Array<boolean | null>;
  trend_value: Array<number | null>;
  trend_direction: PriceEntry['trend_direction'][];
  observed_at: number[];
  source: PriceEntry['source'][];
  locations: Array<
    [
      id: number,
      store_id: string,
      store_name: string,
      region: Region,
      zip: string,
      name: string | null,
      city: string | null,
      state: string | null,
    ]
  >;
  products: Array<
    [
      id: number,
      egg_type: EggType,
      count: number,
      size_grade: string | null,
      url: string | null,
      title: string,
      brand: string | null,
    ]
  >;
}

/**
 * The visible price entries in id order, with limit and offset applied.
 *
 * Shaped for large reads (a page of up to 5,000 entries, the CSV download's batches, the whole list):
 * decoding a row of text columns per entry in postgres.js was most of their time, so the database
 * sends one row of JSON arrays instead, which V8's native JSON.parse reads faster
 * (docs/decisions/006-load.md):
 * - only the per-entry columns, one array each; the store, location and product fields come once
 *   per location and product and are joined to the entries here: for a page, those its entries
 *   refer to; for a whole list, all of them (it refers to nearly all, and finding which, by
 *   hashing every entry's id, cost the database more than sending the few unused ones);
 * - one statement, so entries and those details come from one snapshot, as from a single join;
 * - the time as whole epoch seconds (to_char dropped the fractions too) and unit_price computed
 *   here: to_char and numeric division per row cost the database more than they cost JS.
 * The aggregates take no ORDER BY of their own: they read listed's rows in its id order, all of
 * them in the same pass, so the arrays line up. With one each (json_agg(x order by id)),
 * PostgreSQL before 16 sorted the rows once per aggregate, eight times over. The order is checked
 * here all the same, and restored if ever it is not.
 */
export async function listPriceEntries(sql: Db, filters: EntryFilters = {}, page: Page = {}): Promise<PriceEntry[]> {
  const paged = page.limit !== undefined || Boolean(page.offset) || filters.ids !== undefined;
  const [columns] = await sql<Array<EntryColumns | { id: null }>>`
    with listed as (
      select e.id, e.product_id, e.location_id, e.price, e.regular_price, e.in_stock, ${trendColumns(sql)},
             floor(date_part('epoch', e.observed_at)) as observed_at, e.source
      ${visibleEntries(sql, filters, { locationSet: paged })}
      order by e.id
      ${page.limit !== undefined ? sql`limit ${page.limit}` : sql``}
      ${page.offset ? sql`offset ${page.offset}` : sql``})
    select json_agg(id) as id,
           json_agg(product_id) as product_id,
           json_agg(location_id) as location_id,
           json_agg(price) as price,
           json_agg(regular_price) as regular_price,
           json_agg(in_stock) as in_stock,
           json_agg(trend_value) as trend_value,
           json_agg(trend_direction) as trend_direction,
           json_agg(observed_at) as observed_at,
           json_agg(source) as source,
           (select json_agg(json_build_array(l.id, l.store_id, s.store_name, l.region, l.zip, l.name, l.city, l.state))
              from store_locations l join stores s on s.id = l.store_id
              ${paged ? sql`where l.id in (select location_id from listed)` : sql``}) as locations,
           (select json_agg(json_build_array(p.id, p.egg_type, p.count, p.size_grade, p.url, p.title, p.brand))
              from products p
              ${paged ? sql`where p.id in (select product_id from listed)` : sql``}) as products
    from listed`;
  const c = columns!;
  if (c.id === null) return [];

  const locations = new Map(c.locations.map((l) => [l[0], l]));
  const products = new Map(c.products.map((p) => [p[0], p]));
  // Entries share few distinct times (a scrape run writes many at once): format each once.
  const times = new Map<number, string>();
  const entries = new Array<PriceEntry>(c.id.length);
  const order = idOrder(c.id);
  for (let n = 0; n < entries.length; n++) {
    const i = order ? order[n]! : n;
    const [, storeId, storeName, region, zip, locationName, city, state] = locations.get(c.location_id[i]!)!;
    const [, eggType, count, sizeGrade, url, title, brand] = products.get(c.product_id[i]!)!;
    const price = c.price[i]!;
    const observedAt = c.observed_at[i]!;
    let lastUpdated = times.get(observedAt);
    if (lastUpdated === undefined) {
      // 'YYYY-MM-DDTHH:MM:SSZ', UTC, whole seconds: the format to_char gave before.
      lastUpdated = `${new Date(observedAt * 1000).toISOString().slice(0, 19)}Z`;
      times.set(observedAt, lastUpdated);
    }
    // Same keys in the same order as the former single select.
    entries[n] = {
      id: c.id[i]!,
      store_id: storeId,
      store_name: storeName,
      region,
      zip,
      location_name: locationName,
      city,
      state,
      egg_type: eggType,
      count,
      price,
      regular_price: c.regular_price[i]!,
      unit_price: unitPrice(price, count),
      size_grade: sizeGrade,
      trend_value: c.trend_value[i]!,
      trend_direction: c.trend_direction[i]!,
      last_updated: lastUpdated,
      in_stock: c.in_stock[i]!,
      source_url: url,
      title,
      brand,
      source: c.source[i]!,
      product_id: c.product_id[i]!,
      location_id: c.location_id[i]!,
    };
  }
  return entries;
}

/** Entries per query of a streamed list (about 1 MB of CSV). */
export const ENTRY_BATCH_SIZE = 2000;

/**
 * The visible entries in id order, in batches, for a download of any size at constant memory:
 * the first batch from the offset, then each after the last id sent (keyset paging, so a batch
 * costs the same at the end of 300,000 entries as at the start). Each batch is its own query,
 * so no connection or snapshot is held while a slow client reads: an entry written during a long
 * download appears in it when its id comes after the batches already sent.
 */
export async function* priceEntryBatches(
  sql: Db,
  filters: EntryFilters = {},
  page: Page = {},
  batchSize = ENTRY_BATCH_SIZE,
): AsyncGenerator<PriceEntry[]> {
  let remaining = page.limit ?? Number.POSITIVE_INFINITY;
  let afterId: number | undefined;
  let offset = page.offset;
  while (remaining > 0) {
    const size = Math.min(batchSize, remaining);
    const batch = await listPriceEntries(sql, { ...filters, afterId }, { limit: size, offset });
    if (batch.length === 0) return;
    yield batch;
    remaining -= batch.length;
    if (batch.length < size) return;
    afterId = batch[batch.length - 1]!.id;
    offset = undefined;
  }
}

/** null when ids ascend already (as listed sends them), else the positions in ascending id order. */
function idOrder(ids: number[]): number[] | null {
  for (let i = 1; i < ids.length; i++) {
    if (ids[i]! <= ids[i - 1]!) return ids.map((_, k) => k).sort((a, b) => ids[a]! - ids[b]!);
  }
  return null;
}

/**
 * round(price / count, 4) exactly as PostgreSQL computes it on numeric (halves away from zero),
 * in integers: a price has two decimals (numeric(8,2)) and is positive (price_observations checks
 * it), so it is a whole number of cents.
 */
function unitPrice(price: number, count: number): number {
  const tenThousandths = Math.round(price * 100) * 100;
  let quotient = Math.floor(tenThousandths / count);
  if (2 * (tenThousandths - quotient * count) >= count) quotient += 1;
  // An integer over 10,000 is the nearest double to the 4-decimal value, as Number('0.1234') is.
  return quotient / 10000;
}

export interface Combination {
  store: string;
  region: Region;
  eggType: EggType;
  count: number;
  /** The store location the shopper is looking at (a price card's), preferred on a tie. */
  location?: number | undefined;
}

/**
 * The store's visible entry nearest to a combination: its observed price of that combination when
 * it has one, otherwise the basis of an estimate (src/shared/estimate.ts). Nearest means, in turn:
 * the same region and egg type, then the same region, then the same egg type (other types and
 * regions take the region multipliers of src/shared/estimate.ts); the nearest pack size (the smaller on a tie); the given
 * location; the latest observed. null when the store has no visible entry at all.
 */
export async function nearestEntry(sql: Db, wanted: Combination): Promise<PriceEntry | null> {
  const [nearest] = await sql<{ id: number }[]>`
    select e.id
    ${visibleEntries(sql, { store: wanted.store })}
    order by case when l.region = ${wanted.region} and p.egg_type = ${wanted.eggType} then 0
                  when l.region = ${wanted.region} then 1
                  when p.egg_type = ${wanted.eggType} then 2
                  else 3 end,
             abs(p.count - ${wanted.count}), p.count,
             e.location_id = ${wanted.location ?? null} desc nulls last,
             e.observed_at desc, e.id
    limit 1`;
  if (!nearest) return null;
  const [entry] = await listPriceEntries(sql, { id: nearest.id });
  return entry ?? null;
}

export async function countPriceEntries(sql: Db, filters: EntryFilters = {}): Promise<number> {
  const [row] = await sql<{ total: number }[]>`
    select count(*)::int as total
    ${visibleEntries(sql, filters)}`;
  return row!.total;
}

/**
 * Daily prices of the given entries over the last `days` days up to each entry's latest
 * observation, oldest first: the real history behind each price card's sparkline.
 */
export async function recentHistory(sql: Db, entryIds: number[], days = 7): Promise<Map<number, number[]>> {
  const history = new Map<number, number[]>();
  if (entryIds.length === 0) return history;
  const rows = await sql<{ id: number; prices: number[] }[]>`
    select e.id, array_agg(o.price order by o.observed_on) as prices
    from price_entries e
    join price_observations o on o.product_id = e.product_id and o.location_id = e.location_id
    where e.id = any(${sql.array(entryIds)}::int[])
      and o.observed_on > (e.observed_at at time zone 'UTC')::date - ${days}::int
    group by e.id`;
  for (const row of rows) history.set(row.id, row.prices.map(Number));
  return history;
}
