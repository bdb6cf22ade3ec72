// The stand-in store network: its sizes, banners, the rules every locator relies on, and the
// locators' limits as each stand-in answers them.
import { describe, expect, it } from 'vitest';
import { greatCircleMiles, zipFacts } from '#server/geo.ts';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { createState } from './http-server.ts';
import {
  CLOSING_STATE,
  KROGER_BANNERS,
  NETWORK_SIZES,
  NO_STORE_MILES,
  PINNED_ZIPS,
  chainNetwork,
  storesNear,
} from './network.ts';
import { SCENARIO_ZIPS } from './scenarios.ts';
import { STAND_INS } from './server.ts';
import type { StandInRequest } from './types.ts';
import { krogerStandInToken } from './kroger.ts';
import { TARGET_STAND_IN_KEY } from './target.ts';
import { ALBERTSONS_STAND_IN_KEY } from './albertsons.ts';

const request = (
  host: string,
  path: string,
  query: Record<string, string>,
  headers: Record<string, string> = {},
  method = 'GET',
  body = '',
): StandInRequest => ({
  method,
  path,
  query: new URLSearchParams(query),
  headers,
  body,
  host,
  cookies: {},
});

function answer(req: StandInRequest, state = createState()): unknown {
  for (const handler of STAND_INS) {
    const response = handler.handle(req, state);
    if (response) return JSON.parse(response.body);
  }
  throw new Error('no handler');
}

describe('the stand-in store network', () => {
  it('holds each chain near its real size, in every state for Walmart, deterministically', () => {
    for (const chain of STORE_IDS) {
      const { stores } = chainNetwork(chain);
      expect(stores.length).toBe(NETWORK_SIZES[chain]);
      expect(new Set(stores.map((store) => store.id)).size).toBe(stores.length);
    }
    expect(new Set(chainNetwork('walmart').stores.map((store) => store.state)).size).toBe(51);
    // The same stores every time: the first few ids are fixed.
    expect(
      chainNetwork('target')
        .stores.slice(0, 3)
        .map((store) => store.zip),
    ).toEqual(PINNED_ZIPS.slice(0, 3));
  });

  it('puts Kroger and Albertsons stores under banners of the states they serve', () => {
    const kroger = chainNetwork('kroger').stores.filter((store) => !store.pinned);
    for (const store of kroger) expect(store.banner?.states).toContain(store.state);
    expect(new Set(kroger.map((store) => store.banner?.code)).size).toBe(KROGER_BANNERS.length);
    expect(new Set(chainNetwork('albertsons').stores.map((store) => store.banner?.name))).toContain('Safeway');
  });

  it('makes every store the nearest of its chain to its own ZIP code (pinned ZIP codes answer their own store)', () => {
    for (const chain of STORE_IDS) {
      for (const store of chainNetwork(chain).stores.filter((_, index) => index % 7 === 0)) {
        expect(storesNear(chain, store.zip, { limit: 1, withinMiles: 100 })![0]!.store).toBe(store);
      }
    }
  });

  it('leaves no store near the no-store scenario ZIP, and blocks at the blocked one', () => {
    const noStore = zipFacts(SCENARIO_ZIPS.noStore)!;
    for (const chain of STORE_IDS) {
      for (const store of chainNetwork(chain).stores)
        expect(greatCircleMiles(noStore, store)).toBeGreaterThan(NO_STORE_MILES);
      expect(chainNetwork(chain).byZip.get(SCENARIO_ZIPS.blocked)?.blocks).toBe(true);
      expect(chainNetwork(chain).stores.filter((store) => store.blocks).length).toBeGreaterThan(0);
    }
  });

  it('closes one store per chain when the switch is on', () => {
    const state = createState();
    for (const chain of STORE_IDS) {
      const closing = chainNetwork(chain).stores.find((store) => store.closing)!;
      expect(closing.state).toBe(CLOSING_STATE[chain]);
      expect(storesNear(chain, closing.zip, { limit: 1, withinMiles: 100, state })![0]!.store).toBe(closing);
      state.closing.closed = true;
      expect(storesNear(chain, closing.zip, { limit: 1, withinMiles: 100, state })![0]!.store).not.toBe(closing);
      state.closing.closed = false;
    }
  });
});

