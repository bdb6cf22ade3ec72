// Walmart stand-in: the legacy grocery serviceAvailability call and the search
// page with its server-rendered __NEXT_DATA__ (item shape of the real pages in
// test/retailers/real/walmart: brand null, AdPlaceholder / TileTakeOverProductPlaceholder tiles,
// sponsored repeats, marketplace sellers' offers, a ship-only item, an "Only at Walmart" carousel,
// aggregatedCount, fulfilment entries per store).
// The store id is derived from the ZIP (100000 - ZIP) so the search page knows which ZIP it serves;
// a visitor with no store or ZIP cookie gets the documented default, Sacramento 95829.
import type { EggType } from '#shared/vocabulary.ts';
import { zipToState } from '#shared/zip.ts';
import { SLOW_MS, hashOf, scenarioOf, standInPrice } from './scenarios.ts';
import { standInCity } from './places.ts';
import { NEAREST_REACH_MILES, blocksAt, registerNetworkIds, storesNear } from './network.ts';
import {
  html,
  json,
  type RetailerStandIn,
  type StandInRequest,
  type StandInResponse,
  type StandInState,
} from './types.ts';

const HOST = 'www.walmart.com';
/** Where Walmart places a visitor it cannot place (one documented session). */
export const WALMART_DEFAULT_ZIP = '95829';
export const WALMART_PAGE_SIZE = 8;

/** The Walmart store id the stand-in gives a ZIP (1 to 5 digits, like Walmart's store numbers). */
export function walmartStoreIdForZip(zip: string): string {
  return String(100000 - Number(zip));
}

registerNetworkIds('walmart', walmartStoreIdForZip);

export function walmartZipForStoreId(id: string): string | null {
  if (!/^\d{1,5}$/.test(id)) return null;
  const zip = 100000 - Number(id);
  return zip > 0 && zip < 100000 ? String(zip).padStart(5, '0') : null;
}

export interface WalmartStandInItem {
  key: string;
  usItemId: string;
  name: string;
  /** Egg type and count that price the pack; null for the non-egg items an "eggs" search returns. */
  eggType: EggType | null;
  count: number;
  /** Price of a non-egg item (before the store's price factor). */
  fixedPrice?: number;
  catalogProductType?: string;
  /** rollback: wasPrice set; priceOnly: price only in `price`, every priceInfo string empty;
   *  linePriceOnly: no top-level price; outOfStock; bare: no optional fields at all. */
  variant?: 'rollback' | 'priceOnly' | 'linePriceOnly' | 'outOfStock' | 'bare';
  unit?: string;
}

