// Whole Foods Market stand-in: the store finder (POST /stores/search), the
// keyword search JSON
// (/api/search), which leaves out every price field when no store= is given, product pages
// rendered for a store (/grocery/product/<slug>?store=<id>: its code, the offer listing
// discriminator), products with offers and stock (/api/wwos/products: IN_STOCK, or null when the
// service does not say), and the newer search (/api/wwos/rsi/search, ASINs only) with the grocery
// search page that embeds it.
import type { EggType } from '#shared/vocabulary.ts';
import { zipToState } from '#shared/zip.ts';
import { SLOW_MS, hashOf, scenarioOf, standInPrice } from './scenarios.ts';
import { standInPlace } from './places.ts';
import { blocksAt, networkStoreById, registerNetworkIds, storesNear } from './network.ts';
import {
  html,
  json,
  type RetailerStandIn,
  type StandInRequest,
  type StandInResponse,
  type StandInState,
} from './types.ts';

const HOST = 'www.wholefoodsmarket.com';

// A store id per ZIP that the search can turn back into the ZIP: "1" and an affine permutation of 0..99999.
const MOD = 100_000;
const MUL = 13;
const ADD = 52_817;
const INVERSE = (() => {
  for (let x = 1; x < MOD; x++) if ((MUL * x) % MOD === 1) return x;
  throw new Error('no inverse');
})();

export function wholeFoodsStoreIdOf(zip: string): string {
  return `1${String((Number(zip.slice(0, 5)) * MUL + ADD) % MOD).padStart(5, '0')}`;
}

registerNetworkIds('whole-foods', wholeFoodsStoreIdOf);

/** How far the store finder looks, and how many stores it answers. */
const FINDER_MILES = 100;
const FINDER_STORES = 5;

/** The ZIP code a store id prices: a network store's 10xxx id, or the 1xxxxx id derived from a ZIP. */
export function zipOfWholeFoodsStore(storeId: string): string | null {
  if (/^10\d{3}$/.test(storeId)) return networkStoreById('whole-foods', storeId)?.zip ?? null;
  if (!/^1\d{5}$/.test(storeId)) return null;
  const zip = String((((Number(storeId.slice(1)) - ADD + MOD) % MOD) * INVERSE) % MOD).padStart(5, '0');
  return zipToState(zip) ? zip : null;
}

function storeOf(zip: string, second = false, networkId: string | null = null) {
  const id = networkId ?? wholeFoodsStoreIdOf(zip);
  const h = hashOf(`whole-foods:${zip}:${second}`);
  const place = standInPlace('whole-foods', zip, second ? 1 : 0);
  const city = place.city;
  return {
    storeId: second ? (Number(id) < 199_999 ? Number(id) + 1 : Number(id) - 1) : Number(id),
    name: second ? `${city} North` : city,
    tlc: city.slice(0, 3).toUpperCase(),
    path: second ? `${city.toLowerCase()}-north` : city.toLowerCase(),
    status: 'OPEN',
    location: {
      address: {
        line1: `${100 + (h % 8900)} ${['Market St', 'Lamar Blvd', 'Central Ave', 'Elm St'][h % 4]}`,
        city,
        state: place.state,
        zipCode: zip.slice(0, 5),
      },
      ...(place.latitude !== null
        ? { geometry: { type: 'Point', coordinates: [place.longitude, place.latitude] } }
        : {}),
    },
  };
}

interface Item {
  key: string;
  brand?: string;
  name: string;
  egg?: { type: EggType; count: number };
  base?: number;
  /** 'dated': salePrice with sale dates around today and a Prime price; 'undated': salePrice alone. */
  sale?: 'dated' | 'undated';
  /** Without brand, imageThumbnail and uom. */
  sparse?: boolean;
  uom?: string;
  /** /api/wwos/products answers availability null for it (the service does not say): stock unknown. */
  stockUnknown?: boolean;
}

const WFM = '365 by Whole Foods Market';

