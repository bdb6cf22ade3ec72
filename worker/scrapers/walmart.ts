// Walmart: the store for a ZIP from the legacy grocery serviceAvailability call
// (UNCONFIRMED that it still exists, so any HTTP failure or an unknown body falls back to the
// location the search page itself names for the ZIP cookie), then the search page's server-rendered
// __NEXT_DATA__, page by page, pinned to that store with the assortmentStoreId cookie (and the ZIP
// cookie). Pagination: paginationV2.maxPage when the page has it (UNCONFIRMED on the page), the
// largest stack count (total results), an empty page, or a 4xx past page 1. Bot wall: PerimeterX
// "Robot or human?" with HTTP 200, detected by RetailerHttp from the body text.
import { z } from 'zod';
import { cleanText, nextData, toPrice, zip5 } from './parse-utils.ts';
import {
  ScrapeError,
  StructureError,
  type ListingPage,
  type NotOnShelf,
  type RawListing,
  type RetailerLocation,
  type RetailerScraper,
  type ScrapeContext,
  type DiscoveryAnswer,
  type DiscoveryPoint,
} from './types.ts';
import { discoveryAnswer } from './discovery.ts';

const ORIGIN = 'https://www.walmart.com';
/** Walmart serves at most 25 search pages. */
const WALMART_MAX_PAGES = 25;

// ---------------------------------------------------------------------------------------------
// Search page

const money = z.union([z.number(), z.string()]).nullish();
const structuredPrice = z.looseObject({ price: z.number().nullish(), priceString: z.string().nullish() });

const priceInfoSchema = z.looseObject({
  linePrice: money,
  itemPrice: money,
  // A string in the page data ("$219.99", "" when none), an object in the GraphQL body.
  wasPrice: z.union([z.number(), z.string(), structuredPrice]).nullish(),
  currentPrice: structuredPrice.nullish(),
  unitPrice: z.union([z.string(), structuredPrice]).nullish(),
});

const productSchema = z.looseObject({
  // "Product", or absent (a tile with usItemId and name is then taken as a product).
  __typename: z.string().nullish(),
  usItemId: z.union([z.string().min(1), z.number()]),
  name: z.string().min(1),
  brand: z.unknown().optional(),
  canonicalUrl: z.string().nullish(),
  price: money,
  priceInfo: priceInfoSchema.nullish(),
  availabilityStatusV2: z.looseObject({ value: z.string().nullish() }).nullish(),
  isOutOfStock: z.boolean().nullish(),
  catalogProductType: z.string().nullish(),
  // Who sells the offer and where it can be had (real pages: marketplace sellers' offers ship from
  // the seller, store id "0"; the store's own shelf has a PICKUP entry at the placed store).
  sellerId: z.string().nullish(),
  sellerName: z.string().nullish(),
  fulfillmentType: z.string().nullish(),
  fulfillmentSummary: z
    .array(z.looseObject({ fulfillment: z.string().nullish(), storeId: z.union([z.string(), z.number()]).nullish() }))
    .nullish(),
});
type WalmartProduct = z.infer<typeof productSchema>;

const tileSchema = z.looseObject({
  __typename: z.unknown().optional(),
  usItemId: z.unknown().optional(),
  name: z.unknown().optional(),
});

const stackSchema = z
  .looseObject({ items: z.array(tileSchema).nullish(), itemsV2: z.array(tileSchema).nullish() })
  .refine((stack) => Array.isArray(stack.items) || Array.isArray(stack.itemsV2), {
    message: 'has neither items nor itemsV2',
  });

// paginationV2 is read leniently (walmartMaxPage), never required.
const searchResultSchema = z.looseObject({ itemStacks: z.array(stackSchema) });

const locationSchema = z.looseObject({
  storeId: z.union([z.string(), z.number()]).nullish(),
  pickupStore: z.union([z.string(), z.number()]).nullish(),
  deliveryStore: z.union([z.string(), z.number()]).nullish(),
  postalCode: z.union([z.string(), z.number()]).nullish(),
  city: z.string().nullish(),
  stateOrProvinceCode: z.string().nullish(),
});

