// ALDI US stand-in: api.aldi.us merchant-search (ZIP -> servicePoint) and
// v3 product-search, which rejects a limit outside 12, 16, 24, 30, 32, 48, 60 with HTTP 400 JSON.
import type { EggType } from '#shared/vocabulary.ts';
import { zipToState } from '#shared/zip.ts';
import { SLOW_MS, hashOf, scenarioOf, standInPrice } from './scenarios.ts';
import { standInPlace } from './places.ts';
import { NEAREST_REACH_MILES, blocksAt, registerNetworkIds, storesNear } from './network.ts';
import {
  html,
  json,
  type RetailerStandIn,
  type StandInRequest,
  type StandInResponse,
  type StandInState,
} from './types.ts';

const HOST = 'api.aldi.us';
export const ALDI_ALLOWED_LIMITS = [12, 16, 24, 30, 32, 48, 60];
/** The store product-search prices when no servicePoint is given (a Chicago store). */
const DEFAULT_ZIP = '60601';

// servicePoint ids look like "440-018": 4 and an affine permutation of the ZIP, as ddd-ddd.
const MOD = 100_000;
const MUL = 17;
const ADD = 30_211;
const INVERSE = (() => {
  for (let x = 1; x < MOD; x++) if ((MUL * x) % MOD === 1) return x;
  throw new Error('no inverse');
})();

export function aldiServicePointOf(zip: string): string {
  const digits = String(400_000 + ((Number(zip.slice(0, 5)) * MUL + ADD) % MOD));
  return `${digits.slice(0, 3)}-${digits.slice(3)}`;
}

registerNetworkIds('aldi', aldiServicePointOf);

export function zipOfAldiServicePoint(servicePoint: string): string | null {
  const match = /^4(\d{2})-(\d{3})$/.exec(servicePoint);
  if (!match) return null;
  const value = Number(`${match[1]}${match[2]}`) % MOD;
  const zip = String((((value - ADD + MOD) % MOD) * INVERSE) % MOD).padStart(5, '0');
  return zipToState(zip) ? zip : null;
}

function merchantOf(zip: string, second = false) {
  const h = hashOf(`aldi:${zip}:${second}`);
  const place = standInPlace('aldi', zip, second ? 1 : 0);
  const id = aldiServicePointOf(zip);
  return {
    id: second ? `${id.slice(0, 4)}${String((Number(id.slice(4)) + 1) % 1000).padStart(3, '0')}` : id,
    name: `ALDI ${place.city}`,
    address: {
      address1: `${100 + (h % 8900)} ${['W Main St', 'N Central Ave', 'E State St', 'S Oak St'][h % 4]}`,
      city: place.city,
      regionCode: place.state,
      zipCode: zip.slice(0, 5),
    },
    latitude: place.latitude,
    longitude: place.longitude,
    distance: Math.round(place.miles * 10) / 10,
    serviceTypes: ['pickup', 'walk-in', 'delivery'],
  };
}

interface Item {
  key: string;
  name: string;
  brandName?: string;
  sellingSize?: string;
  egg?: { type: EggType; count: number };
  base?: number;
  sale?: boolean;
  /** Not sold online (the real platform's flag, true on every item of a walk-in answer): the shelf price still stands. */
  notForSale?: boolean;
  discontinued?: boolean;
  /** No brandName, sellingSize, categories or assets. */
  sparse?: boolean;
  category: string;
}

const EGGS = 'Eggs';

