// Whole Foods Market stand-in (retailers.md §5): the store finder (POST /stores/search), the
// store summary (/stores/<id>/summary, null for an unknown id) and the keyword search JSON
// (/api/search), which leaves out every price field when no store= is given.
import type { EggType } from '#shared/vocabulary.ts';
import { zipToState } from '#shared/zip.ts';
import { SLOW_MS, hashOf, scenarioOf, standInPrice } from './scenarios.ts';
import { html, json, type RetailerStandIn, type StandInRequest, type StandInResponse, type StandInState } from './types.ts';

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

export function zipOfWholeFoodsStore(storeId: string): string | null {
  if (!/^1\d{5}$/.test(storeId)) return null;
  const zip = String((((Number(storeId.slice(1)) - ADD + MOD) % MOD) * INVERSE) % MOD).padStart(5, '0');
  return zipToState(zip) ? zip : null;
}

const CITIES = ['Riverside', 'Fairview', 'Madison', 'Georgetown', 'Springfield', 'Franklin', 'Greenville', 'Bristol', 'Clinton', 'Salem', 'Oakdale', 'Arlington'];

function storeOf(zip: string, second = false) {
  const id = wholeFoodsStoreIdOf(zip);
  const h = hashOf(`whole-foods:${zip}:${second}`);
  const city = CITIES[h % CITIES.length]!;
  return {
    storeId: second ? (Number(id) < 199_999 ? Number(id) + 1 : Number(id) - 1) : Number(id),
    name: second ? `${city} North` : city,
    tlc: city.slice(0, 3).toUpperCase(),
    path: second ? `${city.toLowerCase()}-north` : city.toLowerCase(),
    status: 'OPEN',
    location: {
      address: { line1: `${100 + (h % 8900)} ${['Market St', 'Lamar Blvd', 'Central Ave', 'Elm St'][h % 4]}`, city, state: zipToState(zip), zipCode: zip.slice(0, 5) },
      geometry: { type: 'Point', coordinates: [-(75 + (h % 4500) / 100), 26 + (h % 2200) / 100] },
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
}

const WFM = '365 by Whole Foods Market';

const EGGS: Item[] = [
  { key: 'wfm-organic-brown-12', brand: WFM, name: 'Organic Large Brown Grade A Eggs, 12 ct', egg: { type: 'organic', count: 12 }, sale: 'dated', uom: 'ea' },
  { key: 'wfm-organic-brown-18', brand: WFM, name: 'Organic Large Brown Grade A Eggs, 18 ct', egg: { type: 'organic', count: 18 }, uom: '18 ct' },
  { key: 'wfm-cage-free-brown-12', brand: WFM, name: 'Cage Free Large Brown Grade A Eggs, 12 ct', egg: { type: 'cage_free', count: 12 }, uom: 'ea' },
  { key: 'wfm-cage-free-white-18', brand: WFM, name: 'Cage Free Large White Grade A Eggs, 18 ct', egg: { type: 'cage_free', count: 18 }, sale: 'undated', uom: 'ea' },
  { key: 'vital-farms-pasture-12', brand: 'Vital Farms', name: 'Pasture-Raised Large Grade A Eggs, 12 ct', egg: { type: 'pasture_raised', count: 12 }, uom: '12 ct' },
  { key: 'vital-farms-organic-pasture-18', name: 'Vital Farms Organic Pasture-Raised Extra Large Eggs, 18 ct', egg: { type: 'pasture_raised', count: 18 }, sparse: true },
  { key: 'pete-gerrys-organic-free-range-12', brand: "Pete and Gerry's", name: 'Organic Free-Range Large Brown Eggs, 12 ct', egg: { type: 'organic', count: 12 }, uom: 'ea' },
  { key: 'handsome-brook-pasture-24', brand: 'Handsome Brook Farms', name: 'Organic Pasture Raised Large Brown Eggs, 24 ct', egg: { type: 'pasture_raised', count: 24 }, uom: 'ea' },
  { key: 'nellies-free-range-18', brand: "Nellie's", name: 'Free Range Large Eggs, 18 ct', egg: { type: 'cage_free', count: 18 }, sale: 'dated', uom: 'ea' },
  { key: 'alexandre-pasture-6', brand: 'Alexandre Family Farm', name: 'Regenerative Organic Pasture Raised Eggs, 6 ct', egg: { type: 'pasture_raised', count: 6 }, uom: 'ea' },
  { key: 'wfm-cage-free-60', brand: WFM, name: 'Cage Free Large Brown Grade A Eggs, 5 Dozen', egg: { type: 'cage_free', count: 60 }, uom: 'ea' },
  { key: 'egglands-classic-12', brand: "Eggland's Best", name: 'Classic Large White Eggs Grade A, 12 ct', egg: { type: 'standard', count: 12 }, uom: 'ea' },
  { key: 'egglands-classic-18', brand: "Eggland's Best", name: 'Classic Large White Eggs Grade A, 18 ct', egg: { type: 'standard', count: 18 }, uom: 'ea' },
  { key: 'happy-egg-free-range-12', brand: 'Happy Egg', name: 'Free Range Large Brown Eggs, 12 ct', egg: { type: 'cage_free', count: 12 }, sale: 'dated', uom: 'ea' },
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
  'Egg Fettuccine', 'Avocado Oil Mayonnaise', 'Brioche Buns', 'Challah Bread', 'Quiche Lorraine', 'Spinach & Feta Egg Bites',
  'Egg Roll Wrappers', 'Vanilla Custard', 'Deviled Egg Potato Salad', 'Egg Pappardelle', 'French Vanilla Ice Cream', 'Challah Rolls',
  'Vegetable Frittata', 'Breakfast Burrito', 'Almond Flour Pancake Mix', 'Chocolate Chip Cookies', 'Lemon Pound Cake', 'Caesar Dressing',
  'Aioli Garlic Sauce', 'Egg Tagliatelle', 'Blueberry Muffins', 'Pumpkin Bread Mix', 'Carrot Cake', 'Tiramisu', 'Hollandaise Sauce', 'Fried Rice',
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

const isoDay = (offsetDays: number) => `${new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`;

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
    if (item.sale === 'dated') Object.assign(result, { incrementalSalePrice: wholeFoodsPrimePrice(salePrice), saleStartDate: isoDay(-2), saleEndDate: isoDay(5) });
  }
  if (!item.sparse && item.uom) result.uom = item.uom;
  return result;
}

const CLOUDFLARE_CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"></head>
<body><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">www.wholefoodsmarket.com</h1><h2 class="h2">Verifying you are human. This may take a few seconds.</h2></div></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: "www.wholefoodsmarket.com",cType: 'managed'};var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8f1c2a3b4d5e6f70';document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>`;

function storeSearch(request: StandInRequest): StandInResponse {
  let query: unknown;
  try {
    query = (JSON.parse(request.body) as { query?: unknown }).query;
  } catch {
    return json({ message: 'Invalid JSON body' }, 400);
  }
  if (typeof query !== 'string' || query.trim() === '') return json({ message: 'query is required' }, 400);
  const zip = query.trim();
  if (!/^\d{5}$/.test(zip) || !zipToState(zip) || scenarioOf(zip) === 'noStore') return json([]);
  return json([storeOf(zip), storeOf(zip, true)]);
}

function storeSummary(storeId: string): StandInResponse {
  const zip = zipOfWholeFoodsStore(storeId);
  if (!zip || scenarioOf(zip) === 'noStore') return json(null);
  const store = storeOf(zip);
  return json({ storeId: store.storeId, name: store.name, tlc: store.tlc, path: store.path, status: store.status, address: store.location.address });
}

function search(request: StandInRequest, state: StandInState): StandInResponse {
  const term = request.query.get('text') ?? '';
  if (!term.trim()) return json({ message: 'text is required' }, 400);
  const limit = Math.min(60, Math.max(1, Number(request.query.get('limit') ?? 60) || 60));
  const offset = Math.max(0, Number(request.query.get('offset') ?? 0) || 0);
  const storeParam = request.query.get('store');
  const zip = storeParam ? zipOfWholeFoodsStore(storeParam) : null;
  const scenario = zip ? scenarioOf(zip) : 'normal';
  if (scenario === 'blocked') return html(CLOUDFLARE_CHALLENGE, 403, { 'cf-mitigated': 'challenge', server: 'cloudflare' });
  if (scenario === 'flaky' && state.hit(`whole-foods:search:${zip}`) === 1) return html('<html><body><h1>502 Bad Gateway</h1></body></html>', 500);
  if (scenario === 'rateLimited' && state.hit(`whole-foods:search:${zip}`) === 1) return json({ message: 'Too Many Requests' }, 429, { 'retry-after': '1' });
  const factor = state.priceFactor('whole-foods');
  // Without a (known) store the results carry no price fields, as on the real site.
  const results = WHOLE_FOODS_CATALOGUE.slice(offset, offset + limit).map((item) => resultOf(item, zip, zip ? Number(storeParam) : null, factor));
  const delay = scenario === 'slow' ? { delayMs: SLOW_MS } : {};
  if (scenario === 'changed') {
    const products = results.map((result) => ({ title: result.name, productSlug: result.slug, pricing: { list: result.regularPrice, offer: result.salePrice ?? null } }));
    return { ...json({ data: { products, totalCount: WHOLE_FOODS_CATALOGUE.length } }), ...delay };
  }
  return {
    ...json({
      results,
      facets: [{ label: 'Category', slug: 'category', refinements: [{ label: 'Dairy & Eggs', slug: 'dairy-eggs', count: 22, isSelected: false }] }],
      breadcrumb: [{ label: 'All Products', slug: 'all-products' }],
      meta: { total: { value: WHOLE_FOODS_CATALOGUE.length, relation: 'eq' }, state: { refinements: [], sort: 'relevance' } },
    }),
    ...delay,
  };
}

export const wholeFoodsStandIn: RetailerStandIn = {
  store: 'whole-foods',
  handle(request, state) {
    if (request.host && request.host !== HOST) return null;
    if (request.path === '/stores/search') return request.method === 'POST' ? storeSearch(request) : json({ message: 'Method Not Allowed' }, 405);
    if (request.path === '/api/search') return request.method === 'GET' ? search(request, state) : json({ message: 'Method Not Allowed' }, 405);
    const summary = /^\/stores\/([^/]+)\/summary$/.exec(request.path);
    if (summary && request.method === 'GET') return storeSummary(summary[1]!);
    return null;
  },
};
