import { TRANSPORTS, type TransportName } from '#shared/egress.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ALDI_CATALOGUE,
  aldiRegularPrice,
  aldiSalePrice,
  aldiServicePointOf,
  aldiSkuOf,
  aldiSlugOf,
  aldiStandIn,
  zipOfAldiServicePoint,
} from '../../test/retailers/aldi.ts';
import { createState, serveStandIns, type StandInServer } from '../../test/retailers/http-server.ts';
import { SCENARIO_ZIPS } from '../../test/retailers/scenarios.ts';
import type { StandInRequest } from '../../test/retailers/types.ts';
import { aldi, aldiMerchantSearchUrl, aldiSearchUrl, parseAldiMerchants, parseAldiSearch } from './aldi.ts';
import { StructureError, type RawListing } from './types.ts';
import { locateAndList, standInContext, structureError } from '../../test/retailers/scraping.ts';

/** The transport of the stand-in suites (each runs with both). */
let standInTransport: TransportName = 'got-scraping';

const ZIP = '60614';

function standInRequest(url: string): StandInRequest {
  const parsed = new URL(url);
  return {
    method: 'GET',
    path: parsed.pathname,
    query: parsed.searchParams,
    headers: { referer: 'https://www.aldi.us/' },
    body: '',
    host: parsed.host,
    cookies: {},
  };
}

function standInResponse(url: string) {
  const response = aldiStandIn.handle(standInRequest(url), createState());
  if (!response) throw new Error(`the stand-in does not answer ${url}`);
  return response;
}

const searchBody = (zip: string, offset: number) =>
  standInResponse(aldiSearchUrl(aldiServicePointOf(zip), 'eggs', offset)).body;

function itemOf(key: string) {
  const item = ALDI_CATALOGUE.find((entry) => entry.key === key);
  if (!item) throw new Error(`no item ${key}`);
  return item;
}

const one = (fields: Record<string, unknown>): RawListing =>
  parseAldiSearch(
    JSON.stringify({
      meta: { pagination: { offset: 0, limit: 60, totalCount: 1 } },
      data: [{ sku: '0000000000003945', name: 'Large White Eggs', ...fields }],
    }),
  ).listings[0]!;

