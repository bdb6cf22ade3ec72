// ALDI US: the storefront's own JSON API on api.aldi.us, no key. The nearest
// store's id (servicePoint, e.g. "440-018") comes from merchant-search; product-search pages
// with a limit from a fixed set. Prices are integer cents.
import { z } from 'zod';
import { parseJsonBody } from './http.ts';
import { cleanText, toNumberOrNull, toPrice, zip5 } from './parse-utils.ts';
import {
  StructureError,
  type ListingPage,
  type RawListing,
  type RetailerLocation,
  type RetailerScraper,
  type DiscoveryAnswer,
  type DiscoveryPoint,
} from './types.ts';
import { discoveryAnswer } from './discovery.ts';

export const ALDI_API_ORIGIN = 'https://api.aldi.us';
export const ALDI_SITE_ORIGIN = 'https://www.aldi.us';
/** Results per page: one of the values the API accepts (12, 16, 24, 30, 32, 48, 60). */
export const ALDI_LIMIT = 60;

const HEADERS = { referer: `${ALDI_SITE_ORIGIN}/`, accept: 'application/json' };

const Text = z.string().nullish();

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const cleaned = cleanText(value);
  return cleaned === '' ? null : cleaned;
}

// ---------------------------------------------------------------------------------------------
// ZIP -> servicePoint (merchant-search)

const MerchantSchema = z.looseObject({
  id: z.union([z.string().min(1), z.number()]),
  attributes: z.looseObject({}).nullish(),
});
const MerchantsSchema = z.looseObject({ data: z.array(MerchantSchema) });

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first text among these keys of these objects. */
function pick(sources: Fields[], keys: string[]): string | null {
  for (const source of sources) {
    for (const key of keys) {
      const value = source[key];
      const found = typeof value === 'number' ? String(value) : text(value);
      if (found) return found;
    }
  }
  return null;
}

function pickNumber(sources: Fields[], keys: string[]): number | null {
  for (const source of sources) {
    for (const key of keys) {
      const value = toNumberOrNull(source[key]);
      if (value !== null) return value;
    }
  }
  return null;
}

type Merchant = z.infer<typeof MerchantSchema>;

/**
 * A merchant-search entry as a store: its `id` is the servicePoint. Only the id is documented;
 * name, address and position are read from the usual key names when present, on the record
 * itself or under `attributes` / `address` / `location`.
 */
function aldiLocation(merchant: Merchant): RetailerLocation {
  const record: Fields = merchant;
  const attributes = isObject(merchant.attributes) ? merchant.attributes : {};
  const records = [record, attributes];
  const nested = records.flatMap((source) => [source.address, source.location, source.geoLocation].filter(isObject));
  const all = [...records, ...nested];
  const addressText = pick(records, ['address']);
  const state =
    pick(all, ['state', 'stateCode', 'regionCode', 'regionIsoCode', 'region', 'stateProvinceCode'])?.toUpperCase() ??
    null;
  const city = pick(all, ['city', 'locality', 'town']);
  return {
    retailerLocationId: String(merchant.id),
    name: pick(records, ['name', 'storeName', 'displayName']) ?? (city ? `ALDI ${city}` : null),
    zip: zip5(pick(all, ['zipCode', 'zip_code', 'zipcode', 'zip', 'postalCode'])),
    city,
    state: state && /^[A-Z]{2}$/.test(state) ? state : null,
    address: addressText ?? pick(nested, ['address1', 'line1', 'addressLine1', 'street', 'streetAddress']),
    latitude: pickNumber(all, ['latitude', 'lat']),
    longitude: pickNumber(all, ['longitude', 'lng', 'lon']),
  };
}

/** The store a ZIP code's prices come from: a merchant-search answer's first (nearest) entry, `data[0]`; null when empty. */
export function parseAldiMerchants(body: string): RetailerLocation | null {
  const merchant = parseJsonBody(body, MerchantsSchema, 'ALDI merchant search').data[0];
  return merchant ? aldiLocation(merchant) : null;
}

/**
 * How far merchant search looks for stores: an empty answer proves no store within it. Not
 * documented; the figure every nearest-store locator here is taken to reach.
 */
export const ALDI_MERCHANT_REACH_MILES = 100;

/**
 * A merchant-search answer for discovery: every entry of `data[]` (nearest first), and what it
 * proves. How many entries one answer holds at most is not documented, so an answer with any
 * store is full: it proves no other store nearer than its farthest (its `distance`, else its
 * coordinates or address); an empty answer proves the reach.
 */
export function parseAldiDiscovery(body: string, point: DiscoveryPoint): DiscoveryAnswer {
  const parsed = parseJsonBody(body, MerchantsSchema, 'ALDI merchant search');
  const records = parsed.data.map((merchant) => ({
    location: aldiLocation(merchant),
    answeredMiles: toNumberOrNull((merchant as Fields).distance),
  }));
  return discoveryAnswer(point, records, ALDI_MERCHANT_REACH_MILES);
}

export function aldiMerchantSearchUrl(zip: string): string {
  return `${ALDI_API_ORIGIN}/v1/merchant-search?currency=USD&service_type=pickup&zip_code=${encodeURIComponent(zip)}`;
}