const EGGS: Item[] = [
  {
    key: 'wfm-organic-brown-12',
    brand: WFM,
    name: 'Organic Large Brown Grade A Eggs, 12 ct',
    egg: { type: 'organic', count: 12 },
    sale: 'dated',
    uom: 'ea',
  },
  {
    key: 'wfm-organic-brown-18',
    brand: WFM,
    name: 'Organic Large Brown Grade A Eggs, 18 ct',
    egg: { type: 'organic', count: 18 },
    uom: '18 ct',
  },
  {
    key: 'wfm-cage-free-brown-12',
    brand: WFM,
    name: 'Cage Free Large Brown Grade A Eggs, 12 ct',
    egg: { type: 'cage_free', count: 12 },
    uom: 'ea',
  },
  {
    key: 'wfm-cage-free-white-18',
    brand: WFM,
    name: 'Cage Free Large White Grade A Eggs, 18 ct',
    egg: { type: 'cage_free', count: 18 },
    sale: 'undated',
    uom: 'ea',
    stockUnknown: true,
  },
  {
    key: 'vital-farms-pasture-12',
    brand: 'Vital Farms',
    name: 'Pasture-Raised Large Grade A Eggs, 12 ct',
    egg: { type: 'pasture_raised', count: 12 },
    uom: '12 ct',
  },
  {
    key: 'vital-farms-organic-pasture-18',
    name: 'Vital Farms Organic Pasture-Raised Extra Large Eggs, 18 ct',
    egg: { type: 'pasture_raised', count: 18 },
    sparse: true,
  },
  {
    key: 'pete-gerrys-organic-free-range-12',
    brand: "Pete and Gerry's",
    name: 'Organic Free-Range Large Brown Eggs, 12 ct',
    egg: { type: 'organic', count: 12 },
    uom: 'ea',
  },
  {
    key: 'handsome-brook-pasture-24',
    brand: 'Handsome Brook Farms',
    name: 'Organic Pasture Raised Large Brown Eggs, 24 ct',
    egg: { type: 'pasture_raised', count: 24 },
    uom: 'ea',
  },
  {
    key: 'nellies-free-range-18',
    brand: "Nellie's",
    name: 'Free Range Large Eggs, 18 ct',
    egg: { type: 'cage_free', count: 18 },
    sale: 'dated',
    uom: 'ea',
  },
  {
    key: 'alexandre-pasture-6',
    brand: 'Alexandre Family Farm',
    name: 'Regenerative Organic Pasture Raised Eggs, 6 ct',
    egg: { type: 'pasture_raised', count: 6 },
    uom: 'ea',
    stockUnknown: true,
  },
  {
    key: 'wfm-cage-free-60',
    brand: WFM,
    name: 'Cage Free Large Brown Grade A Eggs, 5 Dozen',
    egg: { type: 'cage_free', count: 60 },
    uom: 'ea',
  },
  {
    key: 'egglands-classic-12',
    brand: "Eggland's Best",
    name: 'Classic Large White Eggs Grade A, 12 ct',
    egg: { type: 'standard', count: 12 },
    uom: 'ea',
  },
  {
    key: 'egglands-classic-18',
    brand: "Eggland's Best",
    name: 'Classic Large White Eggs Grade A, 18 ct',
    egg: { type: 'standard', count: 18 },
    uom: 'ea',
  },
  {
    key: 'happy-egg-free-range-12',
    brand: 'Happy Egg',
    name: 'Free Range Large Brown Eggs, 12 ct',
    egg: { type: 'cage_free', count: 12 },
    sale: 'dated',
    uom: 'ea',
  },
];

const NOT_EGGS: Item[] = [
  { key: 'wfm-liquid-egg-whites', brand: WFM, name: 'Organic Liquid Egg Whites, 16 fl oz', base: 4.99, uom: 'ea' },
  { key: 'just-egg', brand: 'JUST Egg', name: 'Plant-Based Scramble, 16 fl oz', base: 7.49, uom: 'ea' },
  { key: 'wfm-hard-boiled', brand: WFM, name: 'Organic Hard-Boiled Eggs, 6 ct', base: 4.49, uom: 'ea' },
  { key: 'wfm-egg-noodles', brand: WFM, name: 'Organic Egg Noodles, 12 oz', base: 2.99, uom: 'ea' },
  { key: 'chocolate-eggs', brand: 'Hu', name: 'Dark Chocolate Eggs, 3.5 oz', base: 6.99, uom: 'ea' },
  { key: 'egg-bites', brand: 'Vital Farms', name: 'Egg Bites, Bacon & Cheddar, 2 ct', base: 5.99, uom: 'ea' },
  { key: 'egg-salad', brand: 'Whole Foods Market', name: 'Classic Egg Salad, 12 oz', base: 6.49, uom: 'lb' },
  { key: 'eggnog', brand: 'Organic Valley', name: 'Organic Eggnog, 32 fl oz', base: 5.79, uom: 'ea' },
];