export const WALMART_CATALOGUE: WalmartStandInItem[] = [
  {
    key: 'gv-white-12',
    usItemId: '145051970',
    name: 'Great Value Large White Eggs, 12 Count',
    eggType: 'standard',
    count: 12,
    catalogProductType: 'Eggs',
  },
  {
    key: 'gv-cage-free-12',
    usItemId: '172844767',
    name: 'Great Value Cage-Free Large White Eggs, 12 Count',
    eggType: 'cage_free',
    count: 12,
    catalogProductType: 'Eggs',
    variant: 'rollback',
  },
  {
    key: 'gv-liquid-whites',
    usItemId: '10535190',
    name: 'Great Value 100% Liquid Egg Whites, 16 oz',
    eggType: null,
    count: 0,
    fixedPrice: 3.24,
    catalogProductType: 'Egg Substitutes',
    unit: 'oz:16',
  },
  {
    key: 'marketside-cf-brown-18',
    usItemId: '262537816',
    name: 'Marketside Cage Free Large Brown Eggs, 18 ct',
    eggType: 'cage_free',
    count: 18,
    catalogProductType: 'Eggs',
    variant: 'priceOnly',
  },
  {
    key: 'marketside-organic-12',
    usItemId: '51259211',
    name: 'Marketside Organic Cage Free Large Brown Eggs, 12 Count',
    eggType: 'organic',
    count: 12,
    catalogProductType: 'Eggs',
    variant: 'linePriceOnly',
  },
  {
    key: 'vital-farms-12',
    usItemId: '44390948',
    name: 'Vital Farms Pasture-Raised Large Grade A Eggs, 12 Count',
    eggType: 'pasture_raised',
    count: 12,
    catalogProductType: 'Eggs',
    variant: 'outOfStock',
  },
  {
    key: 'just-egg',
    usItemId: '363872991',
    name: 'JUST Egg Plant-Based Scramble, 12 fl oz',
    eggType: null,
    count: 0,
    fixedPrice: 4.98,
    catalogProductType: 'Egg Substitutes',
    unit: 'fl oz:12',
  },
  {
    key: 'gv-white-18',
    usItemId: '145051971',
    name: 'Great Value Large White Eggs, 18 Count',
    eggType: 'standard',
    count: 18,
    catalogProductType: 'Eggs',
  },
  {
    key: 'gv-white-60',
    usItemId: '563784462',
    name: 'Great Value Large White Eggs, 5 Dozen / 60-Count',
    eggType: 'standard',
    count: 60,
    catalogProductType: 'Eggs',
  },
  {
    key: 'egglands-cf-brown-12',
    usItemId: '27559931',
    name: "Eggland's Best Cage Free Large Brown Eggs, 12 Count",
    eggType: 'cage_free',
    count: 12,
    catalogProductType: 'Eggs',
    variant: 'rollback',
  },
  {
    key: 'egglands-classic-18',
    usItemId: '10450884',
    name: "Eggland's Best Classic Large White Eggs Grade A, 18 Count",
    eggType: 'standard',
    count: 18,
    variant: 'bare',
  },
  {
    key: 'marketside-hard-boiled',
    usItemId: '605823137',
    name: 'Marketside Hard-Boiled Eggs, 6 Count',
    eggType: null,
    count: 0,
    fixedPrice: 2.97,
    catalogProductType: 'Prepared Eggs',
    unit: 'ea:6',
  },
  {
    key: 'pete-gerrys-organic-12',
    usItemId: '10295584',
    name: "Pete & Gerry's Organic Free-Range Eggs Large, 12 Count",
    eggType: 'organic',
    count: 12,
    catalogProductType: 'Eggs',
  },
  {
    key: 'gv-white-6',
    usItemId: '145051968',
    name: 'Great Value Large White Eggs, 6 Count',
    eggType: 'standard',
    count: 6,
    catalogProductType: 'Eggs',
  },
  {
    key: 'vital-farms-24',
    usItemId: '984572319',
    name: 'Vital Farms Pasture-Raised Large Grade A Eggs, 24 Count',
    eggType: 'pasture_raised',
    count: 24,
    catalogProductType: 'Eggs',
  },
  {
    key: 'gv-egg-noodles',
    usItemId: '10308221',
    name: 'Great Value Wide Egg Noodles, 12 oz',
    eggType: null,
    count: 0,
    fixedPrice: 1.62,
    catalogProductType: 'Pasta',
    unit: 'oz:12',
  },
  {
    key: 'happy-egg-free-range-12',
    usItemId: '33618874',
    name: 'Happy Egg Free Range Large Brown Eggs, 12 Count',
    eggType: 'cage_free',
    count: 12,
    catalogProductType: 'Eggs',
  },
  {
    key: 'cadbury-mini-eggs',
    usItemId: '37471593',
    name: 'Cadbury Mini Eggs Milk Chocolate Candy, 10 oz',
    eggType: null,
    count: 0,
    fixedPrice: 4.48,
    catalogProductType: 'Candy',
    unit: 'oz:10',
  },
  {
    key: 'marketside-free-range-18',
    usItemId: '772613925',
    name: 'Marketside Free Range Large Brown Eggs, 18 Count',
    eggType: 'cage_free',
    count: 18,
    catalogProductType: 'Eggs',
  },
];

export const WALMART_MAX_PAGE = Math.ceil(WALMART_CATALOGUE.length / WALMART_PAGE_SIZE);

/**
 * Tiles of page 1 that are not the store's shelf, as real pages mix them in: third-party
 * marketplace offers (a seller other than Walmart.com, shipped by the seller: fulfilment only at
 * store "0"), one with price 0 and empty price texts, and an item Walmart.com ships from a
 * warehouse that the store does not stock (fulfilment type FC).
 */
export interface WalmartOffShelfTile {
  usItemId: string;
  name: string;
  sellerName: string;
  fulfillmentType: 'MARKETPLACE' | 'FC';
  /** Before the store's price factor; 0 for an offer without a price. */
  price: number;
  wasPrice?: number;
}