describe('parseAldiMerchants', () => {
  it('reads the nearest store of the stand-in merchant search', () => {
    const location = parseAldiMerchants(standInResponse(aldiMerchantSearchUrl(ZIP)).body);
    expect(location).toMatchObject({ retailerLocationId: aldiServicePointOf(ZIP), zip: ZIP, state: 'IL' });
    expect(location?.retailerLocationId).toMatch(/^4\d{2}-\d{3}$/);
    expect(location?.name).toBe(`ALDI ${location?.city}`);
    expect(location?.address).toMatch(/^\d+ (W Main St|N Central Ave|E State St|S Oak St)$/);
    expect(location?.latitude).toBeGreaterThanOrEqual(26);
    expect(location?.longitude).toBeLessThanOrEqual(-75);
  });

  it('needs only data[0].id', () => {
    expect(parseAldiMerchants(JSON.stringify({ data: [{ id: '440-018' }, { id: '465-089' }] }))).toEqual({
      retailerLocationId: '440-018',
      name: null,
      zip: null,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    });
  });

  it('reads name and address fields in the usual spellings, on the record or under attributes', () => {
    expect(
      parseAldiMerchants(
        JSON.stringify({
          data: [
            {
              id: '474-109',
              name: 'ALDI Lincoln Park',
              address: '2600 N Halsted St',
              city: 'Chicago',
              state: 'il',
              postalCode: '60614-2310',
              lat: 41.93,
              lng: -87.65,
            },
          ],
        }),
      ),
    ).toEqual({
      retailerLocationId: '474-109',
      name: 'ALDI Lincoln Park',
      zip: '60614',
      city: 'Chicago',
      state: 'IL',
      address: '2600 N Halsted St',
      latitude: 41.93,
      longitude: -87.65,
    });
    expect(
      parseAldiMerchants(
        JSON.stringify({
          data: [
            {
              id: 467108,
              attributes: {
                storeName: 'ALDI Batavia',
                address: { line1: '1 Randall Rd', city: 'Batavia', region: 'Illinois', zipCode: 60510 },
                location: { latitude: '41.85', longitude: '-88.34' },
              },
            },
          ],
        }),
      ),
    ).toEqual({
      retailerLocationId: '467108',
      name: 'ALDI Batavia',
      zip: '60510',
      city: 'Batavia',
      state: null,
      address: '1 Randall Rd',
      latitude: 41.85,
      longitude: -88.34,
    });
  });

  it("reads the platform's store object: address1, regionIsoCode and coordinates as strings", () => {
    const store = {
      id: '474-109',
      name: 'Lincoln Park',
      address: {
        address1: '2600 N Halsted St',
        city: 'Chicago',
        regionIsoCode: 'IL',
        zipCode: '60614',
        latitude: '41.93000000000000',
        longitude: '-87.65000000000000',
      },
    };
    expect(parseAldiMerchants(JSON.stringify({ data: [store] }))).toEqual({
      retailerLocationId: '474-109',
      name: 'Lincoln Park',
      zip: '60614',
      city: 'Chicago',
      state: 'IL',
      address: '2600 N Halsted St',
      latitude: 41.93,
      longitude: -87.65,
    });
  });

  it('answers null when no store is near', () => {
    expect(parseAldiMerchants(standInResponse(aldiMerchantSearchUrl(SCENARIO_ZIPS.noStore)).body)).toBeNull();
    expect(parseAldiMerchants(JSON.stringify({ data: [] }))).toBeNull();
  });

  it('fails on bodies of another structure', () => {
    expect(structureError(() => parseAldiMerchants('<html><title>Just a moment...</title></html>')).message).toMatch(
      /ALDI merchant search\b.*got an HTML page/,
    );
    expect(structureError(() => parseAldiMerchants('{"data":[{"id":"440-0')).message).toMatch(
      /ALDI merchant search\b.*got unreadable text/,
    );
    expect(structureError(() => parseAldiMerchants(JSON.stringify({ merchants: [{ id: '440-018' }] }))).message).toBe(
      'page structure not recognised (ALDI merchant search: data invalid input: expected array, received undefined)',
    );
    expect(() => parseAldiMerchants(JSON.stringify({ data: [{ merchantId: '440-018' }] }))).toThrow(StructureError);
  });
});

