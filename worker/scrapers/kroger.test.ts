import { TRANSPORTS, type TransportName } from '#shared/egress.ts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RetailerCredentials } from '#shared/scrape.ts';
import { createState, type StandInServer } from '../../test/retailers/http-server.ts';
import {
  KROGER_CATALOGUE,
  krogerLocationIdForZip,
  krogerPromoPrice,
  krogerRegularPrice,
  krogerStandIn,
  krogerStandInToken,
  type KrogerStandInItem,
} from '../../test/retailers/kroger.ts';
import { SCENARIO_ZIPS } from '../../test/retailers/scenarios.ts';
import { json, type RetailerStandIn, type StandInRequest } from '../../test/retailers/types.ts';
import { kroger, krogerPrices, parseKrogerLocations, parseKrogerProducts, parseKrogerToken } from './kroger.ts';
import { acceptListing } from './pipeline.ts';
import { ConfigError, StructureError, type RetailerLocation, type ScrapeContext } from './types.ts';
import {
  listingPages,
  scrapeFailure as failure,
  standInContext,
  standInServers,
} from '../../test/retailers/scraping.ts';

/** The transport of the stand-in suites (each runs with both). */
let standInTransport: TransportName = 'got-scraping';

const ZIP = '10001';
const LOCATION = krogerLocationIdForZip(ZIP);
const CREDENTIALS: RetailerCredentials = { krogerClientId: 'eggwatch-test-client', krogerClientSecret: 's3cret' };
const CONFIG_MESSAGE = 'Kroger needs KROGER_CLIENT_ID and KROGER_CLIENT_SECRET (a client of the Kroger developer API)';

function request(
  method: string,
  path: string,
  query: Record<string, string>,
  headers: Record<string, string> = {},
  body = '',
): StandInRequest {
  return { method, path, query: new URLSearchParams(query), headers, body, host: 'api.kroger.com', cookies: {} };
}

const bearer = () => ({ authorization: `Bearer ${krogerStandInToken('eggwatch-test-client')}` });
function standIn(req: StandInRequest) {
  const response = krogerStandIn.handle(req, createState());
  if (!response) throw new Error(`no stand-in answer for ${req.path}`);
  return response;
}
const productsBody = (start: number, locationId: string | null = LOCATION) =>
  standIn(
    request(
      'GET',
      '/v1/products',
      {
        'filter.term': 'eggs',
        ...(locationId ? { 'filter.locationId': locationId } : {}),
        'filter.limit': '50',
        'filter.start': String(start),
      },
      bearer(),
    ),
  ).body;
const item = (key: string): KrogerStandInItem => KROGER_CATALOGUE.find((i) => i.key === key)!;

/** detail: the exact text, or a pattern where the wording is http.ts's (parseJsonBody on a non-JSON body). */
function expectStructureError(fn: () => unknown, detail: string | RegExp) {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StructureError);
  if (typeof detail === 'string') expect((caught as Error).message).toBe(`page structure not recognised (${detail})`);
  else expect((caught as Error).message).toMatch(detail);
}
const notJson = (what: string, got: 'an HTML page' | 'unreadable text') =>
  new RegExp(`^page structure not recognised \\(.*${what}.*got ${got}\\)$`);

describe('kroger.checkConfig', () => {
  it('needs both the client id and the secret', () => {
    for (const credentials of [
      {},
      { krogerClientId: 'id' },
      { krogerClientSecret: 'secret' },
      { krogerClientId: ' ', krogerClientSecret: 'secret' },
    ]) {
      expect(() => kroger.checkConfig!(credentials)).toThrowError(new ConfigError(CONFIG_MESSAGE));
    }
    expect(() => kroger.checkConfig!(CREDENTIALS)).not.toThrow();
  });
});