const FILLER_BRANDS = [WFM, 'Whole Foods Market', 'Simple Mills'];
const FILLER_PRODUCTS = [
  'Egg Fettuccine',
  'Avocado Oil Mayonnaise',
  'Brioche Buns',
  'Challah Bread',
  'Quiche Lorraine',
  'Spinach & Feta Egg Bites',
  'Egg Roll Wrappers',
  'Vanilla Custard',
  'Deviled Egg Potato Salad',
  'Egg Pappardelle',
  'French Vanilla Ice Cream',
  'Challah Rolls',
  'Vegetable Frittata',
  'Breakfast Burrito',
  'Almond Flour Pancake Mix',
  'Chocolate Chip Cookies',
  'Lemon Pound Cake',
  'Caesar Dressing',
  'Aioli Garlic Sauce',
  'Egg Tagliatelle',
  'Blueberry Muffins',
  'Pumpkin Bread Mix',
  'Carrot Cake',
  'Tiramisu',
  'Hollandaise Sauce',
  'Fried Rice',
];
const FILLERS: Item[] = Array.from({ length: 53 }, (_, i) => ({
  key: `filler-${i}`,
  brand: FILLER_BRANDS[i % FILLER_BRANDS.length]!,
  name: FILLER_PRODUCTS[i % FILLER_PRODUCTS.length]!,
  base: 2.49 + (i % 9),
  uom: 'ea',
}));

/** The "eggs" search results in order: 60 on page 1 (12 egg products), 15 on page 2 (2 more). */
export const WHOLE_FOODS_CATALOGUE: Item[] = (() => {
  const eggs = EGGS.slice(0, 12);
  const others = NOT_EGGS.slice(0, 6);
  const page1: Item[] = [];
  for (let i = 0; i < 12; i++) {
    page1.push(eggs[i]!);
    if (i % 2 === 1) page1.push(others[(i - 1) / 2]!);
  }
  const fillers = [...FILLERS];
  while (page1.length < 60) page1.push(fillers.shift()!);
  const page2 = [EGGS[12]!, NOT_EGGS[6]!, EGGS[13]!, NOT_EGGS[7]!, ...fillers];
  return [...page1, ...page2];
})();

const round2 = (value: number) => Math.round(value * 100) / 100;

function asinOf(key: string): string {
  return `b0${hashOf(`asin:${key}`).toString(36).padStart(8, '0').slice(-8)}`;
}

export function wholeFoodsAsinOf(item: Item): string {
  return asinOf(item.key).toUpperCase();
}

/** A store's code (offer listing discriminator, "A04C" on the real site) that maps back to the store. */
export function wholeFoodsStoreCodeOf(storeId: string): string {
  return `A${Number(storeId).toString(36).toUpperCase()}`;
}