const EGG_ITEMS: Item[] = [
  {
    key: 'goldhen-large-white-12',
    brandName: 'Goldhen',
    name: 'Grade A Large White Eggs',
    sellingSize: '12 ct',
    egg: { type: 'standard', count: 12 },
    category: EGGS,
  },
  {
    key: 'goldhen-large-white-18',
    brandName: 'Goldhen',
    name: 'Grade A Large White Eggs, 18 Count',
    sellingSize: '18 ct',
    egg: { type: 'standard', count: 18 },
    sale: true,
    notForSale: true,
    category: EGGS,
  },
  {
    key: 'goldhen-large-white-6',
    brandName: 'Goldhen',
    name: 'Grade A Large White Eggs, Half Dozen',
    sellingSize: '6 ct',
    egg: { type: 'standard', count: 6 },
    category: EGGS,
  },
  {
    key: 'goldhen-cage-free-brown-12',
    brandName: 'Goldhen',
    name: 'Cage Free Grade A Large Brown Eggs',
    sellingSize: '12 ct',
    egg: { type: 'cage_free', count: 12 },
    category: EGGS,
  },
  {
    key: 'goldhen-cage-free-white-18',
    brandName: 'Goldhen',
    name: 'Cage Free Grade A Large White Eggs, 18 Count',
    sellingSize: '18 ct',
    egg: { type: 'cage_free', count: 18 },
    notForSale: true,
    category: EGGS,
  },
  {
    key: 'simply-nature-organic-12',
    brandName: 'Simply Nature',
    name: 'Organic Grade A Large Brown Eggs',
    sellingSize: '12 ct',
    egg: { type: 'organic', count: 12 },
    sale: true,
    category: EGGS,
  },
  {
    key: 'simply-nature-organic-18',
    brandName: 'Simply Nature',
    name: 'Organic Grade A Large Brown Eggs, 18 Count',
    sellingSize: '18 ct',
    egg: { type: 'organic', count: 18 },
    category: EGGS,
  },
  {
    key: 'simply-nature-pasture-12',
    brandName: 'Simply Nature',
    name: 'Organic Pasture Raised Large Brown Eggs',
    sellingSize: '12 ct',
    egg: { type: 'pasture_raised', count: 12 },
    notForSale: true,
    category: EGGS,
  },
  {
    key: 'vital-farms-pasture-12',
    name: 'Vital Farms Pasture-Raised Large Grade A Eggs, 12 Count',
    egg: { type: 'pasture_raised', count: 12 },
    sparse: true,
    category: EGGS,
  },
  {
    key: 'goldhen-free-range-12',
    brandName: 'Goldhen',
    name: 'Free Range Grade A Large Brown Eggs',
    sellingSize: '12 ct',
    egg: { type: 'cage_free', count: 12 },
    category: EGGS,
  },
  {
    key: 'goldhen-large-white-60',
    brandName: 'Goldhen',
    name: 'Grade A Large White Eggs, 5 Dozen',
    sellingSize: '60 ct',
    egg: { type: 'standard', count: 60 },
    category: EGGS,
  },
  {
    key: 'egglands-classic-12',
    brandName: "Eggland's Best",
    name: "Eggland's Best Classic Large White Eggs Grade A",
    sellingSize: '12 ct',
    egg: { type: 'standard', count: 12 },
    category: EGGS,
  },
  {
    key: 'goldhen-large-white-24',
    brandName: 'Goldhen',
    name: 'Grade A Large White Eggs, 2 Dozen',
    sellingSize: '24 ct',
    egg: { type: 'standard', count: 24 },
    category: EGGS,
  },
  {
    key: 'vital-farms-pasture-18',
    brandName: 'Vital Farms',
    name: 'Pasture-Raised Large Brown Eggs, 18 Count',
    sellingSize: '18 ct',
    egg: { type: 'pasture_raised', count: 18 },
    sale: true,
    category: EGGS,
  },
];

const OTHER_ITEMS: Item[] = [
  {
    key: 'goldhen-egg-whites',
    brandName: 'Goldhen',
    name: '100% Liquid Egg Whites',
    sellingSize: '32 oz',
    base: 3.99,
    category: 'Eggs',
  },
  {
    key: 'just-egg',
    brandName: 'JUST Egg',
    name: 'Plant-Based Scramble',
    sellingSize: '16 fl oz',
    base: 6.49,
    category: 'Eggs',
  },
  {
    key: 'goldhen-hard-boiled',
    brandName: 'Goldhen',
    name: 'Hard-Boiled Eggs, 6 Count',
    sellingSize: '6 ct',
    base: 2.79,
    category: 'Eggs',
  },
  {
    key: 'reggano-egg-noodles',
    brandName: 'Reggano',
    name: 'Wide Egg Noodles',
    sellingSize: '12 oz',
    base: 1.49,
    category: 'Pasta & Rice',
  },
  {
    key: 'choceur-eggs',
    brandName: 'Choceur',
    name: 'Milk Chocolate Eggs',
    sellingSize: '6.5 oz',
    base: 2.99,
    discontinued: true,
    category: 'Candy',
  },
  {
    key: 'egg-bites',
    brandName: 'Breakfast Best',
    name: 'Uncured Bacon & Gruyere Egg Bites',
    sellingSize: '8.8 oz',
    base: 4.99,
    category: 'Frozen Breakfast',
  },
  {
    key: 'eggnog',
    brandName: 'Friendly Farms',
    name: 'Original Eggnog',
    sellingSize: '64 fl oz',
    base: 3.29,
    category: 'Milk & Cream',
  },
  {
    key: 'burmans-mayo',
    brandName: "Burman's",
    name: 'Real Mayonnaise',
    sellingSize: '30 fl oz',
    base: 2.89,
    category: 'Condiments',
  },
];

