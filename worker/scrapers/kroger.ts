// Kroger: the official public API with a client of the Kroger developer portal
// (KROGER_CLIENT_ID / KROGER_CLIENT_SECRET). A client-credentials token (kept until shortly before
// it expires), then /v1/locations near the ZIP and /v1/products priced at that location, 50 a page.
// Real bodies (test/retailers/real/kroger): a promo above 0 is the shelf price; some items carry no
// price (not priced at that store); without a location nothing is priced; stock only in
// inventory.stockLevel, which older bodies lack.
import { z } from 'zod';
import type { RetailerCredentials } from '#shared/scrape.ts';
import { parseJsonBody, type RetailerHttp } from './http.ts';
import { cleanText, toNumberOrNull, toPrice, zip5 } from './parse-utils.ts';
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

const API = 'https://api.kroger.com';
export const KROGER_PAGE_SIZE = 50;
/** A token is renewed this long before its expiry. */
const TOKEN_MARGIN_MS = 60_000;

function checkConfig(credentials: RetailerCredentials): void {
  if (!credentials.krogerClientId?.trim() || !credentials.krogerClientSecret?.trim()) {
    throw new ConfigError(
      'Kroger needs KROGER_CLIENT_ID and KROGER_CLIENT_SECRET (a client of the Kroger developer API)',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Token

const tokenSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.union([z.number(), z.string()]).nullish(),
  token_type: z.string().nullish(),
});

export interface KrogerToken {
  accessToken: string;
  /** Lifetime in seconds (expires_in), 1800 when the body does not say. */
  expiresIn: number;
}

export function parseKrogerToken(body: string): KrogerToken {
  const parsed = parseJsonBody(body, tokenSchema, 'Kroger token');
  const expiresIn = toNumberOrNull(parsed.expires_in);
  return { accessToken: parsed.access_token, expiresIn: expiresIn !== null && expiresIn > 0 ? expiresIn : 1800 };
}

/**
 * Tokens per RetailerHttp (its origins and stand-in override fix where the token is valid) and per
 * client id, each with its expiry.
 */
const tokens = new WeakMap<RetailerHttp, Map<string, { token: string; expiresAt: number }>>();

async function accessToken(ctx: ScrapeContext, renew = false): Promise<string> {
  checkConfig(ctx.credentials);
  const id = ctx.credentials.krogerClientId!.trim();
  const secret = ctx.credentials.krogerClientSecret!.trim();
  let cache = tokens.get(ctx.http);
  if (!cache) {
    cache = new Map();
    tokens.set(ctx.http, cache);
  }
  const cached = cache.get(id);
  if (cached && !renew && cached.expiresAt - TOKEN_MARGIN_MS > Date.now()) return cached.token;
  let body: string;
  try {
    const response = await ctx.http.request({
      url: `${API}/v1/connect/oauth2/token`,
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
        accept: 'application/json',
      },
      form: { grant_type: 'client_credentials', scope: 'product.compact' },
    });
    body = response.body;
  } catch (error) {
    if (error instanceof ScrapeError && error.kind === 'http' && /\bHTTP (400|401)\b/.test(error.message)) {
      throw new ConfigError('Kroger refused the client credentials; check KROGER_CLIENT_ID and KROGER_CLIENT_SECRET');
    }
    throw error;
  }
  const token = parseKrogerToken(body);
  cache.set(id, { token: token.accessToken, expiresAt: Date.now() + token.expiresIn * 1000 });
  return token.accessToken;
}

/** A GET with the bearer token; a token the API refuses (401) is renewed once. */
async function apiGet(ctx: ScrapeContext, url: string): Promise<string> {
  const send = async (token: string) =>
    (await ctx.http.request({ url, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })).body;
  try {
    return await send(await accessToken(ctx));
  } catch (error) {
    if (!(error instanceof ScrapeError && error.kind === 'http' && /\bHTTP 401\b/.test(error.message))) throw error;
    return send(await accessToken(ctx, true));
  }
}

// ---------------------------------------------------------------------------------------------
// Locations

const locationsSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      locationId: z.union([z.string().min(1), z.number()]),
      chain: z.string().nullish(),
      name: z.string().nullish(),
      address: z
        .looseObject({
          addressLine1: z.string().nullish(),
          city: z.string().nullish(),
          state: z.string().nullish(),
          zipCode: z.union([z.string(), z.number()]).nullish(),
        })
        .nullish(),
      geolocation: z
        .looseObject({
          latitude: z.union([z.number(), z.string()]).nullish(),
          longitude: z.union([z.number(), z.string()]).nullish(),
        })
        .nullish(),
    }),
  ),
});

