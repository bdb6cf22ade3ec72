// Albertsons stand-in: the home page with the inline config that carries the
// search key, the storeresolver (old and v2 paths) and the pgmsearch product search, all under
// www.albertsons.com. The xapi services want the Ocp-Apim-Subscription-Key (401 JSON without it)
// and the search fails the documented way (HTTP 200, appCode "400") without a known store.
import type { EggType } from '#shared/vocabulary.ts';
import { zipToState } from '#shared/zip.ts';
import { SLOW_MS, hashOf, scenarioOf, standInPrice } from './scenarios.ts';
import { standInPlace } from './places.ts';
import { ALBERTSONS_BANNERS, blocksAt, registerNetworkIds, storesNear, type NearStore } from './network.ts';
import {
  html,
  json,
  type RetailerStandIn,
  type StandInRequest,
  type StandInResponse,
  type StandInState,
} from './types.ts';

const HOST = 'www.albertsons.com';

/** The key the stand-in's home page publishes as searchConfig.apimProgramSubscriptionKey; the xapi services accept only it. */
export const ALBERTSONS_STAND_IN_KEY = '7d3f0b9c2e5a4816b0c4d9e2f1a37c58';
/** Another config's key on the same page (searchConfig.apimSubscriptionKey, for /xapi/search): pgmsearch refuses it. */
const OTHER_CONFIG_KEY = 'e91a6c40b28d4f7395c1d0a8b6e2f417';

export const ALBERTSONS_APP_FAILURE = 'Search encountered a problem. Please try again OSSR0033-R';

// A store id per ZIP that the search can turn back into the ZIP: an affine permutation of 0..99999.
const MOD = 100_000;
const MUL = 7;
const ADD = 4113;
const INVERSE = (() => {
  for (let x = 1; x < MOD; x++) if ((MUL * x) % MOD === 1) return x;
  throw new Error('no inverse');
})();

export function albertsonsStoreIdOf(zip: string): string {
  return String((Number(zip.slice(0, 5)) * MUL + ADD) % MOD);
}

registerNetworkIds('albertsons', albertsonsStoreIdOf);

/** storeresolver's limits in the stand-in: `size` at most 10 (what the site asks), `radius` at most 100 miles. */
export const ALBERTSONS_RESOLVER_MAX_SIZE = 10;
export const ALBERTSONS_RESOLVER_MAX_RADIUS = 100;

export function zipOfAlbertsonsStore(storeId: string): string | null {
  if (!/^\d{1,5}$/.test(storeId)) return null;
  const zip = String((((Number(storeId) - ADD + MOD) % MOD) * INVERSE) % MOD).padStart(5, '0');
  return zipToState(zip) ? zip : null;
}

function storeOf(zip: string, offset: number) {
  const id = albertsonsStoreIdOf(zip);
  const h = hashOf(`albertsons:${zip}:${offset}`);
  return {
    locationId: offset === 0 ? id : String((Number(id) + 37 * offset) % MOD),
    address: {
      line1: `${100 + (h % 8900)} ${['Main St', 'Broadway', 'Oak Ave', 'Park Blvd'][h % 4]}`,
      city: standInPlace('albertsons', zip, offset).city,
      state: standInPlace('albertsons', zip, offset).state,
      zipcode: zip.slice(0, 5),
    },
  };
}

interface Item {
  pid: string;
  name: string;
  egg?: { type: EggType; count: number };
  /** Non-egg products: a fixed regular price. */
  base?: number;
  promo?: boolean;
  outOfStock?: boolean;
  /** Only the required keys (no url, upc, department, aisle, promotion or inventory fields). */
  sparse?: boolean;
  department: string;
  aisle: string;
  uom: string;
}

const EGGS = { department: 'Dairy, Eggs & Cheese', aisle: 'Eggs', uom: 'CT' };
const DAIRY = { department: 'Dairy, Eggs & Cheese', aisle: 'Egg Substitutes', uom: 'OZ' };
const OTHER = (department: string, aisle: string, uom = 'OZ') => ({ department, aisle, uom });

