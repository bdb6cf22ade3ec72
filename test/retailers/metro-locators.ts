// The locators of the metro network (metro-network.ts): each retailer's store locator answering
// from that network with the real locators' limits (docs/features/scraping.md) and the documented minimum fields only,
// placed before the stand-in's own handlers (server.ts), which keep answering everything else
// (keys, tokens, listings). A listing call for a metro store that blocks answers a bot wall.
//
// What each answer holds, and its limits:
// - Walmart serviceAvailability: the nearest store only, within 150 miles; an access point is its
//   assortmentStoreId and its address's postalCode.
// - Target nearby_stores_v1: `limit` (at most 20) within `within` (at most 100) miles; store_id,
//   location_name, distance, status and mailing_address {address_line1, city, postal_code}, the
//   postal code as ZIP+4 for some stores, no state.
// - Kroger /v1/locations: filter.limit (1-200, 10 by default) within filter.radiusInMiles (1-100,
//   10 by default); locationId, chain and address {addressLine1, city, state, zipCode}, no
//   coordinates.
// - Albertsons storeresolver/all: `size` at most 10 within `radius` at most 50 miles (the values
//   the site sends); instore {count, stores [{locationId, address {line1, city}}]}: no ZIP code,
//   state, coordinates or distance.
// - Whole Foods store finder: storeId and address {line1, city, state} with the coordinates, no
//   ZIP code; 7 stores within 150 miles at most.
// - ALDI merchant-search: data[], the 6 nearest stores within 150 miles at most, each its id and
//   address {address1, city, zip}.
import { zipFacts, type Coordinates } from '#server/geo.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { metroChain, metroStoresNear, type MetroStore } from './metro-network.ts';
import { serveStandIns, type StandInOptions, type StandInServer } from './http-server.ts';
import { STAND_INS } from './server.ts';
import {
  html,
  json,
  type RetailerStandIn,
  type StandInRequest,
  type StandInResponse,
  type StandInState,
} from './types.ts';

/** Limits of the locators whose real limits are not documented (the answer never says them). */
export const METRO_NEAREST_REACH_MILES = 150;
export const METRO_FINDER_STORES = 7;
export const METRO_MERCHANTS = 6;

const switchesOf = (state: StandInState) => ({ closingStoresClosed: state.closingStoresClosed?.() === true });

const pointOf = (zip: string | null): Coordinates | null => (zip && /^\d{5}$/.test(zip) ? zipFacts(zip) : null);

const near = (chain: StoreId, zip: string | null, limit: number, withinMiles: number, state: StandInState) => {
  const point = pointOf(zip);
  return point ? metroStoresNear(chain, point, { limit, withinMiles, switches: switchesOf(state) }) : [];
};

const clamp = (value: string | null, fallback: number, min: number, max: number) => {
  const n = Number(value ?? fallback);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
};

const BLOCK_PAGE = html('<html><head><title>Access Denied</title></head><body>Access Denied</body></html>', 403);

/** A bot wall for a listing call naming a metro store that blocks; null otherwise. */
function blocked(chain: StoreId, id: string | null | undefined): StandInResponse | null {
  return id && metroChain(chain).byId.get(id)?.blocks ? BLOCK_PAGE : null;
}

const wholeFoodsAddress = (store: MetroStore) => ({
  address: { line1: store.street, city: store.city, state: store.state },
  geometry: { coordinates: [store.longitude, store.latitude] },
});

