// Albertsons: the banner's own search service (pgmsearch) and store resolver,
// both under /abs/pub/xapi and both behind the Ocp-Apim-Subscription-Key the site ships in its
// inline config (SWY.CONFIGSERVICE.searchConfig.apimProgramSubscriptionKey). The key rotates, so
// it is read from the home page once per run unless ALBERTSONS_API_KEY is configured.
import { decodeHTML } from 'entities';
import { z } from 'zod';
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

export const ALBERTSONS_ORIGIN = 'https://www.albertsons.com';
const BANNER = 'albertsons';
/** Rows per search page, as the site asks for them. */
export const ALBERTSONS_ROWS = 30;

export const ALBERTSONS_KEY_MISSING =
  "Albertsons' search API key was not found on albertsons.com; set ALBERTSONS_API_KEY";

// ---------------------------------------------------------------------------------------------
// The subscription key

const KEY_PATTERN =
  /apimProgramSubscriptionKey(?:&quot;|&#34;|&#x22;|[^0-9A-Za-z]){1,16}([0-9a-fA-F]{32})(?![0-9A-Za-z])/;

/**
 * The search key from the home page's inline config, in whatever quoting the script uses
 * (`"apimProgramSubscriptionKey":"..."`, `apimProgramSubscriptionKey: '...'`, an assignment,
 * an escaped JSON string or an HTML-escaped attribute); null when the page has none. The one in
 * searchConfig wins when other configs carry a key of the same name.
 */
export function findAlbertsonsApiKey(html: string): string | null {
  for (const text of [html, decodeHTML(html)]) {
    const at = text.indexOf('searchConfig');
    const match = (at >= 0 ? KEY_PATTERN.exec(text.slice(at)) : null) ?? KEY_PATTERN.exec(text);
    if (match) return match[1]!;
  }
  return null;
}

/** The key of one run (one RetailerHttp): read once, shared by every ZIP. */
const runKeys = new WeakMap<RetailerHttp, Promise<string>>();

function apiKey(ctx: ScrapeContext): Promise<string> {
  const configured = ctx.credentials.albertsonsApiKey?.trim();
  if (configured) return Promise.resolve(configured);
  let key = runKeys.get(ctx.http);
  if (!key) {
    key = ctx.http
      .request({ url: `${ALBERTSONS_ORIGIN}/`, headers: { accept: 'text/html,application/xhtml+xml' } })
      .then((response) => {
        const found = findAlbertsonsApiKey(response.body);
        if (!found) throw new ConfigError(ALBERTSONS_KEY_MISSING);
        return found;
      });
    // A failure (a bot wall, a page without the key) is not kept: the next ZIP tries again.
    key.catch(() => runKeys.delete(ctx.http));
    runKeys.set(ctx.http, key);
  }
  return key;
}

const apiHeaders = (key: string) => ({ 'Ocp-Apim-Subscription-Key': key, accept: 'application/json' });

// ---------------------------------------------------------------------------------------------
// ZIP -> store (storeresolver)

const Text = z.string().nullish();
const Code = z.union([z.string(), z.number()]).nullish();

const StoreSchema = z.looseObject({
  locationId: z.union([z.string().min(1), z.number()]),
  address: z
    .looseObject({ line1: Text, city: Text, state: Text, zipcode: Code, zipCode: Code, postalCode: Code })
    .nullish(),
  storeName: Text,
  name: Text,
  /** The banner's display name ("Safeway"): one resolver answers for every banner. */
  domainName: Text,
  /** Miles from the ZIP code asked (real answers carry it). */
  distance: z.unknown().optional(),
  latitude: z.unknown().optional(),
  longitude: z.unknown().optional(),
});
type AlbertsonsStore = z.infer<typeof StoreSchema>;

/** A count as a number or a numeric string ("57"). */
const Count = z.union([z.number(), z.string().trim().regex(/^\d+$/)]).nullish();

/** `stores` may be left out of a group: `{ instore: { count: 0 } }` lists no stores. */
const StoreGroupSchema = z.looseObject({ count: Count, stores: z.array(StoreSchema).nullish() });

const ResolverSchema = z
  .looseObject({
    instore: StoreGroupSchema.nullish(),
    pickup: StoreGroupSchema.nullish(),
    stores: z.array(StoreSchema).nullish(),
  })
  .refine((body) => Boolean(body.instore || body.pickup || body.stores), {
    message: 'has no instore, pickup or stores list',
  });

function text(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const cleaned = cleanText(value);
  return cleaned === '' ? null : cleaned;
}

function stateCode(value: string | null | undefined): string | null {
  const cleaned = text(value)?.toUpperCase() ?? null;
  return cleaned && /^[A-Z]{2}$/.test(cleaned) ? cleaned : null;
}

function toLocation(store: AlbertsonsStore): RetailerLocation {
  const address = store.address ?? {};
  const city = text(address.city);
  return {
    retailerLocationId: String(store.locationId),
    name:
      text(store.storeName) ?? text(store.name) ?? (city ? `${text(store.domainName) ?? 'Albertsons'} ${city}` : null),
    zip: zip5(address.zipcode ?? address.zipCode ?? address.postalCode),
    city,
    state: stateCode(address.state),
    address: text(address.line1),
    latitude: toNumberOrNull(store.latitude),
    longitude: toNumberOrNull(store.longitude),
  };
}

/**
 * The nearest store of a storeresolver answer (`/storeresolver/all` or `/v2/all`): the first
 * in-store location, else the first pickup one; null when it lists none.
 */
export function parseAlbertsonsStores(body: string): RetailerLocation | null {
  const parsed = parseJsonBody(body, ResolverSchema, 'Albertsons store resolver');
  const store = parsed.instore?.stores?.[0] ?? parsed.pickup?.stores?.[0] ?? parsed.stores?.[0];
  return store ? toLocation(store) : null;
}

/**
 * storeresolver as discovery asks it: the `size` (10) and `radius` (50 miles) the site itself sends,
 * the only values documented; a larger radius may be cut short by the service without saying so.
 */
export const ALBERTSONS_RESOLVER_SIZE = 10;
export const ALBERTSONS_RESOLVER_RADIUS = 50;

/**
 * Every in-store location of a storeresolver answer (else its pickup ones), each with its banner
 * (`domainName`), and what the answer proves around the point: the radius asked when it lists
 * none, else its farthest store (its `distance`; without one, from its address).
 */
export function parseAlbertsonsDiscovery(body: string, point: DiscoveryPoint, radiusMiles: number): DiscoveryAnswer {
  const parsed = parseJsonBody(body, ResolverSchema, 'Albertsons store resolver');
  const records = (parsed.instore?.stores ?? parsed.pickup?.stores ?? parsed.stores ?? []).map((record) => ({
    location: toLocation(record),
    banner: text(record.domainName),
    answeredMiles: toNumberOrNull(record.distance),
  }));
  return discoveryAnswer(point, records, radiusMiles);
}

/** The storeresolver call for a ZIP code, as the site sends it (a ZIP run's store and discovery alike). */
export function albertsonsStoreResolverUrl(zip: string): string {
  return `${ALBERTSONS_ORIGIN}/abs/pub/xapi/storeresolver/all?zipcode=${encodeURIComponent(zip)}&radius=${ALBERTSONS_RESOLVER_RADIUS}&size=${ALBERTSONS_RESOLVER_SIZE}`;
}

export function albertsonsStoreResolverV2Url(zip: string): string {
  return `${ALBERTSONS_ORIGIN}/abs/pub/xapi/storeresolver/v2/all?zipcode=${encodeURIComponent(zip)}&banner=${BANNER}`;
}

const isNotFound = (error: unknown) =>
  error instanceof ScrapeError && error.kind === 'http' && /\bHTTP 404\b/.test(error.message);

// ---------------------------------------------------------------------------------------------
// Search (pgmsearch)

const Amount = z.union([z.number(), z.string()]).nullish();
const Id = z.union([z.string().min(1), z.number()]);

const DocSchema = z.looseObject({
  pid: Id.nullish(),
  id: Id.nullish(),
  upc: Code,
  name: z.string(),
  brand: Text,
  price: Amount,
  basePrice: Amount,
  pricePer: Amount,
  basePricePer: Amount,
  unitOfMeasure: Text,
  sellByWeight: Text,
  promoDescription: Text,
  promoEndDate: Text,
  inventoryAvailable: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  status: Text,
  departmentName: Text,
  aisleName: Text,
  url: Text,
  dispItemSizeQty: Code,
  dispUnitOfMeasure: Text,
  labels: z.array(z.looseObject({ labelName: Text })).nullish(),
});
type AlbertsonsDoc = z.infer<typeof DocSchema>;

/** A search answer: `response` with its docs, and the service's own `appCode`/`appMsg`. */
const ResultSchema = z.looseObject({
  appCode: Code,
  appMsg: Text,
  response: z
    .looseObject({
      numFound: Count,
      docs: z.array(DocSchema).optional(),
    })
    .nullish(),
});

/**
 * pgmsearch wraps its answer in `primaryProducts`; the site's newer search (wcax/pathway), the
 * aisles' similar products and the product page's catalogue carry the same docs unwrapped.
 */
const SearchSchema = ResultSchema.extend({ primaryProducts: ResultSchema.optional() }).refine(
  (body) =>
    body.primaryProducts !== undefined ||
    (body.response !== undefined && body.response !== null) ||
    (body.appCode !== undefined && body.appCode !== null),
  { message: 'has neither primaryProducts nor response' },
);

export interface AlbertsonsSearchPage extends ListingPage {
  /** Docs on this page (the next page starts after them). */
  docCount: number;
  /** Results of the whole search, when the answer says. */
  numFound: number | null;
}

function availability(doc: AlbertsonsDoc): boolean | null {
  if (doc.status && doc.status.trim().toLowerCase() !== 'active') return false;
  const flag = doc.inventoryAvailable;
  if (flag === true || flag === 1 || flag === '1' || flag === 'true') return true;
  if (flag === false || flag === 0 || flag === '0' || flag === 'false') return false;
  return null;
}

function productUrl(doc: AlbertsonsDoc, pid: string): string {
  const url = doc.url?.trim();
  if (url && /^https?:\/\//i.test(url)) return url;
  if (url) return `${ALBERTSONS_ORIGIN}${url.startsWith('/') ? '' : '/'}${url}`;
  return `${ALBERTSONS_ORIGIN}/shop/product-details.${encodeURIComponent(pid)}.html`;
}

/** A pack count as the site shows it: the "12 ct" label, else dispItemSizeQty with a count unit ("12" "CT"). */
const COUNT_SIZE = /^\d+\s*(ct|count|dz|dozen|ea|each|pk|pack)\b/i;

function sizeText(doc: AlbertsonsDoc): string | null {
  const label = doc.labels
    ?.map((entry) => text(entry.labelName))
    .find((name) => name !== null && COUNT_SIZE.test(name));
  if (label) return label;
  const size =
    doc.dispItemSizeQty === undefined || doc.dispItemSizeQty === null
      ? null
      : `${String(doc.dispItemSizeQty).trim()} ${text(doc.dispUnitOfMeasure) ?? ''}`.trim();
  return size && COUNT_SIZE.test(size) ? size : null;
}

/** An aisle name without the id the newer bodies append ("Eggs|1_11_3"). */
function aisle(value: string | null | undefined): string | null {
  return text(value?.split('|')[0]);
}

function toListing(doc: AlbertsonsDoc, path: string): RawListing {
  const id = doc.pid ?? doc.id;
  if (id === undefined || id === null) throw new StructureError(`Albertsons search: ${path} has no pid`);
  const pid = String(id);
  const current = toPrice(doc.price);
  const base = toPrice(doc.basePrice);
  const listing: RawListing = {
    retailerProductId: pid,
    title: cleanText(doc.name),
    brand: text(doc.brand),
    // `price` has the member/club price applied; `basePrice` is the regular one. pricePer is per
    // `unitQuantity`, per egg on one doc and per dozen on the next: never a price here.
    price: current ?? base,
    regularPrice: base,
    sizeText: sizeText(doc),
    category: aisle(doc.aisleName) ?? text(doc.departmentName),
    url: productUrl(doc, pid),
    // "0" with a price is out of stock at the store, the price still the shelf's.
    inStock: availability(doc),
  };
  // "P": priced per pound, the price an estimate for an average weight.
  if (doc.sellByWeight?.trim().toUpperCase() === 'P') listing.soldByWeight = true;
  return listing;
}

/**
 * One search answer. HTTP 200 with an `appCode` (e.g. "400") and `appMsg` but no docs is the
 * service's own failure: an error, never an empty page. With docs, the code may read "200" or
 * "[GR200, P-GKE200]...": either way the docs are read.
 */
export function parseAlbertsonsSearch(body: string): AlbertsonsSearchPage {
  const parsed = parseJsonBody(body, SearchSchema, 'Albertsons search');
  const wrapper = parsed.primaryProducts ? 'primaryProducts.' : '';
  const { appCode, appMsg, response } = parsed.primaryProducts ?? parsed;
  const docs = response?.docs;
  if (!docs) {
    if (appCode !== undefined && appCode !== null) {
      throw new ScrapeError('http', `Albertsons search failed: ${text(appMsg) ?? `appCode ${appCode}`}`);
    }
    throw new StructureError(`Albertsons search: ${wrapper}response.docs is missing`);
  }
  const numFound = response?.numFound;
  return {
    listings: docs.map((doc, index) => toListing(doc, `${wrapper}response.docs.${index}`)),
    nonProductTiles: 0,
    docCount: docs.length,
    numFound: numFound === undefined || numFound === null ? null : Number(numFound),
  };
}

function randomDigits(length: number): string {
  let digits = String(1 + Math.floor(Math.random() * 9));
  while (digits.length < length) digits += String(Math.floor(Math.random() * 10));
  return digits;
}

/** The search URL with the parameters in the order the site's own builder uses. */
export function albertsonsSearchUrl(storeId: string, term: string, start: number): string {
  const params = new URLSearchParams([
    ['request-id', randomDigits(19)],
    ['url', ALBERTSONS_ORIGIN],
    ['pageurl', `${ALBERTSONS_ORIGIN}/shop/search-results.html?q=${encodeURIComponent(term)}`],
    ['pagename', 'search'],
    ['rows', String(ALBERTSONS_ROWS)],
    ['start', String(start)],
    ['search-type', 'keyword'],
    ['storeid', storeId],
    ['featured', 'true'],
    ['q', term],
    ['sort', ''],
    ['timezone', 'America/Los_Angeles'],
    ['dvid', 'web-4.1search'],
    ['channel', 'pickup'],
    ['pp', 'true'],
    ['includeOffer', 'true'],
    ['banner', BANNER],
  ]);
  return `${ALBERTSONS_ORIGIN}/abs/pub/xapi/pgmsearch/v1/search/products?${params.toString()}`;
}

export const albertsons: RetailerScraper = {
  store: 'albertsons',
  storeName: 'Albertsons',
  origins: [ALBERTSONS_ORIGIN],

  async locate(zip, ctx) {
    const headers = apiHeaders(await apiKey(ctx));
    try {
      const response = await ctx.http.request({ url: albertsonsStoreResolverUrl(zip), headers });
      return parseAlbertsonsStores(response.body);
    } catch (error) {
      // The older resolver path is gone on some banners: the v2 form answers the same stores.
      if (!isNotFound(error)) throw error;
      const response = await ctx.http.request({ url: albertsonsStoreResolverV2Url(zip), headers });
      return parseAlbertsonsStores(response.body);
    }
  },

  discovery: {
    reachMiles: ALBERTSONS_RESOLVER_RADIUS,
    async discover(point, ctx) {
      const response = await ctx.http.request({
        url: albertsonsStoreResolverUrl(point.zip),
        headers: apiHeaders(await apiKey(ctx)),
      });
      return parseAlbertsonsDiscovery(response.body, point, ALBERTSONS_RESOLVER_RADIUS);
    },
  },

  async *listings(location, _zip, ctx) {
    const storeId = location.retailerLocationId;
    if (!storeId) throw new StructureError('Albertsons store without a locationId');
    const headers = apiHeaders(await apiKey(ctx));
    let start = 0;
    for (let page = 0; page < ctx.maxPages; page++) {
      const response = await ctx.http.request({ url: albertsonsSearchUrl(storeId, ctx.term, start), headers });
      const parsed = parseAlbertsonsSearch(response.body);
      yield { listings: parsed.listings, nonProductTiles: parsed.nonProductTiles };
      start += parsed.docCount;
      if (parsed.docCount === 0) return;
      if (parsed.numFound !== null ? start >= parsed.numFound : parsed.docCount < ALBERTSONS_ROWS) return;
    }
  },
};
