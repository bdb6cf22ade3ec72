// Target stand-in: the www.target.com home page (its inline config carries
// the RedSky web key, a placeholder of the real shape) and RedSky's nearby_stores_v1 (the state's
// full name beside its region code, ZIP+4 postal codes, no coordinates), plp_search_v2 (captured
// body shape: entity-encoded titles, sale prices with a comparison price, a "was" price, variation
// parents with min/max prices, sponsored tiles on every page outside metadata.count and offset) and
// product_summary_with_fulfillment_v1. RedSky answers 401 JSON without the right key. The store id
// is derived from the ZIP so the listing knows its ZIP.
import { createHash } from 'node:crypto';
import zipcodes from 'zipcodes';
import type { EggType } from '#shared/vocabulary.ts';
import { zipToState } from '#shared/zip.ts';
import { SLOW_MS, hashOf, scenarioOf, standInPrice } from './scenarios.ts';
import { standInCity } from './places.ts';
import { blocksAt, registerNetworkIds, storesNear, type NearStore } from './network.ts';
import {
  html,
  json,
  type RetailerStandIn,
  type StandInRequest,
  type StandInResponse,
  type StandInState,
} from './types.ts';

/** The stand-in's RedSky key: 40 hex characters, like Target's real one (not reproduced). */
export const TARGET_STAND_IN_KEY = createHash('sha1').update('eggwatch target stand-in web key').digest('hex');

const WWW_HOST = 'www.target.com';
const REDSKY_HOST = 'redsky.target.com';
const AGGREGATIONS = '/redsky_aggregations/v1/web/';

/** The Target store id the stand-in gives a ZIP, and back. */
export function targetStoreIdForZip(zip: string): string {
  return String((Number(zip) + 50000) % 100000);
}

registerNetworkIds('target', targetStoreIdForZip);

/** nearby_stores_v1's limits: at most 20 stores, within at most 100 miles. */
export const TARGET_NEARBY_MAX_LIMIT = 20;
export const TARGET_NEARBY_MAX_WITHIN = 100;

export function targetZipForStoreId(id: string | null): string | null {
  if (!id || !/^\d{1,5}$/.test(id)) return null;
  return String((Number(id) + 50000) % 100000).padStart(5, '0');
}

export interface TargetStandInItem {
  key: string;
  tcin: string;
  /** As the raw JSON carries it: HTML entities encoded. */
  title: string;
  brand?: string;
  itemType?: string;
  eggType: EggType | null;
  count: number;
  fixedPrice?: number;
  /** sale: a promotion; wasNow: the regular price shown as reduced from a higher "was" price;
   *  formattedOnly: price only in formatted_current_price; variation: min/max prices;
   *  bare: no brand, buy_url or item type. */
  variant?: 'sale' | 'wasNow' | 'formattedOnly' | 'variation' | 'bare';
  /** Stock answered by the fulfillment call; 'missing' leaves the item out of it. */
  stock?: 'in' | 'limited' | 'out' | 'soldOut' | 'missing';
}