export const WALMART_OFF_SHELF: WalmartOffShelfTile[] = [
  {
    usItemId: '9915504121',
    name: 'Farm Fresh Large Brown Eggs, 18 Count',
    sellerName: 'Sunrise Pantry Direct',
    fulfillmentType: 'MARKETPLACE',
    price: 38.99,
    wasPrice: 45.99,
  },
  {
    usItemId: '9915504122',
    name: 'Whole Powdered Eggs, 2 lb Bag, Makes 72 Eggs',
    sellerName: 'Bulk Larder LLC',
    fulfillmentType: 'MARKETPLACE',
    price: 0,
  },
  {
    usItemId: '9915504123',
    name: 'Great Value Large White Eggs, 12 Count, 3 Pack',
    sellerName: 'Walmart.com',
    fulfillmentType: 'FC',
    price: 14.97,
  },
];

/** Page 1's results stack repeats this catalogue item as a sponsored tile, and the "Only at Walmart" carousel repeats these two. */
export const WALMART_SPONSORED_REPEAT = 'vital-farms-12';
export const WALMART_CAROUSEL_REPEATS = ['gv-white-12', 'marketside-cf-brown-18'];

const money = (value: number) => `$${value.toFixed(2)}`;

/** Shelf (regular) price of an item at a ZIP. */
export function walmartRegularPrice(item: WalmartStandInItem, zip: string, factor = 1): number {
  const price =
    item.eggType === null
      ? (item.fixedPrice ?? 1) * factor
      : standInPrice('walmart', zip, item.key, item.eggType, item.count, factor);
  return Math.round(price * 100) / 100;
}

/** The rollback price of a rollback item (about 15% off, ending in 7). */
export function walmartRollbackPrice(regular: number): number {
  return Math.max(0.97, Math.round((Math.round(regular * 8.5) / 10 - 0.03) * 100) / 100);
}

function unitPrice(item: WalmartStandInItem, price: number): string {
  if (item.eggType !== null) return `${((price / item.count) * 100).toFixed(1)} ¢/ea`;
  const [unit, amount] = (item.unit ?? 'ea:1').split(':') as [string, string];
  return `${((price / Number(amount)) * 100).toFixed(1)} ¢/${unit}`;
}

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function productTile(item: WalmartStandInItem, zip: string, storeId: string, factor: number): Record<string, unknown> {
  const regular = walmartRegularPrice(item, zip, factor);
  const rollback = item.variant === 'rollback';
  const price = rollback ? walmartRollbackPrice(regular) : regular;
  const id = hashOf(item.usItemId).toString(36).toUpperCase().padEnd(12, 'X').slice(0, 12);
  const outOfStock = item.variant === 'outOfStock';
  const tile: Record<string, unknown> = {
    __typename: 'Product',
    id,
    usItemId: item.usItemId,
    name: item.name,
    brand: null,
    canonicalUrl: `/ip/${slug(item.name)}/${item.usItemId}?classType=REGULAR&from=/search`,
    price,
    priceInfo: {
      itemPrice: rollback ? money(regular) : '',
      linePrice: money(price),
      linePriceDisplay: rollback ? `Now ${money(price)}` : money(price),
      wasPrice: rollback ? money(regular) : '',
      savings: rollback ? `SAVE ${money(regular - price)}` : '',
      savingsAmt: rollback ? Math.round((regular - price) * 100) / 100 : 0,
      unitPrice: unitPrice(item, price),
      minPrice: 0,
      priceRangeString: '',
      priceDisplayType: rollback ? 'ROLLBACK' : 'UNKNOWN',
    },
    availabilityStatusV2: outOfStock
      ? { display: 'Out of stock', value: 'OUT_OF_STOCK' }
      : { display: 'In stock', value: 'IN_STOCK' },
    availabilityStatusDisplayValue: outOfStock ? 'Out of stock' : 'In stock',
    isOutOfStock: outOfStock,
    canAddToCart: !outOfStock,
    image: `https://i5.walmartimages.com/seo/${slug(item.name)}_${id.toLowerCase()}.jpeg?odnHeight=180&odnWidth=180&odnBg=FFFFFF`,
    imageInfo: {
      thumbnailUrl: `https://i5.walmartimages.com/seo/${slug(item.name)}_${id.toLowerCase()}.jpeg?odnHeight=180&odnWidth=180&odnBg=FFFFFF`,
    },
    sellerId: WALMART_SELLER_ID,
    sellerName: 'Walmart.com',
    salesUnitType: 'EACH',
    salesUnit: 'EACH',
    snapEligible: true,
    catalogProductType: item.catalogProductType,
    fulfillmentType: 'STORE',
    // Real pages: the store's items can be picked up or delivered from the store and shipped
    // (store "0"); an item out of stock at the store has no entries left.
    fulfillmentSummary: outOfStock
      ? []
      : [
          { fulfillment: 'PICKUP', storeId, deliveryDate: null },
          { fulfillment: 'DELIVERY', storeId, deliveryDate: null },
          { fulfillment: 'DELIVERY', storeId: '0', deliveryDate: null },
        ],
    rating: { averageRating: 4.6, numberOfReviews: (hashOf(item.key) % 4000) + 12 },
    isSponsoredFlag: false,
  };
  if (item.variant === 'priceOnly') {
    // Field report: price only in the top-level `price`, every priceInfo string empty.
    tile.priceInfo = {
      itemPrice: '',
      linePrice: '',
      linePriceDisplay: '',
      wasPrice: '',
      savings: '',
      savingsAmt: 0,
      unitPrice: '',
      minPrice: 0,
      priceRangeString: '',
      priceDisplayType: 'UNKNOWN',
    };
  }
  if (item.variant === 'linePriceOnly') delete tile.price;
  if (item.variant === 'bare') {
    for (const key of [
      'canonicalUrl',
      'availabilityStatusV2',
      'availabilityStatusDisplayValue',
      'isOutOfStock',
      'catalogProductType',
      'fulfillmentSummary',
      'rating',
      'imageInfo',
    ])
      delete tile[key];
  }
  if (tile.catalogProductType === undefined) delete tile.catalogProductType;
  return tile;
}

