import { TRANSPORTS, type TransportName } from '#shared/egress.ts';
import { zipFacts } from '#server/geo.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RetailerCredentials } from '#shared/scrape.ts';
import {
  ALBERTSONS_APP_FAILURE,
  ALBERTSONS_CATALOGUE,
  ALBERTSONS_STAND_IN_KEY,
  albertsonsPromoPrice,
  albertsonsRegularPrice,
  albertsonsStandIn,
  albertsonsStoreIdOf,
  zipOfAlbertsonsStore,
} from '../../test/retailers/albertsons.ts';
import { createState, serveStandIns, type StandInServer } from '../../test/retailers/http-server.ts';
import { SCENARIO_ZIPS } from '../../test/retailers/scenarios.ts';
import type { RetailerStandIn, StandInRequest } from '../../test/retailers/types.ts';
import {
  ALBERTSONS_KEY_MISSING,
  albertsons,
  albertsonsSearchUrl,
  findAlbertsonsApiKey,
  parseAlbertsonsSearch,
  parseAlbertsonsStores,
} from './albertsons.ts';
import { acceptListing } from './pipeline.ts';
import { ConfigError, ScrapeError, StructureError, type RawListing, type RetailerLocation } from './types.ts';
import { locateAndList, standInContext, structureError } from '../../test/retailers/scraping.ts';

/** The transport of the stand-in suites (each runs with both). */
let standInTransport: TransportName = 'got-scraping';

const ZIP = '94110';
const KEY = ALBERTSONS_STAND_IN_KEY;
const HEX_A = '0123456789abcdef0123456789abcdef';
const HEX_B = 'fedcba9876543210fedcba9876543210';

function standInRequest(
  path: string,
  query: Record<string, string> = {},
  headers: Record<string, string> = { 'ocp-apim-subscription-key': KEY },
  host = 'www.albertsons.com',
): StandInRequest {
  return { method: 'GET', path, query: new URLSearchParams(query), headers, body: '', host, cookies: {} };
}

function standInBody(path: string, query: Record<string, string> = {}, headers?: Record<string, string>): string {
  const response = albertsonsStandIn.handle(standInRequest(path, query, headers), createState());
  if (!response) throw new Error(`the stand-in does not answer ${path}`);
  return response.body;
}

function searchBody(zip: string, start: number): string {
  const url = new URL(albertsonsSearchUrl(albertsonsStoreIdOf(zip), 'eggs', start));
  return standInBody(url.pathname, Object.fromEntries(url.searchParams));
}

const doc = (fields: Record<string, unknown>) =>
  JSON.stringify({ primaryProducts: { response: { numFound: 1, docs: [{ pid: '1', name: 'Eggs', ...fields }] } } });

function itemOf(pid: string) {
  const item = ALBERTSONS_CATALOGUE.find((entry) => entry.pid === pid);
  if (!item) throw new Error(`no item ${pid}`);
  return item;
}

describe('findAlbertsonsApiKey', () => {
  it('reads searchConfig.apimProgramSubscriptionKey from the stand-in home page, not the other config key', () => {
    expect(findAlbertsonsApiKey(standInBody('/'))).toBe(KEY);
  });

  it('accepts every quoting of the inline config', () => {
    expect(
      findAlbertsonsApiKey(
        `<script>SWY.CONFIGSERVICE = { searchConfig: { apimProgramSubscriptionKey: '${HEX_A}' } };</script>`,
      ),
    ).toBe(HEX_A);
    expect(
      findAlbertsonsApiKey(`<script>SWY.CONFIGSERVICE.searchConfig.apimProgramSubscriptionKey = "${HEX_A}";</script>`),
    ).toBe(HEX_A);
    expect(
      findAlbertsonsApiKey(
        `<script>var c = JSON.parse("{\\"searchConfig\\":{\\"apimProgramSubscriptionKey\\":\\"${HEX_A}\\"}}");</script>`,
      ),
    ).toBe(HEX_A);
    expect(
      findAlbertsonsApiKey(
        `<div data-config="{&quot;searchConfig&quot;:{&quot;apimProgramSubscriptionKey&quot;:&quot;${HEX_A}&quot;}}"></div>`,
      ),
    ).toBe(HEX_A);
    expect(findAlbertsonsApiKey(`<script>x = {"apimProgramSubscriptionKey" : "${HEX_A.toUpperCase()}"}</script>`)).toBe(
      HEX_A.toUpperCase(),
    );
  });

  it("prefers searchConfig's key over another config's key of the same name", () => {
    const page = `<script>SWY.CONFIGSERVICE = {"cartConfig":{"apimProgramSubscriptionKey":"${HEX_B}"},"searchConfig":{"apimProgramSubscriptionKey":"${HEX_A}"}}</script>`;
    expect(findAlbertsonsApiKey(page)).toBe(HEX_A);
  });

  it('answers null when the page has no key of the documented shape', () => {
    expect(findAlbertsonsApiKey('<html><title>Albertsons</title></html>')).toBeNull();
    expect(findAlbertsonsApiKey(`<script>{"apimSubscriptionKey":"${HEX_A}"}</script>`)).toBeNull();
    expect(findAlbertsonsApiKey(`<script>{"apimProgramSubscriptionKey":"${HEX_A.slice(1)}"}</script>`)).toBeNull();
    expect(findAlbertsonsApiKey(`<script>{"apimProgramSubscriptionKey":"${HEX_A}0"}</script>`)).toBeNull();
  });
});