const GG = 'Good &#38; Gather';
export const TARGET_CATALOGUE: TargetStandInItem[] = [
  {
    key: 'gg-large-12',
    tcin: '14713534',
    title: `Grade A Large Eggs - 12ct - ${GG}&#8482; (Packaging May Vary)`,
    brand: GG,
    itemType: 'Eggs',
    eggType: 'standard',
    count: 12,
  },
  {
    key: 'gg-egg-whites',
    tcin: '54576811',
    title: `Egg Whites - 16oz - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Egg Substitutes',
    eggType: null,
    count: 0,
    fixedPrice: 3.19,
  },
  {
    key: 'gg-cage-free-12',
    tcin: '78370287',
    title: `Cage-Free Grade A Large Brown Eggs - 12ct - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Eggs',
    eggType: 'cage_free',
    count: 12,
    variant: 'sale',
  },
  {
    key: 'vital-farms-12',
    tcin: '14925361',
    title: 'Vital Farms Pasture-Raised Grade A Large Eggs - 12ct',
    brand: 'Vital Farms',
    itemType: 'Eggs',
    eggType: 'pasture_raised',
    count: 12,
    stock: 'out',
  },
  {
    key: 'just-egg',
    tcin: '76627411',
    title: 'JUST Egg Plant-Based Scramble - 12 fl oz',
    brand: 'JUST',
    itemType: 'Egg Substitutes',
    eggType: null,
    count: 0,
    fixedPrice: 4.99,
  },
  {
    key: 'gg-large-18',
    tcin: '14713536',
    title: `Grade A Large Eggs - 18ct - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Eggs',
    eggType: 'standard',
    count: 18,
    variant: 'wasNow',
  },
  {
    key: 'gg-hard-boiled',
    tcin: '81342204',
    title: `Hard-Boiled Eggs - 6ct - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Eggs',
    eggType: null,
    count: 0,
    fixedPrice: 3.49,
  },
  {
    key: 'gg-organic-12',
    tcin: '47087163',
    title: `Organic Cage-Free Grade A Large Brown Eggs - 12ct - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Eggs',
    eggType: 'organic',
    count: 12,
    stock: 'limited',
  },
  {
    key: 'gg-egg-noodles',
    tcin: '13206637',
    title: `Wide Egg Noodles - 12oz - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Pasta',
    eggType: null,
    count: 0,
    fixedPrice: 1.79,
  },
  {
    key: 'egglands-cf-12',
    tcin: '53397620',
    title: 'Eggland&#39;s Best Cage Free Large Brown Eggs - 12ct',
    brand: 'Eggland&#39;s Best',
    itemType: 'Eggs',
    eggType: 'cage_free',
    count: 12,
  },
  {
    key: 'cadbury-mini-eggs',
    tcin: '75557431',
    title: 'Cadbury Mini Eggs Milk Chocolate Candy - 10oz',
    brand: 'Cadbury',
    itemType: 'Candy',
    eggType: null,
    count: 0,
    fixedPrice: 4.59,
  },
  {
    key: 'pete-gerrys-organic-12',
    tcin: '13474130',
    title: 'Pete &#38; Gerry&#39;s Organic Free-Range Large Brown Eggs - 12ct',
    brand: 'Pete &#38; Gerry&#39;s',
    itemType: 'Eggs',
    eggType: 'organic',
    count: 12,
    stock: 'soldOut',
  },
  {
    key: 'dash-egg-cooker',
    tcin: '50372145',
    title: 'Dash Rapid Egg Cooker - Aqua',
    brand: 'Dash',
    itemType: 'Egg Cookers',
    eggType: null,
    count: 0,
    fixedPrice: 19.99,
    stock: 'missing',
  },
  {
    key: 'vital-farms-18',
    tcin: '79427823',
    title: 'Vital Farms Pasture-Raised Grade A Large Eggs - 18ct',
    brand: 'Vital Farms',
    itemType: 'Eggs',
    eggType: 'pasture_raised',
    count: 18,
    variant: 'sale',
  },
  {
    key: 'gg-egg-bites',
    tcin: '84471213',
    title: `Uncured Bacon &#38; Gruyere Egg Bites - 2ct - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Prepared Meals',
    eggType: null,
    count: 0,
    fixedPrice: 4.29,
  },
  {
    key: 'happy-egg-12',
    tcin: '52164823',
    title: 'Happy Egg Free Range Large Brown Eggs - 12ct',
    eggType: 'cage_free',
    count: 12,
    variant: 'bare',
  },
  {
    key: 'plastic-easter-eggs',
    tcin: '86211309',
    title: 'Plastic Easter Eggs - 24ct - Spritz&#8482;',
    brand: 'Spritz',
    itemType: 'Seasonal Decor',
    eggType: null,
    count: 0,
    fixedPrice: 3.0,
    stock: 'missing',
  },
  {
    key: 'nellies-18',
    tcin: '82150935',
    title: 'Nellie&#39;s Free Range Large Brown Eggs - 18ct',
    brand: 'Nellie&#39;s',
    itemType: 'Eggs',
    eggType: 'cage_free',
    count: 18,
    variant: 'formattedOnly',
  },
  {
    key: 'gg-liquid-eggs',
    tcin: '54576823',
    title: `Liquid Whole Eggs - 32oz - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Egg Substitutes',
    eggType: null,
    count: 0,
    fixedPrice: 5.29,
  },
  {
    key: 'gg-large-6',
    tcin: '14713530',
    title: 'Grade A Large Eggs - 6ct - Good & Gather™',
    brand: 'Good & Gather',
    itemType: 'Eggs',
    eggType: 'standard',
    count: 6,
  },
  {
    key: 'reeses-eggs',
    tcin: '15220457',
    title: 'Reese&#39;s Peanut Butter Eggs - 6ct',
    brand: 'Reese&#39;s',
    itemType: 'Candy',
    eggType: null,
    count: 0,
    fixedPrice: 3.99,
  },
  {
    key: 'gg-cage-free-24',
    tcin: '80954512',
    title: `Cage-Free Grade A Large White Eggs - 24ct - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Eggs',
    eggType: 'cage_free',
    count: 24,
  },
  {
    key: 'egg-dye-kit',
    tcin: '86211344',
    title: 'Easter Egg Decorating Kit - Spritz&#8482;',
    brand: 'Spritz',
    itemType: 'Craft Kits',
    eggType: null,
    count: 0,
    fixedPrice: 5.0,
    stock: 'missing',
  },
  {
    key: 'vital-farms-organic-12',
    tcin: '89011247',
    title: 'Vital Farms Organic Pasture-Raised Grade A Large Eggs - 12ct',
    brand: 'Vital Farms',
    itemType: 'Eggs',
    eggType: 'pasture_raised',
    count: 12,
    variant: 'variation',
  },
  // Page 2 (offset 24).
  {
    key: 'gg-egg-salad',
    tcin: '53847129',
    title: `Egg Salad - 12oz - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Deli Salads',
    eggType: null,
    count: 0,
    fixedPrice: 4.49,
  },
  {
    key: 'gg-brown-18-cage-free',
    tcin: '80954517',
    title: `Cage-Free Grade A Large Brown Eggs - 18ct - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Eggs',
    eggType: 'cage_free',
    count: 18,
  },
  {
    key: 'gg-eggnog',
    tcin: '13016325',
    title: `Eggnog - 1qt - ${GG}&#8482;`,
    brand: GG,
    itemType: 'Milk',
    eggType: null,
    count: 0,
    fixedPrice: 3.79,
  },
  {
    key: 'egglands-organic-12',
    tcin: '13474125',
    title: 'Eggland&#39;s Best Organic Large Brown Eggs - 12ct',
    brand: 'Eggland&#39;s Best',
    itemType: 'Eggs',
    eggType: 'organic',
    count: 12,
  },
  {
    key: 'kinder-joy',
    tcin: '53420219',
    title: 'Kinder Joy Chocolate Eggs - 3ct',
    brand: 'Kinder',
    itemType: 'Candy',
    eggType: null,
    count: 0,
    fixedPrice: 5.49,
  },
];