const WALMART_SELLER_ID = 'F55CDC31AB754BB68FE0B39041159D63';

function offShelfTile(tile: WalmartOffShelfTile, factor: number): Record<string, unknown> {
  const price = Math.round(tile.price * factor * 100) / 100;
  const was = tile.wasPrice ? Math.round(tile.wasPrice * factor * 100) / 100 : null;
  const id = hashOf(tile.usItemId).toString(36).toUpperCase().padEnd(12, 'X').slice(0, 12);
  return {
    __typename: 'Product',
    id,
    usItemId: tile.usItemId,
    name: tile.name,
    brand: null,
    canonicalUrl: `/ip/${slug(tile.name)}/${tile.usItemId}?classType=REGULAR`,
    price,
    priceInfo: {
      itemPrice: was ? money(was) : '',
      linePrice: price > 0 ? money(price) : '',
      linePriceDisplay: price > 0 ? money(price) : '',
      wasPrice: was ? money(was) : '',
      savings: '',
      savingsAmt: 0,
      unitPrice: '',
      minPrice: 0,
      priceRangeString: '',
      priceDisplayType: 'UNKNOWN',
    },
    availabilityStatusV2: { display: 'In stock', value: 'IN_STOCK' },
    isOutOfStock: false,
    canAddToCart: true,
    sellerId:
      tile.sellerName === 'Walmart.com'
        ? WALMART_SELLER_ID
        : hashOf(tile.sellerName).toString(16).toUpperCase().padStart(32, '0').slice(0, 32),
    sellerName: tile.sellerName,
    catalogProductType: 'Eggs',
    fulfillmentType: tile.fulfillmentType,
    fulfillmentSummary: [{ fulfillment: 'DELIVERY', storeId: '0', deliveryDate: null }],
    isSponsoredFlag: false,
  };
}

const adTile = (index: number) => ({
  __typename: 'AdPlaceholder',
  id: `ad-${index}`,
  moduleType: 'GoogleAdsense',
  adsLocation: `search_${index}`,
});
const takeoverTile = (index: number) => ({
  __typename: 'TileTakeOverProductPlaceholder',
  id: `tto-${index}`,
  tileTakeOverTile: { span: 2, title: 'Fresh eggs every day', ctaLink: { linkText: 'Shop now' } },
});