export interface WalmartSearchPage extends ListingPage {
  /** paginationV2.maxPage (a number or a numeric string), or null when the page has no readable one. */
  maxPage: number | null;
  /**
   * The total results: searchResult.aggregatedCount, else the largest stack total (a stack's `count`
   * or meta.totalItemCount); null when none is given. searchResult.count is the tiles on the page,
   * not a total, and an "Only at Walmart" carousel's count is its own few tiles.
   */
  totalResults: number | null;
  /** The location the page says it serves (pageMetadata.location), when it names one. */
  location: RetailerLocation | null;
}

/** The JSON of a search response: __NEXT_DATA__ of the HTML page, or a GraphQL-shaped JSON body. */
export function walmartSearchData(body: string): unknown {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      throw new StructureError('Walmart search JSON is unreadable');
    }
  }
  return nextData(body, 'Walmart search page');
}

/** A zod issue as a short lower-case detail ("itemStacks invalid input: expected array..."). */
function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  return `${issue.path.map(String).join('.') || 'body'} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
}

function path(value: unknown, keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Parses a Walmart search page (HTML with __NEXT_DATA__, or the GraphQL JSON body). `storeId` is
 * the store the visit is pinned to, used when the page names no store of its own.
 */
export function parseWalmartSearchPage(body: string, storeId: string | null = null): WalmartSearchPage {
  return parseWalmartSearchData(walmartSearchData(body), storeId);
}

export function parseWalmartSearchData(data: unknown, storeId: string | null = null): WalmartSearchPage {
  const rawResult =
    path(data, ['props', 'pageProps', 'initialData', 'searchResult']) ?? path(data, ['data', 'search', 'searchResult']);
  if (rawResult === undefined || rawResult === null)
    throw new StructureError('Walmart search data has no searchResult');
  const parsed = searchResultSchema.safeParse(rawResult);
  if (!parsed.success) {
    throw new StructureError(`Walmart searchResult: ${describeIssue(parsed.error.issues[0]!)}`);
  }
  const location = pageLocationOrNull(
    path(data, ['props', 'pageProps', 'initialData', 'pageMetadata', 'location']) ??
      path(data, ['data', 'contentLayout', 'pageMetadata', 'location']),
  );
  // Whose shelf the page shows: the store the page itself says it serves, else the pinned one.
  const shelfStore = location?.retailerLocationId ?? storeId;
  const listings: RawListing[] = [];
  let nonProductTiles = 0;
  let stackTotal: number | null = null;
  parsed.data.itemStacks.forEach((stack, stackIndex) => {
    const count = positiveInteger(stack.count) ?? positiveInteger(path(stack, ['meta', 'totalItemCount']));
    if (count !== null) stackTotal = Math.max(stackTotal ?? 0, count);
    const tiles = stack.items ?? stack.itemsV2 ?? [];
    tiles.forEach((tile, tileIndex) => {
      if (!isProductTile(tile)) {
        nonProductTiles++;
        return;
      }
      const product = productSchema.safeParse(tile);
      if (!product.success) {
        throw new StructureError(`Walmart item ${stackIndex}.${tileIndex}: ${describeIssue(product.error.issues[0]!)}`);
      }
      listings.push(walmartListing(product.data, shelfStore));
    });
  });
  return {
    listings,
    nonProductTiles,
    maxPage: positiveInteger(path(rawResult, ['paginationV2', 'maxPage'])),
    totalResults: positiveInteger(path(rawResult, ['aggregatedCount'])) ?? stackTotal,
    location,
  };
}

/**
 * A product: a usItemId, and either __typename "Product" or no __typename with a name. Explicit
 * other typenames (AdPlaceholder, TileTakeOverProductPlaceholder...) are non-product tiles.
 */
function isProductTile(tile: { __typename?: unknown; usItemId?: unknown; name?: unknown }): boolean {
  const id = tile.usItemId;
  if (id === undefined || id === null || id === '') return false;
  const typename = tile.__typename;
  if (typename === undefined || typename === null || typename === '')
    return typeof tile.name === 'string' && tile.name.trim() !== '';
  return typename === 'Product';
}

/** A positive whole number from a number or a numeric string ("3"); null otherwise. */
function positiveInteger(value: unknown): number | null {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}

/** The listings do not depend on the location: an odd one is no reason to fail a page. */
function pageLocationOrNull(value: unknown): RetailerLocation | null {
  try {
    return parseWalmartPageLocation(value);
  } catch (error) {
    if (error instanceof StructureError) return null;
    throw error;
  }
}

/** pageMetadata.location → a location, or null when it names neither a store nor a postal code. */
export function parseWalmartPageLocation(value: unknown): RetailerLocation | null {
  if (value === undefined || value === null) return null;
  const parsed = locationSchema.safeParse(value);
  if (!parsed.success)
    throw new StructureError('Walmart pageMetadata.location is not an object of the documented fields');
  const location = parsed.data;
  const id =
    [location.storeId, location.pickupStore, location.deliveryStore].map(nonEmpty).find((v) => v !== null) ?? null;
  const zip = zip5(location.postalCode);
  if (id === null && zip === null) return null;
  return {
    retailerLocationId: id,
    name: null,
    zip,
    city: location.city ? cleanText(location.city) : null,
    state: stateCode(location.stateOrProvinceCode),
    address: null,
    latitude: null,
    longitude: null,
  };
}

function nonEmpty(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}

function stateCode(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z]{2}$/.test(value.trim()) ? value.trim().toUpperCase() : null;
}

/** Walmart's own seller (sellerId on every item it sells itself, on pages of 2024 to 2026). */
const WALMART_SELLER_ID = 'F55CDC31AB754BB68FE0B39041159D63';

function isWalmartSeller(item: WalmartProduct): boolean | null {
  const name = item.sellerName?.trim().toLowerCase();
  if (name) return name === 'walmart.com' || name === 'walmart';
  const id = item.sellerId?.trim().toUpperCase();
  if (id) return id === WALMART_SELLER_ID;
  return null;
}

/**
 * Whether a tile is the placed store's own shelf (undefined) or not: a marketplace seller's offer
 * (a seller other than Walmart, or fulfilment type MARKETPLACE), or an item Walmart ships from its
 * warehouses that the store does not stock (no fulfilment entry at the store: only store "0", the
 * ship-to-home node; or fulfilment type FC with no entries). A tile with no fulfilment entries at
 * all is the store's when it says STORE (out of stock there: the entries go when stock does) or
 * says nothing (older page shapes carry no entries).
 */
export function walmartNotOnShelf(item: WalmartProduct, shelfStore: string | null): NotOnShelf | undefined {
  if (isWalmartSeller(item) === false || item.fulfillmentType?.toUpperCase() === 'MARKETPLACE') return 'marketplace';
  const entries = (item.fulfillmentSummary ?? []).map((entry) =>
    entry.storeId === null || entry.storeId === undefined ? '' : String(entry.storeId).trim(),
  );
  if (entries.length > 0) {
    const atStore = entries.some((id) => id !== '' && id !== '0' && (shelfStore === null || sameStore(id, shelfStore)));
    return atStore ? undefined : 'online-only';
  }
  return item.fulfillmentType?.toUpperCase() === 'FC' ? 'online-only' : undefined;
}

function walmartListing(item: WalmartProduct, shelfStore: string | null): RawListing {
  const id = String(item.usItemId);
  const title = cleanText(item.name);
  const info = item.priceInfo ?? null;
  const price =
    toPrice(item.price) ??
    toPrice(info?.linePrice) ??
    toPrice(info?.currentPrice?.price) ??
    toPrice(info?.currentPrice?.priceString);
  const wasRaw = info?.wasPrice;
  const was =
    wasRaw !== null && typeof wasRaw === 'object'
      ? (toPrice(wasRaw.price) ?? toPrice(wasRaw.priceString))
      : toPrice(wasRaw);
  // A non-empty wasPrice is a rollback: the regular price is the one it names.
  const regularPrice = was !== null && price !== null && was > price ? was : price;
  return {
    retailerProductId: id,
    title,
    brand: walmartBrand(item.brand, title),
    price,
    regularPrice,
    sizeText: null,
    category: item.catalogProductType ? cleanText(item.catalogProductType) || null : null,
    url: walmartUrl(item.canonicalUrl, id),
    inStock: walmartInStock(item),
    notOnShelf: walmartNotOnShelf(item, shelfStore),
  };
}

function walmartInStock(item: WalmartProduct): boolean | null {
  const value = item.availabilityStatusV2?.value?.toUpperCase();
  if (value === 'IN_STOCK') return true;
  if (value === 'OUT_OF_STOCK') return false;
  if (typeof item.isOutOfStock === 'boolean') return !item.isOutOfStock;
  return null;
}

function walmartUrl(canonicalUrl: string | null | undefined, id: string): string {
  if (canonicalUrl && canonicalUrl.trim() !== '') {
    try {
      const url = new URL(canonicalUrl.trim(), ORIGIN);
      if (url.hostname.endsWith('walmart.com')) return `${ORIGIN}${url.pathname}`;
    } catch {
      // Falls through to the id form.
    }
  }
  return `${ORIGIN}/ip/${encodeURIComponent(id)}`;
}

/** Brands whose titles start with their name (search items carry brand: null). Longest first. */
const KNOWN_BRANDS = [
  'Great Value',
  'Marketside',
  "Eggland's Best",
  'Egglands Best',
  'Vital Farms',
  "Pete and Gerry's",
  "Pete & Gerry's",
  'The Happy Egg Co.',
  'The Happy Egg Co',
  'Happy Egg Co.',
  'Happy Egg',
  "Nellie's Free Range",
  "Nellie's",
  "Land O'Lakes",
  'Land O Lakes',
  "Sauder's",
  'Organic Valley',
  'Simple Truth Organic',
  'Simple Truth',
  'NestFresh',
  'Nest Fresh',
  'Handsome Brook Farms',
  'Hillandale Farms',
  'Kirkland Signature',
  "Member's Mark",
  'Farmhouse Eggs',
  'Born Free',
  'Blue Sky Family Farms',
  'Egg Beaters',
  'JUST Egg',
  'Cadbury',
].sort((a, b) => b.length - a.length);

const normalise = (text: string) => text.replace(/[’‘`]/g, "'").toLowerCase();