/** The catalogue an "eggs" search answers, in result order (30 a page: the last six are page 2). */
export const ALBERTSONS_CATALOGUE: Item[] = [
  {
    pid: '138350091',
    name: 'Lucerne Eggs Large Grade A Family Pack - 18 Count',
    egg: { type: 'standard', count: 18 },
    promo: true,
    ...EGGS,
  },
  { pid: '960034521', name: 'Lucerne Eggs Large Grade A - 12 Count', egg: { type: 'standard', count: 12 }, ...EGGS },
  { pid: '960034522', name: 'Lucerne Eggs Large Grade A - 6 Count', egg: { type: 'standard', count: 6 }, ...EGGS },
  { pid: '188020115', name: 'Lucerne Egg Whites 100% Liquid - 16 Oz', base: 4.49, ...DAIRY },
  {
    pid: '960112877',
    name: 'Lucerne Cage Free Large Brown Eggs - 12 Count',
    egg: { type: 'cage_free', count: 12 },
    ...EGGS,
  },
  {
    pid: '960112879',
    name: 'Lucerne Cage Free Large White Eggs - 24 Count',
    egg: { type: 'cage_free', count: 24 },
    outOfStock: true,
    ...EGGS,
  },
  {
    pid: '184060061',
    name: 'O Organics Organic Large Brown Eggs - 12 Count',
    egg: { type: 'organic', count: 12 },
    promo: true,
    ...EGGS,
  },
  { pid: '970525514', name: 'JUST Egg Plant-Based Scramble - 16 Fl. Oz.', base: 6.99, ...DAIRY },
  {
    pid: '184060063',
    name: 'O Organics Organic Large Brown Eggs - 18 Count',
    egg: { type: 'organic', count: 18 },
    ...EGGS,
  },
  {
    pid: '960451236',
    name: 'Vital Farms Pasture-Raised Large Grade A Eggs - 12 Count',
    egg: { type: 'pasture_raised', count: 12 },
    ...EGGS,
  },
  {
    pid: '960451239',
    name: 'Vital Farms Pasture Raised Large Eggs - 18 Count',
    egg: { type: 'pasture_raised', count: 18 },
    sparse: true,
    ...EGGS,
  },
  {
    pid: '970100482',
    name: 'Lucerne Hard Boiled Eggs Peeled - 6 Count',
    base: 3.99,
    ...OTHER('Deli', 'Prepared Foods', 'CT'),
  },
  {
    pid: '960210455',
    name: "Pete & Gerry's Organic Free-Range Eggs Large - 12 Count",
    egg: { type: 'organic', count: 12 },
    ...EGGS,
  },
  {
    pid: '960300871',
    name: "Eggland's Best Cage Free Large Brown Eggs - 12 Count",
    egg: { type: 'cage_free', count: 12 },
    promo: true,
    ...EGGS,
  },
  {
    pid: '126150012',
    name: 'Signature SELECT Egg Noodles Wide - 12 Oz',
    base: 2.29,
    ...OTHER('Pasta, Sauces & Grains', 'Pasta & Noodles'),
  },
  {
    pid: '960300874',
    name: "Eggland's Best Classic Large White Eggs Grade A - 18 Count",
    egg: { type: 'standard', count: 18 },
    ...EGGS,
  },
  { pid: '960034529', name: 'Lucerne Eggs Large Grade A - 5 Dozen', egg: { type: 'standard', count: 60 }, ...EGGS },
  {
    pid: '970877330',
    name: 'Cadbury Mini Eggs Milk Chocolate - 10 Oz',
    base: 4.99,
    ...OTHER('Candy', 'Seasonal Candy'),
  },
  { pid: '188020117', name: 'Lucerne Best of the Egg 100% Liquid Egg Product - 32 Oz', base: 6.49, ...DAIRY },
  {
    pid: '970412209',
    name: 'Starbucks Egg Bites Bacon & Gruyere - 2 Count',
    base: 5.99,
    ...OTHER('Frozen Foods', 'Frozen Breakfast', 'CT'),
  },
  {
    pid: '970236645',
    name: 'Lucerne Egg Nog - Half Gallon',
    base: 4.79,
    ...OTHER('Dairy, Eggs & Cheese', 'Milk & Cream', 'FZ'),
  },
  {
    pid: '970331012',
    name: 'Nasoya Egg Roll Wraps - 16 Oz',
    base: 3.49,
    ...OTHER('Produce', 'Tofu & Meat Alternatives'),
  },
  {
    pid: '121030456',
    name: 'Best Foods Real Mayonnaise - 30 Fl. Oz.',
    base: 7.29,
    ...OTHER('Condiments, Spice & Bake', 'Mayonnaise', 'FZ'),
  },
  { pid: '970566120', name: 'Signature Cafe Egg Salad - 12 Oz', base: 5.49, ...OTHER('Deli', 'Salads') },
  {
    pid: '970877341',
    name: "Reese's Peanut Butter Eggs - 6 Count",
    base: 3.29,
    ...OTHER('Candy', 'Seasonal Candy', 'CT'),
  },
  {
    pid: '970690018',
    name: 'PAAS Classic Egg Decorating Kit - Each',
    base: 3.99,
    ...OTHER('Seasonal', 'Easter', 'EA'),
  },
  {
    pid: '970412311',
    name: 'Jimmy Dean Delights Egg White Sandwich Turkey Sausage - 4 Count',
    base: 8.99,
    ...OTHER('Frozen Foods', 'Frozen Breakfast', 'CT'),
  },
  {
    pid: '960520016',
    name: 'Happy Egg Free Range Large Brown Eggs - 12 Count',
    egg: { type: 'cage_free', count: 12 },
    ...EGGS,
  },
  { pid: '970877352', name: 'Kinder Joy Eggs - 3 Count', base: 5.49, ...OTHER('Candy', 'Seasonal Candy', 'CT') },
  {
    pid: '126150019',
    name: 'O Organics Organic Egg Noodles - 12 Oz',
    base: 3.19,
    ...OTHER('Pasta, Sauces & Grains', 'Pasta & Noodles'),
  },
  // page 2
  {
    pid: '960520018',
    name: "Nellie's Free Range Large Eggs - 18 Count",
    egg: { type: 'cage_free', count: 18 },
    promo: true,
    ...EGGS,
  },
  { pid: '188020121', name: 'Lucerne Egg Substitute Fat Free - 16 Oz', base: 3.99, ...DAIRY },
  {
    pid: '960034531',
    name: 'Lucerne Eggs Extra Large Grade AA - 12 Count',
    egg: { type: 'standard', count: 12 },
    ...EGGS,
  },
  {
    pid: '970412322',
    name: 'Open Nature Egg White Bites Spinach & Feta - 2 Count',
    base: 4.99,
    ...OTHER('Frozen Foods', 'Frozen Breakfast', 'CT'),
  },
  {
    pid: '184060067',
    name: 'O Organics Organic Pasture Raised Large Brown Eggs - 12 Count',
    egg: { type: 'pasture_raised', count: 12 },
    ...EGGS,
  },
  {
    pid: '970118804',
    name: 'Eggo Homestyle Waffles - 10 Count',
    base: 3.79,
    ...OTHER('Frozen Foods', 'Frozen Breakfast', 'CT'),
  },
];