function nextDataPage(data: unknown, title = 'Eggs - Walmart.com'): string {
  return `<!DOCTYPE html><html lang="en-US"><head><meta charSet="utf-8"/><title>${title}</title>
<link rel="canonical" href="https://www.walmart.com/search?q=eggs"/></head>
<body><div id="__next"><div class="flex flex-column"><h1 class="f3">Results for "eggs"</h1></div></div>
<script id="__NEXT_DATA__">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
</body></html>`;
}

export const WALMART_ROBOT_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Robot or human?</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><div class="re-captcha"><h1 class="header">Robot or human?</h1>
<p>Activate and hold the button to confirm that you’re human. Thank You!</p>
<div id="px-captcha"></div></div>
<script>window._pxAppId = 'PXu6b0qd2S'; window._pxJsClientSrc = '/px/PXu6b0qd2S/init.js';</script>
</body></html>`;

interface ServedStore {
  zip: string;
  storeId: string;
}

function servedStore(request: StandInRequest): ServedStore {
  const fromId = (id: string | undefined | null) => {
    const zip = id ? walmartZipForStoreId(id) : null;
    return zip ? { zip, storeId: id! } : null;
  };
  const fromQuery = fromId(request.query.get('stores'));
  if (fromQuery) return fromQuery;
  const fromCookie = fromId(request.cookies.assortmentStoreId);
  if (fromCookie) return fromCookie;
  const guest = request.cookies.locGuestData;
  if (guest) {
    try {
      const data = JSON.parse(Buffer.from(decodeURIComponent(guest), 'base64').toString('utf8')) as {
        postalCode?: { base?: string } | string;
      };
      const zip = typeof data.postalCode === 'string' ? data.postalCode : data.postalCode?.base;
      if (zip && /^\d{5}$/.test(zip)) return { zip, storeId: walmartStoreIdForZip(zip) };
    } catch {
      // An unreadable cookie places the visitor by default, as the real site would.
    }
  }
  return { zip: WALMART_DEFAULT_ZIP, storeId: walmartStoreIdForZip(WALMART_DEFAULT_ZIP) };
}

function searchPage(request: StandInRequest, state: StandInState): StandInResponse {
  const q = request.query.get('q') ?? '';
  if (q.trim() === '')
    return html('<html><head><title>Walmart.com</title></head><body>Moved</body></html>', 302, { location: '/' });
  const { zip, storeId } = servedStore(request);
  const scenario = scenarioOf(zip);
  if (blocksAt('walmart', zip)) return html(WALMART_ROBOT_PAGE, 200);
  if (scenario === 'flaky' && state.hit(`walmart:flaky:${zip}`) === 1)
    return html('<html><body>Internal Server Error</body></html>', 500);
  if (scenario === 'rateLimited' && state.hit(`walmart:rateLimited:${zip}`) === 1)
    return html('<html><body>Too Many Requests</body></html>', 429, { 'retry-after': '1' });

  const pageNumber = Math.max(1, Number.parseInt(request.query.get('page') ?? '1', 10) || 1);
  const factor = state.priceFactor('walmart');
  const start = (pageNumber - 1) * WALMART_PAGE_SIZE;
  const items = WALMART_CATALOGUE.slice(start, start + WALMART_PAGE_SIZE).map((item) =>
    productTile(item, zip, storeId, factor),
  );
  const tileOf = (key: string) =>
    productTile(
      WALMART_CATALOGUE.find((item) => item.key === key)!,
      zip,
      storeId,
      factor,
    );
  // The results count marketplace offers too, as aggregatedCount does on real pages.
  const total = WALMART_CATALOGUE.length + WALMART_OFF_SHELF.length;
  // Page 1, as real pages come: a sponsored repeat, ads, a take-over placeholder, marketplace
  // offers and a ship-only item among the products, then an "Only at Walmart" carousel that
  // repeats results.
  const [marketplace, priceless, shipOnly] = WALMART_OFF_SHELF.map((tile) => offShelfTile(tile, factor));
  const stacks =
    pageNumber === 1
      ? [
          {
            title: `Results for "${q}"`,
            count: total,
            layoutEnum: 'GRID',
            items: [
              { ...tileOf(WALMART_SPONSORED_REPEAT), isSponsoredFlag: true },
              ...items.slice(0, 2),
              adTile(1),
              marketplace,
              ...items.slice(2, 5),
              takeoverTile(1),
              shipOnly,
              ...items.slice(5),
              priceless,
            ],
          },
          {
            title: 'Only at Walmart',
            titleKey: 'onlyAtWalmart',
            count: WALMART_CAROUSEL_REPEATS.length,
            layoutEnum: 'CAROUSEL',
            items: [adTile(2), ...WALMART_CAROUSEL_REPEATS.map(tileOf)],
          },
        ]
      : [
          {
            title: `Results for "${q}"`,
            count: total,
            layoutEnum: 'GRID',
            items: items.length > 0 ? [...items.slice(0, 3), adTile(pageNumber), ...items.slice(3)] : [],
          },
        ];
  const location = {
    pickupStore: storeId,
    deliveryStore: storeId,
    intent: 'PICKUP',
    postalCode: zip,
    stateOrProvinceCode: zipToState(zip) ?? 'CA',
    storeId,
  };
  const pagination = {
    maxPage: WALMART_MAX_PAGE,
    pageProperties: {
      page: String(pageNumber),
      sort: request.query.get('sort') ?? 'best_match',
      ps: String(WALMART_PAGE_SIZE),
      stores: storeId,
    },
  };
  const data =
    scenario === 'changed'
      ? // A redesign the documentation does not describe: results moved and renamed.
        {
          props: {
            pageProps: {
              initialData: {
                pageMetadata: { location },
                searchResultsV3: { modules: stacks.map((s) => ({ tiles: s.items })), paging: pagination },
              },
            },
          },
          page: '/search',
          buildId: 'wm-next-v3',
        }
      : {
          props: {
            pageProps: {
              initialData: {
                pageMetadata: { location, title: 'Eggs - Walmart.com' },
                // count: the tiles on this page (real pages), not the total.
                searchResult: {
                  title: `Results for "${q}"`,
                  aggregatedCount: total,
                  itemStacks: stacks,
                  paginationV2: pagination,
                  count: stacks.reduce((n, st) => n + st.items.length, 0),
                },
              },
            },
          },
          page: '/search',
          query: { q, page: String(pageNumber) },
          buildId: 'wm-next-stand-in',
        };
  return { ...html(nextDataPage(data)), ...(scenario === 'slow' ? { delayMs: SLOW_MS } : {}) };
}

// Answers the network's nearest store within NEAREST_REACH_MILES (nearest only, as the real call);
// a ZIP code the geodata does not know gets the store derived from it, as before the network.
function serviceAvailability(request: StandInRequest, state: StandInState): StandInResponse {
  const asked = request.query.get('postalCode') ?? '';
  if (!/^\d{5}$/.test(asked))
    return json({ errors: [{ code: 'INVALID_POSTAL_CODE', message: 'postalCode must be a 5-digit ZIP code' }] }, 400);
  const near = storesNear('walmart', asked, { limit: 1, withinMiles: NEAREST_REACH_MILES, state });
  if (scenarioOf(asked) === 'noStore' || near?.length === 0)
    return json({ accessPointList: [], isGroceryAvailable: false, postalCode: asked });
  const zip = near ? near[0]!.store.zip : asked;
  const storeId = walmartStoreIdForZip(zip);
  return json({
    accessPointList: [
      {
        accessPointId: `${hashOf(zip).toString(16)}-pickup`,
        accessPointType: 'PICKUP_CURBSIDE',
        fulfillmentType: 'INSTORE_PICKUP',
        assortmentStoreId: storeId,
        dispenseStoreId: storeId,
        name: `Walmart Supercenter #${storeId}`,
        address: {
          line1: `${100 + (hashOf(zip) % 8900)} Market St`,
          city: standInCity(zip),
          state: zipToState(zip) ?? 'CA',
          postalCode: zip,
        },
      },
    ],
    isGroceryAvailable: true,
    postalCode: asked,
  });
}

export const walmartStandIn: RetailerStandIn = {
  store: 'walmart',
  wall: () => html(WALMART_ROBOT_PAGE, 200),
  handle(request, state) {
    if (request.host !== '' && request.host !== HOST) return null;
    if (request.method !== 'GET') return null;
    if (request.path === '/grocery/v4/api/serviceAvailability') return serviceAvailability(request, state);
    if (request.path === '/search') return searchPage(request, state);
    return null;
  },
};
