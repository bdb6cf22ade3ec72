// Target: RedSky JSON with the public web key Target ships in its own front
// end (TARGET_API_KEY, else read from www.target.com at run time and kept for the run). The store for
// a ZIP comes from nearby_stores_v1; listings from plp_search_v2 priced at that store, paged by the
// unsponsored products each page returns (sponsored tiles ride on top of a page, uncounted by
// metadata.count and offset); stock, which the plp body lacks, from one
// product_summary_with_fulfillment_v1 call per page, read for that store only.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseJsonBody, type HttpResponse, type RetailerHttp } from './http.ts';
import { cleanText, toNumberOrNull, toPrice, zip5 } from './parse-utils.ts';
import { usStateCode } from '#server/geo.ts';
import {
  ConfigError,
  ScrapeError,
  StructureError,
  type ListingPage,
  type RawListing,
  type RetailerLocation,
  type RetailerScraper,
  type ScrapeContext,
  type DiscoveryAnswer,
  type DiscoveryPoint,
} from './types.ts';
import { discoveryAnswer } from './discovery.ts';

const WWW = 'https://www.target.com';
const REDSKY = 'https://redsky.target.com';
export const TARGET_PAGE_SIZE = 24;
const REDSKY_HEADERS = { accept: 'application/json', origin: WWW, referer: `${WWW}/` };

// ---------------------------------------------------------------------------------------------
// Web key

/**
 * The 40-hex RedSky key in target.com's HTML: a key= parameter of a RedSky URL (the key the site
 * itself sends), else an "apiKey"-like field of the inline config (apiKey, API_KEY, api_key, any
 * case, plain or JSON-escaped inside a JSON.parse("...") string), else a bare "key" field.
 */