const round2 = (value: number) => Math.round(value * 100) / 100;

/** A promotion's price: about 20% off, ending in 9. */
export function albertsonsPromoPrice(regular: number): number {
  return Math.max(0.99, round2(Math.round(regular * 0.8 * 10) / 10 - 0.01));
}

/** The regular price of an item at the store serving a ZIP. */
export function albertsonsRegularPrice(item: Item, zip: string, factor = 1): number {
  // standInPrice may carry float residue (10.290000000000001): a shelf price has cents.
  if (item.egg) return round2(standInPrice('albertsons', zip, item.pid, item.egg.type, item.egg.count, factor));
  return round2((item.base ?? 1) * factor);
}

function docOf(item: Item, zip: string, storeId: string, factor: number): Record<string, unknown> {
  const basePrice = albertsonsRegularPrice(item, zip, factor);
  const price = item.promo ? albertsonsPromoPrice(basePrice) : basePrice;
  // As on the real site, pricePer is per unitQuantity: per egg on some egg docs, per dozen on others.
  const perDozen = item.egg !== undefined && hashOf(`per:${item.pid}`) % 2 === 0;
  const units = item.egg ? (perDozen ? item.egg.count / 12 : item.egg.count) : 1;
  const doc: Record<string, unknown> = {
    id: item.pid,
    pid: item.pid,
    name: item.name,
    price,
    basePrice,
    pricePer: round2(price / units),
    basePricePer: round2(basePrice / units),
    unitQuantity: item.egg ? (perDozen ? 'DOZEN' : 'COUNT') : 'EACH',
    unitOfMeasure: item.uom,
    sellByWeight: 'I',
    status: 'active',
    imageUrl: `https://images.albertsons-media.com/is/image/ABS/${item.pid}-ECOM?$ng-ecom-pdp-tn$&defaultImage=Not_Available`,
    storeId,
    maxPurchaseQty: 12,
  };
  if (item.sparse) return doc;
  Object.assign(doc, {
    upc: `00${String(hashOf(item.pid)).padStart(11, '0').slice(0, 11)}`,
    inventoryAvailable: item.outOfStock ? '0' : '1',
    departmentName: item.department,
    // The real aisle names carry the aisle's id: "Eggs|1_11_3".
    aisleName: `${item.aisle}|1_${hashOf(item.aisle) % 30}_${hashOf(item.department) % 9}`,
    url: `/shop/product-details.${item.pid}.html`,
  });
  if (item.egg) {
    Object.assign(doc, {
      dispItemSizeQty: String(item.egg.count),
      dispUnitOfMeasure: 'CT',
      labels: [
        { labelName: `${item.egg.count} ct`, accessibilityText: `${item.egg.count} Count` },
        { labelName: 'SNAP', accessibilityText: 'snap' },
      ],
    });
  }
  if (item.promo) {
    doc.promoDescription = 'Member Price';
    doc.promoEndDate = '2099-12-31T00:00:00.000Z';
  }
  return doc;
}