/**
 * The nearest Kroger-chain location: the first whose `chain` is "KROGER" (any case), else the
 * first one (the family banners, Ralphs, Fred Meyer..., have Kroger prices too); null when the
 * API found none.
 */
export function parseKrogerLocations(body: string): RetailerLocation | null {
  const parsed = parseJsonBody(body, locationsSchema, 'Kroger locations');
  const first = parsed.data.find((location) => location.chain?.trim().toUpperCase() === 'KROGER') ?? parsed.data[0];
  return first ? krogerLocation(first) : null;
}

type KrogerLocationRecord = z.infer<typeof locationsSchema>['data'][number];

function krogerLocation(record: KrogerLocationRecord): RetailerLocation {
  const state = (record.address?.state ?? '').trim();
  const text = (value: string | null | undefined) => (value ? cleanText(value) || null : null);
  return {
    retailerLocationId: String(record.locationId),
    name: text(record.name),
    zip: zip5(record.address?.zipCode),
    city: text(record.address?.city),
    state: /^[A-Za-z]{2}$/.test(state) ? state.toUpperCase() : null,
    address: text(record.address?.addressLine1),
    latitude: toNumberOrNull(record.geolocation?.latitude),
    longitude: toNumberOrNull(record.geolocation?.longitude),
  };
}

/** /v1/locations's limits (docs/features/scraping.md): up to 200 locations within up to 100 miles. */
export const KROGER_LOCATIONS_MAX_LIMIT = 200;
export const KROGER_LOCATIONS_MAX_RADIUS = 100;

/**
 * Every location of a /v1/locations answer (each with its banner, `chain`) and what the answer
 * proves around the point: the radius asked when it lists none, else its farthest location (by
 * its coordinates, else its ZIP code; worker/scrapers/discovery.ts).
 */
export function parseKrogerDiscovery(body: string, point: DiscoveryPoint, radiusMiles: number): DiscoveryAnswer {
  const parsed = parseJsonBody(body, locationsSchema, 'Kroger locations');
  const records = parsed.data.map((record) => ({
    location: krogerLocation(record),
    banner: record.chain ? cleanText(record.chain) || null : null,
  }));
  return discoveryAnswer(point, records, radiusMiles);
}

async function discover(point: DiscoveryPoint, ctx: ScrapeContext): Promise<DiscoveryAnswer> {
  const asked = { limit: KROGER_LOCATIONS_MAX_LIMIT, radiusMiles: KROGER_LOCATIONS_MAX_RADIUS };
  const params = new URLSearchParams({
    'filter.zipCode.near': point.zip,
    'filter.radiusInMiles': String(asked.radiusMiles),
    'filter.limit': String(asked.limit),
  });
  return parseKrogerDiscovery(await apiGet(ctx, `${API}/v1/locations?${params.toString()}`), point, asked.radiusMiles);
}

// ---------------------------------------------------------------------------------------------
// Products

const flag = z.boolean().nullish();
const itemSchema = z.looseObject({
  itemId: z.string().nullish(),
  price: z
    .looseObject({
      regular: z.union([z.number(), z.string()]).nullish(),
      promo: z.union([z.number(), z.string()]).nullish(),
    })
    .nullish(),
  size: z.string().nullish(),
  inventory: z.looseObject({ stockLevel: z.string().nullish() }).nullish(),
  // Real bodies spell the keys inStore/shipToHome; the documentation instore/shiptohome.
  fulfillment: z.looseObject({ inStore: flag, instore: flag }).nullish(),
});

const productSchema = z.looseObject({
  productId: z.union([z.string().min(1), z.number()]),
  description: z.string().min(1),
  brand: z.string().nullish(),
  categories: z.array(z.string()).nullish(),
  items: z.array(itemSchema).nullish(),
});
type KrogerProduct = z.infer<typeof productSchema>;

const productsSchema = z.looseObject({
  data: z.array(productSchema),
  meta: z
    .looseObject({
      pagination: z
        .looseObject({
          start: z.union([z.number(), z.string()]).nullish(),
          limit: z.union([z.number(), z.string()]).nullish(),
          total: z.union([z.number(), z.string()]).nullish(),
        })
        .nullish(),
    })
    .nullish(),
});

export interface KrogerProductsPage extends ListingPage {
  /** meta.pagination.total, or null when absent. */
  total: number | null;
}

/** Whether an item carries a price field (prices come only with filter.locationId). */
function hasPriceField(item: z.infer<typeof itemSchema>): boolean {
  const price = item.price;
  return (
    price !== undefined &&
    price !== null &&
    [price.regular, price.promo].some((value) => value !== undefined && value !== null)
  );
}