export function extractTargetApiKey(html: string): string | null {
  const patterns = [
    /redsky[^"'\s<>]*?(?:[?&]|\\u0026)(?:amp;)?(key)=([0-9a-f]{40})(?![0-9a-f])/i,
    /\\*["']([A-Za-z_-]*api[_-]?key)\\*["']\s*:\s*\\*["']([0-9a-f]{40})\\*["']/i,
    /\b([A-Za-z_]*api_?key)\s*[:=]\s*["']([0-9a-f]{40})["']/i,
    /\\*["'](key)\\*["']\s*:\s*\\*["']([0-9a-fA-F]{40})\\*["']/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(html);
    if (match?.[2]) return match[2];
  }
  return null;
}

interface TargetRun {
  /** The key read from target.com for this run (not the configured one). */
  siteKey: string | null;
  visitorId: string;
}

/** Per run: RetailerHttp is built once per run, so the key is read once and reused by every ZIP. */
const runs = new WeakMap<RetailerHttp, TargetRun>();

function runOf(ctx: ScrapeContext): TargetRun {
  let run = runs.get(ctx.http);
  if (!run) {
    run = { siteKey: null, visitorId: randomBytes(16).toString('hex').toUpperCase() };
    runs.set(ctx.http, run);
  }
  return run;
}

async function apiKey(ctx: ScrapeContext): Promise<string> {
  const configured = ctx.credentials.targetApiKey?.trim();
  if (configured) return configured;
  const run = runOf(ctx);
  if (run.siteKey) return run.siteKey;
  const response = await ctx.http.request({ url: `${WWW}/` });
  const key = extractTargetApiKey(response.body);
  if (!key) throw new ConfigError("Target's web API key was not found on target.com; set TARGET_API_KEY");
  run.siteKey = key;
  return key;
}

function isHttpStatus(error: unknown, status: number): boolean {
  return (
    error instanceof ScrapeError && error.kind === 'http' && new RegExp(`\\bHTTP ${status}\\b`).test(error.message)
  );
}

/** A RedSky GET; a key read earlier in the run that RedSky now refuses (401) is read again once. */
async function redsky(ctx: ScrapeContext, url: (key: string, visitorId: string) => string): Promise<HttpResponse> {
  const run = runOf(ctx);
  const wasCached = run.siteKey !== null && !ctx.credentials.targetApiKey?.trim();
  const key = await apiKey(ctx);
  try {
    return await ctx.http.request({ url: url(key, run.visitorId), headers: REDSKY_HEADERS });
  } catch (error) {
    if (!isHttpStatus(error, 401) || ctx.credentials.targetApiKey?.trim()) throw error;
    run.siteKey = null;
    if (!wasCached) throw error;
    const fresh = await apiKey(ctx);
    return ctx.http.request({ url: url(fresh, run.visitorId), headers: REDSKY_HEADERS });
  }
}

function query(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== null && value !== undefined) search.set(name, value);
  return search.toString();
}

// ---------------------------------------------------------------------------------------------
// nearby_stores_v1

const idSchema = z.union([z.string().min(1), z.number()]);

const nearbyStoreSchema = z.looseObject({
  store_id: idSchema,
  location_name: z.string().nullish(),
  distance: z.union([z.number(), z.string()]).nullish(),
  status: z.string().nullish(),
  mailing_address: z
    .looseObject({
      address_line1: z.string().nullish(),
      city: z.string().nullish(),
      state: z.string().nullish(),
      region: z.string().nullish(),
      postal_code: z.union([z.string(), z.number()]).nullish(),
    })
    .nullish(),
});

const nearbyStoresSchema = z.looseObject({
  data: z.looseObject({
    nearby_stores: z.looseObject({ stores: z.array(nearbyStoreSchema).nullish() }),
  }),
});

/**
 * The store for the ZIP: the first open one (status "Open" in any case), else the first; null when
 * none. Real bodies give the state's full name in `state` ("Utah") and its code in `region` ("UT"),
 * a ZIP+4 postal code, and a `location_name` that is the store's name, not its city ("Killingly" in
 * Dayville, CT). They carry no coordinates (only store_location_v1 does): the pipeline places the
 * store at its ZIP code's centre.
 */
export function parseTargetNearbyStores(body: string): RetailerLocation | null {
  const parsed = parseJsonBody(body, nearbyStoresSchema, 'Target nearby_stores_v1');
  const stores = parsed.data.nearby_stores.stores ?? [];
  const store = stores.find((s) => s.status?.trim().toLowerCase() === 'open') ?? stores[0];
  return store ? targetLocation(store) : null;
}

function targetLocation(store: z.infer<typeof nearbyStoreSchema>): RetailerLocation {
  const address = store.mailing_address ?? null;
  return {
    retailerLocationId: String(store.store_id),
    name: store.location_name ? cleanText(store.location_name) || null : null,
    zip: zip5(address?.postal_code),
    city: address?.city ? cleanText(address.city) || null : null,
    state: usStateCode(address?.region) ?? usStateCode(address?.state),
    address: address?.address_line1 ? cleanText(address.address_line1) || null : null,
    latitude: null,
    longitude: null,
  };
}

/** nearby_stores_v1's limits as discovery asks them: `limit` 20 (real bodies list 15 or 20) `within` 100 miles. */
export const TARGET_NEARBY_LIMIT = 20;
export const TARGET_NEARBY_WITHIN = 100;

/**
 * Every store of a nearby_stores_v1 answer and what it proves around the point (`within` when it
 * lists none, else its farthest store's `distance`, worker/scrapers/discovery.ts). Stores whose
 * status is not "Open" are left out (they are not shopped), but still bound the proof.
 */
export function parseTargetDiscovery(body: string, point: DiscoveryPoint, withinMiles: number): DiscoveryAnswer {
  const parsed = parseJsonBody(body, nearbyStoresSchema, 'Target nearby_stores_v1');
  const records = (parsed.data.nearby_stores.stores ?? []).map((record) => ({
    location: targetLocation(record),
    answeredMiles: toNumberOrNull(record.distance),
    open: record.status == null || record.status.trim().toLowerCase() === 'open',
  }));
  return discoveryAnswer(point, records, withinMiles);
}

// ---------------------------------------------------------------------------------------------
// plp_search_v2

const amount = z.union([z.number(), z.string()]).nullish();

const priceSchema = z.looseObject({
  current_retail: amount,
  current_retail_min: amount,
  current_retail_max: amount,
  reg_retail: amount,
  reg_retail_min: amount,
  reg_retail_max: amount,
  formatted_current_price: z.string().nullish(),
  formatted_current_price_type: z.string().nullish(),
  formatted_comparison_price: z.string().nullish(),
  formatted_comparison_price_type: z.string().nullish(),
  display_was_now: z.boolean().nullish(),
  location_id: z.union([z.string(), z.number()]).nullish(),
});

const productSchema = z.looseObject({
  tcin: idSchema,
  item: z.looseObject({
    product_description: z.looseObject({ title: z.string() }),
    primary_brand: z.looseObject({ name: z.string().nullish() }).nullish(),
    enrichment: z.looseObject({ buy_url: z.string().nullish() }).nullish(),
    product_classification: z
      .looseObject({ item_type: z.looseObject({ name: z.string().nullish() }).nullish() })
      .nullish(),
  }),
  price: priceSchema.nullish(),
  is_sponsored_sku: z.boolean().nullish(),
});
type TargetProduct = z.infer<typeof productSchema>;

const count = z.union([z.number(), z.string()]).nullish();
const searchSchema = z.looseObject({
  data: z.looseObject({
    search: z.looseObject({
      search_response: z.looseObject({
        metadata: z
          .looseObject({ count, current_page: count, offset: count, total_pages: count, total_results: count })
          .nullish(),
      }),
      // Required: a body without it is not a page of no results. An entry without a readable
      // title is a non-product tile; one with a title must be a product (tcin, item...).
      products: z.array(z.unknown()),
    }),
  }),
});

export interface TargetSearchPage extends ListingPage {
  totalPages: number | null;
  totalResults: number | null;
  /** Page size the response reports (metadata.count). */
  count: number | null;
  /** Entries of data.search.products, sponsored and non-product tiles included. */
  returned: number;
  /**
   * Entries not flagged `is_sponsored_sku: true` (real bodies leave the key out on unsponsored
   * products): the next page starts this many further on. Sponsored tiles are extra: a real page
   * held 30 products, 6 of them sponsored, for metadata.count 24 and offset 0.
   */
  unsponsored: number;
}

const isSponsored = (entry: unknown): boolean =>
  entry !== null && typeof entry === 'object' && (entry as { is_sponsored_sku?: unknown }).is_sponsored_sku === true;

/** The product's title when it is a non-empty string once decoded, else null (not a product). */
function readableTitle(product: unknown): string | null {
  const item = product !== null && typeof product === 'object' ? (product as { item?: unknown }).item : undefined;
  const description =
    item !== null && typeof item === 'object'
      ? (item as { product_description?: unknown }).product_description
      : undefined;
  const title =
    description !== null && typeof description === 'object' ? (description as { title?: unknown }).title : undefined;
  return typeof title === 'string' && cleanText(title) !== '' ? title : null;
}

/**
 * One plp_search_v2 page priced for `storeId` (null: the store is not known, every price is taken).
 * A sponsored tile is read like any product (it is priced at the store too); a repeat of a product
 * already read is counted once by the pipeline, which dedupes by tcin.
 */
export function parseTargetSearch(body: string, storeId: string | null = null): TargetSearchPage {
  const parsed = parseJsonBody(body, searchSchema, 'Target plp_search_v2');
  const metadata = parsed.data.search.search_response.metadata ?? null;
  const products = parsed.data.search.products;
  const listings: RawListing[] = [];
  let nonProductTiles = 0;
  products.forEach((entry, index) => {
    if (readableTitle(entry) === null) {
      nonProductTiles++;
      return;
    }
    const product = productSchema.safeParse(entry);
    if (!product.success) {
      const issue = product.error.issues[0]!;
      throw new StructureError(
        `Target plp_search_v2: ${['data', 'search', 'products', index, ...issue.path].map(String).join('.')} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`,
      );
    }
    listings.push(targetListing(product.data, storeId));
  });
  return {
    listings,
    nonProductTiles,
    totalPages: toNumberOrNull(metadata?.total_pages),
    totalResults: toNumberOrNull(metadata?.total_results),
    count: toNumberOrNull(metadata?.count),
    returned: products.length,
    unsponsored: products.filter((entry) => !isSponsored(entry)).length,
  };
}

/**
 * Shelf and regular price of a plp price object. The shelf price is `current_retail` (the lowest
 * variant's for a variation parent), never the Target Circle member price nested in
 * `discount_price_circle_base`, which not every shopper pays. A "was" price the tile displays
 * (`display_was_now` with a comparison price of type "reg") is the regular price the shopper is
 * shown, above `reg_retail`, which then equals the current price; a comparison of type "MSRP" is
 * the maker's list price, never a shelf price this store charged.
 */
export function targetPrices(price: TargetProduct['price']): { price: number | null; regularPrice: number | null } {
  if (!price) return { price: null, regularPrice: null };
  const variationParent = price.current_retail === undefined || price.current_retail === null;
  const current =
    toPrice(price.current_retail) ?? toPrice(price.current_retail_min) ?? toPrice(price.formatted_current_price);
  const comparison =
    price.formatted_comparison_price_type?.trim().toLowerCase() === 'reg'
      ? toPrice(price.formatted_comparison_price)
      : null;
  if (price.display_was_now === true && current !== null && comparison !== null && comparison > current)
    return { price: current, regularPrice: comparison };
  let regular = toPrice(price.reg_retail);
  if (regular === null && variationParent) {
    const regMin = toPrice(price.reg_retail_min);
    const regMax = toPrice(price.reg_retail_max);
    const currentMax = toPrice(price.current_retail_max);
    // A parent whose dearest variant sells at its regular price is not on sale.
    regular = regMin ?? (regMax !== null && currentMax !== null && regMax <= currentMax ? current : regMax);
  }
  if (regular === null) regular = comparison;
  const type = price.formatted_current_price_type?.toLowerCase() ?? null;
  if (regular === null && (type === null || type === 'reg')) regular = current;
  return { price: current, regularPrice: regular };
}

function targetUrl(buyUrl: string | null | undefined, tcin: string): string {
  if (buyUrl && buyUrl.trim() !== '') {
    try {
      const url = new URL(buyUrl.trim(), WWW);
      if (url.hostname === 'www.target.com' || url.hostname === 'target.com') return `${WWW}${url.pathname}`;
    } catch {
      // Falls through to the tcin form.
    }
  }
  return `${WWW}/p/-/A-${encodeURIComponent(tcin)}`;
}

function targetListing(product: TargetProduct, storeId: string | null): RawListing {
  const tcin = String(product.tcin);
  const { item } = product;
  // RedSky prices an item the store does not carry at another location (3991, target.com's online
  // one, in real bodies asked for store 1771): a price, but not this store's shelf price.
  const pricedElsewhere =
    storeId !== null &&
    product.price?.location_id !== undefined &&
    product.price.location_id !== null &&
    !sameStore(product.price.location_id, storeId);
  const brand = item.primary_brand?.name ? cleanText(item.primary_brand.name) : '';
  const category = item.product_classification?.item_type?.name
    ? cleanText(item.product_classification.item_type.name)
    : '';
  return {
    retailerProductId: tcin,
    title: cleanText(item.product_description.title),
    brand: brand || null,
    ...targetPrices(product.price),
    sizeText: null,
    category: category || null,
    url: targetUrl(item.enrichment?.buy_url, tcin),
    inStock: null,
    ...(pricedElsewhere ? { notOnShelf: 'online-only' as const } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// product_summary_with_fulfillment_v1

const statusSchema = z.looseObject({ availability_status: z.string().nullish() }).nullish();
const fulfillmentSchema = z.looseObject({
  data: z.looseObject({
    product_summaries: z.array(
      z.looseObject({
        tcin: idSchema,
        fulfillment: z
          .looseObject({
            sold_out: z.boolean().nullish(),
            is_out_of_stock_in_all_store_locations: z.boolean().nullish(),
            store_options: z
              .array(
                z.looseObject({
                  location_id: z.union([z.string(), z.number()]).nullish(),
                  in_store_only: statusSchema,
                  order_pickup: statusSchema,
                  location_available_to_promise_quantity: z.union([z.number(), z.string()]).nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
      }),
    ),
  }),
});

// Statuses about the stock. Any other, UNAVAILABLE above all, says nothing about the shelf: it is the
// fulfilment service's state (a real body answers pickup UNAVAILABLE beside in-store OUT_OF_STOCK,
// and scheduled delivery UNAVAILABLE for one item where other items with no stock say
// OUT_OF_STOCK), so the next field of the store's option decides, else the stock is unknown.
const IN_STOCK = new Set(['IN_STOCK', 'LIMITED_STOCK', 'LOW_STOCK']);
const OUT_OF_STOCK = new Set(['OUT_OF_STOCK', 'SOLD_OUT']);

function statusStock(status: string | null | undefined): boolean | null {
  const value = (status ?? '').trim().toUpperCase();
  if (IN_STOCK.has(value)) return true;
  if (OUT_OF_STOCK.has(value)) return false;
  return null;
}

function quantityStock(quantity: number | string | null | undefined): boolean | null {
  const n = toNumberOrNull(quantity);
  if (n === null) return null;
  if (n > 0) return true;
  return n === 0 ? false : null;
}

/** Store ids compared as numbers when they are numeric ("0095" and 95 are one store). */
function sameStore(a: string | number | null | undefined, b: string): boolean {
  if (a === null || a === undefined) return false;
  const norm = (id: string) => (/^\d+$/.test(id) ? String(Number(id)) : id);
  return norm(String(a).trim()) === norm(b.trim());
}

/**
 * tcin → in stock at the store (true/false), or null when the summary does not say. Our store's
 * option is read (in_store_only, then order_pickup, then location_available_to_promise_quantity);
 * another store's stock is never used. Out of stock everywhere or sold out answers false.
 */
export function parseTargetFulfillment(body: string, storeId: string | null): Map<string, boolean | null> {
  const parsed = parseJsonBody(body, fulfillmentSchema, 'Target product_summary_with_fulfillment_v1');
  const stock = new Map<string, boolean | null>();
  for (const summary of parsed.data.product_summaries) {
    const fulfillment = summary.fulfillment;
    let inStock: boolean | null = null;
    if (fulfillment) {
      const option =
        storeId === null ? undefined : (fulfillment.store_options ?? []).find((o) => sameStore(o.location_id, storeId));
      if (fulfillment.is_out_of_stock_in_all_store_locations === true) inStock = false;
      else if (option)
        inStock =
          statusStock(option.in_store_only?.availability_status) ??
          statusStock(option.order_pickup?.availability_status) ??
          quantityStock(option.location_available_to_promise_quantity);
      if (inStock === null && fulfillment.sold_out === true) inStock = false;
    }
    stock.set(String(summary.tcin), inStock);
  }
  return stock;
}

// ---------------------------------------------------------------------------------------------
// The scraper

async function locate(zip: string, ctx: ScrapeContext): Promise<RetailerLocation | null> {
  const build = (variant: 'web' | 'web_platform') => (key: string, visitorId: string) =>
    `${REDSKY}/redsky_aggregations/v1/${variant}/nearby_stores_v1?${query({ key, channel: 'WEB', place: zip, limit: '5', within: '100', visitor_id: visitorId, page: `/s/${ctx.term}` })}`;
  let response: HttpResponse;
  try {
    response = await redsky(ctx, build('web'));
  } catch (error) {
    if (!isHttpStatus(error, 404)) throw error;
    // The older path of the same service.
    response = await redsky(ctx, build('web_platform'));
  }
  return parseTargetNearbyStores(response.body);
}

async function discover(point: DiscoveryPoint, ctx: ScrapeContext): Promise<DiscoveryAnswer> {
  const asked = { limit: TARGET_NEARBY_LIMIT, radiusMiles: TARGET_NEARBY_WITHIN };
  const response = await redsky(
    ctx,
    (key, visitorId) =>
      `${REDSKY}/redsky_aggregations/v1/web/nearby_stores_v1?${query({ key, channel: 'WEB', place: point.zip, limit: String(asked.limit), within: String(asked.radiusMiles), visitor_id: visitorId, page: `/s/${ctx.term}` })}`,
  );
  return parseTargetDiscovery(response.body, point, asked.radiusMiles);
}

async function stockOf(
  ctx: ScrapeContext,
  tcins: string[],
  storeId: string | null,
  zip: string,
): Promise<Map<string, boolean | null>> {
  if (tcins.length === 0) return new Map();
  try {
    const response = await redsky(
      ctx,
      (key, visitorId) =>
        `${REDSKY}/redsky_aggregations/v1/web/product_summary_with_fulfillment_v1?${query({
          key,
          visitor_id: visitorId,
          tcins: tcins.join(','),
          store_id: storeId,
          pricing_store_id: storeId,
          required_store_id: storeId,
          scheduled_delivery_store_id: storeId,
          zip,
          channel: 'WEB',
          page: `/p/A-${tcins[0]}`,
        })}`,
    );
    return parseTargetFulfillment(response.body, storeId);
  } catch (error) {
    // Stock is a bonus: without it the listings keep inStock null. A block still fails the ZIP.
    if (error instanceof ScrapeError && error.kind !== 'blocked' && error.kind !== 'aborted' && error.kind !== 'config')
      return new Map();
    throw error;
  }
}

/** Smallest page size documented for plp_search_v2 (5, 24 and 28 are seen). */
const SMALLEST_PAGE_SIZE = 5;

async function* listings(location: RetailerLocation, zip: string, ctx: ScrapeContext): AsyncGenerator<ListingPage> {
  const storeId = location.retailerLocationId;
  let offset = 0;
  let largestPage = 0;
  for (let page = 0; page < ctx.maxPages; page++) {
    const response = await redsky(
      ctx,
      (key, visitorId) =>
        `${REDSKY}/redsky_aggregations/v1/web/plp_search_v2?${query({
          key,
          keyword: ctx.term,
          page: `/s/${ctx.term}`,
          channel: 'WEB',
          platform: 'desktop',
          count: String(TARGET_PAGE_SIZE),
          offset: String(offset),
          pricing_store_id: storeId,
          store_ids: storeId,
          scheduled_delivery_store_id: storeId,
          visitor_id: visitorId,
          default_purchasability_filter: 'true',
          include_sponsored: 'true',
          include_dmc_dmr: 'true',
          zip,
        })}`,
    );
    const parsed = parseTargetSearch(response.body, storeId);
    if (page === 0 && parsed.returned > 0 && parsed.listings.length === 0) {
      throw new StructureError(`Target plp_search_v2: ${parsed.returned} products but not one with a readable title`);
    }
    // Stock of the store's own shelf, each tcin once (a sponsored tile may repeat a product).
    const shelf = new Set(parsed.listings.filter((l) => !l.notOnShelf).map((l) => l.retailerProductId));
    const stock = await stockOf(ctx, [...shelf], storeId, zip);
    const pageListings = parsed.listings.map((listing) => ({
      ...listing,
      inStock: stock.get(listing.retailerProductId) ?? null,
    }));
    yield { listings: pageListings, nonProductTiles: parsed.nonProductTiles };
    // Sponsored tiles do not move the offset: counting them would skip as many results.
    const returned = parsed.unsponsored;
    if (returned === 0) return;
    offset += returned;
    // Without metadata the page size is the one reported, else the largest page seen so far (the
    // server may answer 5 or 28 whatever count asked): a page shorter than that is the last.
    const pageSize =
      parsed.count !== null && parsed.count > 0 ? parsed.count : Math.max(largestPage, SMALLEST_PAGE_SIZE);
    largestPage = Math.max(largestPage, returned);
    const more =
      parsed.totalResults !== null
        ? offset < parsed.totalResults
        : parsed.totalPages !== null
          ? page + 1 < parsed.totalPages
          : returned >= pageSize;
    if (!more) return;
  }
}

export const target: RetailerScraper = {
  store: 'target',
  storeName: 'Target',
  origins: [WWW, REDSKY],
  locate,
  listings,
  discovery: { reachMiles: TARGET_NEARBY_WITHIN, discover },
};
