// The metro network and its locators: each chain at its size, dense where the stand-in's is
// even (Denver, Albuquerque, the Wasatch Front), ids of other shapes, every store findable by its
// chain's locator, one closing store per chain gone from the locators once the switch is on, a few
// blocking stores whose listing calls meet a bot wall, and answers with the documented minimum
// fields only.
import { describe, expect, it } from 'vitest';
import { greatCircleMiles, zipFacts } from '#server/geo.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import { SCRAPERS } from '../../worker/scrapers/index.ts';
import type { RetailerLocation } from '../../worker/scrapers/types.ts';
import { createState } from './http-server.ts';
import { inProcessContext } from './in-process.ts';
import { METRO_LOCATORS, METRO_STAND_INS } from './metro-locators.ts';
import { METROS, METRO_CLOSING_STATE, METRO_NETWORK_SIZES, metroChain, metroStoresNear } from './metro-network.ts';
import type { StandInRequest } from './types.ts';

const request = (host: string, path: string, query: Record<string, string>, extra: Partial<StandInRequest> = {}) => ({
  method: 'GET',
  path,
  query: new URLSearchParams(query),
  headers: {},
  body: '',
  host,
  cookies: {},
  ...extra,
});

/** A locator's answer from the metro locators alone. */
function locate(store: StoreId, zip: string, closed = false): unknown {
  const state = createState();
  state.closing.closed = closed;
  const handler = METRO_LOCATORS.find((entry) => entry.store === store)!;
  const ask: Record<StoreId, StandInRequest> = {
    walmart: request('www.walmart.com', '/grocery/v4/api/serviceAvailability', { postalCode: zip }),
    target: request('redsky.target.com', '/redsky_aggregations/v1/web/nearby_stores_v1', {
      key: 'k',
      place: zip,
      limit: '20',
      within: '100',
    }),
    kroger: request(
      'api.kroger.com',
      '/v1/locations',
      { 'filter.zipCode.near': zip, 'filter.limit': '200', 'filter.radiusInMiles': '100' },
      { headers: { authorization: 'Bearer t' } },
    ),
    albertsons: request('www.albertsons.com', '/abs/pub/xapi/storeresolver/all', {
      zipcode: zip,
      radius: '100',
      size: '25',
    }),
    'whole-foods': request(
      'www.wholefoodsmarket.com',
      '/stores/search',
      {},
      { method: 'POST', body: `{"query":"${zip}"}` },
    ),
    aldi: request('api.aldi.us', '/v1/merchant-search', { zip_code: zip }),
  };
  return JSON.parse(handler.handle(ask[store], state)!.body);
}

const idsOf = (store: StoreId, body: unknown): string[] => {
  const b = body as Record<string, unknown>;
  switch (store) {
    case 'walmart':
      return (b.accessPointList as Array<{ assortmentStoreId: string }>).map((a) => a.assortmentStoreId);
    case 'target':
      return (b.data as { nearby_stores: { stores: Array<{ store_id: string }> } }).nearby_stores.stores.map(
        (s) => s.store_id,
      );
    case 'kroger':
      return (b.data as Array<{ locationId: string }>).map((s) => s.locationId);
    case 'albertsons':
      return (b.instore as { stores: Array<{ locationId: string }> }).stores.map((s) => s.locationId);
    case 'whole-foods':
      return (body as Array<{ storeId: number }>).map((s) => String(s.storeId));
    case 'aldi':
      return (b.data as Array<{ id: string }>).map((s) => s.id);
  }
};

describe('the metro network', () => {
  it('holds each chain at its size, dense in the metros of the West', () => {
    for (const store of STORE_IDS) {
      const { stores } = metroChain(store);
      expect(stores).toHaveLength(METRO_NETWORK_SIZES[store]);
      expect(new Set(stores.map((s) => s.id)).size).toBe(stores.length);
    }
    const denver = METROS.find((metro) => metro.name === 'Denver')!;
    const albertsonsInDenver = metroChain('albertsons').stores.filter(
      (s) => greatCircleMiles(denver, s) <= denver.radiusMiles + 1.5,
    );
    expect(albertsonsInDenver.length).toBeGreaterThanOrEqual(60);
    // Several stores of a chain to some ZIP codes there.
    const perZip = new Map<string, number>();
    for (const s of albertsonsInDenver) perZip.set(s.zip, (perZip.get(s.zip) ?? 0) + 1);
    expect(Math.max(...perZip.values())).toBeGreaterThan(1);
    // Each store stands within a mile and a half of its ZIP code's centre.
    for (const s of metroChain('target').stores)
      expect(greatCircleMiles(zipFacts(s.zip)!, s)).toBeLessThanOrEqual(1.51);
  });

  it('gives ids of other shapes than the stand-in network', () => {
    expect(metroChain('kroger').stores.every((s) => /^620\d{5}$/.test(s.id))).toBe(true);
    expect(metroChain('aldi').stores.every((s) => /^5\d\d-1\d\d$/.test(s.id))).toBe(true);
    expect(metroChain('whole-foods').stores.every((s) => /^10\d{3}$/.test(s.id))).toBe(true);
  });

  it('keeps every store of a nearest-only chain the nearest to its own ZIP code centre', () => {
    for (const s of metroChain('walmart').stores.filter((_, index) => index % 5 === 0))
      expect(metroStoresNear('walmart', zipFacts(s.zip)!, { limit: 1, withinMiles: 100 })[0]!.store).toBe(s);
  });

  it.each(STORE_IDS)('%s: its closing store is answered until the switch closes it', (store) => {
    const closing = metroChain(store).stores.find((s) => s.closing)!;
    expect(closing.state).toBe(METRO_CLOSING_STATE[store]);
    expect(idsOf(store, locate(store, closing.zip))).toContain(closing.id);
    expect(idsOf(store, locate(store, closing.zip, true))).not.toContain(closing.id);
  });

  it('answers the documented minimum fields only', () => {
    const denver = '80205';
    const albertsons = locate('albertsons', denver) as { instore: { count: number; stores: object[] } };
    // size and radius are held to what the site sends (10 within 50 miles), whatever is asked.
    expect(albertsons.instore.stores).toHaveLength(10);
    expect(albertsons.instore.stores.every((s) => JSON.stringify(Object.keys(s)) === '["locationId","address"]')).toBe(
      true,
    );
    expect(Object.keys((albertsons.instore.stores[0] as { address: object }).address)).toEqual(['line1', 'city']);
    const wholeFoods = locate('whole-foods', denver) as Array<{ location: { address: object } }>;
    expect(Object.keys(wholeFoods[0]!.location.address)).toEqual(['line1', 'city', 'state']);
    const walmart = locate('walmart', denver) as { accessPointList: object[] };
    expect(walmart.accessPointList[0]).toEqual({
      assortmentStoreId: expect.any(String),
      address: { postalCode: expect.any(String) },
    });
  });
});

describe('listing calls of metro stores that block', () => {
  it.each(STORE_IDS)("%s: a blocking store's listing call meets the retailer's bot wall", async (store) => {
    const blocking = metroChain(store).stores.find((s) => s.blocks)!;
    const location: RetailerLocation = {
      retailerLocationId: blocking.id,
      name: null,
      zip: blocking.zip,
      city: blocking.city,
      state: blocking.state,
      address: null,
      latitude: null,
      longitude: null,
    };
    const ctx = inProcessContext(store, METRO_STAND_INS);
    const listed = async () => {
      for await (const page of SCRAPERS[store].listings(location, blocking.zip, ctx)) void page;
    };
    await expect(listed()).rejects.toMatchObject({ kind: 'blocked' });
  });
});
