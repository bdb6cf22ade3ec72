// Kroger stand-in: the public API's client-credentials token endpoint (any
// non-empty client id and secret), /v1/locations and /v1/products (captured body shape: promo 0 =
// no promotion, promotions, an item without a price object, both fulfillment key casings, stock
// levels and items without one, an item the store does not sell in store, a size ending with a
// period). Tokens are signed
// JWT-like strings, so any stand-in server accepts a token another one issued until it expires;
// without a valid Bearer token the API answers 401 JSON. locationId = 3-digit division + the ZIP.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EggType } from '#shared/vocabulary.ts';
import { SLOW_MS, hashOf, scenarioOf, standInPrice } from './scenarios.ts';
import { standInPlace } from './places.ts';
import { KROGER_BANNERS, blocksAt, registerNetworkIds, storesNear } from './network.ts';
import {
  html,
  json,
  type RetailerStandIn,
  type StandInRequest,
  type StandInResponse,
  type StandInState,
} from './types.ts';

const HOST = 'api.kroger.com';
const TOKEN_SECRET = 'eggwatch kroger stand-in token secret';
export const KROGER_TOKEN_LIFETIME_S = 1800;

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function krogerStandInToken(clientId: string, now = Date.now()): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64url(
    JSON.stringify({ sub: clientId, scope: 'product.compact', exp: Math.floor(now / 1000) + KROGER_TOKEN_LIFETIME_S }),
  );
  const signature = createHmac('sha256', TOKEN_SECRET).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