export const TARGET_PAGE_SIZE = 24;

/** Advertised only: a sponsored tile of every page, never among the results. */
export const TARGET_SPONSORED_ONLY: TargetStandInItem = {
  key: 'vital-farms-24',
  tcin: '81119052',
  title: 'Vital Farms Pasture-Raised Grade A Large Eggs - 24ct',
  brand: 'Vital Farms',
  itemType: 'Eggs',
  eggType: 'pasture_raised',
  count: 24,
};

/**
 * The sponsored tiles of every page, at positions 0, 1 and 6 (as a real page had them): a repeat
 * of a page-1 result, the advertised-only item, and a repeat of a page-2 result. Like the real
 * ones they are flagged is_sponsored_sku: true and counted by neither metadata.count nor offset.
 */
export const TARGET_SPONSORED: TargetStandInItem[] = [
  TARGET_CATALOGUE.find((i) => i.key === 'vital-farms-12')!,
  TARGET_SPONSORED_ONLY,
  TARGET_CATALOGUE.find((i) => i.key === 'egglands-organic-12')!,
];

export function targetRegularPrice(item: TargetStandInItem, zip: string, factor = 1): number {
  const price =
    item.eggType === null
      ? (item.fixedPrice ?? 1) * factor
      : standInPrice('target', zip, item.key, item.eggType, item.count, factor);
  return Math.round(price * 100) / 100;
}