// ---------------------------------------------------------------------------------------------
// product-search

const PriceSchema = z.looseObject({
  amount: z.number().nullish(),
  amountRelevant: z.number().nullish(),
  amountRelevantDisplay: Text,
  wasPriceDisplay: Text,
});

const ItemSchema = z.looseObject({
  sku: z.union([z.string().min(1), z.number()]),
  name: z.string(),
  brandName: Text,
  urlSlugText: Text,
  sellingSize: Text,
  price: PriceSchema.nullish(),
  notForSale: z.boolean().nullish(),
  discontinued: z.boolean().nullish(),
  categories: z.array(z.looseObject({ name: Text })).nullish(),
});
type AldiItem = z.infer<typeof ItemSchema>;

const SearchSchema = z.looseObject({
  meta: z.looseObject({ pagination: z.looseObject({ totalCount: z.number().nullish() }).nullish() }).nullish(),
  data: z.array(ItemSchema),
});

export interface AldiSearchPage extends ListingPage {
  /** Items on this page. */
  itemCount: number;
  /** meta.pagination.totalCount, when given. */
  totalCount: number | null;
}

/** An amount in integer cents (a non-integer one is read as dollars); null when absent or not positive. */
function fromCents(amount: number | null | undefined): number | null {
  if (typeof amount !== 'number' || !(amount > 0)) return null;
  return toPrice(Number.isInteger(amount) ? amount / 100 : amount);
}

/** The shelf price: price.amountRelevant (cents), else amountRelevantDisplay ("$3.95"), else amount (cents). */
function shelfPrice(price: AldiItem['price']): number | null {
  return fromCents(price?.amountRelevant) ?? toPrice(price?.amountRelevantDisplay) ?? fromCents(price?.amount);
}

function toListing(item: AldiItem): RawListing {
  const sku = String(item.sku).trim();
  const price = shelfPrice(item.price);
  // wasPriceDisplay is set only on sale: then it is the regular price, the shelf price the sale price.
  const was = toPrice(item.price?.wasPriceDisplay);
  const slug = item.urlSlugText?.trim();
  return {
    retailerProductId: sku,
    title: cleanText(item.name),
    brand: text(item.brandName),
    price,
    regularPrice: was ?? price,
    sizeText: text(item.sellingSize),
    category: text(item.categories?.[0]?.name),
    url: slug ? `${ALDI_SITE_ORIGIN}/product/${encodeURIComponent(slug)}-${encodeURIComponent(sku)}` : null,
    // No search field says a store is out of an item. notForSale means "not sold online" (true on
    // every item of a real walk-in answer), not out of stock: it leaves stock unknown. A
    // discontinued item is off the shelf for good.
    inStock: item.discontinued === true ? false : null,
  };
}

/** One product-search answer. */
export function parseAldiSearch(body: string): AldiSearchPage {
  const parsed = parseJsonBody(body, SearchSchema, 'ALDI product search');
  return {
    listings: parsed.data.map(toListing),
    nonProductTiles: 0,
    itemCount: parsed.data.length,
    totalCount: parsed.meta?.pagination?.totalCount ?? null,
  };
}

export function aldiSearchUrl(servicePoint: string, term: string, offset: number): string {
  const params = new URLSearchParams({
    currency: 'USD',
    serviceType: 'pickup',
    q: term,
    limit: String(ALDI_LIMIT),
    offset: String(offset),
    sort: 'relevance',
    testVariant: 'A',
    servicePoint,
  });
  return `${ALDI_API_ORIGIN}/v3/product-search?${params.toString()}`;
}

export const aldi: RetailerScraper = {
  store: 'aldi',
  storeName: 'Aldi',
  origins: [ALDI_API_ORIGIN, ALDI_SITE_ORIGIN],

  async locate(zip, ctx) {
    const response = await ctx.http.request({ url: aldiMerchantSearchUrl(zip), headers: HEADERS });
    return parseAldiMerchants(response.body);
  },

  discovery: {
    reachMiles: ALDI_MERCHANT_REACH_MILES,
    async discover(point, ctx) {
      const response = await ctx.http.request({ url: aldiMerchantSearchUrl(point.zip), headers: HEADERS });
      return parseAldiDiscovery(response.body, point);
    },
  },

  async *listings(location, _zip, ctx) {
    const servicePoint = location.retailerLocationId;
    if (!servicePoint) throw new StructureError('ALDI store without an id');
    let offset = 0;
    for (let page = 0; page < ctx.maxPages; page++) {
      const response = await ctx.http.request({ url: aldiSearchUrl(servicePoint, ctx.term, offset), headers: HEADERS });
      const parsed = parseAldiSearch(response.body);
      yield { listings: parsed.listings, nonProductTiles: parsed.nonProductTiles };
      offset += parsed.itemCount;
      if (parsed.itemCount === 0) return;
      if (parsed.totalCount !== null ? offset >= parsed.totalCount : parsed.itemCount < ALDI_LIMIT) return;
    }
  },
};