/** item.brand when the page gives one, else a known brand the title starts with. */
export function walmartBrand(brand: unknown, title: string): string | null {
  if (typeof brand === 'string' && brand.trim() !== '') return cleanText(brand);
  const lowered = normalise(title);
  for (const name of KNOWN_BRANDS) {
    const key = normalise(name);
    if (lowered.startsWith(key) && !/[a-z0-9]/i.test(lowered.charAt(key.length))) return title.slice(0, key.length);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// serviceAvailability (ZIP → store)

const addressSchema = z.looseObject({
  line1: z.string().nullish(),
  addressLineOne: z.string().nullish(),
  address1: z.string().nullish(),
  addressLine1: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  postalCode: z.union([z.string(), z.number()]).nullish(),
  zipCode: z.union([z.string(), z.number()]).nullish(),
  zip: z.union([z.string(), z.number()]).nullish(),
});

const accessPointSchema = z.looseObject({
  assortmentStoreId: z.union([z.string().min(1), z.number()]),
  name: z.string().nullish(),
  accessPointName: z.string().nullish(),
  storeName: z.string().nullish(),
  displayName: z.string().nullish(),
  address: addressSchema.nullish(),
  postalCode: z.union([z.string(), z.number()]).nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
});

const serviceAvailabilitySchema = z.looseObject({ accessPointList: z.array(z.unknown()) });

const hasAssortmentStoreId = (entry: unknown): boolean => {
  const id =
    entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).assortmentStoreId : undefined;
  return (typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id));
};