const FILLER_BRANDS = ['Specially Selected', 'Bake Shop', 'Mama Cozzi’s'];
const FILLER_PRODUCTS = [
  'Egg Pappardelle',
  'Brioche Hamburger Buns',
  'Challah Bread',
  'Quiche Lorraine',
  'Spinach & Feta Egg Bites',
  'Egg Roll Wrappers',
  'Vanilla Custard',
  'Egg Fettuccine',
  'French Vanilla Ice Cream',
  'Breakfast Burritos',
  'Pancake & Waffle Mix',
  'Chocolate Chip Cookies',
  'Lemon Pound Cake',
  'Caesar Dressing',
  'Garlic Aioli',
  'Egg Tagliatelle',
  'Blueberry Muffins',
  'Pumpkin Bread',
  'Carrot Cake',
  'Tiramisu',
  'Hollandaise Sauce',
  'Fried Rice',
  'Deviled Egg Potato Salad',
  'Egg Salad Sandwich',
  'Frittata Bites',
  'Croissants',
];
const FILLERS: Item[] = Array.from({ length: 53 }, (_, i) => ({
  key: `filler-${i}`,
  brandName: FILLER_BRANDS[i % FILLER_BRANDS.length]!,
  name: FILLER_PRODUCTS[i % FILLER_PRODUCTS.length]!,
  sellingSize: `${8 + (i % 12)} oz`,
  base: 1.99 + (i % 7),
  category: 'Bakery & Bread',
}));

/** The "eggs" search results in order: 60 on page 1 (12 egg products), 15 on page 2 (2 more). */
export const ALDI_CATALOGUE: Item[] = (() => {
  const page1: Item[] = [];
  for (let i = 0; i < 12; i++) {
    page1.push(EGG_ITEMS[i]!);
    if (i % 2 === 1) page1.push(OTHER_ITEMS[(i - 1) / 2]!);
  }
  const fillers = [...FILLERS];
  while (page1.length < 60) page1.push(fillers.shift()!);
  return [...page1, EGG_ITEMS[12]!, OTHER_ITEMS[6]!, EGG_ITEMS[13]!, OTHER_ITEMS[7]!, ...fillers];
})();

const round2 = (value: number) => Math.round(value * 100) / 100;

export function aldiSkuOf(item: Item): string {
  return String(hashOf(`aldi-sku:${item.key}`) % 10_000_000).padStart(16, '0');
}