/**
 * One /v1/products answer. Products of which not one carries a price are the answer without a
 * location (prices come only with a location): a failure, never a page of unpriced products. Some products
 * without a price (not priced at that store) are read, and rejected later as unpriced.
 */
export function parseKrogerProducts(body: string): KrogerProductsPage {
  const parsed = parseJsonBody(body, productsSchema, 'Kroger products');
  if (parsed.data.length > 0 && !parsed.data.some((product) => product.items?.some(hasPriceField))) {
    throw new StructureError('Kroger products: no prices: the store was not applied');
  }
  return {
    listings: parsed.data.map(krogerListing),
    nonProductTiles: 0,
    total: toNumberOrNull(parsed.meta?.pagination?.total),
  };
}

/** Shelf and regular price of an item: a promo above 0 and below the regular price is the shelf price. */
export function krogerPrices(price: { regular?: unknown; promo?: unknown } | null | undefined): {
  price: number | null;
  regularPrice: number | null;
} {
  if (!price) return { price: null, regularPrice: null };
  const regular = toPrice(price.regular);
  const promo = toPrice(price.promo);
  if (promo !== null && (regular === null || promo < regular)) return { price: promo, regularPrice: regular };
  return { price: regular, regularPrice: regular };
}

/**
 * Stock from `inventory.stockLevel` only (HIGH, LOW, TEMPORARILY_OUT_OF_STOCK); without it the
 * stock is unknown. The fulfilment flags say how the location offers the item ("instore: the item
 * is sold in store at the given location", the API's documentation), not whether its shelf holds
 * some now.
 */
function krogerInStock(item: z.infer<typeof itemSchema> | undefined): boolean | null {
  const level = item?.inventory?.stockLevel?.trim().toUpperCase();
  if (level === 'TEMPORARILY_OUT_OF_STOCK') return false;
  if (level === 'HIGH' || level === 'LOW') return true;
  return null;
}

/** `inStore` false: the location does not sell the item in store, so its price is no shelf price there. */
function notSoldInStore(item: z.infer<typeof itemSchema> | undefined): boolean {
  return (item?.fulfillment?.inStore ?? item?.fulfillment?.instore) === false;
}

function krogerListing(product: KrogerProduct): RawListing {
  const id = String(product.productId);
  const item = product.items?.[0];
  const category = product.categories?.find((c) => c.trim() !== '');
  const size = item?.size ? cleanText(item.size) : '';
  const brand = product.brand ? cleanText(product.brand) : '';
  return {
    retailerProductId: id,
    title: cleanText(product.description),
    brand: brand || null,
    ...krogerPrices(item?.price),
    sizeText: size || null,
    category: category ? cleanText(category) : null,
    url: `https://www.kroger.com/p/${encodeURIComponent(id)}`,
    inStock: krogerInStock(item),
    ...(notSoldInStore(item) ? { notOnShelf: 'online-only' as const } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The scraper

async function locate(zip: string, ctx: ScrapeContext): Promise<RetailerLocation | null> {
  const params = new URLSearchParams({ 'filter.zipCode.near': zip, 'filter.radiusInMiles': '50', 'filter.limit': '5' });
  return parseKrogerLocations(await apiGet(ctx, `${API}/v1/locations?${params.toString()}`));
}

async function* listings(location: RetailerLocation, _zip: string, ctx: ScrapeContext): AsyncGenerator<ListingPage> {
  let start = 0;
  for (let page = 0; page < ctx.maxPages; page++) {
    const params = new URLSearchParams({ 'filter.term': ctx.term });
    // Prices and stock come only with a location.
    if (location.retailerLocationId) params.set('filter.locationId', location.retailerLocationId);
    params.set('filter.limit', String(KROGER_PAGE_SIZE));
    params.set('filter.start', String(start));
    const parsed = parseKrogerProducts(await apiGet(ctx, `${API}/v1/products?${params.toString()}`));
    yield { listings: parsed.listings, nonProductTiles: parsed.nonProductTiles };
    const returned = parsed.listings.length;
    if (returned === 0) return;
    start += returned;
    if (parsed.total !== null ? start >= parsed.total : returned < KROGER_PAGE_SIZE) return;
  }
}

export const kroger: RetailerScraper = {
  store: 'kroger',
  storeName: 'Kroger',
  origins: [API],
  checkConfig,
  locate,
  listings,
  discovery: { reachMiles: KROGER_LOCATIONS_MAX_RADIUS, discover },
};