describe('parseAldiSearch', () => {
  it('reads the stand-in page 1: 60 items of 75, cents, sales and stock', () => {
    const page = parseAldiSearch(searchBody(ZIP, 0));
    expect(page.itemCount).toBe(60);
    expect(page.totalCount).toBe(75);
    expect(page.nonProductTiles).toBe(0);
    expect(page.listings.map((listing) => listing.retailerProductId)).toEqual(
      ALDI_CATALOGUE.slice(0, 60).map(aldiSkuOf),
    );

    const plain = itemOf('goldhen-large-white-12');
    expect(page.listings[0]).toEqual({
      retailerProductId: aldiSkuOf(plain),
      title: 'Grade A Large White Eggs',
      brand: 'Goldhen',
      price: aldiRegularPrice(plain, ZIP),
      regularPrice: aldiRegularPrice(plain, ZIP),
      sizeText: '12 ct',
      category: 'Eggs',
      url: `https://www.aldi.us/product/goldhen-grade-a-large-white-eggs-${aldiSkuOf(plain)}`,
      inStock: null,
    });

    const sale = itemOf('goldhen-large-white-18');
    const regular = aldiRegularPrice(sale, ZIP);
    expect(page.listings[1]).toMatchObject({
      title: 'Grade A Large White Eggs, 18 Count',
      price: aldiSalePrice(regular),
      regularPrice: regular,
      sizeText: '18 ct',
    });
    expect(page.listings[1]!.price).toBeLessThan(regular);

    // notForSale (not sold online) leaves stock unknown; the shelf price stands.
    for (const key of ['goldhen-cage-free-white-18', 'goldhen-large-white-18', 'simply-nature-pasture-12']) {
      expect(page.listings.find((listing) => listing.retailerProductId === aldiSkuOf(itemOf(key)))).toMatchObject({
        inStock: null,
      });
      expect(
        page.listings.find((listing) => listing.retailerProductId === aldiSkuOf(itemOf(key)))!.price,
      ).toBeGreaterThan(0);
    }
    expect(
      page.listings.find((listing) => listing.retailerProductId === aldiSkuOf(itemOf('choceur-eggs'))),
    ).toMatchObject({ title: 'Milk Chocolate Eggs', inStock: false, price: 2.99 });

    const sparse = itemOf('vital-farms-pasture-12');
    expect(page.listings.find((listing) => listing.retailerProductId === aldiSkuOf(sparse))).toEqual({
      retailerProductId: aldiSkuOf(sparse),
      title: 'Vital Farms Pasture-Raised Large Grade A Eggs, 12 Count',
      brand: null,
      price: aldiRegularPrice(sparse, ZIP),
      regularPrice: aldiRegularPrice(sparse, ZIP),
      sizeText: null,
      category: null,
      url: `https://www.aldi.us/product/vital-farms-pasture-raised-large-grade-a-eggs-12-count-${aldiSkuOf(sparse)}`,
      inStock: null,
    });
  });

  it('reads the stand-in page 2', () => {
    const page = parseAldiSearch(searchBody(ZIP, 60));
    expect(page.itemCount).toBe(15);
    expect(
      page.listings.slice(0, 4).map((listing) => `${listing.brand} | ${listing.title} | ${listing.sizeText}`),
    ).toEqual([
      'Goldhen | Grade A Large White Eggs, 2 Dozen | 24 ct',
      'Friendly Farms | Original Eggnog | 64 fl oz',
      'Vital Farms | Pasture-Raised Large Brown Eggs, 18 Count | 18 ct',
      "Burman's | Real Mayonnaise | 30 fl oz",
    ]);
  });

  it('reads the price variants: cents, the display fallback, a was-price', () => {
    expect(one({ price: { amount: 395, amountRelevantDisplay: '$3.95', wasPriceDisplay: null } })).toMatchObject({
      price: 3.95,
      regularPrice: 3.95,
    });
    expect(one({ price: { amount: 349, amountRelevantDisplay: '$3.49', wasPriceDisplay: '$4.19' } })).toMatchObject({
      price: 3.49,
      regularPrice: 4.19,
    });
    expect(one({ price: { amount: null, amountRelevantDisplay: '$2.85' } })).toMatchObject({
      price: 2.85,
      regularPrice: 2.85,
    });
    expect(one({ price: { amountRelevantDisplay: '$2.85', wasPriceDisplay: '$3.15' } })).toMatchObject({
      price: 2.85,
      regularPrice: 3.15,
    });
    expect(one({ price: { amount: 0, amountRelevantDisplay: null } })).toMatchObject({
      price: null,
      regularPrice: null,
    });
    expect(
      one({ price: { amount: 0, amountRelevant: 0, amountRelevantDisplay: null, wasPriceDisplay: null } }),
    ).toMatchObject({ price: null, regularPrice: null });
    expect(one({ price: null })).toMatchObject({ price: null, regularPrice: null });
    expect(one({})).toMatchObject({
      price: null,
      regularPrice: null,
      brand: null,
      sizeText: null,
      category: null,
      url: null,
      inStock: null,
    });
  });

  it('reads price.amountRelevant first, then amountRelevantDisplay, then amount; the regular price is wasPriceDisplay when set', () => {
    expect(
      one({ price: { amount: 449, amountRelevant: 399, amountRelevantDisplay: '$3.99', wasPriceDisplay: '$4.49' } }),
    ).toMatchObject({ price: 3.99, regularPrice: 4.49 });
    expect(
      one({ price: { amount: 449, amountRelevant: 399, amountRelevantDisplay: '$4.49', wasPriceDisplay: null } }),
    ).toMatchObject({ price: 3.99, regularPrice: 3.99 });
    expect(one({ price: { amount: 449, amountRelevantDisplay: '$3.99', wasPriceDisplay: '$4.49' } })).toMatchObject({
      price: 3.99,
      regularPrice: 4.49,
    });
    expect(one({ price: { amount: 449, amountRelevant: null, amountRelevantDisplay: '$3.99' } })).toMatchObject({
      price: 3.99,
      regularPrice: 3.99,
    });
    expect(one({ price: { amount: 449, amountRelevant: 0, amountRelevantDisplay: 'see store' } })).toMatchObject({
      price: 4.49,
      regularPrice: 4.49,
    });
    expect(one({ price: { amount: 449 } })).toMatchObject({ price: 4.49, regularPrice: 4.49 });
    expect(one({ price: { amountRelevant: 399, wasPriceDisplay: '$4.49' } })).toMatchObject({
      price: 3.99,
      regularPrice: 4.49,
    });
  });

  it('reads stock, category, size, titles and urls', () => {
    expect(one({ notForSale: true })).toMatchObject({ inStock: null });
    expect(one({ notForSale: true, notForSaleReason: null, price: { amount: 399 } })).toMatchObject({
      inStock: null,
      price: 3.99,
    });
    expect(one({ discontinued: true, notForSale: false })).toMatchObject({ inStock: false });
    expect(one({ notForSale: false, discontinued: false })).toMatchObject({ inStock: null });
    expect(one({ categories: [{ id: '1', name: 'Dairy &amp; Eggs' }, { name: 'Eggs' }] })).toMatchObject({
      category: 'Dairy & Eggs',
    });
    expect(one({ categories: [] })).toMatchObject({ category: null });
    expect(one({ sellingSize: ' 1 dozen ' })).toMatchObject({ sizeText: '1 dozen' });
    expect(one({ name: 'Simply Nature Organic &amp; Free Range  Eggs', brandName: 'Simply Nature' })).toMatchObject({
      title: 'Simply Nature Organic & Free Range Eggs',
      brand: 'Simply Nature',
    });
    expect(one({ sku: 3945, urlSlugText: 'pumpkin' })).toMatchObject({
      retailerProductId: '3945',
      url: 'https://www.aldi.us/product/pumpkin-3945',
    });
  });

  it('reads a page without pagination, and an empty result', () => {
    expect(parseAldiSearch(JSON.stringify({ data: [] }))).toEqual({
      listings: [],
      nonProductTiles: 0,
      itemCount: 0,
      totalCount: null,
    });
  });

  it('fails on changed and malformed bodies', () => {
    expect(structureError(() => parseAldiSearch(searchBody(SCENARIO_ZIPS.changed, 0))).message).toBe(
      'page structure not recognised (ALDI product search: data.0.sku invalid input)',
    );
    expect(structureError(() => parseAldiSearch('<!DOCTYPE html><title>Just a moment...</title>')).message).toMatch(
      /ALDI product search\b.*got an HTML page/,
    );
    expect(
      structureError(() => parseAldiSearch('{"meta":{"pagination":{"totalCount":75}},"data":[{"sku":"1"')).message,
    ).toMatch(/ALDI product search\b.*got unreadable text/);
    expect(() => parseAldiSearch(JSON.stringify({ meta: {}, items: [] }))).toThrow(StructureError);
    expect(() => parseAldiSearch(JSON.stringify({ data: [{ sku: '1', title: 'Eggs' }] }))).toThrow(StructureError);
    expect(() =>
      parseAldiSearch(JSON.stringify({ data: [{ sku: '1', name: 'Eggs', price: { amount: '395' } }] })),
    ).toThrow(StructureError);
  });
});