describe("each locator's limits", () => {
  it('Kroger /v1/locations: up to 200 within 100 miles, filter.chain picks a banner', () => {
    const auth = { authorization: `Bearer ${krogerStandInToken('test')}` };
    const wide = answer(
      request(
        'api.kroger.com',
        '/v1/locations',
        { 'filter.zipCode.near': '45209', 'filter.radiusInMiles': '100', 'filter.limit': '200' },
        auth,
      ),
    ) as { data: Array<{ chain: string; geolocation: { latitude: number; longitude: number } }> };
    expect(wide.data.length).toBeGreaterThan(20);
    expect(wide.data.length).toBeLessThanOrEqual(200);
    const centre = zipFacts('45209')!;
    for (const store of wide.data) expect(greatCircleMiles(centre, store.geolocation)).toBeLessThanOrEqual(100);
    const banner = answer(
      request(
        'api.kroger.com',
        '/v1/locations',
        {
          'filter.zipCode.near': '84101',
          'filter.radiusInMiles': '100',
          'filter.limit': '200',
          'filter.chain': 'SMITHS',
        },
        auth,
      ),
    ) as { data: Array<{ chain: string }> };
    expect(banner.data.length).toBeGreaterThan(0);
    expect(new Set(banner.data.map((store) => store.chain))).toEqual(new Set(['SMITHS']));
  });

  it('Target nearby_stores_v1: at most 20 within `within`; Walmart and ALDI: the nearest only', () => {
    const target = answer(
      request('redsky.target.com', '/redsky_aggregations/v1/web/nearby_stores_v1', {
        key: TARGET_STAND_IN_KEY,
        place: '10001',
        limit: '50',
        within: '100',
      }),
    ) as { data: { nearby_stores: { stores: Array<{ distance: number }> } } };
    expect(target.data.nearby_stores.stores).toHaveLength(20);
    const walmart = answer(
      request('www.walmart.com', '/grocery/v4/api/serviceAvailability', { postalCode: '10001' }),
    ) as { accessPointList: unknown[] };
    expect(walmart.accessPointList).toHaveLength(1);
    const aldi = answer(request('api.aldi.us', '/v1/merchant-search', { currency: 'USD', zip_code: '10001' })) as {
      data: unknown[];
    };
    expect(aldi.data).toHaveLength(1);
  });

  it('Albertsons storeresolver: `size` within `radius`, of a banner when asked', () => {
    const headers = { 'ocp-apim-subscription-key': ALBERTSONS_STAND_IN_KEY };
    const all = answer(
      request(
        'www.albertsons.com',
        '/abs/pub/xapi/storeresolver/all',
        { zipcode: '94105', radius: '100', size: '10' },
        headers,
      ),
    ) as { instore: { stores: Array<{ distance: number; domainName: string }> } };
    expect(all.instore.stores).toHaveLength(10);
    const safeway = answer(
      request(
        'www.albertsons.com',
        '/abs/pub/xapi/storeresolver/all',
        { zipcode: '94105', radius: '100', size: '10', banner: 'safeway' },
        headers,
      ),
    ) as { instore: { stores: Array<{ domainName: string }> } };
    expect(new Set(safeway.instore.stores.map((store) => store.domainName))).toEqual(new Set(['Safeway']));
  });
});

describe('listing calls for network stores', () => {
  const contextFor = async (chain: (typeof STORE_IDS)[number]) => {
    const { inProcessStandIn } = await import('./in-process.ts');
    const { RetailerHttp } = await import('../../worker/scrapers/http.ts');
    const { SCRAPERS } = await import('../../worker/scrapers/index.ts');
    const scraper = SCRAPERS[chain];
    const http = new RetailerHttp(scraper.storeName, scraper.origins, {
      delayMs: 0,
      retries: 0,
      transport: inProcessStandIn().transport,
    });
    return {
      scraper,
      ctx: { http, maxPages: 1, term: 'eggs', credentials: { krogerClientId: 'id', krogerClientSecret: 'secret' } },
    };
  };

  it.each(STORE_IDS)(
    "%s: a store found by discovery answers its own prices, and a blocking one the retailer's bot wall",
    async (chain) => {
      const { scraper, ctx } = await contextFor(chain);
      const { stores } = chainNetwork(chain);
      const open = stores.find((store) => !store.pinned && !store.blocks)!;
      const blocking = stores.find((store) => store.blocks && !store.pinned) ?? stores.find((store) => store.blocks)!;
      const location = (store: typeof open) => ({
        retailerLocationId: store.id,
        name: null,
        zip: store.zip,
        city: store.city,
        state: store.state,
        address: null,
        latitude: null,
        longitude: null,
      });
      const pages = [];
      for await (const page of scraper.listings(location(open), open.zip, ctx)) pages.push(page);
      expect(pages[0]!.listings.filter((listing) => listing.price !== null).length).toBeGreaterThan(3);
      const blocked = async () => {
        for await (const page of scraper.listings(location(blocking), blocking.zip, ctx)) void page;
      };
      await expect(blocked()).rejects.toMatchObject({ kind: 'blocked' });
    },
  );
});