describe('parseAlbertsonsStores', () => {
  it('reads the first in-store location of the stand-in resolver', () => {
    const location = parseAlbertsonsStores(
      standInBody('/abs/pub/xapi/storeresolver/all', { zipcode: ZIP, radius: '50', size: '10' }),
    );
    expect(location).toEqual({
      retailerLocationId: albertsonsStoreIdOf(ZIP),
      name: `Albertsons ${location?.city}`,
      zip: ZIP,
      city: location?.city,
      state: 'CA',
      address: location?.address,
      latitude: null,
      longitude: null,
    });
    // The ZIP code's real city (test/retailers/places.ts).
    expect(location?.city).toBe(zipFacts(ZIP)!.city);
    expect(location?.address).toMatch(/^\d+ (Main St|Broadway|Oak Ave|Park Blvd)$/);
  });

  it('reads the documented store fields', () => {
    const body = JSON.stringify({
      instore: {
        count: 2,
        stores: [
          {
            locationId: '923',
            address: { line1: '1 Market St', city: 'San Francisco', state: 'ca', zipcode: '94105-1420' },
          },
          { locationId: '924' },
        ],
      },
      pickup: { count: 0, stores: [] },
    });
    expect(parseAlbertsonsStores(body)).toEqual({
      retailerLocationId: '923',
      name: 'Albertsons San Francisco',
      zip: '94105',
      city: 'San Francisco',
      state: 'CA',
      address: '1 Market St',
      latitude: null,
      longitude: null,
    });
  });

  it('falls back to the first pickup location, numeric ids, a name and other zip spellings', () => {
    const body = JSON.stringify({
      instore: { count: 0, stores: [] },
      pickup: {
        stores: [
          {
            locationId: 177,
            storeName: 'Albertsons Boise Vista',
            address: { line1: '1653 S Vista Ave', city: 'Boise', zipCode: 83705 },
            latitude: 43.59,
            longitude: -116.22,
          },
        ],
      },
    });
    expect(parseAlbertsonsStores(body)).toEqual({
      retailerLocationId: '177',
      name: 'Albertsons Boise Vista',
      zip: '83705',
      city: 'Boise',
      state: null,
      address: '1653 S Vista Ave',
      latitude: 43.59,
      longitude: -116.22,
    });
  });

  it('accepts a v2 answer with a top-level stores list, and a store without an address', () => {
    expect(parseAlbertsonsStores(JSON.stringify({ stores: [{ locationId: '3132' }] }))).toEqual({
      retailerLocationId: '3132',
      name: null,
      zip: null,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    });
  });

  it('answers null when no store is near', () => {
    expect(
      parseAlbertsonsStores(standInBody('/abs/pub/xapi/storeresolver/all', { zipcode: SCENARIO_ZIPS.noStore })),
    ).toBeNull();
    expect(parseAlbertsonsStores(JSON.stringify({ instore: { count: 0, stores: [] } }))).toBeNull();
  });

  it('reads a group without its stores list as no stores, and counts as numbers or numeric strings', () => {
    expect(parseAlbertsonsStores(JSON.stringify({ instore: { count: 0 } }))).toBeNull();
    expect(
      parseAlbertsonsStores(JSON.stringify({ instore: { count: '0' }, pickup: { count: 0, stores: null } })),
    ).toBeNull();
    expect(
      parseAlbertsonsStores(
        JSON.stringify({ instore: { count: '0' }, pickup: { count: '1', stores: [{ locationId: '177' }] } }),
      )?.retailerLocationId,
    ).toBe('177');
    expect(
      parseAlbertsonsStores(
        JSON.stringify({ instore: { count: '2', stores: [{ locationId: '923' }, { locationId: '924' }] } }),
      )?.retailerLocationId,
    ).toBe('923');
    expect(() => parseAlbertsonsStores(JSON.stringify({ instore: { count: 'two', stores: [] } }))).toThrow(
      StructureError,
    );
  });

  it('fails on bodies of another structure', () => {
    expect(
      structureError(() => parseAlbertsonsStores('<html><title>Pardon Our Interruption</title></html>')).message,
    ).toMatch(/Albertsons store resolver\b.*got an HTML page/);
    expect(() => parseAlbertsonsStores('{}')).toThrow(
      new StructureError('Albertsons store resolver: body has no instore, pickup or stores list'),
    );
    expect(() => parseAlbertsonsStores(JSON.stringify({ instore: { stores: [{ storeId: '923' }] } }))).toThrow(
      StructureError,
    );
    expect(structureError(() => parseAlbertsonsStores('{"instore":{"stores":[{"locationId":"9')).message).toMatch(
      /Albertsons store resolver\b.*got unreadable text/,
    );
  });
});