describe('the ALDI stand-in', () => {
  it('rejects a limit outside the allowed set with HTTP 400 JSON', () => {
    const url = aldiSearchUrl(aldiServicePointOf(ZIP), 'eggs', 0).replace('limit=60', 'limit=50');
    const response = standInResponse(url);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      errors: [
        {
          status: '400',
          code: 'INVALID_PARAMETER',
          title: 'Bad Request',
          detail: 'limit must be one of 12, 16, 24, 30, 32, 48, 60',
          source: { parameter: 'limit' },
        },
      ],
    });
    expect(standInResponse(url.replace('limit=50', 'limit=24')).status).toBe(200);
  });

  it('answers the other documented errors and its own host and paths only', () => {
    expect(standInResponse('https://api.aldi.us/v1/merchant-search?currency=USD&service_type=pickup').status).toBe(400);
    expect(standInResponse('https://api.aldi.us/v3/product-search?currency=USD&limit=60').status).toBe(400);
    expect(
      aldiStandIn.handle(standInRequest('https://api.aldi.us/v2/products?servicePoint=440-018'), createState()),
    ).toBeNull();
    expect(
      aldiStandIn.handle(standInRequest('https://api.kroger.com/v3/product-search?q=eggs'), createState()),
    ).toBeNull();
  });

  it('maps servicePoints back to their ZIP', () => {
    for (const zip of [ZIP, '00501', '99950', SCENARIO_ZIPS.blocked])
      expect(zipOfAldiServicePoint(aldiServicePointOf(zip))).toBe(zip);
    expect(aldiSlugOf(itemOf('egg-bites'))).toBe('breakfast-best-uncured-bacon-and-gruyere-egg-bites');
  });
});

