// Whole Foods Market: the store finder (POST /stores/search: a ZIP code's
// store, and every store near it for discovery) and the keyword search JSON (/api/search), no key. Prices come only with store=; list results carry no stock
// flag and no pack-size field besides `uom`. Stock comes from /api/wwos/products with the store's
// code (its offer listing discriminator), read from a product page rendered for that store. When
// /api/search is gone, the newer search (/api/wwos/rsi/search, ASINs only) with /api/wwos/products
// (names, prices, stock) is read instead.
import { z } from 'zod';
import { parseJsonBody, parseValue, type RetailerHttp } from './http.ts';
import { cleanText, nextData, toNumberOrNull, toPrice, zip5 } from './parse-utils.ts';
import {
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
import { usStateCode } from '#server/geo.ts';
import { discoveryAnswer } from './discovery.ts';

export const WHOLE_FOODS_ORIGIN = 'https://www.wholefoodsmarket.com';
/** Results per search page (the site's own page size). */
export const WHOLE_FOODS_LIMIT = 60;
/** Results per page of the newer search (the size its own pages ask for). */
export const WHOLE_FOODS_RSI_SIZE = 30;
/** Most ASINs one /api/wwos/products call takes. */
export const WHOLE_FOODS_STOCK_BATCH = 50;

const Text = z.string().nullish();
const Code = z.union([z.string(), z.number()]).nullish();
const Amount = z.union([z.number(), z.string()]).nullish();

function text(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const cleaned = cleanText(value);
  return cleaned === '' ? null : cleaned;
}

// ---------------------------------------------------------------------------------------------
// ZIP -> store (/stores/search)

const StoreSchema = z.looseObject({
  storeId: z.union([z.string().min(1), z.number()]),
  name: Text,
  tlc: Text,
  path: Text,
  location: z
    .looseObject({
      address: z
        .looseObject({ line1: Text, city: Text, state: Text, zipCode: Code, postalCode: Code, zip: Code })
        .nullish(),
      geometry: z.looseObject({ coordinates: z.array(z.unknown()).nullish() }).nullish(),
    })
    .nullish(),
});
type WholeFoodsStore = z.infer<typeof StoreSchema>;

const StoresSchema = z.union([z.array(StoreSchema), z.looseObject({ stores: z.array(StoreSchema) })]);

function toLocation(store: WholeFoodsStore): RetailerLocation {
  const address = store.location?.address ?? {};
  const [longitude, latitude] = store.location?.geometry?.coordinates ?? [];
  return {
    retailerLocationId: String(store.storeId),
    name: text(store.name),
    // The documented answer has no ZIP code (line1, city, state and coordinates): discovery files
    // such a store by its coordinates (worker/scrapers/discovery.ts placeStore).
    zip: zip5(address.zipCode ?? address.postalCode ?? address.zip),
    city: text(address.city),
    state: usStateCode(address.state),
    address: text(address.line1),
    latitude: toNumberOrNull(latitude),
    longitude: toNumberOrNull(longitude),
  };
}

function storesOf(body: string): WholeFoodsStore[] {
  const parsed = parseJsonBody(body, StoresSchema, 'Whole Foods store search');
  return Array.isArray(parsed) ? parsed : parsed.stores;
}

/** The first (nearest) store of a store-finder answer: an array of stores, or { stores: [...] }; null when empty. */
export function parseWholeFoodsStores(body: string): RetailerLocation | null {
  const first = storesOf(body)[0];
  return first ? toLocation(first) : null;
}

/**
 * How far the store finder looks: an empty answer proves no store within it. Not documented; the
 * figure every nearest-store locator here is taken to reach.
 */
export const WHOLE_FOODS_FINDER_REACH_MILES = 100;

/**
 * A store-finder answer for discovery: every store (nearest first), and what it proves. How many
 * stores one answer holds at most is not documented, so an answer with any store proves no other
 * store nearer than its farthest (by its coordinates); an empty answer proves the reach.
 */
export function parseWholeFoodsDiscovery(body: string, point: DiscoveryPoint): DiscoveryAnswer {
  const records = storesOf(body).map((store) => ({ location: toLocation(store) }));
  return discoveryAnswer(point, records, WHOLE_FOODS_FINDER_REACH_MILES);
}

/** The store finder's call for a ZIP code (a ZIP run's store and discovery alike). */
function storeSearch(zip: string, ctx: ScrapeContext) {
  return ctx.http.request({
    url: `${WHOLE_FOODS_ORIGIN}/stores/search`,
    method: 'POST',
    json: { query: zip },
    headers: { accept: 'application/json' },
  });
}

// ---------------------------------------------------------------------------------------------
// Search (/api/search)

const ItemSchema = z.looseObject({
  name: z.string(),
  slug: z.string().min(1),
  brand: Text,
  imageThumbnail: Text,
  store: Code,
  regularPrice: Amount,
  salePrice: Amount,
  incrementalSalePrice: Amount,
  saleStartDate: Text,
  saleEndDate: Text,
  uom: Text,
});
type WholeFoodsItem = z.infer<typeof ItemSchema>;

const SearchSchema = z.looseObject({
  results: z.array(ItemSchema),
  // relation: "eq" in the documentation, "EQUAL_TO" in real answers.
  meta: z.looseObject({ total: z.looseObject({ value: z.number(), relation: Text }).nullish() }).nullish(),
});

export interface WholeFoodsSearchPage extends ListingPage {
  /** Results on this page. */
  resultCount: number;
  /** meta.total.value, when given. */
  total: number | null;
  /** Each listing's product slug, in the order of `listings` (a product page is read by slug). */
  slugs: string[];
}

/** The ASIN that ends a product slug (`...-b07dlgkrtd` → B07DLGKRTD), else the slug itself. */
export function wholeFoodsProductId(slug: string): string {
  const asin = /(?:^|-)(b0[0-9a-z]{8})$/i.exec(slug.trim());
  return asin ? asin[1]!.toUpperCase() : slug.trim();
}

const isAsin = (id: string) => /^B0[0-9A-Z]{8}$/.test(id);

/**
 * `uom` as a size only when it reads like a count of eggs ("12 ct", "18 count", "1 dozen") or a
 * number of each ("12 ea", "12 each": the classifier reads N >= 2 as a count and ignores "1 each");
 * "ea", "lb", "12 oz" are units, not sizes.
 */
function countText(uom: string | null | undefined): string | null {
  const value = text(uom);
  if (!value) return null;
  return /^\d+(\.\d+)?\s*-?\s*(ct|count|pk|pack|eggs?)\b|\b(dozen|doz|dz)\b|^\d+\s*(ea|each)\.?$/i.test(value)
    ? value
    : null;
}

const DAY = 86_400_000;

/**
 * Whether a present salePrice is the shelf price. salePrice and the sale dates
 * "are absent when not on sale", so a salePrice in the answer is the price today whatever its
 * dates say (the site's clock, time zone and caching are not ours to second-guess). Only dates
 * that contradict each other (the end before the start, by calendar day) discredit it.
 */
function saleApplies(item: WholeFoodsItem): boolean {
  const day = (value: string | null | undefined) => {
    if (!value) return null;
    const at = Date.parse(value);
    return Number.isNaN(at) ? null : Math.floor(at / DAY);
  };
  const start = day(item.saleStartDate);
  const end = day(item.saleEndDate);
  return start === null || end === null || end >= start;
}

/** Whether the item carries any price field at all (none do without store=). */
function hasPriceField(item: WholeFoodsItem): boolean {
  return [item.regularPrice, item.salePrice, item.incrementalSalePrice].some(
    (value) => value !== undefined && value !== null,
  );
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '';

function toListing(item: WholeFoodsItem): RawListing {
  const regular = toPrice(item.regularPrice);
  const sale = toPrice(item.salePrice);
  // incrementalSalePrice is the Prime members' extra discount, not the shelf price everyone pays.
  const onSale = sale !== null && saleApplies(item);
  const listing: RawListing = {
    retailerProductId: wholeFoodsProductId(item.slug),
    title: cleanText(item.name),
    brand: text(item.brand),
    price: onSale ? sale : (regular ?? sale),
    regularPrice: regular,
    sizeText: countText(item.uom),
    category: null,
    url: `${WHOLE_FOODS_ORIGIN}/product/${encodeURI(item.slug.trim())}`,
    inStock: null,
  };
  // uom "lb" is on counter items priced by the pound only (a real category answer).
  if (text(item.uom)?.toLowerCase() === 'lb') listing.soldByWeight = true;
  return listing;
}

/**
 * One /api/search answer (or a category answer: the same items). Results of which not one carries
 * a price field or a store are the answer without a store (docs/features/scraping.md): a failure, never a
 * page of unpriced products. A result with its store but no price has no price there (real
 * answers carry such pages): read, and rejected later as unpriced. Results of another store than
 * the one asked for (the site's default store when ours is not applied) fail the ZIP: their prices
 * are not this store's.
 */
export function parseWholeFoodsSearch(body: string, storeId?: string): WholeFoodsSearchPage {
  const parsed = parseJsonBody(body, SearchSchema, 'Whole Foods search');
  const { results } = parsed;
  if (results.length > 0 && !results.some(hasPriceField) && !results.some((item) => present(item.store))) {
    throw new StructureError('Whole Foods search: no prices: the store was not applied');
  }
  const other =
    storeId === undefined
      ? undefined
      : results.find((item) => present(item.store) && String(item.store).trim() !== storeId);
  if (other)
    throw new StructureError(
      `Whole Foods search: results of store ${String(other.store)}, not ${storeId}: the store was not applied`,
    );
  const total = parsed.meta?.total?.value;
  return {
    listings: results.map(toListing),
    nonProductTiles: 0,
    resultCount: results.length,
    total: total ?? null,
    slugs: results.map((item) => item.slug.trim()),
  };
}

export function wholeFoodsSearchUrl(storeId: string, term: string, offset: number): string {
  const params = new URLSearchParams({
    text: term,
    store: storeId,
    limit: String(WHOLE_FOODS_LIMIT),
    offset: String(offset),
  });
  return `${WHOLE_FOODS_ORIGIN}/api/search?${params.toString()}`;
}

// ---------------------------------------------------------------------------------------------
// The store's code (offer listing discriminator) from a page rendered for the store

const StorePageSchema = z.looseObject({
  props: z.looseObject({
    pageProps: z.looseObject({
      isDefaultLocation: z.boolean().nullish(),
      overrideStoreId: Code,
      wfmccLocationData: z
        .looseObject({
          cateringStoreContext: z
            .looseObject({ almAttributes: z.looseObject({ storeId: Code, offerListingDiscriminator: Text }).nullish() })
            .nullish(),
        })
        .nullish(),
    }),
  }),
});
type StorePageProps = z.infer<typeof StorePageSchema>['props']['pageProps'];

/** A store's code, or why a page does not prove one. */
export type WholeFoodsStoreCode = { code: string } | { code: null; reason: string };

const idText = (value: string | number | null | undefined) =>
  value === undefined || value === null ? null : String(value).trim() || null;

/**
 * The store code a page's `__NEXT_DATA__` names, valid only when the page proves it was rendered
 * for this store: `isDefaultLocation` false and `overrideStoreId` equal to almAttributes.storeId,
 * which is the store asked for (docs/features/scraping.md). A page without those keys (a real 2025 page) or
 * rendered for another store proves nothing: its code is not used. The page's `locationCookie` and
 * `storeTlc` are never read (real pages pair them with another store).
 */
function storeCodeOf(pageProps: StorePageProps, storeId: string, what: string): WholeFoodsStoreCode {
  const alm = pageProps.wfmccLocationData?.cateringStoreContext?.almAttributes;
  const code = text(alm?.offerListingDiscriminator);
  const rendered = idText(alm?.storeId);
  if (!code) return { code: null, reason: `the ${what} names no store code` };
  if (pageProps.isDefaultLocation === true)
    return { code: null, reason: `the ${what} was rendered for the default store, not store ${storeId}` };
  if (pageProps.isDefaultLocation !== false || idText(pageProps.overrideStoreId) === null) {
    return { code: null, reason: `the ${what} does not prove it was rendered for store ${storeId}` };
  }
  if (idText(pageProps.overrideStoreId) !== rendered || rendered !== storeId) {
    return {
      code: null,
      reason: `the ${what} was rendered for store ${rendered ?? idText(pageProps.overrideStoreId)}, not ${storeId}`,
    };
  }
  return { code };
}

/** The store code of a product page (`/grocery/product/<slug>?store=<id>`), or why it proves none. */
export function parseWholeFoodsStoreCode(html: string, storeId: string): WholeFoodsStoreCode {
  const what = 'Whole Foods product page';
  return storeCodeOf(parseValue(nextData(html, what), StorePageSchema, what).props.pageProps, storeId, 'product page');
}

export function wholeFoodsProductPageUrl(slug: string, storeId: string): string {
  return `${WHOLE_FOODS_ORIGIN}/grocery/product/${encodeURIComponent(slug)}?store=${encodeURIComponent(storeId)}`;
}

// ---------------------------------------------------------------------------------------------
// Products with offers and stock (/api/wwos/products)

const WwosItemSchema = z.looseObject({
  asin: z.string().min(1),
  name: Text,
  brandName: Text,
  availability: Text,
  offerDetails: z
    .looseObject({
      price: z.looseObject({ priceAmount: Amount, basisPriceAmount: Amount }).nullish(),
    })
    .nullish(),
  variableUnitOfMeasure: z.looseObject({ pricingUom: z.looseObject({ dimension: Text }).nullish() }).nullish(),
});
type WwosItem = z.infer<typeof WwosItemSchema>;

/** `availability` "IN_STOCK" is in stock; null (or any other value) says nothing: unknown, never out of stock. */
function availabilityOf(item: WwosItem): boolean | null {
  return text(item.availability)?.toUpperCase() === 'IN_STOCK' ? true : null;
}

function productSlug(name: string, asin: string): string {
  const words = name
    .replace(/['’]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return words ? `${words}-${asin}` : asin;
}

function wwosListing(item: WwosItem): RawListing {
  const asin = item.asin.trim().toUpperCase();
  const title = cleanText(item.name ?? '');
  const price = toPrice(item.offerDetails?.price?.priceAmount);
  const listing: RawListing = {
    retailerProductId: asin,
    title,
    brand: text(item.brandName),
    // priceAmount is what every shopper pays (the sale price on a sale); basisPriceAmount the
    // regular price beside it. primeBenefit.priceAmount is Prime members' only: never taken.
    price,
    regularPrice: toPrice(item.offerDetails?.price?.basisPriceAmount) ?? price,
    sizeText: null,
    category: null,
    url: `${WHOLE_FOODS_ORIGIN}/grocery/product/${encodeURIComponent(productSlug(title, asin))}`,
    inStock: availabilityOf(item),
  };
  if (text(item.variableUnitOfMeasure?.pricingUom?.dimension)?.toUpperCase() === 'WEIGHT') listing.soldByWeight = true;
  return listing;
}

/** One /api/wwos/products answer: a listing per product, with its stock (the store's, by the code asked with). */
export function parseWholeFoodsProducts(body: string): RawListing[] {
  return parseJsonBody(body, z.array(WwosItemSchema), 'Whole Foods products').map(wwosListing);
}

export function wholeFoodsProductsUrl(code: string, asins: string[]): string {
  return `${WHOLE_FOODS_ORIGIN}/api/wwos/products?offerListingDiscriminator=${encodeURIComponent(code)}&programType=GROCERY&asins=${asins.map(encodeURIComponent).join(',')}`;
}

// ---------------------------------------------------------------------------------------------
// The newer search (/api/wwos/rsi/search) and the search page that embeds it

const RsiSchema = z.looseObject({
  mainResultSet: z.looseObject({
    searchResults: z.array(z.looseObject({ asin: z.string().min(1) })),
    approximateTotalResultCount: z.number().nullish(),
    availableTotalResultCount: z.number().nullish(),
  }),
});

export interface WholeFoodsRsiPage {
  /** The results' ASINs in order. */
  asins: string[];
  /** Results the search lets one page through (availableTotalResultCount, else the approximate total). */
  total: number | null;
}

function rsiPage(parsed: z.infer<typeof RsiSchema>): WholeFoodsRsiPage {
  const set = parsed.mainResultSet;
  return {
    asins: set.searchResults.map((result) => result.asin.trim().toUpperCase()),
    total: set.availableTotalResultCount ?? set.approximateTotalResultCount ?? null,
  };
}

/** One /api/wwos/rsi/search answer: ASINs only (names, prices and stock come from /api/wwos/products). */
export function parseWholeFoodsRsiSearch(body: string): WholeFoodsRsiPage {
  return rsiPage(parseJsonBody(body, RsiSchema, 'Whole Foods newer search'));
}

export function wholeFoodsRsiSearchUrl(code: string, term: string, offset: number): string {
  const params = new URLSearchParams({
    text: term,
    old: code,
    offset: String(offset),
    size: String(WHOLE_FOODS_RSI_SIZE),
    sort: 'relevanceblender',
    programType: 'GROCERY',
  });
  return `${WHOLE_FOODS_ORIGIN}/api/wwos/rsi/search?${params.toString()}`;
}

const SearchPageSchema = z.looseObject({
  props: z.looseObject({
    pageProps: StorePageSchema.shape.props.shape.pageProps.extend({
      searchResults: RsiSchema,
      productsInfo: z.array(WwosItemSchema),
    }),
  }),
});

export interface WholeFoodsSearchPageHtml extends WholeFoodsRsiPage, ListingPage {
  /** The store's code, or why the page does not prove the store (then its prices are not the store's). */
  storeCode: WholeFoodsStoreCode;
}

/** Listings of ASINs in result order, from their products; a result without its product is counted, not listed. */
function listingsOf(asins: string[], products: RawListing[]): ListingPage {
  const byAsin = new Map(products.map((listing) => [listing.retailerProductId, listing]));
  const listings = asins.flatMap((asin) => byAsin.get(asin) ?? []);
  return { listings, nonProductTiles: asins.length - listings.length };
}

/**
 * The grocery search page (`/grocery/search?k=<term>&store=<id>`): its `__NEXT_DATA__` embeds the
 * newer search's answer (`searchResults`), the products with their offers (`productsInfo`, the
 * /api/wwos/products shape) and the store it was rendered for.
 */
export function parseWholeFoodsSearchPageHtml(html: string, storeId: string): WholeFoodsSearchPageHtml {
  const what = 'Whole Foods search page';
  const props = parseValue(nextData(html, what), SearchPageSchema, what).props.pageProps;
  const page = rsiPage(props.searchResults);
  return {
    ...page,
    ...listingsOf(page.asins, props.productsInfo.map(wwosListing)),
    storeCode: storeCodeOf(props, storeId, 'search page'),
  };
}

export function wholeFoodsSearchPageUrl(storeId: string, term: string): string {
  return `${WHOLE_FOODS_ORIGIN}/grocery/search?${new URLSearchParams({ k: term, store: storeId }).toString()}`;
}

// ---------------------------------------------------------------------------------------------
// Requests

const JSON_HEADERS = { accept: 'application/json' };
const HTML_HEADERS = { accept: 'text/html,application/xhtml+xml' };

const isNotFound = (error: unknown) =>
  error instanceof ScrapeError && error.kind === 'http' && /\bHTTP 404\b/.test(error.message);
/** A failure of a call that only adds stock: anything the retailer answered, not a shutdown. */
const isRetailerFailure = (error: unknown): error is ScrapeError =>
  error instanceof ScrapeError && error.kind !== 'aborted';

/** Per run (RetailerHttp is built once per run): each store's code, read once. */
const runCodes = new WeakMap<RetailerHttp, Map<string, Promise<WholeFoodsStoreCode>>>();

function cachedCodes(ctx: ScrapeContext): Map<string, Promise<WholeFoodsStoreCode>> {
  let codes = runCodes.get(ctx.http);
  if (!codes) {
    codes = new Map();
    runCodes.set(ctx.http, codes);
  }
  return codes;
}

/** The store's code from the product page of one of its listings: once per store per run, a failure included. */
function storeCode(ctx: ScrapeContext, storeId: string, slug: string): Promise<WholeFoodsStoreCode> {
  const codes = cachedCodes(ctx);
  let code = codes.get(storeId);
  if (!code) {
    code = ctx.http
      .request({ url: wholeFoodsProductPageUrl(slug, storeId), headers: HTML_HEADERS })
      .then((response) => parseWholeFoodsStoreCode(response.body, storeId))
      .catch((error: unknown): WholeFoodsStoreCode => {
        if (!isRetailerFailure(error)) throw error;
        return { code: null, reason: `the product page failed (${error.message})` };
      });
    // A shutdown is not kept: the resumed run reads the page again.
    code.catch(() => codes.delete(storeId));
    codes.set(storeId, code);
  }
  return code;
}

/** The products of these ASINs at the store of this code, in calls of up to 50 ASINs. */
async function products(ctx: ScrapeContext, code: string, asins: string[]): Promise<RawListing[]> {
  const found: RawListing[] = [];
  for (let at = 0; at < asins.length; at += WHOLE_FOODS_STOCK_BATCH) {
    const response = await ctx.http.request({
      url: wholeFoodsProductsUrl(code, asins.slice(at, at + WHOLE_FOODS_STOCK_BATCH)),
      headers: JSON_HEADERS,
    });
    found.push(...parseWholeFoodsProducts(response.body));
  }
  return found;
}

/**
 * A search page's listings with their stock at the store. Stock is a bonus: when the store's code
 * is not proven or the stock service fails, the listings keep their prices with stock unknown and
 * the page notes why. Only priced listings are asked for.
 */
async function withStock(ctx: ScrapeContext, storeId: string, page: WholeFoodsSearchPage): Promise<ListingPage> {
  const priced = page.listings.flatMap((listing, index) =>
    listing.price !== null && isAsin(listing.retailerProductId) ? [{ listing, slug: page.slugs[index]! }] : [],
  );
  const base = { listings: page.listings, nonProductTiles: page.nonProductTiles };
  if (priced.length === 0) return base;
  const code = await storeCode(ctx, storeId, priced[0]!.slug);
  if (code.code === null) return { ...base, notes: [`stock unknown: ${code.reason}`] };
  let stock: Map<string, boolean | null>;
  try {
    const asins = [...new Set(priced.map((entry) => entry.listing.retailerProductId))];
    stock = new Map(
      (await products(ctx, code.code, asins)).map((product) => [product.retailerProductId, product.inStock]),
    );
  } catch (error) {
    if (!isRetailerFailure(error)) throw error;
    return { ...base, notes: [`stock unknown: the stock service failed (${error.message})`] };
  }
  return {
    ...base,
    listings: page.listings.map((listing) => ({ ...listing, inStock: stock.get(listing.retailerProductId) ?? null })),
  };
}

/**
 * The newer search, read when /api/search is gone: the search page rendered for the store gives
 * the first page and proves the store's code (without that proof its prices are not the store's:
 * the ZIP fails), then /api/wwos/rsi/search pages of ASINs, detailed by /api/wwos/products.
 */
async function* newerSearch(storeId: string, ctx: ScrapeContext): AsyncGenerator<ListingPage> {
  const first = parseWholeFoodsSearchPageHtml(
    (await ctx.http.request({ url: wholeFoodsSearchPageUrl(storeId, ctx.term), headers: HTML_HEADERS })).body,
    storeId,
  );
  if (first.storeCode.code === null)
    throw new StructureError(`Whole Foods search page: ${first.storeCode.reason}: its prices are not the store's`);
  const code = first.storeCode.code;
  cachedCodes(ctx).set(storeId, Promise.resolve(first.storeCode));
  yield { listings: first.listings, nonProductTiles: first.nonProductTiles };
  let offset = first.asins.length;
  for (let page = 1; page < ctx.maxPages; page++) {
    if (offset === 0 || (first.total !== null && offset >= first.total)) return;
    const next = parseWholeFoodsRsiSearch(
      (await ctx.http.request({ url: wholeFoodsRsiSearchUrl(code, ctx.term, offset), headers: JSON_HEADERS })).body,
    );
    if (next.asins.length === 0) return;
    yield listingsOf(next.asins, await products(ctx, code, [...new Set(next.asins)]));
    offset += next.asins.length;
    if (next.asins.length < WHOLE_FOODS_RSI_SIZE) return;
  }
}

export const wholeFoods: RetailerScraper = {
  store: 'whole-foods',
  storeName: 'Whole Foods',
  origins: [WHOLE_FOODS_ORIGIN],

  async locate(zip, ctx) {
    return parseWholeFoodsStores((await storeSearch(zip, ctx)).body);
  },

  discovery: {
    reachMiles: WHOLE_FOODS_FINDER_REACH_MILES,
    async discover(point, ctx) {
      return parseWholeFoodsDiscovery((await storeSearch(point.zip, ctx)).body, point);
    },
  },

  async *listings(location, _zip, ctx) {
    const storeId = location.retailerLocationId;
    if (!storeId) throw new StructureError('Whole Foods store without a storeId');
    let offset = 0;
    for (let page = 0; page < ctx.maxPages; page++) {
      let body: string;
      try {
        body = (await ctx.http.request({ url: wholeFoodsSearchUrl(storeId, ctx.term, offset), headers: JSON_HEADERS }))
          .body;
      } catch (error) {
        if (page === 0 && isNotFound(error)) {
          yield* newerSearch(storeId, ctx);
          return;
        }
        throw error;
      }
      const parsed = parseWholeFoodsSearch(body, storeId);
      yield await withStock(ctx, storeId, parsed);
      offset += parsed.resultCount;
      if (parsed.resultCount < WHOLE_FOODS_LIMIT) return;
      if (parsed.total !== null && offset >= parsed.total) return;
    }
  },
};