describe('parseAlbertsonsSearch', () => {
  it('reads the stand-in page 1: 30 docs of 36, promotions, stock and urls', () => {
    const page = parseAlbertsonsSearch(searchBody(ZIP, 0));
    expect(page.docCount).toBe(30);
    expect(page.numFound).toBe(36);
    expect(page.nonProductTiles).toBe(0);
    expect(page.listings.map((listing) => listing.retailerProductId)).toEqual(
      ALBERTSONS_CATALOGUE.slice(0, 30).map((item) => item.pid),
    );

    const regular = albertsonsRegularPrice(itemOf('138350091'), ZIP);
    expect(page.listings[0]).toEqual({
      retailerProductId: '138350091',
      title: 'Lucerne Eggs Large Grade A Family Pack - 18 Count',
      brand: null,
      price: albertsonsPromoPrice(regular),
      regularPrice: regular,
      sizeText: '18 ct',
      category: 'Eggs',
      url: 'https://www.albertsons.com/shop/product-details.138350091.html',
      inStock: true,
    });
    expect(page.listings[0]!.price).toBeLessThan(regular);

    const outOfStock = page.listings.find((listing) => listing.retailerProductId === '960112879');
    expect(outOfStock).toMatchObject({
      title: 'Lucerne Cage Free Large White Eggs - 24 Count',
      inStock: false,
      price: albertsonsRegularPrice(itemOf('960112879'), ZIP),
    });

    // A doc with only the required keys: no category, no stock flag, the url built from the pid.
    const sparse = page.listings.find((listing) => listing.retailerProductId === '960451239');
    expect(sparse).toEqual({
      retailerProductId: '960451239',
      title: 'Vital Farms Pasture Raised Large Eggs - 18 Count',
      brand: null,
      price: albertsonsRegularPrice(itemOf('960451239'), ZIP),
      regularPrice: albertsonsRegularPrice(itemOf('960451239'), ZIP),
      sizeText: null,
      category: null,
      url: 'https://www.albertsons.com/shop/product-details.960451239.html',
      inStock: null,
    });

    expect(page.listings.find((listing) => listing.retailerProductId === '970525514')).toMatchObject({
      title: 'JUST Egg Plant-Based Scramble - 16 Fl. Oz.',
      price: 6.99,
      category: 'Egg Substitutes',
    });
  });

  it('reads the stand-in page 2', () => {
    const page = parseAlbertsonsSearch(searchBody(ZIP, 30));
    expect(page.docCount).toBe(6);
    expect(page.listings.map((listing) => listing.title)).toEqual([
      "Nellie's Free Range Large Eggs - 18 Count",
      'Lucerne Egg Substitute Fat Free - 16 Oz',
      'Lucerne Eggs Extra Large Grade AA - 12 Count',
      'Open Nature Egg White Bites Spinach & Feta - 2 Count',
      'O Organics Organic Pasture Raised Large Brown Eggs - 12 Count',
      'Eggo Homestyle Waffles - 10 Count',
    ]);
  });

  it('reads the documented field variants', () => {
    const one = (fields: Record<string, unknown>): RawListing => parseAlbertsonsSearch(doc(fields)).listings[0]!;
    expect(one({ price: '4.99', basePrice: '$5.49', inventoryAvailable: 1, status: 'active' })).toMatchObject({
      price: 4.99,
      regularPrice: 5.49,
      inStock: true,
    });
    expect(one({ price: 3.5, inventoryAvailable: false })).toMatchObject({
      price: 3.5,
      regularPrice: null,
      inStock: false,
    });
    expect(one({ basePrice: 5.49, inventoryAvailable: true })).toMatchObject({
      price: 5.49,
      regularPrice: 5.49,
      inStock: true,
    });
    expect(one({})).toMatchObject({ price: null, regularPrice: null, inStock: null, category: null });
    expect(one({ price: 4.99, inventoryAvailable: '1', status: 'inactive' })).toMatchObject({ inStock: false });
    expect(one({ pid: 138350091, name: 'Pete &amp; Gerry&#39;s Organic   Eggs' })).toMatchObject({
      retailerProductId: '138350091',
      title: "Pete & Gerry's Organic Eggs",
    });
    expect(one({ pid: undefined, id: '42' })).toMatchObject({
      retailerProductId: '42',
      url: 'https://www.albertsons.com/shop/product-details.42.html',
    });
    expect(one({ departmentName: 'Dairy, Eggs & Cheese' })).toMatchObject({ category: 'Dairy, Eggs & Cheese' });
    expect(one({ departmentName: 'Dairy, Eggs & Cheese', aisleName: 'Eggs' })).toMatchObject({ category: 'Eggs' });
    expect(one({ departmentName: 'Dairy, Eggs & Cheese', aisleName: 'Eggs|1_11_3' })).toMatchObject({
      category: 'Eggs',
    });
    expect(one({ url: 'shop/product-details.1.html' })).toMatchObject({
      url: 'https://www.albertsons.com/shop/product-details.1.html',
    });
    expect(one({ url: 'https://www.albertsons.com/shop/product-details.1.html?storeId=923' })).toMatchObject({
      url: 'https://www.albertsons.com/shop/product-details.1.html?storeId=923',
    });
  });

  it('takes the pack count from the "12 ct" label or dispItemSizeQty, never a price from pricePer', () => {
    const one = (fields: Record<string, unknown>): RawListing => parseAlbertsonsSearch(doc(fields)).listings[0]!;
    expect(
      one({ labels: [{ labelName: 'SNAP' }, { labelName: '18 ct' }], dispItemSizeQty: '18', dispUnitOfMeasure: 'CT' }),
    ).toMatchObject({ sizeText: '18 ct' });
    expect(one({ labels: [{ labelName: 'SNAP' }], dispItemSizeQty: '12', dispUnitOfMeasure: 'CT' })).toMatchObject({
      sizeText: '12 CT',
    });
    expect(one({ dispItemSizeQty: 16, dispUnitOfMeasure: 'OZ' })).toMatchObject({ sizeText: null });
    // pricePer is per unitQuantity (per egg or per dozen): not a price.
    expect(one({ pricePer: 0.33, basePricePer: 0.33, unitQuantity: 'COUNT' })).toMatchObject({
      price: null,
      regularPrice: null,
    });
    expect(one({ price: 4.39, basePrice: 4.39, pricePer: 4.39, unitQuantity: 'DOZEN' })).toMatchObject({ price: 4.39 });
    // Every stand-in egg doc carries its count; a 12 ct pack is read as 12 eggs whatever pricePer says.
    const page = parseAlbertsonsSearch(searchBody(ZIP, 0));
    const eggs = ALBERTSONS_CATALOGUE.slice(0, 30).filter((item) => item.egg && !item.sparse);
    for (const item of eggs)
      expect(page.listings.find((listing) => listing.retailerProductId === item.pid)!.sizeText).toBe(
        `${item.egg!.count} ct`,
      );
  });

  it('flags a doc sold by the pound (sellByWeight "P"); the pipeline rejects it with its reason, never as a pack price', () => {
    const listing = parseAlbertsonsSearch(
      doc({
        name: 'Farm Fresh Brown Eggs - 12 Count',
        price: 4.49,
        basePrice: 4.49,
        sellByWeight: 'P',
        unitQuantity: 'LB',
        averageWeight: ['1.500'],
      }),
    ).listings[0]!;
    expect(listing).toMatchObject({ price: 4.49, soldByWeight: true });
    expect(acceptListing(listing)).toEqual({
      kind: 'rejected',
      reason: 'sold-by-weight',
      detail: 'priced by weight, not by the pack',
    });
    const byItem = parseAlbertsonsSearch(
      doc({ name: 'Farm Fresh Brown Eggs - 12 Count', price: 4.49, sellByWeight: 'I' }),
    ).listings[0]!;
    expect(byItem.soldByWeight).toBeUndefined();
    expect(acceptListing(byItem)).toMatchObject({ kind: 'accepted', listing: { count: 12, price: 4.49 } });
  });

  it('reads numFound as a number or a numeric string, and a null pid next to an id', () => {
    const page = (numFound: unknown, docs: unknown[] = [{ pid: '1', name: 'Eggs', price: 2 }]) =>
      parseAlbertsonsSearch(JSON.stringify({ primaryProducts: { response: { numFound, docs } } }));
    expect(page(57).numFound).toBe(57);
    expect(page('57').numFound).toBe(57);
    expect(page(null).numFound).toBeNull();
    expect(() => page('many')).toThrow(StructureError);
    expect(page(1, [{ pid: null, id: '970525514', name: 'Eggs', price: 2 }]).listings[0]).toMatchObject({
      retailerProductId: '970525514',
      url: 'https://www.albertsons.com/shop/product-details.970525514.html',
    });
    expect(() => page(1, [{ pid: null, id: null, name: 'Eggs' }])).toThrow(
      new StructureError('Albertsons search: primaryProducts.response.docs.0 has no pid'),
    );
  });

  it('reads a page without numFound, and an empty result', () => {
    expect(
      parseAlbertsonsSearch(
        JSON.stringify({ primaryProducts: { response: { docs: [{ pid: '1', name: 'Eggs', price: 2 }] } } }),
      ).numFound,
    ).toBeNull();
    expect(parseAlbertsonsSearch(JSON.stringify({ primaryProducts: { response: { numFound: 0, docs: [] } } }))).toEqual(
      { listings: [], nonProductTiles: 0, docCount: 0, numFound: 0 },
    );
  });

  it("turns the service's appCode failure into an error, not an empty page", () => {
    const body = standInBody('/abs/pub/xapi/pgmsearch/v1/search/products', { q: 'eggs', storeid: 'abc' });
    expect(JSON.parse(body)).toEqual({ primaryProducts: { appCode: '400', appMsg: ALBERTSONS_APP_FAILURE } });
    let error: unknown;
    try {
      parseAlbertsonsSearch(body);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ScrapeError);
    expect(error).not.toBeInstanceOf(StructureError);
    expect(error).toMatchObject({ kind: 'http', message: `Albertsons search failed: ${ALBERTSONS_APP_FAILURE}` });
    expect(() => parseAlbertsonsSearch(JSON.stringify({ primaryProducts: { appCode: 400 } }))).toThrow(
      new ScrapeError('http', 'Albertsons search failed: appCode 400'),
    );
  });

  it('fails on changed and malformed bodies', () => {
    expect(() => parseAlbertsonsSearch(searchBody(SCENARIO_ZIPS.changed, 0))).toThrow(
      new StructureError('Albertsons search: primaryProducts.response.docs is missing'),
    );
    expect(
      structureError(() => parseAlbertsonsSearch('<html><title>Pardon Our Interruption</title></html>')).message,
    ).toMatch(/Albertsons search\b.*got an HTML page/);
    expect(
      structureError(() => parseAlbertsonsSearch('{"primaryProducts":{"response":{"docs":[{"pid":"1"')).message,
    ).toMatch(/Albertsons search\b.*got unreadable text/);
    expect(() => parseAlbertsonsSearch(JSON.stringify({ products: [] }))).toThrow(
      new StructureError('Albertsons search: body has neither primaryProducts nor response'),
    );
    expect(() =>
      parseAlbertsonsSearch(JSON.stringify({ primaryProducts: { response: { docs: [{ pid: '1', title: 'Eggs' }] } } })),
    ).toThrow(StructureError);
    expect(() =>
      parseAlbertsonsSearch(JSON.stringify({ primaryProducts: { response: { docs: [{ name: 'Eggs' }] } } })),
    ).toThrow(new StructureError('Albertsons search: primaryProducts.response.docs.0 has no pid'));
    expect(() => parseAlbertsonsSearch(JSON.stringify({ primaryProducts: { response: { docs: {} } } }))).toThrow(
      StructureError,
    );
  });
});