// Through both transports: the HTTP-level behaviour must not depend on the client.
describe.each(TRANSPORTS)('aldi against the stand-in (%s)', (transport) => {
  beforeAll(() => {
    standInTransport = transport;
  });

  let server: StandInServer;
  beforeAll(async () => {
    server = await serveStandIns([aldiStandIn]);
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const context = (maxPages = 10) => standInContext(aldi, server.url, { transport: standInTransport, maxPages });

  const scrape = (zip: string, ctx = context()) => locateAndList(aldi, zip, ctx);

  const searchRequests = () => server.requests.filter((request) => request.path === '/v3/product-search');

  it('locates the store and reads both pages', async () => {
    const { location, pages } = await scrape(ZIP);
    const servicePoint = aldiServicePointOf(ZIP);
    expect(location).toMatchObject({ retailerLocationId: servicePoint, zip: ZIP, state: 'IL' });
    expect(pages.map((page) => page.listings.length)).toEqual([60, 15]);
    const listings = pages.flatMap((page) => page.listings);
    expect(listings.map((listing) => listing.url)).toEqual(
      ALDI_CATALOGUE.map((item) => `https://www.aldi.us/product/${aldiSlugOf(item)}-${aldiSkuOf(item)}`),
    );

    const organic = itemOf('simply-nature-organic-12');
    const regular = aldiRegularPrice(organic, ZIP);
    expect(listings.find((listing) => listing.retailerProductId === aldiSkuOf(organic))).toEqual({
      retailerProductId: aldiSkuOf(organic),
      title: 'Organic Grade A Large Brown Eggs',
      brand: 'Simply Nature',
      price: aldiSalePrice(regular),
      regularPrice: regular,
      sizeText: '12 ct',
      category: 'Eggs',
      url: `https://www.aldi.us/product/simply-nature-organic-grade-a-large-brown-eggs-${aldiSkuOf(organic)}`,
      inStock: null,
    });
    expect(listings.filter((listing) => listing.inStock === false).map((listing) => listing.title)).toEqual([
      'Milk Chocolate Eggs',
    ]);

    expect(
      server.requests.map((request) => `${request.host} ${request.path}${request.query} ${request.status}`),
    ).toEqual([
      `api.aldi.us /v1/merchant-search?currency=USD&service_type=pickup&zip_code=${ZIP} 200`,
      `api.aldi.us /v3/product-search?currency=USD&serviceType=pickup&q=eggs&limit=60&offset=0&sort=relevance&testVariant=A&servicePoint=${servicePoint} 200`,
      `api.aldi.us /v3/product-search?currency=USD&serviceType=pickup&q=eggs&limit=60&offset=60&sort=relevance&testVariant=A&servicePoint=${servicePoint} 200`,
    ]);
  });

  it('stops at maxPages', async () => {
    const { pages } = await scrape(ZIP, context(1));
    expect(pages).toHaveLength(1);
    expect(searchRequests()).toHaveLength(1);
  });
});