const handlers: Record<StoreId, (request: StandInRequest, state: StandInState) => StandInResponse | null> = {
  walmart(request, state) {
    if (request.path === '/search') return blocked('walmart', request.cookies.assortmentStoreId);
    if (request.path !== '/grocery/v4/api/serviceAvailability') return null;
    const found = near('walmart', request.query.get('postalCode'), 1, METRO_NEAREST_REACH_MILES, state);
    return json({
      accessPointList: found.map(({ store }) => ({ assortmentStoreId: store.id, address: { postalCode: store.zip } })),
    });
  },

  target(request, state) {
    if (request.path.endsWith('/plp_search_v2') || request.path.endsWith('/product_summary_with_fulfillment_v1'))
      return blocked('target', request.query.get('pricing_store_id') ?? request.query.get('store_id'));
    if (!request.path.endsWith('/nearby_stores_v1')) return null;
    if (!request.query.get('key')) return json({ errors: [{ message: 'API key is missing' }] }, 401);
    const limit = Math.trunc(clamp(request.query.get('limit'), 5, 1, 20));
    const within = clamp(request.query.get('within'), 100, 1, 100);
    const found = near('target', request.query.get('place'), limit, within, state);
    const stores = found.map(({ store, miles }, index) => ({
      store_id: store.id,
      location_name: `${store.city}${index % 3 === 1 ? ' North' : ''}`,
      distance: Math.round(miles * 100) / 100,
      status: 'Open',
      mailing_address: {
        address_line1: store.street,
        city: store.city,
        postal_code:
          Number(store.id) % 2 === 0 ? `${store.zip}-${String(Number(store.id) % 10_000).padStart(4, '0')}` : store.zip,
      },
    }));
    return json({ data: { nearby_stores: { stores } } });
  },

  kroger(request, state) {
    if (request.path === '/v1/products') return blocked('kroger', request.query.get('filter.locationId'));
    if (request.path !== '/v1/locations' || request.method !== 'GET') return null;
    if (!request.headers.authorization?.startsWith('Bearer ')) return json({ error: 'invalid_token' }, 401);
    const limit = Math.trunc(clamp(request.query.get('filter.limit'), 10, 1, 200));
    const radius = clamp(request.query.get('filter.radiusInMiles'), 10, 1, 100);
    const found = near('kroger', request.query.get('filter.zipCode.near'), limit, radius, state);
    return json({
      data: found.map(({ store }) => ({
        locationId: store.id,
        chain: store.banner?.code ?? 'KROGER',
        address: { addressLine1: store.street, city: store.city, state: store.state, zipCode: store.zip },
      })),
    });
  },

  albertsons(request, state) {
    if (request.path.endsWith('/search/products')) return blocked('albertsons', request.query.get('storeid'));
    if (request.path !== '/abs/pub/xapi/storeresolver/all') return null;
    const size = Math.trunc(clamp(request.query.get('size'), 10, 1, 10));
    const radius = clamp(request.query.get('radius'), 50, 1, 50);
    const found = near('albertsons', request.query.get('zipcode'), size, radius, state);
    const stores = found.map(({ store }) => ({
      locationId: store.id,
      address: { line1: store.street, city: store.city },
    }));
    return json({ instore: { count: stores.length, stores } });
  },

  'whole-foods'(request, state) {
    if (request.path === '/api/search' || request.path === '/api/wwos/products')
      return blocked('whole-foods', request.query.get('store'));
    if (request.path === '/stores/search' && request.method === 'POST') {
      let query: unknown;
      try {
        query = (JSON.parse(request.body) as { query?: unknown }).query;
      } catch {
        return json({ message: 'Invalid JSON body' }, 400);
      }
      const found = near(
        'whole-foods',
        typeof query === 'string' ? query.trim() : null,
        METRO_FINDER_STORES,
        METRO_NEAREST_REACH_MILES,
        state,
      );
      return json(found.map(({ store }) => ({ storeId: Number(store.id), location: wholeFoodsAddress(store) })));
    }
    return null;
  },

  aldi(request, state) {
    if (request.path === '/v3/product-search') return blocked('aldi', request.query.get('servicePoint'));
    if (request.path !== '/v1/merchant-search') return null;
    const found = near('aldi', request.query.get('zip_code'), METRO_MERCHANTS, METRO_NEAREST_REACH_MILES, state);
    return json({
      data: found.map(({ store }) => ({
        id: store.id,
        address: { address1: store.street, city: store.city, zip: store.zip },
      })),
    });
  },
};

/** The hosts each retailer's requests go to (a request over HTTP names its real host in X-Forwarded-Host). */
const HOSTS: Record<StoreId, readonly string[]> = {
  walmart: ['www.walmart.com'],
  target: ['redsky.target.com', 'www.target.com'],
  kroger: ['api.kroger.com'],
  albertsons: ['www.albertsons.com'],
  'whole-foods': ['www.wholefoodsmarket.com'],
  aldi: ['api.aldi.us', 'www.aldi.us'],
};

/** The metro network's locators, one handler per retailer (null for every other path). */
export const METRO_LOCATORS: RetailerStandIn[] = (Object.keys(handlers) as StoreId[]).map((store) => ({
  store,
  handle: (request, state) =>
    request.host && !HOSTS[store].includes(request.host) ? null : handlers[store](request, state),
}));

/** The stand-in answering from the metro network: its locators first, the stand-in's handlers for the rest. */
export const METRO_STAND_INS: RetailerStandIn[] = [...METRO_LOCATORS, ...STAND_INS];

/** The metro network's stand-in over HTTP (tests of the real tasks). */
export function startMetroStandIn(options: StandInOptions = {}): Promise<StandInServer> {
  return serveStandIns(METRO_STAND_INS, options);
}