describe('the Albertsons stand-in', () => {
  it('answers 401 JSON without the key or with another key', () => {
    const state = createState();
    const missing = albertsonsStandIn.handle(
      standInRequest('/abs/pub/xapi/storeresolver/all', { zipcode: ZIP }, {}),
      state,
    );
    expect(missing?.status).toBe(401);
    expect(JSON.parse(missing!.body)).toMatchObject({ statusCode: 401 });
    expect(
      albertsonsStandIn.handle(
        standInRequest(
          '/abs/pub/xapi/pgmsearch/v1/search/products',
          { q: 'eggs' },
          { 'ocp-apim-subscription-key': HEX_A },
        ),
        state,
      )?.status,
    ).toBe(401);
  });

  it('answers 400 without a zipcode, and only its own host and paths', () => {
    expect(albertsonsStandIn.handle(standInRequest('/abs/pub/xapi/storeresolver/all'), createState())?.status).toBe(
      400,
    );
    expect(albertsonsStandIn.handle(standInRequest('/', {}, {}, 'www.walmart.com'), createState())).toBeNull();
    expect(albertsonsStandIn.handle(standInRequest('/', {}, {}, ''), createState())).toBeNull();
    expect(albertsonsStandIn.handle(standInRequest('/search'), createState())).toBeNull();
  });

  it('maps store ids back to their ZIP', () => {
    for (const zip of [ZIP, '00501', '99950', SCENARIO_ZIPS.blocked])
      expect(zipOfAlbertsonsStore(albertsonsStoreIdOf(zip))).toBe(zip);
    expect(albertsonsStoreIdOf(ZIP)).not.toBe(ZIP);
  });
});

