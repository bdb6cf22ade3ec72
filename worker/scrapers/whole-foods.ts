// Whole Foods Market (retailers.md §5): the store finder (POST /stores/search) and the keyword
// search JSON (/api/search), no key. Prices come only with store=; list results carry no stock
// flag and no pack-size field besides `uom`.
import { z } from 'zod';
import { parseJsonBody } from './http.ts';
import { cleanText, toNumberOrNull, toPrice, zip5 } from './parse-utils.ts';
import { StructureError, type ListingPage, type RawListing, type RetailerLocation, type RetailerScraper } from './types.ts';

export const WHOLE_FOODS_ORIGIN = 'https://www.wholefoodsmarket.com';
/** Results per search page (the site's own page size). */
export const WHOLE_FOODS_LIMIT = 60;

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
      address: z.looseObject({ line1: Text, city: Text, state: Text, zipCode: Code, postalCode: Code }).nullish(),
      geometry: z.looseObject({ coordinates: z.array(z.unknown()).nullish() }).nullish(),
    })
    .nullish(),
});
type WholeFoodsStore = z.infer<typeof StoreSchema>;

const StoresSchema = z.union([z.array(StoreSchema), z.looseObject({ stores: z.array(StoreSchema) })]);

function toLocation(store: WholeFoodsStore): RetailerLocation {
  const address = store.location?.address ?? {};
  const [longitude, latitude] = store.location?.geometry?.coordinates ?? [];
  const state = text(address.state)?.toUpperCase() ?? null;
  return {
    retailerLocationId: String(store.storeId),
    name: text(store.name),
    zip: zip5(address.zipCode ?? address.postalCode),
    city: text(address.city),
    state: state && /^[A-Z]{2}$/.test(state) ? state : null,
    address: text(address.line1),
    latitude: toNumberOrNull(latitude),
    longitude: toNumberOrNull(longitude),
  };
}

/** The first (nearest) store of a store-finder answer: an array of stores, or { stores: [...] }; null when empty. */
export function parseWholeFoodsStores(body: string): RetailerLocation | null {
  const parsed = parseJsonBody(body, StoresSchema, 'Whole Foods store search');
  const stores = Array.isArray(parsed) ? parsed : parsed.stores;
  return stores[0] ? toLocation(stores[0]) : null;
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
  meta: z.looseObject({ total: z.looseObject({ value: z.number() }).nullish() }).nullish(),
});

export interface WholeFoodsSearchPage extends ListingPage {
  /** Results on this page. */
  resultCount: number;
  /** meta.total.value, when given. */
  total: number | null;
}

/** The ASIN that ends a product slug (`...-b07dlgkrtd` → B07DLGKRTD), else the slug itself. */
export function wholeFoodsProductId(slug: string): string {
  const asin = /(?:^|-)(b0[0-9a-z]{8})$/i.exec(slug.trim());
  return asin ? asin[1]!.toUpperCase() : slug.trim();
}

/**
 * `uom` as a size only when it reads like a count of eggs ("12 ct", "18 count", "1 dozen") or a
 * number of each ("12 ea", "12 each": the classifier reads N >= 2 as a count and ignores "1 each");
 * "ea", "lb", "12 oz" are units, not sizes.
 */
function countText(uom: string | null | undefined): string | null {
  const value = text(uom);
  if (!value) return null;
  return /^\d+(\.\d+)?\s*-?\s*(ct|count|pk|pack|eggs?)\b|\b(dozen|doz|dz)\b|^\d+\s*(ea|each)\.?$/i.test(value) ? value : null;
}

const DAY = 86_400_000;

/**
 * Whether a present salePrice is the shelf price. retailers.md §5: salePrice and the sale dates
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
  return [item.regularPrice, item.salePrice, item.incrementalSalePrice].some((value) => value !== undefined && value !== null);
}

function toListing(item: WholeFoodsItem): RawListing {
  const regular = toPrice(item.regularPrice);
  const sale = toPrice(item.salePrice);
  // incrementalSalePrice is the Prime members' extra discount, not the shelf price.
  const onSale = sale !== null && saleApplies(item);
  return {
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
}

/**
 * One /api/search answer. Results of which not one carries a price field are the answer without
 * a store (retailers.md §5): a failure, never a page of unpriced products (results where only
 * some lack a price are read, those without one rejected later as unpriced).
 */
export function parseWholeFoodsSearch(body: string): WholeFoodsSearchPage {
  const parsed = parseJsonBody(body, SearchSchema, 'Whole Foods search');
  if (parsed.results.length > 0 && !parsed.results.some(hasPriceField)) {
    throw new StructureError('Whole Foods search: no prices: the store was not applied');
  }
  const total = parsed.meta?.total?.value;
  return {
    listings: parsed.results.map(toListing),
    nonProductTiles: 0,
    resultCount: parsed.results.length,
    total: total ?? null,
  };
}

export function wholeFoodsSearchUrl(storeId: string, term: string, offset: number): string {
  const params = new URLSearchParams({ text: term, store: storeId, limit: String(WHOLE_FOODS_LIMIT), offset: String(offset) });
  return `${WHOLE_FOODS_ORIGIN}/api/search?${params.toString()}`;
}

export const wholeFoods: RetailerScraper = {
  store: 'whole-foods',
  storeName: 'Whole Foods',
  origins: [WHOLE_FOODS_ORIGIN],

  async locate(zip, ctx) {
    const response = await ctx.http.request({
      url: `${WHOLE_FOODS_ORIGIN}/stores/search`,
      method: 'POST',
      json: { query: zip },
      headers: { accept: 'application/json' },
    });
    return parseWholeFoodsStores(response.body);
  },

  async *listings(location, _zip, ctx) {
    const storeId = location.retailerLocationId;
    if (!storeId) throw new StructureError('Whole Foods store without a storeId');
    let offset = 0;
    for (let page = 0; page < ctx.maxPages; page++) {
      const response = await ctx.http.request({ url: wholeFoodsSearchUrl(storeId, ctx.term, offset), headers: { accept: 'application/json' } });
      const parsed = parseWholeFoodsSearch(response.body);
      yield { listings: parsed.listings, nonProductTiles: parsed.nonProductTiles };
      offset += parsed.resultCount;
      if (parsed.resultCount < WHOLE_FOODS_LIMIT) return;
      if (parsed.total !== null && offset >= parsed.total) return;
    }
  },
};