function zipOfWholeFoodsCode(code: string): string | null {
  if (!/^A[0-9A-Z]{1,5}$/.test(code)) return null;
  return zipOfWholeFoodsStore(String(parseInt(code.slice(1), 36)));
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function wholeFoodsSlugOf(item: Item): string {
  return `${slugify(`${item.brand ?? ''} ${item.name}`)}-${asinOf(item.key)}`;
}

export function wholeFoodsRegularPrice(item: Item, zip: string, factor = 1): number {
  if (item.egg) return round2(standInPrice('whole-foods', zip, item.key, item.egg.type, item.egg.count, factor));
  return round2((item.base ?? 1) * factor);
}

export function wholeFoodsSalePrice(regular: number): number {
  return Math.max(0.99, round2(Math.round(regular * 0.8 * 10) / 10 - 0.01));
}

/** The Prime members' extra price: 10% off the sale price. */
export function wholeFoodsPrimePrice(sale: number): number {
  return Math.max(0.99, round2(Math.round(sale * 0.9 * 10) / 10 - 0.01));
}

const isoDay = (offsetDays: number) =>
  `${new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`;

function resultOf(item: Item, zip: string | null, storeId: number | null, factor: number): Record<string, unknown> {
  const result: Record<string, unknown> = { name: item.name, slug: wholeFoodsSlugOf(item) };
  if (!item.sparse) {
    if (item.brand) result.brand = item.brand;
    result.imageThumbnail = `https://m.media-amazon.com/images/S/assets.wholefoodsmarket.com/PIE/product/${asinOf(item.key).toUpperCase()}_thumbnail.jpg`;
  }
  result.isLocal = item.key.startsWith('alexandre');
  if (zip === null || storeId === null) return { ...result, store: null };
  const regularPrice = wholeFoodsRegularPrice(item, zip, factor);
  Object.assign(result, { store: storeId, regularPrice });
  if (item.sale) {
    const salePrice = wholeFoodsSalePrice(regularPrice);
    result.salePrice = salePrice;
    if (item.sale === 'dated')
      Object.assign(result, {
        incrementalSalePrice: wholeFoodsPrimePrice(salePrice),
        saleStartDate: isoDay(-2),
        saleEndDate: isoDay(5),
      });
  }
  if (!item.sparse && item.uom) result.uom = item.uom;
  return result;
}

/** The item as /api/wwos/products describes it at the store serving a ZIP. */
function productInfoOf(item: Item, zip: string, factor: number): Record<string, unknown> {
  const regular = wholeFoodsRegularPrice(item, zip, factor);
  const sale = item.sale ? wholeFoodsSalePrice(regular) : null;
  const prime = item.sale === 'dated' && sale !== null ? wholeFoodsPrimePrice(sale) : null;
  const none = { currencyCode: null, savingsAmount: null, percentSavings: null };
  return {
    brandName: item.brand ?? null,
    name: item.name,
    asin: wholeFoodsAsinOf(item),
    programType: 'GROCERY',
    availability: item.stockUnknown ? null : 'IN_STOCK',
    pdpType: 'STANDARD',
    offerDetails: {
      price: {
        currencyCode: 'USD',
        priceAmount: sale ?? regular,
        basisPriceAmount: sale === null ? null : regular,
        savings:
          sale === null
            ? none
            : {
                currencyCode: 'USD',
                savingsAmount: round2(regular - sale),
                percentSavings: `${Math.round((1 - sale / regular) * 100)}%`,
              },
        primeBenefit:
          prime === null
            ? { isApplied: null, text: null, currencyCode: null, priceAmount: null, savingsAmount: null }
            : {
                isApplied: false,
                text: 'Join Prime to buy this item at ',
                currencyCode: 'USD',
                priceAmount: prime,
                savingsAmount: round2((sale ?? regular) - prime),
              },
      },
      unitPrice: null,
      offerListingId: `${hashOf(`offer:${item.key}:${zip}`).toString(36)}%2F${asinOf(item.key)}`,
      maxOrderQuantity: 12,
      isMaxQuantityRestricted: true,
    },
    ctaTag: 'UNRECOGNIZED_SIGN_IN',
  };
}

const DEFAULT_STORE_ZIP = '78703';

/** A page's store context: the store asked for (proved by isDefaultLocation false and matching ids), else the default store. */
function storeContextOf(storeParam: string | null): { pageProps: Record<string, unknown>; zip: string | null } {
  const zip = storeParam ? zipOfWholeFoodsStore(storeParam) : null;
  const known = zip !== null && scenarioOf(zip) !== 'noStore';
  const storeId = known ? storeParam! : wholeFoodsStoreIdOf(DEFAULT_STORE_ZIP);
  const store = storeOf(known ? zip : DEFAULT_STORE_ZIP);
  return {
    zip: known ? zip : null,
    pageProps: {
      isDefaultLocation: !known,
      overrideStoreId: known ? storeId : null,
      programType: 'GROCERY',
      wfmccLocationData: {
        cateringStoreContext: {
          almAttributes: {
            storeId,
            almBrandId: 'VUZHIFdob2xlIEZvb2Rz',
            offerListingDiscriminator: wholeFoodsStoreCodeOf(storeId),
          },
          storePreference: {
            buid: storeId,
            storeAcronym: store.tlc,
            storeName: store.name,
            locationInfo: {
              postalCode: store.location.address.zipCode,
              locationCode: store.location.address.state,
              countryCode: 'US',
            },
          },
        },
      },
    },
  };
}

const nextPage = (page: string, query: Record<string, string>, pageProps: Record<string, unknown>) =>
  html(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Whole Foods Market</title></head><body><div id="__next"></div>` +
      `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps }, page, query, buildId: 'stand-in' }).replace(/</g, '\\u003c')}</script></body></html>`,
  );

const NOT_FOUND_PAGE = html(
  '<!DOCTYPE html><html><head><title>Page Not Found | Whole Foods Market</title></head><body><h1>Page not found</h1></body></html>',
  404,
);

function productPage(request: StandInRequest, slug: string, state: StandInState): StandInResponse {
  const item = WHOLE_FOODS_CATALOGUE.find((entry) => wholeFoodsSlugOf(entry).toLowerCase() === slug.toLowerCase());
  if (!item) return NOT_FOUND_PAGE;
  const context = storeContextOf(request.query.get('store'));
  const aapiData = productInfoOf(item, context.zip ?? DEFAULT_STORE_ZIP, state.priceFactor('whole-foods'));
  return nextPage(
    '/[program-type-slug]/product/[asin-slug]',
    { 'program-type-slug': 'grocery', 'asin-slug': slug },
    { ...context.pageProps, aapiData },
  );
}

const ASIN_INDEX = new Map(WHOLE_FOODS_CATALOGUE.map((item) => [wholeFoodsAsinOf(item), item]));

function wwosProducts(request: StandInRequest, state: StandInState): StandInResponse {
  const zip = zipOfWholeFoodsCode(request.query.get('offerListingDiscriminator') ?? '');
  if (!zip) return json({ message: 'offerListingDiscriminator is invalid' }, 400);
  const asins = (request.query.get('asins') ?? '').split(',').filter(Boolean);
  if (asins.length === 0 || asins.length > 50) return json({ message: 'asins must list 1 to 50 ASINs' }, 400);
  const factor = state.priceFactor('whole-foods');
  return json(
    asins.flatMap((asin) => {
      const item = ASIN_INDEX.get(asin.toUpperCase());
      return item ? [productInfoOf(item, zip, factor)] : [];
    }),
  );
}

/** The newer search's answer for a page of the catalogue. */
function mainResultSet(term: string, offset: number, size: number) {
  return {
    searchResults: WHOLE_FOODS_CATALOGUE.slice(offset, offset + size).map((item) => ({
      asin: wholeFoodsAsinOf(item),
      injectionSource: 'keywords',
      isAdultProduct: false,
      parentAsin: null,
      productGroup: 'grocery_display_on_website',
    })),
    approximateTotalResultCount: WHOLE_FOODS_CATALOGUE.length,
    availableTotalResultCount: WHOLE_FOODS_CATALOGUE.length,
    totalResultCountPreVE: WHOLE_FOODS_CATALOGUE.length + 4,
    keywords: term,
  };
}

const RSI_PAGE_SIZE = 30;

function rsiSearch(request: StandInRequest): StandInResponse {
  const term = request.query.get('text') ?? '';
  const zip = zipOfWholeFoodsCode(request.query.get('old') ?? '');
  if (!term.trim() || !zip) return json({ message: 'text and old are required' }, 400);
  const offset = Math.max(0, Number(request.query.get('offset') ?? 0) || 0);
  const size = Math.min(60, Math.max(1, Number(request.query.get('size') ?? RSI_PAGE_SIZE) || RSI_PAGE_SIZE));
  return json({ mainResultSet: mainResultSet(term, offset, size) });
}

function grocerySearchPage(request: StandInRequest, state: StandInState): StandInResponse {
  const term = request.query.get('k') ?? '';
  const context = storeContextOf(request.query.get('store'));
  const set = mainResultSet(term, 0, RSI_PAGE_SIZE);
  const productsInfo = WHOLE_FOODS_CATALOGUE.slice(0, RSI_PAGE_SIZE).map((item) =>
    productInfoOf(item, context.zip ?? DEFAULT_STORE_ZIP, state.priceFactor('whole-foods')),
  );
  return nextPage(
    '/[program-type-slug]/search',
    { k: term, 'program-type-slug': 'grocery' },
    { ...context.pageProps, searchResults: { mainResultSet: set }, productsInfo },
  );
}

const CLOUDFLARE_CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"></head>
<body><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">www.wholefoodsmarket.com</h1><h2 class="h2">Verifying you are human. This may take a few seconds.</h2></div></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: "www.wholefoodsmarket.com",cType: 'managed'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8f1c2a3b4d5e6f70';document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>`;