function validToken(authorization: string | undefined): boolean {
  const match = /^Bearer\s+([\w-]+)\.([\w-]+)\.([\w-]+)$/i.exec(authorization ?? '');
  if (!match) return false;
  const [, header, payload, signature] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(createHmac('sha256', TOKEN_SECRET).update(`${header}.${payload}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: number };
    return typeof exp === 'number' && exp * 1000 > Date.now();
  } catch {
    return false;
  }
}

const DIVISIONS = ['014', '016', '021', '024', '026', '029', '034', '660', '701', '705'];

/** The Kroger locationId the stand-in gives a ZIP (8 characters: division + ZIP), and back. */
export function krogerLocationIdForZip(zip: string): string {
  return `${DIVISIONS[hashOf(zip) % DIVISIONS.length]}${zip}`;
}

registerNetworkIds('kroger', krogerLocationIdForZip);

export function krogerZipForLocationId(id: string | null): string | null {
  return id && /^\d{3}\d{5}$/.test(id) ? id.slice(3) : null;
}

export interface KrogerStandInItem {
  key: string;
  productId: string;
  description: string;
  brand?: string;
  categories?: string[];
  size: string;
  eggType: EggType | null;
  count: number;
  fixedPrice?: number;
  /** promo: a promotion (promo > 0); noPrice: no price object (not priced at this store). */
  variant?: 'promo' | 'noPrice';
  stockLevel?: 'HIGH' | 'LOW' | 'TEMPORARILY_OUT_OF_STOCK' | null;
  /** The fulfillment keys as the capture spells them (inStore) or as the docs do (instore). */
  casing?: 'capture' | 'docs';
  /** Shipped to the home only: not sold in the store (inStore false). */
  shipOnly?: boolean;
}

const EGGS: KrogerStandInItem[] = [
  {
    key: 'kroger-white-12',
    productId: '0001111060903',
    description: 'Kroger® Grade A Large White Eggs',
    brand: 'Kroger',
    categories: ['Dairy'],
    size: '12 ct',
    eggType: 'standard',
    count: 12,
  },
  {
    key: 'kroger-cf-brown-12',
    productId: '0001111060932',
    description: 'Kroger® Cage Free Grade A Large Brown Eggs',
    brand: 'Kroger',
    categories: ['Dairy'],
    size: '12 ct',
    eggType: 'cage_free',
    count: 12,
    variant: 'promo',
  },
  {
    key: 'st-cf-brown-18',
    productId: '0001111097314',
    description: 'Simple Truth Natural Cage Free Large Brown Eggs',
    brand: 'Simple Truth',
    categories: ['Dairy', 'Natural & Organic'],
    size: '18 ct',
    eggType: 'cage_free',
    count: 18,
  },
  {
    key: 'st-organic-12',
    productId: '0001111042315',
    description: 'Simple Truth Organic® Grade A Large Brown Eggs',
    brand: 'Simple Truth Organic',
    categories: ['Dairy', 'Natural & Organic'],
    size: '12 ct',
    eggType: 'organic',
    count: 12,
    stockLevel: 'TEMPORARILY_OUT_OF_STOCK',
  },
  {
    key: 'kroger-white-18',
    productId: '0001111060904',
    description: 'Kroger® Grade A Large White Eggs',
    brand: 'Kroger',
    categories: ['Dairy'],
    size: '18 ct',
    eggType: 'standard',
    count: 18,
  },
  {
    key: 'vital-farms-12',
    productId: '0086000300014',
    description: 'Vital Farms Pasture-Raised Large Grade A Eggs',
    brand: 'Vital Farms',
    categories: ['Dairy', 'Natural & Organic'],
    size: '12 ct',
    eggType: 'pasture_raised',
    count: 12,
    variant: 'promo',
  },
  {
    key: 'vital-farms-organic-xl',
    productId: '0086000300061',
    description: 'Vital Farms Organic Pasture-Raised Extra Large Eggs',
    brand: 'Vital Farms',
    categories: ['Dairy'],
    size: '12 ct',
    eggType: 'pasture_raised',
    count: 12,
    variant: 'noPrice',
  },
  {
    key: 'pete-gerrys-organic-12',
    productId: '0069872800012',
    description: "Pete & Gerry's Organic Free-Range Eggs Large",
    brand: "Pete & Gerry's",
    categories: ['Dairy', 'Natural & Organic'],
    size: '12 ct',
    eggType: 'organic',
    count: 12,
    stockLevel: null,
    casing: 'docs',
  },
  {
    key: 'egglands-classic-12',
    productId: '0071514150012',
    description: "Eggland's Best Classic Large White Eggs Grade A",
    brand: "Eggland's Best",
    categories: ['Dairy'],
    size: '12 ct',
    eggType: 'standard',
    count: 12,
    stockLevel: 'LOW',
  },
  {
    key: 'kroger-white-24',
    productId: '0001111060905',
    description: 'Kroger® Grade A Large White Eggs',
    brand: 'Kroger',
    categories: ['Dairy'],
    size: '24 ct',
    eggType: 'standard',
    count: 24,
  },
  {
    key: 'st-organic-6',
    productId: '0001111042306',
    description: 'Simple Truth Organic® Grade A Large Brown Eggs',
    brand: 'Simple Truth Organic',
    categories: ['Dairy', 'Natural & Organic'],
    size: '6 ct',
    eggType: 'organic',
    count: 6,
  },
  {
    key: 'egglands-free-range-12',
    productId: '0071514150029',
    description: "Eggland's Best Free Range Large Brown Eggs",
    brand: "Eggland's Best",
    categories: ['Dairy'],
    size: '12 ct.',
    eggType: 'cage_free',
    count: 12,
  },
  {
    key: 'kroger-white-60',
    productId: '0001111060960',
    description: 'Kroger® Grade A Large White Eggs Value Pack',
    brand: 'Kroger',
    categories: ['Dairy'],
    size: '60 ct',
    eggType: 'standard',
    count: 60,
  },
  {
    key: 'happy-egg-18',
    productId: '0081906700018',
    description: 'Happy Egg Co. Free Range Large Brown Eggs',
    size: '18 ct',
    eggType: 'cage_free',
    count: 18,
    stockLevel: null,
  },
];

// What else an "eggs" term search returns: [description, brand, category, size, price, ship only].
const OTHERS: Array<[string, string | undefined, string, string, number, boolean?]> = [
  ['Kroger® 100% Liquid Egg Whites', 'Kroger', 'Dairy', '16 oz', 3.29],
  ['Egg Beaters Original Liquid Egg Substitute', 'Egg Beaters', 'Dairy', '16 oz', 4.49],
  ['JUST Egg Plant-Based Scramble', 'JUST', 'Natural & Organic', '12 fl oz', 5.49],
  ['Kroger® Hard Boiled Eggs', 'Kroger', 'Dairy', '6 ct', 3.49],
  ['Kroger® Wide Egg Noodles', 'Kroger', 'Pasta, Sauces & Grain', '12 oz', 1.79],
  ['Kroger® Extra Wide Egg Noodles', 'Kroger', 'Pasta, Sauces & Grain', '16 oz', 2.19],
  ['Cadbury Mini Eggs Milk Chocolate Candy', 'Cadbury', 'Candy', '10 oz', 4.99],
  ["Reese's Peanut Butter Eggs", "Reese's", 'Candy', '6 ct / 1.2 oz', 3.99],
  ['Kinder Joy Chocolate Eggs', 'Kinder', 'Candy', '3 ct', 5.79],
  ['Kroger® Egg Salad', 'Kroger', 'Deli', '12 oz', 4.29],
  ['Starbucks Bacon & Gruyere Egg Bites', 'Starbucks', 'Frozen', '2 ct / 4.6 oz', 5.99],
  ['Jimmy Dean® Delights Egg White Frittatas', 'Jimmy Dean', 'Frozen', '6 ct', 7.49],
  ['Kroger® Eggnog', 'Kroger', 'Dairy', '1 qt', 3.49],
  ['Nasoya Egg Roll Wraps', 'Nasoya', 'Produce', '16 oz', 3.29],
  ['Kroger® Vegetable Egg Rolls', 'Kroger', 'Frozen', '8 ct', 4.99],
  ['Eggplant', undefined, 'Produce', '1 ct', 1.49],
  ['Dash Rapid Egg Cooker', 'Dash', 'Kitchen', '1 ct', 19.99, true],
  ['PAAS Classic Easter Egg Decorating Kit', 'PAAS', 'Seasonal', '1 ct', 3.99],
  ['Kroger® Plastic Easter Eggs', 'Kroger', 'Seasonal', '24 ct', 2.99],
  ['Kroger® Egg Bread', 'Kroger', 'Bakery', '16 oz', 3.99],
  ['Private Selection® Egg Fettuccine', 'Private Selection', 'Pasta, Sauces & Grain', '9 oz', 2.99],
  ['Jimmy Dean® Egg, Sausage & Cheese Croissant Sandwiches', 'Jimmy Dean', 'Frozen', '4 ct', 8.99],
  ['Kroger® Deviled Egg Potato Salad', 'Kroger', 'Deli', '16 oz', 3.49],
  ['Simple Truth Organic® Egg Noodles', 'Simple Truth Organic', 'Pasta, Sauces & Grain', '12 oz', 2.79],
  ['Vital Farms Pasture-Raised Hard-Boiled Eggs', 'Vital Farms', 'Dairy', '4 ct', 4.99],
  ["Eggland's Best Hard-Cooked Peeled Eggs", "Eggland's Best", 'Dairy', '6 ct', 4.49],
  ['Kroger® Egg Bagels', 'Kroger', 'Bakery', '6 ct', 2.99],
  ["Hellmann's Real Mayonnaise", "Hellmann's", 'Condiments & Sauces', '30 fl oz', 6.49],
  ['Kroger® Egg Drop Soup', 'Kroger', 'Canned & Packaged', '18.6 oz', 2.49],
  ['Bob Evans Egg Whites', 'Bob Evans', 'Dairy', '15 oz', 3.99],
  ['Kroger® Cage Free Liquid Egg Product', 'Kroger', 'Dairy', '32 oz', 6.49],
  ["Bob's Red Mill Egg Replacer", "Bob's Red Mill", 'Baking Goods', '12 oz', 6.99],
  ['Kahiki Chicken Egg Rolls', 'Kahiki', 'Frozen', '10 ct', 6.99],
  ['Simple Truth™ Plant-Based Egg Alternative', 'Simple Truth', 'Natural & Organic', '8 oz', 4.99],
  ['Kroger® Egg Custard Pie', 'Kroger', 'Bakery', '24 oz', 6.99],
  ["Hershey's Milk Chocolate Eggs", "Hershey's", 'Candy', '9 oz', 4.49],
  ['Lindt Lindor Milk Chocolate Eggs', 'Lindt', 'Candy', '5.1 oz', 4.99],
  ['Kroger® Egg & Cheese Breakfast Bowl', 'Kroger', 'Deli', '7 oz', 4.49],
  ['Kroger® Eggplant Parmesan', 'Kroger', 'Deli', '12 oz', 8.99],
  ['Egglife Original Egg White Wraps', 'Egglife', 'Bakery', '6 ct', 5.99],
];

/** The stand-in's answer to an "eggs" search: egg products mixed among the rest (54 in all). */
export const KROGER_CATALOGUE: KrogerStandInItem[] = (() => {
  const others: KrogerStandInItem[] = OTHERS.map(([description, brand, category, size, price, shipOnly], index) => ({
    key: `other-${index}`,
    productId: `00${String(70000000000 + (hashOf(description) % 9999999999)).padStart(11, '0')}`.slice(0, 13),
    description,
    ...(brand ? { brand } : {}),
    categories: [category],
    size,
    eggType: null,
    count: 0,
    fixedPrice: price,
    casing: index % 2 === 0 ? 'capture' : 'docs',
    ...(shipOnly ? { shipOnly } : {}),
  }));
  // Eggs at positions 0, 4, 8... so both pages hold some.
  const all: KrogerStandInItem[] = [];
  let e = 0;
  let o = 0;
  for (let i = 0; e < EGGS.length || o < others.length; i++) {
    if (i % 4 === 0 && e < EGGS.length) all.push(EGGS[e++]!);
    else if (o < others.length) all.push(others[o++]!);
    else all.push(EGGS[e++]!);
  }
  return all;
})();

export function krogerRegularPrice(item: KrogerStandInItem, zip: string, factor = 1): number {
  const price =
    item.eggType === null
      ? (item.fixedPrice ?? 1) * factor
      : standInPrice('kroger', zip, item.key, item.eggType, item.count, factor);
  return Math.round(price * 100) / 100;
}

/** A promotion's price: about 25% off, ending in 9. */
export function krogerPromoPrice(regular: number): number {
  return Math.max(0.99, Math.round((Math.round(regular * 7.5) / 10 - 0.01) * 100) / 100);
}

function product(item: KrogerStandInItem, zip: string | null, factor: number): Record<string, unknown> {
  const store = item.shipOnly !== true;
  const fulfillment =
    item.casing === 'docs'
      ? { curbside: store, delivery: store, instore: store, shiptohome: !store }
      : { curbside: store, delivery: store, inStore: store, shipToHome: !store };
  const entry: Record<string, unknown> = {
    itemId: item.productId,
    favorite: false,
    fulfillment,
    size: item.size,
    soldBy: 'UNIT',
  };
  if (zip !== null && item.variant !== 'noPrice') {
    const regular = krogerRegularPrice(item, zip, factor);
    const promo = item.variant === 'promo' ? krogerPromoPrice(regular) : 0;
    entry.price = {
      regular,
      promo,
      regularPerUnitEstimate: item.count > 0 ? Math.round((regular / item.count) * 100) / 100 : regular,
    };
    entry.nationalPrice = { regular, promo: 0 };
  }
  if (zip !== null && item.stockLevel !== null) entry.inventory = { stockLevel: item.stockLevel ?? 'HIGH' };
  const body: Record<string, unknown> = {
    productId: item.productId,
    upc: item.productId,
    ...(item.brand ? { brand: item.brand } : {}),
    ...(item.categories ? { categories: item.categories } : {}),
    countryOrigin: 'UNITED STATES',
    description: item.description,
    images: [
      {
        perspective: 'front',
        featured: true,
        sizes: ['medium', 'large'].map((size) => ({
          size,
          url: `https://www.kroger.com/product/images/${size}/front/${item.productId}`,
        })),
      },
    ],
    items: [entry],
    itemInformation: { depth: '5.85', height: '2.8', width: '11.2' },
    temperature: { indicator: item.categories?.includes('Frozen') ? 'Frozen' : 'Refrigerated', heatSensitive: false },
  };
  if (zip !== null)
    body.aisleLocations = [{ description: 'Aisle 42', number: '42', side: 'R', bayNumber: '1', shelfNumber: '2' }];
  return body;
}