export function aldiSlugOf(item: Item): string {
  return `${item.brandName ?? ''} ${item.name}`
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function aldiRegularPrice(item: Item, zip: string, factor = 1): number {
  if (item.egg) return round2(standInPrice('aldi', zip, item.key, item.egg.type, item.egg.count, factor));
  return round2((item.base ?? 1) * factor);
}

export function aldiSalePrice(regular: number): number {
  return Math.max(0.99, round2(Math.round(regular * 0.85 * 10) / 10 - 0.01));
}

const display = (dollars: number) => `$${dollars.toFixed(2)}`;

function productOf(item: Item, zip: string, factor: number): Record<string, unknown> {
  const regular = aldiRegularPrice(item, zip, factor);
  const current = item.sale ? aldiSalePrice(regular) : regular;
  const cents = Math.round(current * 100);
  const units = item.egg?.count ?? 1;
  const product: Record<string, unknown> = {
    sku: aldiSkuOf(item),
    name: item.name,
    brandName: item.sparse ? null : (item.brandName ?? null),
    urlSlugText: aldiSlugOf(item),
    quantityUnit: 'ea',
    weightType: '0',
    quantityMin: 1,
    quantityMax: 99,
    quantityDefault: 1,
    price: {
      amount: cents,
      amountRelevant: cents,
      amountRelevantDisplay: display(current),
      comparison: Math.round(cents / units),
      comparisonDisplay: `${display(current / units)}/each`,
      wasPriceDisplay: item.sale ? display(regular) : null,
      perUnit: null,
      perUnitDisplay: null,
      currencyCode: 'USD',
      currencySymbol: '$',
      bottleDeposit: 0,
    },
    notForSale: item.notForSale ?? false,
    discontinued: item.discontinued ?? false,
    countryExtensions: { usSnapEligible: true },
  };
  if (!item.sparse) {
    Object.assign(product, {
      sellingSize: item.sellingSize,
      categories: [
        {
          id: String(hashOf(item.category) % 1000),
          name: item.category,
          urlSlugText: item.category.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        },
      ],
      assets: [
        {
          url: `https://dm.cms.aldi.cx/is/image/prod1amer/product/jpg/scaleWidth/{width}/${hashOf(item.key).toString(16)}-0000-4000-8000-000000000000/{slug}`,
          maxWidth: 1500,
          maxHeight: 1500,
          assetType: 'FR01',
        },
      ],
    });
  }
  return product;
}

const CLOUDFLARE_CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"></head>
<body><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">api.aldi.us</h1><h2 class="h2">Verifying you are human. This may take a few seconds.</h2></div></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: "api.aldi.us",cType: 'managed'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8f1c2a3b4d5e6f71';document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>`;

const badRequest = (detail: string, parameter: string) =>
  json(
    { errors: [{ status: '400', code: 'INVALID_PARAMETER', title: 'Bad Request', detail, source: { parameter } }] },
    400,
  );

// The network's nearest store within NEAREST_REACH_MILES (the locator answers the nearest only:
// scrapers read data[0]); a ZIP code the geodata does not know gets the store derived from it, as
// before the network.
function merchantSearch(request: StandInRequest, state: StandInState): StandInResponse {
  const zip = request.query.get('zip_code') ?? '';
  if (!request.query.get('currency')) return badRequest('currency is required', 'currency');
  if (!zip) return badRequest('zip_code is required', 'zip_code');
  const valid = /^\d{5}$/.test(zip) && zipToState(zip) && scenarioOf(zip) !== 'noStore';
  const near = valid ? storesNear('aldi', zip, { limit: 1, withinMiles: NEAREST_REACH_MILES, state }) : [];
  const merchants = !valid
    ? []
    : near
      ? near.map(({ store, miles }) => ({ ...merchantOf(store.zip), distance: Math.round(miles * 10) / 10 }))
      : [merchantOf(zip)];
  return json({ meta: { pagination: { offset: 0, limit: 10, totalCount: merchants.length } }, data: merchants });
}

function productSearch(request: StandInRequest, state: StandInState): StandInResponse {
  const { query } = request;
  if (!query.get('currency')) return badRequest('currency is required', 'currency');
  if (!query.get('q') && !query.get('categoryKey')) return badRequest('q or categoryKey is required', 'q');
  const limit = Number(query.get('limit') ?? 12);
  if (!ALDI_ALLOWED_LIMITS.includes(limit))
    return badRequest(`limit must be one of ${ALDI_ALLOWED_LIMITS.join(', ')}`, 'limit');
  const offset = Number(query.get('offset') ?? 0);
  if (!Number.isInteger(offset) || offset < 0) return badRequest('offset must be a non-negative integer', 'offset');
  const servicePoint = query.get('servicePoint');
  const zip = servicePoint ? zipOfAldiServicePoint(servicePoint) : DEFAULT_ZIP;
  if (!zip) return badRequest(`unknown servicePoint ${servicePoint}`, 'servicePoint');
  const scenario = scenarioOf(zip);
  if (blocksAt('aldi', zip))
    return html(CLOUDFLARE_CHALLENGE, 403, { 'cf-mitigated': 'challenge', server: 'cloudflare' });
  if (scenario === 'flaky' && state.hit(`aldi:search:${zip}`) === 1)
    return html('<html><body><h1>500 Internal Server Error</h1></body></html>', 500);
  if (scenario === 'rateLimited' && state.hit(`aldi:search:${zip}`) === 1)
    return json({ errors: [{ status: '429', title: 'Too Many Requests' }] }, 429, { 'retry-after': '1' });
  const factor = state.priceFactor('aldi');
  const data = ALDI_CATALOGUE.slice(offset, offset + limit).map((item) => productOf(item, zip, factor));
  const delay = scenario === 'slow' ? { delayMs: SLOW_MS } : {};
  const meta = { pagination: { offset, limit, totalCount: ALDI_CATALOGUE.length } };
  if (scenario === 'changed') {
    // A new API version: the same products under other key names.
    const renamed = data.map((product) => ({
      productSku: product.sku,
      title: product.name,
      brand: product.brandName,
      offer: product.price,
    }));
    return { ...json({ meta, data: renamed }), ...delay };
  }
  return { ...json({ meta, data }), ...delay };
}

export const aldiStandIn: RetailerStandIn = {
  store: 'aldi',
  wall: () => html(CLOUDFLARE_CHALLENGE, 403, { 'cf-mitigated': 'challenge', server: 'cloudflare' }),
  handle(request, state) {
    if (request.host && request.host !== HOST) return null;
    if (request.path !== '/v1/merchant-search' && request.path !== '/v3/product-search') return null;
    if (request.method !== 'GET') return json({ errors: [{ status: '405', title: 'Method Not Allowed' }] }, 405);
    return request.path === '/v1/merchant-search' ? merchantSearch(request, state) : productSearch(request, state);
  },
};