function storeSearch(request: StandInRequest, state: StandInState): StandInResponse {
  let query: unknown;
  try {
    query = (JSON.parse(request.body) as { query?: unknown }).query;
  } catch {
    return json({ message: 'Invalid JSON body' }, 400);
  }
  if (typeof query !== 'string' || query.trim() === '') return json({ message: 'query is required' }, 400);
  const zip = query.trim();
  if (!/^\d{5}$/.test(zip) || !zipToState(zip) || scenarioOf(zip) === 'noStore') return json([]);
  // The network's nearest stores within FINDER_MILES; a ZIP code the geodata does not know gets the
  // two stores derived from it, as before the network.
  const near = storesNear('whole-foods', zip, { limit: FINDER_STORES, withinMiles: FINDER_MILES, state });
  return json(near ? near.map(({ store }) => storeOf(store.zip, false, store.id)) : [storeOf(zip), storeOf(zip, true)]);
}

function search(request: StandInRequest, state: StandInState): StandInResponse {
  const term = request.query.get('text') ?? '';
  if (!term.trim()) return json({ message: 'text is required' }, 400);
  const limit = Math.min(60, Math.max(1, Number(request.query.get('limit') ?? 60) || 60));
  const offset = Math.max(0, Number(request.query.get('offset') ?? 0) || 0);
  const storeParam = request.query.get('store');
  const zip = storeParam ? zipOfWholeFoodsStore(storeParam) : null;
  const scenario = zip ? scenarioOf(zip) : 'normal';
  if (zip && blocksAt('whole-foods', zip))
    return html(CLOUDFLARE_CHALLENGE, 403, { 'cf-mitigated': 'challenge', server: 'cloudflare' });
  if (scenario === 'flaky' && state.hit(`whole-foods:search:${zip}`) === 1)
    return html('<html><body><h1>502 Bad Gateway</h1></body></html>', 500);
  if (scenario === 'rateLimited' && state.hit(`whole-foods:search:${zip}`) === 1)
    return json({ message: 'Too Many Requests' }, 429, { 'retry-after': '1' });
  const factor = state.priceFactor('whole-foods');
  // Without a (known) store the results carry no price fields, as on the real site.
  const results = WHOLE_FOODS_CATALOGUE.slice(offset, offset + limit).map((item) =>
    resultOf(item, zip, zip ? Number(storeParam) : null, factor),
  );
  const delay = scenario === 'slow' ? { delayMs: SLOW_MS } : {};
  if (scenario === 'changed') {
    const products = results.map((result) => ({
      title: result.name,
      productSlug: result.slug,
      pricing: { list: result.regularPrice, offer: result.salePrice ?? null },
    }));
    return { ...json({ data: { products, totalCount: WHOLE_FOODS_CATALOGUE.length } }), ...delay };
  }
  return {
    ...json({
      results,
      facets: [
        {
          label: 'Category',
          slug: 'category',
          refinements: [{ label: 'Dairy & Eggs', slug: 'dairy-eggs', count: 22, isSelected: false }],
        },
      ],
      breadcrumb: [{ label: 'All Products', slug: 'all-products' }],
      meta: {
        total: { value: WHOLE_FOODS_CATALOGUE.length, relation: 'eq' },
        state: { refinements: [], sort: 'relevance' },
      },
    }),
    ...delay,
  };
}

export const wholeFoodsStandIn: RetailerStandIn = {
  store: 'whole-foods',
  wall: () => html(CLOUDFLARE_CHALLENGE, 403, { 'cf-mitigated': 'challenge', server: 'cloudflare' }),
  handle(request, state) {
    if (request.host && request.host !== HOST) return null;
    if (request.path === '/stores/search')
      return request.method === 'POST' ? storeSearch(request, state) : json({ message: 'Method Not Allowed' }, 405);
    if (request.path === '/api/search')
      return request.method === 'GET' ? search(request, state) : json({ message: 'Method Not Allowed' }, 405);
    if (request.method !== 'GET') return null;
    const product = /^\/grocery\/product\/([^/]+)$/.exec(request.path);
    if (product) return productPage(request, decodeURIComponent(product[1]!), state);
    if (request.path === '/grocery/search') return grocerySearchPage(request, state);
    if (request.path === '/api/wwos/products') return wwosProducts(request, state);
    if (request.path === '/api/wwos/rsi/search') return rsiSearch(request);
    return null;
  },
};