/** A sale item's price: about 20% off, ending in 9. */
export function targetSalePrice(regular: number): number {
  return Math.max(0.99, Math.round((Math.round(regular * 8) / 10 - 0.01) * 100) / 100);
}

/** The "was" price a wasNow item is shown as reduced from: about 15% above, ending in 9. */
export function targetWasPrice(current: number): number {
  return Math.round((Math.round(current * 11.5) / 10 + 0.09) * 100) / 100;
}

const money = (value: number) => `$${value.toFixed(2)}`;

function slug(title: string): string {
  return title
    .replace(/&#?\w+;/g, ' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function plpProduct(
  item: TargetStandInItem,
  zip: string,
  storeId: string,
  factor: number,
  sponsored = false,
): Record<string, unknown> {
  const regular = targetRegularPrice(item, zip, factor);
  const sale = item.variant === 'sale';
  const current = sale ? targetSalePrice(regular) : regular;
  const perEgg =
    item.eggType !== null
      ? { formatted_unit_price: money(current / item.count), formatted_unit_price_suffix: '/count' }
      : {};
  let price: Record<string, unknown> = {
    current_retail: current,
    reg_retail: regular,
    formatted_current_price: money(current),
    formatted_current_price_type: sale ? 'sale' : 'reg',
    ...perEgg,
    display_was_now: false,
    location_id: Number(storeId),
  };
  if (sale) {
    price = {
      ...price,
      formatted_comparison_price: money(regular),
      formatted_comparison_price_type: 'reg',
      save_dollar: Math.round((regular - current) * 100) / 100,
      save_percent: Math.round(((regular - current) / regular) * 100),
    };
  }
  if (item.variant === 'wasNow') {
    // As captured: reg_retail equals the current price, the tile shows "was" the comparison price.
    const was = targetWasPrice(current);
    price = {
      ...price,
      display_was_now: true,
      formatted_comparison_price: money(was),
      formatted_comparison_price_type: 'reg',
      save_dollar: Math.round((was - current) * 100) / 100,
      save_percent: Math.round(((was - current) / was) * 100),
    };
  }
  if (item.variant === 'formattedOnly') {
    price = {
      formatted_current_price: money(current),
      formatted_current_price_type: 'reg',
      ...perEgg,
      location_id: Number(storeId),
    };
  }
  if (item.variant === 'variation') {
    price = {
      current_retail_min: current,
      current_retail_max: current,
      reg_retail_max: regular,
      formatted_current_price: money(current),
      formatted_current_price_type: 'reg',
      location_id: Number(storeId),
    };
  }
  const image = `https://target.scene7.com/is/image/Target/GUEST_${hashOf(item.tcin).toString(16).padStart(8, '0')}-0000-4000-8000-${item.tcin.padStart(12, '0')}`;
  const itemBody: Record<string, unknown> = {
    product_description: {
      title: item.title,
      bullet_descriptions: item.count > 0 ? [`<B>Package Quantity:</B> ${item.count}`] : [],
    },
    primary_brand: {
      name: item.brand,
      linking_id: `q${hashOf(item.brand ?? '')
        .toString(36)
        .slice(0, 5)}`,
    },
    enrichment: {
      buy_url: `https://www.target.com/p/${slug(item.title)}/-/A-${item.tcin}`,
      images: { primary_image_url: image },
      image_info: { primary_image: { url: image } },
    },
    product_classification: { item_type: { name: item.itemType } },
    compliance: { is_snap_eligible: true },
    fulfillment: {},
  };
  if (item.variant === 'bare') {
    delete itemBody.primary_brand;
    delete itemBody.product_classification;
    itemBody.enrichment = { images: { primary_image_url: image } };
  }
  return {
    __typename: 'ProductSummary',
    tcin: item.tcin,
    item: itemBody,
    price,
    promotions: sale ? [{ plp_message: `Sale`, promotion_id: String(157000000 + (hashOf(item.key) % 999999)) }] : [],
    // Unsponsored products carry no is_sponsored_sku key at all, as in the captured bodies.
    ...(sponsored
      ? { is_sponsored_sku: true, sponsored_ad: { ad_source: 'criteo', impression_id: `stand-in-${item.tcin}` } }
      : {}),
    category: { category_id: '4tglt', parent_category_id: '5xszh' },
  };
}

export const AKAMAI_ACCESS_DENIED = (path: string) => `<HTML><HEAD>
<TITLE>Access Denied</TITLE>
</HEAD><BODY>
<H1>Access Denied</H1>

You don't have permission to access "http&#58;&#47;&#47;redsky&#46;target&#46;com${path.replace(/\//g, '&#47;')}" on this server.<P>
Reference&#32;&#35;18&#46;5a2e1402&#46;1714060802&#46;2b1c0e7
<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;5a2e1402&#46;1714060802&#46;2b1c0e7</P>
</BODY>
</HTML>`;

function homePage(): StandInResponse {
  const config = {
    services: {
      redsky: { baseUrl: 'https://redsky.target.com', apiKey: TARGET_STAND_IN_KEY },
      redskyAggregations: { url: 'https://redsky.target.com/redsky_aggregations/v1' },
    },
    featureFlags: { plpSearchV2: true },
  };
  return html(`<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Target : Expect More. Pay Less.</title>
<link rel="preconnect" href="https://redsky.target.com"/></head>
<body><div id="root"><header><a href="/">Target</a></header><main><h1>Deals of the week</h1></main></div>
<script>window.__CONFIG__ = JSON.parse(${JSON.stringify(JSON.stringify(config))});</script>
</body></html>`);
}

const unauthorized = () => json({ errors: [{ message: 'Unauthorized: a valid key is required' }], data: {} }, 401);
const badRequest = (message: string) => json({ errors: [{ message }], data: {} }, 400);

/** "New York", "District of Columbia" for their codes. */
function stateName(code: string): string {
  return (zipcodes.states.abbr[code] ?? code)
    .toLowerCase()
    .replace(/\b[a-z]/g, (c) => c.toUpperCase())
    .replace(/\bOf\b/g, 'of');
}

// The network's stores within `within` miles of the ZIP code, nearest first, at most `limit` (both
// clamped to the real call's 20 and 100). A ZIP code the geodata does not know gets the two stores
// derived from it, as before the network.
function nearbyStores(request: StandInRequest, state: StandInState): StandInResponse {
  const place = request.query.get('place') ?? '';
  if (!place) return badRequest('place is required');
  const zip = /^\d{5}$/.test(place) ? place : null;
  const limit = Math.min(
    TARGET_NEARBY_MAX_LIMIT,
    Math.max(1, Math.trunc(Number(request.query.get('limit') ?? '20')) || 20),
  );
  const within = Math.min(TARGET_NEARBY_MAX_WITHIN, Math.max(1, Number(request.query.get('within') ?? '100') || 100));
  if (!zip || scenarioOf(zip) === 'noStore')
    return json({ data: { nearby_stores: { count: 0, limit, offset: 0, total: 0, stores: [] } } });
  const near = storesNear('target', zip, { limit, withinMiles: within, state });
  const stores = (near ?? legacyNear(zip)).map((entry) => nearbyStore(entry, zip));
  return json({
    data: { nearby_stores: { count: stores.length, limit, offset: 0, total: stores.length, within, stores } },
  });
}

/** Before the network: the ZIP's own store and one 7 ZIP codes on, 1.3 and 6.8 miles away. */
function legacyNear(zip: string): Array<{ zip: string; name: string; miles: number }> {
  return [
    { zip, name: `${standInCity(zip)} Central`, miles: 1.3 },
    { zip: String((Number(zip) + 7) % 100000).padStart(5, '0'), name: `${standInCity(zip)} North`, miles: 6.8 },
  ];
}

const SUFFIXES = ['Central', 'North', 'South', 'East', 'West', 'Downtown'];

function nearbyStore(entry: NearStore | { zip: string; name: string; miles: number }, asked: string) {
  const storeZip = 'store' in entry ? entry.store.zip : entry.zip;
  const name =
    'store' in entry
      ? `${standInCity(storeZip)} ${entry.store.pinned ? 'Central' : SUFFIXES[hashOf(`target:name:${storeZip}`) % SUFFIXES.length]}`
      : entry.name;
  const region = zipToState('store' in entry ? storeZip : asked) ?? 'MN';
  const city = standInCity('store' in entry ? storeZip : asked);
  const postal = 'store' in entry ? storeZip : asked;
  return {
    store_id: targetStoreIdForZip(storeZip),
    location_name: name,
    distance: Math.round(entry.miles * 100) / 100,
    status: 'Open',
    // As captured: the state's full name in `state`, its code in `region`, a ZIP+4; no coordinates.
    mailing_address: {
      address_line1: `${1000 + (hashOf(storeZip) % 8000)} Commerce Blvd`,
      city,
      country_code: 'US',
      region,
      state: stateName(region),
      postal_code: `${postal}-${String(hashOf(storeZip) % 10000).padStart(4, '0')}`,
    },
    main_voice_phone_number: '612-555-0100',
  };
}

function plpSearch(request: StandInRequest, state: StandInState): StandInResponse {
  const keyword = request.query.get('keyword');
  if (!keyword && !request.query.get('category')) return badRequest('keyword or category is required');
  const storeId = request.query.get('pricing_store_id');
  if (!storeId) return badRequest('pricing_store_id is required');
  const count = Number(request.query.get('count') ?? '24');
  const offset = Number(request.query.get('offset') ?? '0');
  if (!Number.isInteger(count) || count < 1 || count > 28 || !Number.isInteger(offset) || offset < 0)
    return badRequest('count must be 1-28 and offset a positive integer');
  const zip = targetZipForStoreId(storeId) ?? request.query.get('zip') ?? '55401';
  const scenario = scenarioOf(zip);
  const path = `${request.path}?`;
  if (blocksAt('target', zip)) return html(AKAMAI_ACCESS_DENIED(path), 403);
  if (scenario === 'flaky' && state.hit(`target:flaky:${zip}`) === 1)
    return json({ errors: [{ message: 'Internal Server Error' }] }, 500);
  if (scenario === 'rateLimited' && state.hit(`target:rateLimited:${zip}`) === 1)
    return json({ errors: [{ message: 'Too Many Requests' }] }, 429, { 'retry-after': '1' });

  const factor = state.priceFactor('target');
  const results = TARGET_CATALOGUE.slice(offset, offset + count).map((item) => plpProduct(item, zip, storeId, factor));
  const [first, second, third] = TARGET_SPONSORED.map((item) => plpProduct(item, zip, storeId, factor, true));
  const products = [first, second, ...results.slice(0, 4), third, ...results.slice(4)];
  const total = TARGET_CATALOGUE.length;
  const metadata = {
    count,
    current_page: Math.floor(offset / count) + 1,
    offset,
    sort_by: 'relevance',
    total_pages: Math.ceil(total / count),
    total_results: total,
    keyword: keyword ?? undefined,
  };
  const body =
    scenario === 'changed'
      ? { data: { search_v3: { response_metadata: metadata, results: { items: products } } } }
      : {
          data: {
            search: {
              search_response: { metadata, facet_list: [{ name: 'Brand', details: [] }], bread_crumb_list: [] },
              products,
            },
          },
        };
  return { ...json(body), ...(scenario === 'slow' ? { delayMs: SLOW_MS } : {}) };
}

function storeOption(storeId: string, status: string, pickup: string) {
  return {
    location_id: storeId,
    store: { location_name: 'Stand-in store' },
    order_pickup: { availability_status: pickup },
    in_store_only: { availability_status: status },
    location_available_to_promise_quantity: status === 'OUT_OF_STOCK' ? 0 : status === 'LIMITED_STOCK' ? 2 : 24,
  };
}

function fulfillment(request: StandInRequest, state: StandInState): StandInResponse {
  const tcins = (request.query.get('tcins') ?? '').split(',').filter(Boolean);
  const storeId = request.query.get('store_id');
  if (tcins.length === 0) return badRequest('tcins is required');
  if (!storeId) return badRequest('store_id is required');
  const zip = targetZipForStoreId(storeId) ?? request.query.get('zip') ?? '55401';
  const factor = state.priceFactor('target');
  const summaries = tcins.flatMap((tcin) => {
    const item = [...TARGET_CATALOGUE, TARGET_SPONSORED_ONLY].find((i) => i.tcin === tcin);
    if (!item || item.stock === 'missing') return [];
    const stock = item.stock ?? 'in';
    const regular = targetRegularPrice(item, zip, factor);
    const current = item.variant === 'sale' ? targetSalePrice(regular) : regular;
    const status = stock === 'in' ? 'IN_STOCK' : stock === 'limited' ? 'LIMITED_STOCK' : 'OUT_OF_STOCK';
    return [
      {
        __typename: 'ProductSummary',
        tcin,
        item: { product_description: { title: item.title } },
        price: {
          current_retail: current,
          formatted_current_price: money(current),
          formatted_current_price_type: item.variant === 'sale' ? 'sale' : 'reg',
          reg_retail: regular,
          location_id: Number(storeId),
        },
        fulfillment: {
          is_out_of_stock_in_all_store_locations: stock === 'soldOut',
          sold_out: stock === 'soldOut',
          shipping_options: { availability_status: 'NOT_SOLD_ONLINE' },
          store_options: [storeOption(storeId, status, status === 'OUT_OF_STOCK' ? 'UNAVAILABLE' : status)],
          scheduled_delivery: { availability_status: status === 'OUT_OF_STOCK' ? 'UNAVAILABLE' : 'IN_STOCK' },
        },
      },
    ];
  });
  return json({ data: { product_summaries: summaries } });
}

export const targetStandIn: RetailerStandIn = {
  store: 'target',
  wall: (request) => html(AKAMAI_ACCESS_DENIED(request.path), 403),
  handle(request, state) {
    if (request.method !== 'GET') return null;
    if (request.host === WWW_HOST && request.path === '/') return homePage();
    if (request.host !== '' && request.host !== REDSKY_HOST) return null;
    if (!request.path.startsWith(AGGREGATIONS)) return null;
    const name = request.path.slice(AGGREGATIONS.length);
    if (!['nearby_stores_v1', 'plp_search_v2', 'product_summary_with_fulfillment_v1'].includes(name)) return null;
    if (request.query.get('key') !== TARGET_STAND_IN_KEY) return unauthorized();
    if (name === 'nearby_stores_v1') return nearbyStores(request, state);
    if (name === 'plp_search_v2') return plpSearch(request, state);
    return fulfillment(request, state);
  },
};