/**
 * The serviceAvailability body → the store of the first access point that has an
 * assortmentStoreId, null when the list is empty, or undefined when the body is not the
 * documented structure (the caller then falls back).
 */
export function parseWalmartServiceAvailability(body: string): RetailerLocation | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = serviceAvailabilitySchema.safeParse(value);
  if (!parsed.success) return undefined;
  const list = parsed.data.accessPointList;
  if (list.length === 0) return null;
  const first = list.find(hasAssortmentStoreId);
  if (first === undefined) return undefined;
  const point = accessPointSchema.safeParse(first);
  if (!point.success) return undefined;
  const p = point.data;
  const address = p.address ?? null;
  const line1 = address?.line1 ?? address?.addressLineOne ?? address?.addressLine1 ?? address?.address1 ?? null;
  const name = p.name ?? p.accessPointName ?? p.storeName ?? p.displayName ?? null;
  const city = address?.city ?? p.city ?? null;
  return {
    retailerLocationId: String(p.assortmentStoreId).trim(),
    name: name ? cleanText(name) || null : null,
    zip: zip5(address?.postalCode ?? address?.zipCode ?? address?.zip ?? p.postalCode),
    city: city ? cleanText(city) || null : null,
    state: stateCode(address?.state ?? p.state),
    address: line1 ? cleanText(line1) || null : null,
    latitude: null,
    longitude: null,
  };
}