const apiError = (status: number, code: string, reason: string) =>
  json({ errors: { timestamp: Date.now(), code, reason } }, status);
const unauthorized = () => apiError(401, 'Authentication-0001', 'Invalid or expired access token');

const AKAMAI_ACCESS_DENIED = `<HTML><HEAD>
<TITLE>Access Denied</TITLE>
</HEAD><BODY>
<H1>Access Denied</H1>

You don't have permission to access "http&#58;&#47;&#47;api&#46;kroger&#46;com&#47;v1&#47;products&#63;" on this server.<P>
Reference&#32;&#35;18&#46;77e33b17&#46;1714060802&#46;9c1a2e4
<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;77e33b17&#46;1714060802&#46;9c1a2e4</P>
</BODY>
</HTML>`;

function token(request: StandInRequest): StandInResponse {
  const match = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const at = decoded.indexOf(':');
  if (at <= 0 || at === decoded.length - 1)
    return json({ error: 'invalid_client', error_description: 'Client authentication failed' }, 401);
  const form = new URLSearchParams(request.body);
  if (form.get('grant_type') !== 'client_credentials')
    return json({ error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' }, 400);
  const scope = form.get('scope') ?? '';
  if (scope !== '' && !/^(product\.compact|cart\.basic:write|profile\.compact)(\s+\S+)*$/.test(scope))
    return json({ error: 'invalid_scope' }, 400);
  return json({
    expires_in: KROGER_TOKEN_LIFETIME_S,
    access_token: krogerStandInToken(decoded.slice(0, at)),
    token_type: 'bearer',
  });
}

// /v1/locations: the network's stores within filter.radiusInMiles (1-100, default 10) of the ZIP code,
// nearest first, at most filter.limit (1-200, default 10), of the banner filter.chain names (all of
// them without it). A ZIP code the geodata does not know gets the two stores derived from it, as
// before the network.
function locations(request: StandInRequest, state: StandInState): StandInResponse {
  const q = request.query;
  const starts = ['filter.zipCode.near', 'filter.latLong.near', 'filter.lat.near'].filter((name) => q.has(name));
  if (starts.length !== 1) return apiError(400, 'LOCATION-2002', 'Exactly one starting point is required');
  const zip = q.get('filter.zipCode.near') ?? '';
  const radius = Number(q.get('filter.radiusInMiles') ?? '10');
  const limit = Number(q.get('filter.limit') ?? '10');
  if (!/^\d{5}$/.test(zip)) return apiError(400, 'LOCATION-2004', "Field 'zipCode.near' must be a 5-digit zip code");
  if (!(radius >= 1 && radius <= 100))
    return apiError(400, 'LOCATION-2007', "Field 'radiusInMiles' must be between 1 and 100");
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 200))
    return apiError(400, 'LOCATION-2006', "Field 'limit' must be between 1 and 200");
  const chain = q.get('filter.chain');
  if (chain !== null && !KROGER_BANNERS.some((banner) => banner.code.toLowerCase() === chain.trim().toLowerCase()))
    return apiError(400, 'LOCATION-2010', "Field 'chain' must name a chain of the Kroger family");
  const near =
    scenarioOf(zip) === 'noStore'
      ? []
      : storesNear('kroger', zip, { limit, withinMiles: radius, banner: chain, state });
  const entries = near
    ? near.map(({ store }) => ({
        storeZip: store.zip,
        place: standInPlace('kroger', store.zip, 0),
        banner: store.banner ?? KROGER_BANNERS[0]!,
        suffix: '',
      }))
    : chain !== null && chain.trim().toLowerCase() !== 'kroger'
      ? []
      : [zip, String((Number(zip) + 11) % 100000).padStart(5, '0')].slice(0, limit).map((storeZip, index) => ({
          storeZip,
          place: standInPlace('kroger', zip, index),
          banner: KROGER_BANNERS[0]!,
          suffix: index === 0 ? '' : ' North',
        }));
  const data = entries.map(({ storeZip, place, banner, suffix }) => {
    const h = hashOf(storeZip);
    return {
      locationId: krogerLocationIdForZip(storeZip),
      storeNumber: String(h % 1000).padStart(5, '0'),
      divisionNumber: krogerLocationIdForZip(storeZip).slice(0, 3),
      chain: banner.code,
      name: `${banner.name} - ${place.city}${suffix}`,
      address: {
        addressLine1: `${100 + (h % 9000)} Vine St`,
        city: place.city,
        state: place.state,
        zipCode: near ? storeZip : suffix === '' ? storeZip : zip,
        county: 'STAND-IN',
      },
      geolocation: { latitude: place.latitude, longitude: place.longitude, latLng: '' },
      phone: '5135550100',
      departments: [{ departmentId: '09', name: 'Pharmacy' }],
    };
  });
  return json({ data, meta: { pagination: { start: 0, limit, total: data.length }, warnings: [] } });
}