const IMPERVA_PAGE = `<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"><meta name="format-detection" content="telephone=no"><meta name="viewport" content="initial-scale=1.0"><meta http-equiv="X-UA-Compatible" content="IE=edge,chrome=1"><title>Pardon Our Interruption</title></head>
<body style="margin:0px;height:100%"><div class="container"><h1>Pardon Our Interruption</h1><p>As you were browsing something about your browser made us think you were a bot. There are a few reasons this might happen.</p></div>
<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3&ns=1&cb=1742981214" async></script></body></html>`;

function homePage(): string {
  const config = {
    searchConfig: {
      apimSubscriptionKey: OTHER_CONFIG_KEY,
      apimProgramSubscriptionKey: ALBERTSONS_STAND_IN_KEY,
      searchUrl: '/abs/pub/xapi/pgmsearch/v1/search/products',
      rows: 30,
    },
    storeResolverConfig: { url: '/abs/pub/xapi/storeresolver/all' },
  };
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Albertsons | Grocery Delivery, Pickup &amp; Weekly Ad</title>
<script type="text/javascript">var SWY = SWY || {}; SWY.CONFIGSERVICE = ${JSON.stringify(config)};</script></head>
<body><div id="root"></div></body></html>`;
}

function keyRefusal(request: StandInRequest): StandInResponse | null {
  const key = request.headers['ocp-apim-subscription-key'];
  if (!key)
    return json(
      {
        statusCode: 401,
        message:
          'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
      },
      401,
    );
  if (key !== ALBERTSONS_STAND_IN_KEY)
    return json(
      {
        statusCode: 401,
        message:
          'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
      },
      401,
    );
  return null;
}

/** A network store as the resolver answers it (the real body's distance, banner and address fields). */
function networkStoreOf({ store, miles }: NearStore) {
  const banner = store.banner ?? ALBERTSONS_BANNERS[0]!;
  const body = storeOf(store.zip, 0);
  return {
    distance: Math.round(miles * 100) / 100,
    locationId: body.locationId,
    polarisBannerName: banner.code,
    domainName: banner.name,
    address: { ...body.address, country: 'US' },
  };
}

// The network's stores within `radius` miles (default 50, at most 100) of the ZIP code, nearest
// first, at most `size` (default 10, at most 10), of the `banner` asked (every banner without it).
// A ZIP code the geodata does not know gets the two stores derived from it, as before the network.
function storeResolver(request: StandInRequest, state: StandInState): StandInResponse {
  const zip = request.query.get('zipcode') ?? '';
  if (!zip) return json({ errorCode: 'BAD_REQUEST', message: 'zipcode is required' }, 400);
  if (!/^\d{5}$/.test(zip)) return json({ errorCode: 'BAD_REQUEST', message: 'invalid zipcode' }, 400);
  const size = Math.min(
    ALBERTSONS_RESOLVER_MAX_SIZE,
    Math.max(1, Math.trunc(Number(request.query.get('size') ?? '10')) || 10),
  );
  const radius = Math.min(
    ALBERTSONS_RESOLVER_MAX_RADIUS,
    Math.max(1, Number(request.query.get('radius') ?? '50') || 50),
  );
  const banner = request.query.get('banner');
  const near =
    scenarioOf(zip) === 'noStore' || !zipToState(zip)
      ? []
      : storesNear('albertsons', zip, { limit: size, withinMiles: radius, banner, state });
  const stores = near ? near.map(networkStoreOf) : banner ? [] : [storeOf(zip, 0), storeOf(zip, 1)];
  return json({ instore: { count: stores.length, stores }, pickup: { count: stores.length, stores } });
}

const appFailure = () => json({ primaryProducts: { appCode: '400', appMsg: ALBERTSONS_APP_FAILURE } });

function search(request: StandInRequest, state: StandInState): StandInResponse {
  const storeId = request.query.get('storeid') ?? '';
  const term = request.query.get('q') ?? '';
  const zip = zipOfAlbertsonsStore(storeId);
  if (!term || !zip) return appFailure();
  const scenario = scenarioOf(zip);
  if (blocksAt('albertsons', zip)) return html(IMPERVA_PAGE, 200, { 'x-cdn': 'Imperva' });
  if (scenario === 'flaky' && state.hit(`albertsons:search:${zip}`) === 1)
    return html('<html><body><h1>500 Internal Server Error</h1></body></html>', 500);
  if (scenario === 'rateLimited' && state.hit(`albertsons:search:${zip}`) === 1) {
    return json({ statusCode: 429, message: 'Rate limit is exceeded. Try again in 1 seconds.' }, 429, {
      'retry-after': '1',
    });
  }
  const rows = Math.min(100, Math.max(1, Number(request.query.get('rows') ?? 30) || 30));
  const start = Math.max(0, Number(request.query.get('start') ?? 0) || 0);
  const factor = state.priceFactor('albertsons');
  const docs = ALBERTSONS_CATALOGUE.slice(start, start + rows).map((item) => docOf(item, zip, storeId, factor));
  const delay = scenario === 'slow' ? { delayMs: SLOW_MS } : {};
  if (scenario === 'changed') {
    // A redesigned service: products under new key names.
    const products = docs.map((doc) => ({
      productId: doc.pid,
      productTitle: doc.name,
      pricing: { current: doc.price, regular: doc.basePrice },
    }));
    return {
      ...json({ primaryProducts: { response: { numFound: ALBERTSONS_CATALOGUE.length, start, products } } }),
      ...delay,
    };
  }
  return {
    ...json({
      primaryProducts: { response: { numFound: ALBERTSONS_CATALOGUE.length, start, isExactMatch: true, docs } },
    }),
    ...delay,
  };
}

export const albertsonsStandIn: RetailerStandIn = {
  store: 'albertsons',
  wall: () => html(IMPERVA_PAGE, 200, { 'x-cdn': 'Imperva' }),
  handle(request, state) {
    if (request.host && request.host !== HOST) return null;
    if (request.path === '/') {
      // "/" is every site's home page: answer only when the request names this host.
      if (request.host !== HOST || request.method !== 'GET') return null;
      return html(homePage());
    }
    const isResolver =
      request.path === '/abs/pub/xapi/storeresolver/all' || request.path === '/abs/pub/xapi/storeresolver/v2/all';
    const isSearch = request.path === '/abs/pub/xapi/pgmsearch/v1/search/products';
    if (!isResolver && !isSearch) return null;
    if (request.method !== 'GET') return json({ statusCode: 405, message: 'Method not allowed' }, 405);
    const refusal = keyRefusal(request);
    if (refusal) return refusal;
    return isResolver ? storeResolver(request, state) : search(request, state);
  },
};