/**
 * How far the placement call looks for a store: an empty answer proves no store within it. Not
 * documented; the figure the stand-in answers by (test/retailers/network.ts).
 */
export const WALMART_PLACEMENT_REACH_MILES = 100;

/**
 * A serviceAvailability answer for discovery: the store it places the ZIP at (nearest only) and
 * what that proves: no other store nearer than it. Access points carry no coordinates or distance,
 * so the distance is a lower bound from the store's ZIP code (its centre less a margin). A body
 * that is not the documented structure is a StructureError here (discovery has no fallback page).
 */
export function parseWalmartDiscovery(body: string, point: DiscoveryPoint): DiscoveryAnswer {
  const location = parseWalmartServiceAvailability(body);
  if (location === undefined)
    throw new StructureError('Walmart serviceAvailability without accessPointList[].assortmentStoreId');
  return discoveryAnswer(point, location ? [{ location }] : [], WALMART_PLACEMENT_REACH_MILES);
}

async function discover(point: DiscoveryPoint, ctx: ScrapeContext): Promise<DiscoveryAnswer> {
  const url = `${ORIGIN}/grocery/v4/api/serviceAvailability?${new URLSearchParams({ postalCode: point.zip }).toString()}`;
  const response = await ctx.http.request({ url, headers: { accept: 'application/json' } });
  return parseWalmartDiscovery(response.body, point);
}

/** The cookie that carries a visitor's ZIP (base64 JSON, as the site's own locGuestData). */
export function walmartZipCookies(zip: string): Record<string, string> {
  const data = { intent: 'PICKUP', isExplicit: true, isDefaulted: false, postalCode: { base: zip, timestamp: 0 } };
  return { locGuestData: Buffer.from(JSON.stringify(data)).toString('base64') };
}

/** A ScrapeError of kind 'http' for a 4xx answer (RetailerHttp's "answered HTTP 404 for ...", "(HTTP 401)"). */
function isClientError(error: unknown): boolean {
  return error instanceof ScrapeError && error.kind === 'http' && /\bHTTP 4\d\d\b/.test(error.message);
}

/** Walmart's documented default for visitors it cannot place (one documented session). */
const DEFAULT_ZIP = '95829';
const DEFAULT_STORE = '3081';

/** Store ids compared as Walmart numbers them ("03081" and 3081 are one store). */
function sameStore(a: string, b: string): boolean {
  const norm = (id: string) => (/^\d+$/.test(id.trim()) ? String(Number(id.trim())) : id.trim());
  return norm(a) === norm(b);
}

/** The page placed the visit at Walmart's default store, not near the ZIP asked for. */
function isDefaultPlacement(location: RetailerLocation, zip: string): boolean {
  const isDefault =
    location.zip === DEFAULT_ZIP ||
    (location.retailerLocationId !== null && sameStore(location.retailerLocationId, DEFAULT_STORE));
  if (!isDefault) return false;
  const area = zip.slice(0, 3);
  if (DEFAULT_ZIP.startsWith(area)) return false;
  // A store 3081 the page itself places in the ZIP's area is not the default placement.
  return location.zip === null || !location.zip.startsWith(area);
}