describe('parseKrogerToken', () => {
  it('reads the token and its lifetime', () => {
    const body = standIn(
      request(
        'POST',
        '/v1/connect/oauth2/token',
        {},
        { authorization: `Basic ${Buffer.from('id:secret').toString('base64')}` },
        'grant_type=client_credentials&scope=product.compact',
      ),
    ).body;
    const token = parseKrogerToken(body);
    expect(token.expiresIn).toBe(1800);
    expect(token.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(parseKrogerToken('{"access_token":"abc","expires_in":"600","token_type":"bearer"}')).toEqual({
      accessToken: 'abc',
      expiresIn: 600,
    });
    expect(parseKrogerToken('{"access_token":"abc"}')).toEqual({ accessToken: 'abc', expiresIn: 1800 });
  });

  it('rejects a body without a token', () => {
    expectStructureError(
      () => parseKrogerToken('{"error":"invalid_client"}'),
      'Kroger token: access_token invalid input: expected string, received undefined',
    );
    expectStructureError(() => parseKrogerToken('<html>Error</html>'), notJson('Kroger token', 'an HTML page'));
  });
});

describe('parseKrogerLocations', () => {
  it('reads the nearest location of the stand-in body', () => {
    const body = standIn(
      request(
        'GET',
        '/v1/locations',
        { 'filter.zipCode.near': ZIP, 'filter.radiusInMiles': '50', 'filter.limit': '5' },
        bearer(),
      ),
    ).body;
    expect(parseKrogerLocations(body)).toEqual({
      retailerLocationId: LOCATION,
      name: 'Kroger - New York',
      zip: ZIP,
      city: 'New York',
      state: 'NY',
      address: expect.stringMatching(/^\d+ Vine St$/),
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    });
  });

  it('reads the documented fields and tolerates missing ones', () => {
    const body = JSON.stringify({
      data: [
        {
          locationId: '01400943',
          chain: 'KROGER',
          name: 'Kroger - Hyde Park',
          address: { addressLine1: '3760 Paxton Ave', city: 'Cincinnati', state: 'OH', zipCode: '45209' },
          geolocation: { latitude: 39.1434, longitude: -84.4343 },
        },
        { locationId: '01400376' },
      ],
      meta: { pagination: { start: 0, limit: 5, total: 2 } },
    });
    expect(parseKrogerLocations(body)).toEqual({
      retailerLocationId: '01400943',
      name: 'Kroger - Hyde Park',
      zip: '45209',
      city: 'Cincinnati',
      state: 'OH',
      address: '3760 Paxton Ave',
      latitude: 39.1434,
      longitude: -84.4343,
    });
    expect(parseKrogerLocations('{"data":[{"locationId":"70100123"}]}')).toEqual({
      retailerLocationId: '70100123',
      name: null,
      zip: null,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    });
  });

  it('prefers the first KROGER-chain location, else the first of the family banners', () => {
    const body = (...chains: (string | null)[]) =>
      JSON.stringify({
        data: chains.map((chain, i) => ({ locationId: `7010012${i}`, ...(chain === null ? {} : { chain }) })),
      });
    expect(parseKrogerLocations(body('RALPHS', 'FRED', 'KROGER', 'KROGER'))?.retailerLocationId).toBe('70100122');
    expect(parseKrogerLocations(body('KINGSOOPERS', 'Kroger'))?.retailerLocationId).toBe('70100121');
    expect(parseKrogerLocations(body(null, ' kroger '))?.retailerLocationId).toBe('70100121');
    expect(parseKrogerLocations(body('RALPHS', 'FRED', null))?.retailerLocationId).toBe('70100120');
  });

  it('answers null when there is no location', () => {
    expect(parseKrogerLocations('{"data":[],"meta":{"pagination":{"start":0,"limit":5,"total":0}}}')).toBeNull();
  });

  it('rejects other structures', () => {
    expectStructureError(
      () => parseKrogerLocations('{"locations":[]}'),
      'Kroger locations: data invalid input: expected array, received undefined',
    );
    expectStructureError(
      () => parseKrogerLocations('{"data":[{"name":"Kroger"}]}'),
      'Kroger locations: data.0.locationId invalid input',
    );
    expectStructureError(
      () => parseKrogerLocations('<!DOCTYPE html><html></html>'),
      notJson('Kroger locations', 'an HTML page'),
    );
  });
});

describe('parseKrogerProducts on the stand-in pages', () => {
  it('reads page 1 with the total', () => {
    const page = parseKrogerProducts(productsBody(0));
    expect(page.total).toBe(54);
    expect(page.nonProductTiles).toBe(0);
    expect(page.listings.map((l) => l.retailerProductId)).toEqual(
      KROGER_CATALOGUE.slice(0, 50).map((i) => i.productId),
    );
    const regular = krogerRegularPrice(item('kroger-white-12'), ZIP);
    expect(page.listings[0]).toEqual({
      retailerProductId: '0001111060903',
      title: 'Kroger® Grade A Large White Eggs',
      brand: 'Kroger',
      price: regular,
      regularPrice: regular,
      sizeText: '12 ct',
      category: 'Dairy',
      url: 'https://www.kroger.com/p/0001111060903',
      inStock: true,
    });
  });

  it('reads promotions, an item without a price, stock levels, sizes and both fulfillment casings', () => {
    const listings = [
      ...parseKrogerProducts(productsBody(0)).listings,
      ...parseKrogerProducts(productsBody(50)).listings,
    ];
    const byKey = (key: string) => listings.find((l) => l.retailerProductId === item(key).productId)!;
    for (const key of ['kroger-cf-brown-12', 'vital-farms-12']) {
      const regular = krogerRegularPrice(item(key), ZIP);
      expect(byKey(key)).toMatchObject({ price: krogerPromoPrice(regular), regularPrice: regular });
      expect(byKey(key).price!).toBeLessThan(regular);
    }
    expect(byKey('vital-farms-organic-xl')).toMatchObject({
      title: 'Vital Farms Organic Pasture-Raised Extra Large Eggs',
      price: null,
      regularPrice: null,
      sizeText: '12 ct',
      inStock: true,
    });
    expect(byKey('st-organic-12')).toMatchObject({
      title: 'Simple Truth Organic® Grade A Large Brown Eggs',
      brand: 'Simple Truth Organic',
      inStock: false,
    });
    expect(byKey('egglands-classic-12')).toMatchObject({ inStock: true, brand: "Eggland's Best" });
    // No inventory.stockLevel: the stock is unknown, though the item is sold in store.
    expect(byKey('pete-gerrys-organic-12')).toMatchObject({
      title: "Pete & Gerry's Organic Free-Range Eggs Large",
      inStock: null,
    });
    expect(byKey('pete-gerrys-organic-12').notOnShelf).toBeUndefined();
    expect(byKey('egglands-free-range-12')).toMatchObject({ sizeText: '12 ct.', inStock: true });
    expect(byKey('happy-egg-18')).toEqual({
      retailerProductId: '0081906700018',
      title: 'Happy Egg Co. Free Range Large Brown Eggs',
      brand: null,
      price: krogerRegularPrice(item('happy-egg-18'), ZIP),
      regularPrice: krogerRegularPrice(item('happy-egg-18'), ZIP),
      sizeText: '18 ct',
      category: null,
      url: 'https://www.kroger.com/p/0081906700018',
      inStock: null,
    });
    const eggplant = listings.find((l) => l.title === 'Eggplant')!;
    expect(eggplant).toMatchObject({ brand: null, category: 'Produce', sizeText: '1 ct', price: 1.49 });
    expect(listings.find((l) => l.title === 'Dash Rapid Egg Cooker')).toMatchObject({
      price: 19.99,
      notOnShelf: 'online-only',
    });
    expect(listings.filter((l) => l.notOnShelf !== undefined)).toHaveLength(1);
  });

  it('reads the last page', () => {
    const page = parseKrogerProducts(productsBody(50));
    expect(page.listings.map((l) => l.retailerProductId)).toEqual(KROGER_CATALOGUE.slice(50).map((i) => i.productId));
    expect(page.listings).toHaveLength(4);
  });

  it('fails on a page without a single price (no location applied), as the API documents', () => {
    const body = productsBody(0, null);
    expect(JSON.parse(body).data).toHaveLength(50);
    expectStructureError(() => parseKrogerProducts(body), 'Kroger products: no prices: the store was not applied');
  });

  it('rejects the stand-in body of the "changed" scenario', () => {
    expectStructureError(
      () => parseKrogerProducts(productsBody(0, krogerLocationIdForZip(SCENARIO_ZIPS.changed))),
      'Kroger products: data invalid input: expected array, received undefined',
    );
  });
});

describe('parseKrogerProducts on documented variants', () => {
  const product = (overrides: Record<string, unknown> = {}, itemOverrides: Record<string, unknown> = {}) => ({
    productId: '0001111086798',
    upc: '0001111086798',
    brand: 'Kroger',
    description: 'Kroger® Grade A Large White Eggs',
    categories: ['Dairy'],
    items: [
      {
        itemId: '0001111086798',
        favorite: false,
        fulfillment: { curbside: true, delivery: true, inStore: true, shipToHome: false },
        price: { regular: 4.69, promo: 0 },
        nationalPrice: { regular: 4.69, promo: 0 },
        size: '12 ct',
        soldBy: 'UNIT',
        ...itemOverrides,
      },
    ],
    ...overrides,
  });
  /** The first product read, on a page whose second product is priced (a page without a single price fails). */
  const one = (p: unknown) =>
    parseKrogerProducts(
      JSON.stringify({
        data: [p, product({ productId: '0001111086799' })],
        meta: { pagination: { start: 0, limit: 10, total: 469 } },
      }),
    ).listings[0]!;

  it('reads the captured item shape (promo 0 = no promotion, no inventory: stock unknown)', () => {
    expect(one(product())).toEqual({
      retailerProductId: '0001111086798',
      title: 'Kroger® Grade A Large White Eggs',
      brand: 'Kroger',
      price: 4.69,
      regularPrice: 4.69,
      sizeText: '12 ct',
      category: 'Dairy',
      url: 'https://www.kroger.com/p/0001111086798',
      inStock: null,
    });
  });

  it('takes a promo above 0 and below the regular price as the shelf price', () => {
    expect(krogerPrices({ regular: 4.69, promo: 3.99 })).toEqual({ price: 3.99, regularPrice: 4.69 });
    expect(krogerPrices({ regular: 4.69, promo: 0 })).toEqual({ price: 4.69, regularPrice: 4.69 });
    expect(krogerPrices({ regular: 4.69, promo: 4.69 })).toEqual({ price: 4.69, regularPrice: 4.69 });
    expect(krogerPrices({ regular: 4.69, promo: 5.29 })).toEqual({ price: 4.69, regularPrice: 4.69 });
    expect(krogerPrices({ regular: 0, promo: 2.5 })).toEqual({ price: 2.5, regularPrice: null });
    expect(krogerPrices({ regularPerUnitEstimate: 0.39 } as never)).toEqual({ price: null, regularPrice: null });
    expect(krogerPrices(undefined)).toEqual({ price: null, regularPrice: null });
  });

  it('reads stock from inventory.stockLevel only, unknown without it', () => {
    expect(one(product({}, { inventory: { stockLevel: 'TEMPORARILY_OUT_OF_STOCK' } })).inStock).toBe(false);
    expect(one(product({}, { inventory: { stockLevel: 'LOW' } })).inStock).toBe(true);
    expect(one(product({}, { inventory: { stockLevel: 'HIGH' } })).inStock).toBe(true);
    expect(one(product({}, { inventory: { stockLevel: 'SOMETHING_NEW' } })).inStock).toBeNull();
    expect(one(product({}, { fulfillment: { instore: true } })).inStock).toBeNull();
    expect(one(product({}, { fulfillment: undefined })).inStock).toBeNull();
    expect(one(product({}, { inventory: {}, fulfillment: {} })).inStock).toBeNull();
  });

  it('marks an item the location does not sell in store (inStore false, either casing) as not on its shelf', () => {
    const notOnShelf = (fulfillment: unknown, inventory?: unknown) =>
      one(product({}, { fulfillment, ...(inventory ? { inventory } : {}) })).notOnShelf ?? null;
    expect(notOnShelf({ curbside: false, delivery: false, inStore: false, shipToHome: true })).toBe('online-only');
    expect(notOnShelf({ instore: false, shiptohome: false })).toBe('online-only');
    expect(notOnShelf({ inStore: false }, { stockLevel: 'LOW' })).toBe('online-only');
    expect(notOnShelf({ curbside: false, delivery: false, inStore: true, shipToHome: false })).toBeNull();
    expect(notOnShelf({ curbside: true })).toBeNull();
    expect(notOnShelf(undefined)).toBeNull();
  });

  it('keeps a size that ends with a period as given (the classifier reads "12 ct." as 12)', () => {
    const listing = one(product({}, { size: '12 ct.' }));
    expect(listing.sizeText).toBe('12 ct.');
    expect(acceptListing(listing)).toMatchObject({ kind: 'accepted', listing: { count: 12, price: 4.69 } });
  });

  it('accepts a product without items, brand or categories', () => {
    expect(one(product({ items: undefined, brand: undefined, categories: [] }))).toEqual({
      retailerProductId: '0001111086798',
      title: 'Kroger® Grade A Large White Eggs',
      brand: null,
      price: null,
      regularPrice: null,
      sizeText: null,
      category: null,
      url: 'https://www.kroger.com/p/0001111086798',
      inStock: null,
    });
    expect(one(product({ description: 'Simple Truth&reg; Organic  Eggs' })).title).toBe('Simple Truth® Organic Eggs');
  });

  it('fails when no product carries a price field, reads a page where only some do', () => {
    const unpriced = [
      product({}, { price: undefined }),
      product({ productId: '0001111086799', items: undefined }),
      product({ productId: '0001111086800' }, { price: { regular: null } }),
    ];
    expectStructureError(
      () => parseKrogerProducts(JSON.stringify({ data: unpriced })),
      'Kroger products: no prices: the store was not applied',
    );
    const page = parseKrogerProducts(
      JSON.stringify({
        data: [...unpriced, product({ productId: '0001111086801' }, { price: { regular: 0, promo: 0 } })],
      }),
    );
    expect(page.listings.map((l) => l.price)).toEqual([null, null, null, null]);
    expect(
      parseKrogerProducts(
        JSON.stringify({
          data: [
            product({}, { price: { regular: 4.69 } }),
            product({ productId: '0001111086799' }, { price: undefined }),
          ],
        }),
      ).listings.map((l) => l.price),
    ).toEqual([4.69, null]);
  });

  it('reads the total when present', () => {
    expect(parseKrogerProducts('{"data":[]}')).toEqual({ listings: [], nonProductTiles: 0, total: null });
    expect(parseKrogerProducts('{"data":[],"meta":{"pagination":{"start":0,"limit":50,"total":0}}}').total).toBe(0);
  });

  it('rejects other structures', () => {
    expectStructureError(
      () => parseKrogerProducts('{"products":[]}'),
      'Kroger products: data invalid input: expected array, received undefined',
    );
    expectStructureError(
      () => parseKrogerProducts(JSON.stringify({ data: [product({ description: undefined })] })),
      'Kroger products: data.0.description invalid input: expected string, received undefined',
    );
    expectStructureError(
      () => parseKrogerProducts(JSON.stringify({ data: [product({ productId: undefined })] })),
      'Kroger products: data.0.productId invalid input',
    );
    expectStructureError(
      () => parseKrogerProducts('{"data":[{"productId":"1","descr'),
      notJson('Kroger products', 'unreadable text'),
    );
    expectStructureError(
      () => parseKrogerProducts('<html><title>Error</title></html>'),
      notJson('Kroger products', 'an HTML page'),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Against the stand-in server

const serve = standInServers();

const contextFor = (server: StandInServer, credentials: RetailerCredentials = CREDENTIALS, maxPages = 10) =>
  standInContext(kroger, server.url, { transport: standInTransport, credentials, maxPages });

const collect = (location: RetailerLocation, zip: string, ctx: ScrapeContext) =>
  listingPages(kroger, location, zip, ctx);

const calls = (server: StandInServer) =>
  server.requests.map((r) => `${r.status} ${r.method} ${r.host} ${r.path}${r.query}`);

let server: StandInServer;
beforeAll(async () => {
  server = await serve([krogerStandIn]);
});
beforeEach(() => server.reset());

// Through both transports: the HTTP-level behaviour must not depend on the client.
describe.each(TRANSPORTS)('kroger against the stand-in (%s)', (transport) => {
  beforeAll(() => {
    standInTransport = transport;
  });

  it('gets a token, locates the store and reads every page', async () => {
    const ctx = contextFor(server);
    const location = await kroger.locate(ZIP, ctx);
    expect(location).toMatchObject({
      retailerLocationId: LOCATION,
      name: 'Kroger - New York',
      zip: ZIP,
      city: 'New York',
      state: 'NY',
    });
    const pages = await collect(location!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([50, 4]);
    const listings = pages.flatMap((p) => p.listings);
    expect(listings.map((l) => l.retailerProductId)).toEqual(KROGER_CATALOGUE.map((i) => i.productId));
    for (const entry of KROGER_CATALOGUE) {
      const listing = listings.find((l) => l.retailerProductId === entry.productId)!;
      expect(listing.title).toBe(entry.description);
      expect(listing.sizeText).toBe(entry.size);
      expect(listing.url).toBe(`https://www.kroger.com/p/${entry.productId}`);
      if (entry.variant === 'noPrice') {
        expect(listing.price).toBeNull();
        continue;
      }
      const regular = krogerRegularPrice(entry, ZIP);
      expect(listing.regularPrice).toBe(regular);
      expect(listing.price).toBe(entry.variant === 'promo' ? krogerPromoPrice(regular) : regular);
      expect(listing.inStock).toBe(entry.stockLevel === null ? null : entry.stockLevel !== 'TEMPORARILY_OUT_OF_STOCK');
      expect(listing.notOnShelf).toBe(entry.shipOnly ? 'online-only' : undefined);
    }
    expect(calls(server)).toEqual([
      '200 POST api.kroger.com /v1/connect/oauth2/token',
      `200 GET api.kroger.com /v1/locations?filter.zipCode.near=${ZIP}&filter.radiusInMiles=50&filter.limit=5`,
      `200 GET api.kroger.com /v1/products?filter.term=eggs&filter.locationId=${LOCATION}&filter.limit=50&filter.start=0`,
      `200 GET api.kroger.com /v1/products?filter.term=eggs&filter.locationId=${LOCATION}&filter.limit=50&filter.start=50`,
    ]);

    // The token is kept for the run: the next ZIP asks for none.
    await kroger.locate('60611', ctx);
    expect(server.requests.filter((r) => r.path === '/v1/connect/oauth2/token')).toHaveLength(1);
  });

  it('fails before any request without credentials', async () => {
    const error = await failure(kroger.locate(ZIP, contextFor(server, {})));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(CONFIG_MESSAGE);
    expect(server.requests).toEqual([]);
  });

  it('turns refused client credentials into a ConfigError', async () => {
    const refusing: RetailerStandIn = {
      store: 'kroger',
      handle: (req, state) =>
        req.path === '/v1/connect/oauth2/token'
          ? json({ error: 'invalid_client' }, 401)
          : krogerStandIn.handle(req, state),
    };
    const local = await serve([refusing]);
    const error = await failure(kroger.locate(ZIP, contextFor(local)));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      'Kroger refused the client credentials; check KROGER_CLIENT_ID and KROGER_CLIENT_SECRET',
    );
  });

  it('renews a token the API refuses, once', async () => {
    let refusals = 1;
    const revoking: RetailerStandIn = {
      store: 'kroger',
      handle(req, state) {
        if (req.path === '/v1/locations' && refusals > 0) {
          refusals--;
          return json({ errors: { code: 'Authentication-0001', reason: 'Invalid or expired access token' } }, 401);
        }
        return krogerStandIn.handle(req, state);
      },
    };
    const local = await serve([revoking]);
    expect((await kroger.locate(ZIP, contextFor(local)))?.retailerLocationId).toBe(LOCATION);
    expect(local.requests.map((r) => `${r.status} ${r.path}`)).toEqual([
      '200 /v1/connect/oauth2/token',
      '401 /v1/locations',
      '200 /v1/connect/oauth2/token',
      '200 /v1/locations',
    ]);

    refusals = 2;
    local.reset();
    const error = await failure(kroger.locate(ZIP, contextFor(local)));
    expect(error.message).toBe('Kroger refused the credentials (HTTP 401)');
  });

  it('stops when a page is short and no total is given, and at ctx.maxPages', async () => {
    const ctx = contextFor(server, CREDENTIALS, 1);
    const pages = await collect((await kroger.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([50]);

    const noTotal: RetailerStandIn = {
      store: 'kroger',
      handle(req, state) {
        const response = krogerStandIn.handle(req, state);
        return response && req.path === '/v1/products'
          ? { ...response, body: response.body.replace(/,"meta":\{.*\}\}$/, '}') }
          : response;
      },
    };
    const local = await serve([noTotal]);
    const ctx2 = contextFor(local);
    const pages2 = await collect((await kroger.locate(ZIP, ctx2))!, ZIP, ctx2);
    expect(pages2.map((p) => p.listings.length)).toEqual([50, 4]);
    expect(local.requests.filter((r) => r.path === '/v1/products')).toHaveLength(2);
  });

  it('fails a ZIP whose products come back without a single price (the location was not applied)', async () => {
    const ctx = contextFor(server);
    const location = (await kroger.locate(ZIP, ctx))!;
    for (const retailerLocationId of ['ZZ999999', null]) {
      const error = await failure(collect({ ...location, retailerLocationId }, ZIP, ctx));
      expect(error).toBeInstanceOf(StructureError);
      expect(error.message).toBe(
        'page structure not recognised (Kroger products: no prices: the store was not applied)',
      );
    }
  });
});

describe('the Kroger stand-in', () => {
  it('answers 401 without a valid bearer token and 400 without a starting point', () => {
    expect(standIn(request('GET', '/v1/products', { 'filter.term': 'eggs' })).status).toBe(401);
    expect(
      standIn(request('GET', '/v1/products', { 'filter.term': 'eggs' }, { authorization: 'Bearer abc.def.ghi' }))
        .status,
    ).toBe(401);
    expect(standIn(request('GET', '/v1/locations', { 'filter.limit': '5' }, bearer())).status).toBe(400);
    expect(
      standIn(
        request(
          'POST',
          '/v1/connect/oauth2/token',
          {},
          { authorization: `Basic ${Buffer.from('id:').toString('base64')}` },
          'grant_type=client_credentials',
        ),
      ).status,
    ).toBe(401);
  });
});