// Through both transports: the HTTP-level behaviour must not depend on the client.
describe.each(TRANSPORTS)('albertsons against the stand-in (%s)', (transport) => {
  beforeAll(() => {
    standInTransport = transport;
  });

  let server: StandInServer;
  beforeAll(async () => {
    server = await serveStandIns([albertsonsStandIn]);
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const context = (credentials: RetailerCredentials = {}, url = server.url) =>
    standInContext(albertsons, url, { transport: standInTransport, credentials });

  const scrape = (zip: string, ctx = context()) => locateAndList(albertsons, zip, ctx);

  const searchRequests = () =>
    server.requests.filter((request) => request.path === '/abs/pub/xapi/pgmsearch/v1/search/products');

  it('reads the key from the home page, locates the store and reads both pages', async () => {
    const { location, pages } = await scrape(ZIP);
    expect(location).toMatchObject({ retailerLocationId: albertsonsStoreIdOf(ZIP), zip: ZIP, state: 'CA' });
    expect(pages.map((page) => page.listings.length)).toEqual([30, 6]);
    const listings = pages.flatMap((page) => page.listings);
    expect(listings.map((listing) => listing.retailerProductId)).toEqual(ALBERTSONS_CATALOGUE.map((item) => item.pid));
    expect(
      listings.every((listing) => listing.url?.startsWith('https://www.albertsons.com/shop/product-details.')),
    ).toBe(true);

    const organic = listings.find((listing) => listing.retailerProductId === '184060061')!;
    const regular = albertsonsRegularPrice(itemOf('184060061'), ZIP);
    expect(organic).toEqual({
      retailerProductId: '184060061',
      title: 'O Organics Organic Large Brown Eggs - 12 Count',
      brand: null,
      price: albertsonsPromoPrice(regular),
      regularPrice: regular,
      sizeText: '12 ct',
      category: 'Eggs',
      url: 'https://www.albertsons.com/shop/product-details.184060061.html',
      inStock: true,
    });
    expect(listings.find((listing) => listing.retailerProductId === '960520018')).toMatchObject({
      title: "Nellie's Free Range Large Eggs - 18 Count",
      inStock: true,
    });
    expect(listings.filter((listing) => listing.inStock === false).map((listing) => listing.retailerProductId)).toEqual(
      ['960112879'],
    );

    expect(server.requests.map((request) => `${request.host} ${request.path} ${request.status}`)).toEqual([
      'www.albertsons.com / 200',
      'www.albertsons.com /abs/pub/xapi/storeresolver/all 200',
      'www.albertsons.com /abs/pub/xapi/pgmsearch/v1/search/products 200',
      'www.albertsons.com /abs/pub/xapi/pgmsearch/v1/search/products 200',
    ]);
    expect(new URLSearchParams(server.requests[1]!.query).toString()).toBe(`zipcode=${ZIP}&radius=50&size=10`);
    const [first, second] = searchRequests().map((request) => new URLSearchParams(request.query));
    expect(first!.get('request-id')).toMatch(/^\d{19}$/);
    first!.delete('request-id');
    expect(first!.toString()).toBe(
      new URLSearchParams({
        url: 'https://www.albertsons.com',
        pageurl: 'https://www.albertsons.com/shop/search-results.html?q=eggs',
        pagename: 'search',
        rows: '30',
        start: '0',
        'search-type': 'keyword',
        storeid: albertsonsStoreIdOf(ZIP),
        featured: 'true',
        q: 'eggs',
        sort: '',
        timezone: 'America/Los_Angeles',
        dvid: 'web-4.1search',
        channel: 'pickup',
        pp: 'true',
        includeOffer: 'true',
        banner: 'albertsons',
      }).toString(),
    );
    expect(second!.get('start')).toBe('30');
  });

  it('reads the key once per run', async () => {
    const ctx = context();
    await scrape(ZIP, ctx);
    await scrape('97201', ctx);
    expect(server.requests.filter((request) => request.path === '/')).toHaveLength(1);
    expect(searchRequests()).toHaveLength(4);
  });

  it('uses a configured key without reading the home page', async () => {
    const { pages } = await scrape(ZIP, context({ albertsonsApiKey: KEY }));
    expect(pages).toHaveLength(2);
    expect(server.requests.filter((request) => request.path === '/')).toHaveLength(0);
  });

  it('fails the ZIP when the configured key is refused', async () => {
    await expect(albertsons.locate(ZIP, context({ albertsonsApiKey: HEX_A }))).rejects.toThrow(
      new ScrapeError('http', 'Albertsons refused the credentials (HTTP 401)'),
    );
  });

  it('stops at maxPages', async () => {
    const ctx = { ...context(), maxPages: 1 };
    const { pages } = await scrape(ZIP, ctx);
    expect(pages).toHaveLength(1);
    expect(searchRequests()).toHaveLength(1);
  });

  it('fails with a ConfigError when the home page has no key', async () => {
    const noKeyHome: RetailerStandIn = {
      store: 'albertsons',
      handle: (request, state) =>
        request.path === '/'
          ? {
              status: 200,
              headers: { 'content-type': 'text/html' },
              body: '<html><script>SWY.CONFIGSERVICE = {}</script></html>',
            }
          : albertsonsStandIn.handle(request, state),
    };
    const other = await serveStandIns([noKeyHome]);
    try {
      const error = await albertsons.locate(ZIP, context({}, other.url)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ kind: 'config', message: ALBERTSONS_KEY_MISSING });
    } finally {
      await other.close();
    }
  });

  it('falls back to the v2 store resolver when the old path answers 404', async () => {
    const v2Only: RetailerStandIn = {
      store: 'albertsons',
      handle: (request, state) =>
        request.path === '/abs/pub/xapi/storeresolver/all'
          ? { status: 404, body: '{"statusCode":404,"message":"Resource not found"}' }
          : albertsonsStandIn.handle(request, state),
    };
    const other = await serveStandIns([v2Only]);
    try {
      const location = await albertsons.locate(ZIP, context({}, other.url));
      expect(location?.retailerLocationId).toBe(albertsonsStoreIdOf(ZIP));
      expect(other.requests.map((request) => `${request.path}${request.query} ${request.status}`)).toEqual([
        '/ 200',
        `/abs/pub/xapi/storeresolver/all?zipcode=${ZIP}&radius=50&size=10 404`,
        `/abs/pub/xapi/storeresolver/v2/all?zipcode=${ZIP}&banner=albertsons 200`,
      ]);
    } finally {
      await other.close();
    }
  });

  it("fails the ZIP with the service's message on an appCode failure", async () => {
    const ctx = context();
    const location: RetailerLocation = {
      retailerLocationId: 'unknown',
      name: null,
      zip: null,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    };
    const pages = albertsons.listings(location, ZIP, ctx)[Symbol.asyncIterator]();
    await expect(pages.next()).rejects.toThrow(
      new ScrapeError('http', `Albertsons search failed: ${ALBERTSONS_APP_FAILURE}`),
    );
  });
});