function searchUrl(term: string, page: number, storeId: string | null): string {
  const params = new URLSearchParams({ q: term, page: String(page), sort: 'best_match', affinityOverride: 'default' });
  if (storeId) params.set('stores', storeId);
  return `${ORIGIN}/search?${params.toString()}`;
}

async function locate(zip: string, ctx: ScrapeContext): Promise<RetailerLocation | null> {
  const url = `${ORIGIN}/grocery/v4/api/serviceAvailability?${new URLSearchParams({ postalCode: zip }).toString()}`;
  let located: RetailerLocation | null | undefined;
  try {
    const response = await ctx.http.request({ url, headers: { accept: 'application/json' } });
    located = parseWalmartServiceAvailability(response.body);
  } catch (error) {
    // The call may be gone or changed (any HTTP failure); a bot wall or a rate limit is no reason to fall back.
    if (!(error instanceof ScrapeError && error.kind === 'http')) throw error;
    located = undefined;
  }
  if (located !== undefined) return located;

  // Fallback: the search page names the store it serves for the ZIP in the cookies.
  const response = await ctx.http.request({ url: searchUrl(ctx.term, 1, null), cookies: walmartZipCookies(zip) });
  const page = parseWalmartSearchPage(response.body);
  if (page.location && isDefaultPlacement(page.location, zip)) {
    throw new ScrapeError(
      'no-store',
      `Walmart did not place the visit near ${zip} (it answered with its default store ${DEFAULT_STORE}, Sacramento)`,
    );
  }
  return (
    page.location ?? {
      // Walmart then prices by its own placement; the caller uses the requested ZIP.
      retailerLocationId: null,
      name: null,
      zip: null,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    }
  );
}

async function* listings(location: RetailerLocation, zip: string, ctx: ScrapeContext): AsyncGenerator<ListingPage> {
  const storeId = location.retailerLocationId;
  const cookies = { ...walmartZipCookies(zip), ...(storeId ? { assortmentStoreId: storeId, hasLocData: '1' } : {}) };
  let last = Math.min(ctx.maxPages, WALMART_MAX_PAGES);
  // Results seen, each once: sponsored tiles and the "Only at Walmart" carousel repeat results,
  // and counting repeats against the total would stop before the last page.
  const seen = new Set<string>();
  let total: number | null = null;
  for (let page = 1; page <= last; page++) {
    let response;
    try {
      response = await ctx.http.request({ url: searchUrl(ctx.term, page, storeId), cookies });
    } catch (error) {
      // Past page 1, a 4xx is the end of the results: the pages read are kept.
      if (page > 1 && isClientError(error)) return;
      throw error;
    }
    const parsed = parseWalmartSearchPage(response.body, storeId);
    const served = parsed.location?.retailerLocationId ?? null;
    if (storeId && served && !sameStore(served, storeId))
      throw new ScrapeError('http', `Walmart served store ${served}, not the located store ${storeId}`);
    if (page === 1 && parsed.listings.length === 0 && parsed.nonProductTiles > 0) {
      throw new StructureError(
        `Walmart search page 1 has ${parsed.nonProductTiles} tiles but not one product could be read`,
      );
    }
    yield { listings: parsed.listings, nonProductTiles: parsed.nonProductTiles };
    if (parsed.listings.length === 0) return;
    for (const listing of parsed.listings) seen.add(listing.retailerProductId);
    if (parsed.totalResults !== null) total = Math.max(total ?? 0, parsed.totalResults);
    if (total !== null && seen.size >= total) return;
    if (parsed.maxPage !== null) last = Math.min(last, parsed.maxPage);
  }
}

export const walmart: RetailerScraper = {
  store: 'walmart',
  storeName: 'Walmart',
  origins: [ORIGIN],
  locate,
  discovery: { reachMiles: WALMART_PLACEMENT_REACH_MILES, discover },
  listings,
};