function products(request: StandInRequest, state: StandInState): StandInResponse {
  const q = request.query;
  const limit = Number(q.get('filter.limit') ?? '10');
  const start = Number(q.get('filter.start') ?? '0');
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 50))
    return apiError(400, 'PRODUCT-2011', "Field 'filter.limit' must be between 1 and 50");
  if (!(Number.isInteger(start) && start >= 0 && start <= 250))
    return apiError(400, 'PRODUCT-2012', "Field 'filter.start' must be between 0 and 250");
  if (!q.get('filter.term') && !q.get('filter.productId') && !q.get('filter.brand'))
    return apiError(400, 'PRODUCT-2001', 'A search term, brand or product id is required');
  const locationId = q.get('filter.locationId');
  if (locationId !== null && !/^\w{8}$/.test(locationId))
    return apiError(400, 'PRODUCT-2006', "Field 'locationId' must have a length of 8 alphanumeric characters");
  const zip = krogerZipForLocationId(locationId);
  const scenario = zip ? scenarioOf(zip) : 'normal';
  if (zip && blocksAt('kroger', zip)) return html(AKAMAI_ACCESS_DENIED, 403);
  if (scenario === 'flaky' && state.hit(`kroger:flaky:${zip}`) === 1)
    return apiError(500, 'PRODUCT-5000', 'Internal server error');
  if (scenario === 'rateLimited' && state.hit(`kroger:rateLimited:${zip}`) === 1)
    return {
      ...apiError(429, 'PRODUCT-4290', 'Too many requests'),
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
    };

  const factor = state.priceFactor('kroger');
  const data = KROGER_CATALOGUE.slice(start, start + limit).map((item) => product(item, zip, factor));
  const body =
    scenario === 'changed'
      ? { products: { results: data }, paging: { offset: start, size: limit, totalCount: KROGER_CATALOGUE.length } }
      : { data, meta: { pagination: { start, limit, total: KROGER_CATALOGUE.length }, warnings: [] } };
  return { ...json(body), ...(scenario === 'slow' ? { delayMs: SLOW_MS } : {}) };
}

export const krogerStandIn: RetailerStandIn = {
  store: 'kroger',
  wall: () => html(AKAMAI_ACCESS_DENIED, 403),
  handle(request, state) {
    if (request.host !== '' && request.host !== HOST) return null;
    if (request.path === '/v1/connect/oauth2/token' && request.method === 'POST') return token(request);
    if (request.method !== 'GET' || (request.path !== '/v1/locations' && request.path !== '/v1/products')) return null;
    if (!validToken(request.headers.authorization)) return unauthorized();
    return request.path === '/v1/locations' ? locations(request, state) : products(request, state);
  },
};
