import { TRANSPORTS, type TransportName } from '#shared/egress.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createState, serveStandIns, type StandInServer } from '../../test/retailers/http-server.ts';
import { SCENARIO_ZIPS } from '../../test/retailers/scenarios.ts';
import type { StandInRequest } from '../../test/retailers/types.ts';
import {
  WHOLE_FOODS_CATALOGUE,
  wholeFoodsAsinOf,
  wholeFoodsPrimePrice,
  wholeFoodsRegularPrice,
  wholeFoodsSalePrice,
  wholeFoodsSlugOf,
  wholeFoodsStandIn,
  wholeFoodsStoreCodeOf,
  wholeFoodsStoreIdOf,
  zipOfWholeFoodsStore,
} from '../../test/retailers/whole-foods.ts';
import { json, type RetailerStandIn, type StandInResponse } from '../../test/retailers/types.ts';
import { scrapeZip } from './pipeline.ts';
import { StructureError, type RawListing } from './types.ts';
import {
  parseWholeFoodsProducts,
  parseWholeFoodsRsiSearch,
  parseWholeFoodsSearch,
  parseWholeFoodsSearchPageHtml,
  parseWholeFoodsStoreCode,
  parseWholeFoodsStores,
  wholeFoods,
  wholeFoodsProductId,
  wholeFoodsProductPageUrl,
  wholeFoodsProductsUrl,
  wholeFoodsRsiSearchUrl,
  wholeFoodsSearchPageUrl,
  wholeFoodsSearchUrl,
} from './whole-foods.ts';
import { locateAndList, standInContext, structureError } from '../../test/retailers/scraping.ts';

/** The transport of the stand-in suites (each runs with both). */
let standInTransport: TransportName = 'got-scraping';

const ZIP = '78701';

function standInRequest(method: string, path: string, query: Record<string, string> = {}, body = ''): StandInRequest {
  return {
    method,
    path,
    query: new URLSearchParams(query),
    headers: { 'content-type': 'application/json' },
    body,
    host: 'www.wholefoodsmarket.com',
    cookies: {},
  };
}

function standInBody(method: string, path: string, query: Record<string, string> = {}, body = ''): string {
  const response = wholeFoodsStandIn.handle(standInRequest(method, path, query, body), createState());
  if (!response) throw new Error(`the stand-in does not answer ${path}`);
  return response.body;
}

function searchBody(zip: string, offset: number): string {
  const url = new URL(wholeFoodsSearchUrl(wholeFoodsStoreIdOf(zip), 'eggs', offset));
  return standInBody('GET', url.pathname, Object.fromEntries(url.searchParams));
}

function itemOf(key: string) {
  const item = WHOLE_FOODS_CATALOGUE.find((entry) => entry.key === key);
  if (!item) throw new Error(`no item ${key}`);
  return item;
}

const idOf = (key: string) => wholeFoodsSlugOf(itemOf(key)).slice(-10).toUpperCase();
/** One result read on a page whose other result is priced (a page without a single price fails). */
const one = (fields: Record<string, unknown>): RawListing =>
  parseWholeFoodsSearch(
    JSON.stringify({
      results: [
        { name: 'Organic Large Brown Eggs, 12 ct', slug: 'organic-large-brown-eggs-b07dlgkrtd', ...fields },
        { name: 'Large Brown Eggs, 18 ct', slug: 'large-brown-eggs-b07aaaaaaa', regularPrice: 6.49 },
      ],
    }),
  ).listings[0]!;

describe('parseWholeFoodsStores', () => {
  it('reads the nearest store of the stand-in finder', () => {
    const location = parseWholeFoodsStores(standInBody('POST', '/stores/search', {}, JSON.stringify({ query: ZIP })));
    expect(location).toMatchObject({ retailerLocationId: wholeFoodsStoreIdOf(ZIP), zip: ZIP, state: 'TX' });
    expect(location?.name).toBe(location?.city);
    expect(location?.address).toMatch(/^\d+ (Market St|Lamar Blvd|Central Ave|Elm St)$/);
    expect(location?.longitude).toBeLessThan(-75);
    expect(location?.latitude).toBeGreaterThan(26);
  });

  it('reads the documented store fields, coordinates as [lon, lat]', () => {
    const body = JSON.stringify([
      {
        storeId: 10478,
        name: 'Tallahassee',
        tlc: 'TLH',
        path: 'tallahassee',
        location: {
          address: { line1: '1817 Thomasville Rd', city: 'Tallahassee', state: 'FL', zipCode: '32303' },
          geometry: { coordinates: [-84.27, 30.46] },
        },
      },
      { storeId: 10160 },
    ]);
    expect(parseWholeFoodsStores(body)).toEqual({
      retailerLocationId: '10478',
      name: 'Tallahassee',
      zip: '32303',
      city: 'Tallahassee',
      state: 'FL',
      address: '1817 Thomasville Rd',
      latitude: 30.46,
      longitude: -84.27,
    });
  });

  it('accepts { stores: [...] }, postalCode and a store with only its id', () => {
    expect(
      parseWholeFoodsStores(
        JSON.stringify({
          stores: [{ storeId: '10457', location: { address: { city: 'Austin', postalCode: '78703-4530' } } }],
        }),
      ),
    ).toEqual({
      retailerLocationId: '10457',
      name: null,
      zip: '78703',
      city: 'Austin',
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    });
    expect(parseWholeFoodsStores(JSON.stringify([{ storeId: 10713 }]))?.retailerLocationId).toBe('10713');
  });

  it('answers null when no store is near', () => {
    expect(
      parseWholeFoodsStores(
        standInBody('POST', '/stores/search', {}, JSON.stringify({ query: SCENARIO_ZIPS.noStore })),
      ),
    ).toBeNull();
    expect(parseWholeFoodsStores(JSON.stringify({ stores: [] }))).toBeNull();
  });

  it('fails on bodies of another structure', () => {
    expect(
      structureError(() => parseWholeFoodsStores('<!DOCTYPE html><title>Whole Foods Market</title>')).message,
    ).toMatch(/Whole Foods store search\b.*got an HTML page/);
    expect(structureError(() => parseWholeFoodsStores('[{"storeId":10478,')).message).toMatch(
      /Whole Foods store search\b.*got unreadable text/,
    );
    expect(() => parseWholeFoodsStores(JSON.stringify([{ id: '10478' }]))).toThrow(StructureError);
    expect(() => parseWholeFoodsStores(JSON.stringify({ results: [] }))).toThrow(StructureError);
    expect(() => parseWholeFoodsStores('null')).toThrow(StructureError);
  });
});

describe('parseWholeFoodsSearch', () => {
  it('reads the stand-in page 1: 60 results of 75, sales, Prime prices left aside', () => {
    const page = parseWholeFoodsSearch(searchBody(ZIP, 0));
    expect(page.resultCount).toBe(60);
    expect(page.total).toBe(75);
    expect(page.nonProductTiles).toBe(0);
    expect(page.listings.map((listing) => listing.title)).toEqual(
      WHOLE_FOODS_CATALOGUE.slice(0, 60).map((item) => item.name),
    );

    const regular = wholeFoodsRegularPrice(itemOf('wfm-organic-brown-12'), ZIP);
    expect(page.listings[0]).toEqual({
      retailerProductId: idOf('wfm-organic-brown-12'),
      title: 'Organic Large Brown Grade A Eggs, 12 ct',
      brand: '365 by Whole Foods Market',
      price: wholeFoodsSalePrice(regular),
      regularPrice: regular,
      sizeText: null,
      category: null,
      url: `https://www.wholefoodsmarket.com/product/${wholeFoodsSlugOf(itemOf('wfm-organic-brown-12'))}`,
      inStock: null,
    });
    expect(page.listings[0]!.retailerProductId).toMatch(/^B0[0-9A-Z]{8}$/);
    expect(page.listings[0]!.price).not.toBe(wholeFoodsPrimePrice(wholeFoodsSalePrice(regular)));

    // A sale without dates applies; uom "18 ct" is a count, "ea" is not.
    const undated = page.listings.find((listing) => listing.title === 'Cage Free Large White Grade A Eggs, 18 ct')!;
    const undatedRegular = wholeFoodsRegularPrice(itemOf('wfm-cage-free-white-18'), ZIP);
    expect(undated).toMatchObject({
      price: wholeFoodsSalePrice(undatedRegular),
      regularPrice: undatedRegular,
      sizeText: null,
    });
    expect(page.listings[1]).toMatchObject({
      title: 'Organic Large Brown Grade A Eggs, 18 ct',
      sizeText: '18 ct',
      price: wholeFoodsRegularPrice(itemOf('wfm-organic-brown-18'), ZIP),
    });

    const sparse = page.listings.find(
      (listing) => listing.retailerProductId === idOf('vital-farms-organic-pasture-18'),
    )!;
    expect(sparse).toMatchObject({
      title: 'Vital Farms Organic Pasture-Raised Extra Large Eggs, 18 ct',
      brand: null,
      sizeText: null,
      price: wholeFoodsRegularPrice(itemOf('vital-farms-organic-pasture-18'), ZIP),
    });
  });

  it('reads the stand-in page 2', () => {
    const page = parseWholeFoodsSearch(searchBody(ZIP, 60));
    expect(page.resultCount).toBe(15);
    expect(page.listings.slice(0, 4).map((listing) => `${listing.brand} | ${listing.title}`)).toEqual([
      "Eggland's Best | Classic Large White Eggs Grade A, 18 ct",
      'Whole Foods Market | Classic Egg Salad, 12 oz',
      'Happy Egg | Free Range Large Brown Eggs, 12 ct',
      'Organic Valley | Organic Eggnog, 32 fl oz',
    ]);
  });

  it('fails on results without a single price field (no store=): the store was not applied', () => {
    const body = standInBody('GET', '/api/search', { text: 'eggs', limit: '60', offset: '0' });
    expect(Object.keys(JSON.parse(body).results[0]).sort()).toEqual([
      'brand',
      'imageThumbnail',
      'isLocal',
      'name',
      'slug',
      'store',
    ]);
    expect(() => parseWholeFoodsSearch(body)).toThrow(
      new StructureError('Whole Foods search: no prices: the store was not applied'),
    );
    const unpriced = {
      name: 'Large Brown Eggs, 12 ct',
      slug: 'large-brown-eggs-b07dlgkrtd',
      brand: '365 by Whole Foods Market',
      store: null,
    };
    expect(() =>
      parseWholeFoodsSearch(JSON.stringify({ results: [unpriced, { ...unpriced, regularPrice: null }] })),
    ).toThrow(/no prices: the store was not applied/);
  });

  it('reads a page where only some results lack a price (those are rejected later as unpriced)', () => {
    const page = parseWholeFoodsSearch(
      JSON.stringify({
        results: [
          { name: 'Large Brown Eggs, 12 ct', slug: 'large-brown-eggs-b07dlgkrtd' },
          { name: 'Large White Eggs, 12 ct', slug: 'large-white-eggs-b07aaaaaaa', regularPrice: 3.99 },
        ],
      }),
    );
    expect(page.listings.map((listing) => listing.price)).toEqual([null, 3.99]);
  });

  it('takes a present salePrice as the shelf price whatever the date: the fields are absent when not on sale', () => {
    // A body as the site documents it, read long after its sale week.
    const documented = JSON.stringify({
      results: [
        {
          name: 'Organic Grade A Large Brown Eggs',
          brand: '365 by Whole Foods Market',
          slug: '365-by-whole-foods-market-organic-large-brown-eggs-b07xxxxxxx',
          imageThumbnail: 'https://m.media-amazon.com/images/x.jpg',
          store: 10457,
          regularPrice: 5.99,
          salePrice: 4.99,
          incrementalSalePrice: 4.49,
          saleStartDate: '2025-01-01T00:00:00Z',
          saleEndDate: '2025-01-07T00:00:00Z',
          isLocal: false,
          uom: '...',
        },
      ],
      facets: [
        { label: '...', slug: '...', refinements: [{ label: '...', slug: '...', count: 123, isSelected: false }] },
      ],
      breadcrumb: [{ label: '...', slug: '...' }],
      meta: { total: { value: 123, relation: 'eq' }, state: { refinements: [], sort: '...' } },
    });
    expect(parseWholeFoodsSearch(documented).listings[0]).toMatchObject({
      price: 4.99,
      regularPrice: 5.99,
      sizeText: null,
    });

    const sale = { regularPrice: 5.99, salePrice: 4.99, incrementalSalePrice: 4.49 };
    expect(one({ ...sale, saleStartDate: '2025-01-04T00:00:00Z', saleEndDate: '2025-01-04T00:00:00Z' })).toMatchObject({
      price: 4.99,
    });
    expect(one({ ...sale, saleStartDate: '2024-12-20T00:00:00Z', saleEndDate: '2025-01-03T00:00:00Z' })).toMatchObject({
      price: 4.99,
      regularPrice: 5.99,
    });
    expect(one({ ...sale, saleStartDate: '2099-01-05T00:00:00Z', saleEndDate: '2099-01-11T00:00:00Z' })).toMatchObject({
      price: 4.99,
    });
    expect(one({ ...sale, saleEndDate: '2025-01-10' })).toMatchObject({ price: 4.99 });
    expect(one({ ...sale, saleStartDate: 'soon', saleEndDate: null })).toMatchObject({ price: 4.99 });
  });

  it('ignores a salePrice only when its dates contradict each other (the end before the start)', () => {
    const sale = { regularPrice: 5.99, salePrice: 4.99 };
    expect(one({ ...sale, saleStartDate: '2025-01-07T00:00:00Z', saleEndDate: '2025-01-01T00:00:00Z' })).toMatchObject({
      price: 5.99,
      regularPrice: 5.99,
    });
    expect(one({ salePrice: 4.99, saleStartDate: '2025-01-07', saleEndDate: '2025-01-01' })).toMatchObject({
      price: 4.99,
      regularPrice: null,
    });
    expect(one({ ...sale, saleStartDate: '2025-01-07T00:00:00Z', saleEndDate: '2025-01-07T00:00:00Z' })).toMatchObject({
      price: 4.99,
    });
  });

  it('reads the other price variants', () => {
    expect(one({ regularPrice: 5.99 })).toMatchObject({ price: 5.99, regularPrice: 5.99 });
    expect(one({ salePrice: 4.99 })).toMatchObject({ price: 4.99, regularPrice: null });
    expect(one({ regularPrice: '$6.49', salePrice: '5.49' })).toMatchObject({ price: 5.49, regularPrice: 6.49 });
    expect(one({ incrementalSalePrice: 3.99 })).toMatchObject({ price: null, regularPrice: null });
    expect(one({})).toMatchObject({ price: null, regularPrice: null, brand: null, inStock: null, category: null });
  });

  it('reads ids, urls, titles and count-like uom', () => {
    expect(one({})).toMatchObject({
      retailerProductId: 'B07DLGKRTD',
      url: 'https://www.wholefoodsmarket.com/product/organic-large-brown-eggs-b07dlgkrtd',
    });
    expect(wholeFoodsProductId('vital-farms-pasture-raised-large-eggs-B01ABCDE9Z')).toBe('B01ABCDE9Z');
    expect(wholeFoodsProductId('bakery-sourdough-boule')).toBe('bakery-sourdough-boule');
    expect(one({ slug: 'whole-foods-market-eggs-12' })).toMatchObject({
      retailerProductId: 'whole-foods-market-eggs-12',
    });
    expect(one({ name: 'Pete &amp; Gerry&#39;s Organic  Eggs', brand: 'Pete &amp; Gerry&#39;s' })).toMatchObject({
      title: "Pete & Gerry's Organic Eggs",
      brand: "Pete & Gerry's",
    });
    expect(one({ uom: '12 ct' }).sizeText).toBe('12 ct');
    expect(one({ uom: '18 Count' }).sizeText).toBe('18 Count');
    expect(one({ uom: '1 dozen' }).sizeText).toBe('1 dozen');
    expect(one({ uom: '12 ea' }).sizeText).toBe('12 ea');
    expect(one({ uom: '12 each' }).sizeText).toBe('12 each');
    expect(one({ uom: '1 each' }).sizeText).toBe('1 each');
    expect(one({ uom: 'ea' }).sizeText).toBeNull();
    expect(one({ uom: 'lb' }).sizeText).toBeNull();
    expect(one({ uom: '12 oz' }).sizeText).toBeNull();
  });

  it('reads a page without meta, and an empty result', () => {
    expect(parseWholeFoodsSearch(JSON.stringify({ results: [] }))).toEqual({
      listings: [],
      nonProductTiles: 0,
      resultCount: 0,
      total: null,
      slugs: [],
    });
    expect(
      parseWholeFoodsSearch(JSON.stringify({ results: [], meta: { total: { value: 0, relation: 'eq' } } })).total,
    ).toBe(0);
  });

  it('reads results with their store but no price as unpriced; fails on results of another store than the one asked for', () => {
    const result = (fields: Record<string, unknown>) => ({
      name: 'Large Brown Eggs, 12 ct',
      slug: 'large-brown-eggs-b07dlgkrtd',
      brand: '365 by Whole Foods Market',
      ...fields,
    });
    expect(
      parseWholeFoodsSearch(
        JSON.stringify({ results: [result({ store: 10225 }), result({ store: 10225, slug: 'x-b07aaaaaaa' })] }),
        '10225',
      ).listings.map((listing) => listing.price),
    ).toEqual([null, null]);
    expect(() =>
      parseWholeFoodsSearch(JSON.stringify({ results: [result({ store: 10145, regularPrice: 5.99 })] }), '10160'),
    ).toThrow(new StructureError('Whole Foods search: results of store 10145, not 10160: the store was not applied'));
    expect(
      parseWholeFoodsSearch(JSON.stringify({ results: [result({ store: '10160', regularPrice: 5.99 })] }), '10160')
        .listings[0]!.price,
    ).toBe(5.99);
    expect(parseWholeFoodsSearch(searchBody(ZIP, 0), wholeFoodsStoreIdOf(ZIP)).slugs.slice(0, 2)).toEqual(
      WHOLE_FOODS_CATALOGUE.slice(0, 2).map(wholeFoodsSlugOf),
    );
  });

  it('flags a result priced by the pound (uom "lb")', () => {
    expect(one({ regularPrice: 17.99, uom: 'lb' })).toMatchObject({ price: 17.99, soldByWeight: true });
    expect(one({ regularPrice: 5.99, uom: 'ea' }).soldByWeight).toBeUndefined();
  });

  it('fails on changed and malformed bodies', () => {
    expect(() => parseWholeFoodsSearch(searchBody(SCENARIO_ZIPS.changed, 0))).toThrow(
      new StructureError('Whole Foods search: results invalid input: expected array, received undefined'),
    );
    expect(
      structureError(() =>
        parseWholeFoodsSearch('<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>'),
      ).message,
    ).toMatch(/Whole Foods search\b.*got an HTML page/);
    expect(structureError(() => parseWholeFoodsSearch('{"results":[{"name":"Eggs"')).message).toMatch(
      /Whole Foods search\b.*got unreadable text/,
    );
    expect(() =>
      parseWholeFoodsSearch(JSON.stringify({ results: [{ title: 'Eggs', slug: 'eggs-b07dlgkrtd' }] })),
    ).toThrow(StructureError);
    expect(() => parseWholeFoodsSearch(JSON.stringify({ results: [{ name: 'Eggs' }] }))).toThrow(StructureError);
    expect(() => parseWholeFoodsSearch(JSON.stringify({ results: {} }))).toThrow(StructureError);
  });
});

describe('the Whole Foods stand-in', () => {
  it('answers the documented errors and its own paths only', () => {
    const state = createState();
    expect(wholeFoodsStandIn.handle(standInRequest('POST', '/stores/search', {}, '{}'), state)?.status).toBe(400);
    expect(
      wholeFoodsStandIn.handle(standInRequest('GET', '/api/search', { store: wholeFoodsStoreIdOf(ZIP) }), state)
        ?.status,
    ).toBe(400);
    expect(wholeFoodsStandIn.handle(standInRequest('GET', '/search'), state)).toBeNull();
    expect(
      wholeFoodsStandIn.handle(
        { ...standInRequest('GET', '/api/search', { text: 'eggs' }), host: 'www.walmart.com' },
        state,
      ),
    ).toBeNull();
  });

  it('renders product pages for a store: its code, proved by isDefaultLocation false and matching ids; else the default store', () => {
    const item = itemOf('wfm-organic-brown-12');
    const storeId = wholeFoodsStoreIdOf(ZIP);
    const page = (store: string | null) => {
      const url = new URL(wholeFoodsProductPageUrl(wholeFoodsSlugOf(item), store ?? ''));
      if (!store) url.searchParams.delete('store');
      return standInBody('GET', url.pathname, Object.fromEntries(url.searchParams));
    };
    expect(parseWholeFoodsStoreCode(page(storeId), storeId)).toEqual({ code: wholeFoodsStoreCodeOf(storeId) });
    expect(parseWholeFoodsStoreCode(page(null), storeId)).toEqual({
      code: null,
      reason: `the product page was rendered for the default store, not store ${storeId}`,
    });
    expect(parseWholeFoodsStoreCode(page('99'), '99')).toMatchObject({ code: null });
    expect(
      wholeFoodsStandIn.handle(
        standInRequest('GET', '/grocery/product/no-such-product-b000000000', { store: storeId }),
        createState(),
      )?.status,
    ).toBe(404);
  });

  it('answers /api/wwos/products for up to 50 ASINs: IN_STOCK, or null availability for the items the service does not say', () => {
    const code = wholeFoodsStoreCodeOf(wholeFoodsStoreIdOf(ZIP));
    const products = (asins: string[], discriminator = code) => {
      const url = new URL(wholeFoodsProductsUrl(discriminator, asins));
      return wholeFoodsStandIn.handle(
        standInRequest('GET', url.pathname, Object.fromEntries(url.searchParams)),
        createState(),
      )!;
    };
    const keys = ['wfm-organic-brown-12', 'wfm-cage-free-white-18', 'alexandre-pasture-6'];
    const listings = parseWholeFoodsProducts(products(keys.map((key) => wholeFoodsAsinOf(itemOf(key)))).body);
    const regular = wholeFoodsRegularPrice(itemOf('wfm-organic-brown-12'), ZIP);
    expect(listings.map((listing) => [listing.retailerProductId, listing.inStock])).toEqual([
      [wholeFoodsAsinOf(itemOf('wfm-organic-brown-12')), true],
      [wholeFoodsAsinOf(itemOf('wfm-cage-free-white-18')), null],
      [wholeFoodsAsinOf(itemOf('alexandre-pasture-6')), null],
    ]);
    expect(listings[0]).toMatchObject({
      title: 'Organic Large Brown Grade A Eggs, 12 ct',
      brand: '365 by Whole Foods Market',
      price: wholeFoodsSalePrice(regular),
      regularPrice: regular,
    });
    expect(products(Array.from({ length: 51 }, () => wholeFoodsAsinOf(itemOf('wfm-organic-brown-12')))).status).toBe(
      400,
    );
    expect(products([wholeFoodsAsinOf(itemOf('wfm-organic-brown-12'))], 'nope').status).toBe(400);
  });

  it('answers the newer search (ASINs) and the grocery search page that embeds it', () => {
    const storeId = wholeFoodsStoreIdOf(ZIP);
    const rsiUrl = new URL(wholeFoodsRsiSearchUrl(wholeFoodsStoreCodeOf(storeId), 'eggs', 30));
    const rsi = parseWholeFoodsRsiSearch(standInBody('GET', rsiUrl.pathname, Object.fromEntries(rsiUrl.searchParams)));
    expect(rsi).toEqual({ asins: WHOLE_FOODS_CATALOGUE.slice(30, 60).map(wholeFoodsAsinOf), total: 75 });
    const pageUrl = new URL(wholeFoodsSearchPageUrl(storeId, 'eggs'));
    const page = parseWholeFoodsSearchPageHtml(
      standInBody('GET', pageUrl.pathname, Object.fromEntries(pageUrl.searchParams)),
      storeId,
    );
    expect(page.storeCode).toEqual({ code: wholeFoodsStoreCodeOf(storeId) });
    expect(page.listings.map((listing) => listing.retailerProductId)).toEqual(
      WHOLE_FOODS_CATALOGUE.slice(0, 30).map(wholeFoodsAsinOf),
    );
  });

  it('maps store ids back to their ZIP', () => {
    for (const zip of [ZIP, '00501', '99950', SCENARIO_ZIPS.blocked])
      expect(zipOfWholeFoodsStore(wholeFoodsStoreIdOf(zip))).toBe(zip);
    expect(wholeFoodsStoreIdOf(ZIP)).toMatch(/^1\d{5}$/);
  });
});

// Through both transports: the HTTP-level behaviour must not depend on the client.
describe.each(TRANSPORTS)('wholeFoods against the stand-in (%s)', (transport) => {
  beforeAll(() => {
    standInTransport = transport;
  });

  let server: StandInServer;
  /** Answers that replace the stand-in's on a path, for one test (a service down, an older page...). */
  const overrides = new Map<string, (request: StandInRequest) => StandInResponse>();
  const standIn: RetailerStandIn = {
    store: 'whole-foods',
    handle: (request, state) => overrides.get(request.path)?.(request) ?? wholeFoodsStandIn.handle(request, state),
  };
  beforeAll(async () => {
    server = await serveStandIns([standIn]);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    overrides.clear();
  });

  const context = (maxPages = 10) => standInContext(wholeFoods, server.url, { transport: standInTransport, maxPages });

  const scrape = (zip: string, ctx = context()) => locateAndList(wholeFoods, zip, ctx);

  const searchRequests = () => server.requests.filter((request) => request.path === '/api/search');

  it('locates the store and reads both pages', async () => {
    const { location, pages } = await scrape(ZIP);
    expect(location).toMatchObject({ retailerLocationId: wholeFoodsStoreIdOf(ZIP), zip: ZIP, state: 'TX' });
    expect(pages.map((page) => page.listings.length)).toEqual([60, 15]);
    const listings = pages.flatMap((page) => page.listings);
    expect(listings.map((listing) => listing.url)).toEqual(
      WHOLE_FOODS_CATALOGUE.map((item) => `https://www.wholefoodsmarket.com/product/${wholeFoodsSlugOf(item)}`),
    );

    const happy = listings.find((listing) => listing.retailerProductId === idOf('happy-egg-free-range-12'))!;
    const regular = wholeFoodsRegularPrice(itemOf('happy-egg-free-range-12'), ZIP);
    expect(happy).toEqual({
      retailerProductId: idOf('happy-egg-free-range-12'),
      title: 'Free Range Large Brown Eggs, 12 ct',
      brand: 'Happy Egg',
      price: wholeFoodsSalePrice(regular),
      regularPrice: regular,
      sizeText: null,
      category: null,
      url: `https://www.wholefoodsmarket.com/product/${wholeFoodsSlugOf(itemOf('happy-egg-free-range-12'))}`,
      inStock: true,
    });
    expect(listings.find((listing) => listing.retailerProductId === idOf('egglands-classic-12'))).toMatchObject({
      price: wholeFoodsRegularPrice(itemOf('egglands-classic-12'), ZIP),
      regularPrice: wholeFoodsRegularPrice(itemOf('egglands-classic-12'), ZIP),
    });
    expect(listings.every((listing) => listing.price !== null)).toBe(true);
    // Stock from /api/wwos/products: null availability is unknown, never out of stock.
    expect(listings.filter((listing) => listing.inStock !== true).map((listing) => listing.title)).toEqual([
      'Cage Free Large White Grade A Eggs, 18 ct',
      'Regenerative Organic Pasture Raised Eggs, 6 ct',
    ]);
    expect(listings.some((listing) => listing.inStock === false)).toBe(false);
    expect(pages.every((page) => page.notes === undefined)).toBe(true);

    // The store's code from one product page (the first result's), then stock in calls of up to 50 ASINs.
    const storeId = wholeFoodsStoreIdOf(ZIP);
    const code = wholeFoodsStoreCodeOf(storeId);
    const asins = WHOLE_FOODS_CATALOGUE.map(wholeFoodsAsinOf);
    expect(
      server.requests.map(
        (request) =>
          `${request.method} ${request.host} ${decodeURIComponent(request.path + request.query)} ${request.status}`,
      ),
    ).toEqual([
      'POST www.wholefoodsmarket.com /stores/search 200',
      `GET www.wholefoodsmarket.com /api/search?text=eggs&store=${storeId}&limit=60&offset=0 200`,
      `GET www.wholefoodsmarket.com /grocery/product/${wholeFoodsSlugOf(WHOLE_FOODS_CATALOGUE[0]!)}?store=${storeId} 200`,
      `GET www.wholefoodsmarket.com /api/wwos/products?offerListingDiscriminator=${code}&programType=GROCERY&asins=${asins.slice(0, 50).join(',')} 200`,
      `GET www.wholefoodsmarket.com /api/wwos/products?offerListingDiscriminator=${code}&programType=GROCERY&asins=${asins.slice(50, 60).join(',')} 200`,
      `GET www.wholefoodsmarket.com /api/search?text=eggs&store=${storeId}&limit=60&offset=60 200`,
      `GET www.wholefoodsmarket.com /api/wwos/products?offerListingDiscriminator=${code}&programType=GROCERY&asins=${asins.slice(60).join(',')} 200`,
    ]);
  });

  const productPages = () => server.requests.filter((request) => request.path.startsWith('/grocery/product/'));
  const stockCalls = () => server.requests.filter((request) => request.path === '/api/wwos/products');

  it("reads a store's code once per run, and only when the search has listings", async () => {
    const ctx = context();
    await scrape(ZIP, ctx);
    await scrape(ZIP, ctx);
    expect(productPages()).toHaveLength(1);
    expect(stockCalls()).toHaveLength(6);
    // Another run reads it again.
    await scrape(ZIP);
    expect(productPages()).toHaveLength(2);

    server.reset();
    overrides.set('/api/search', () => json({ results: [], meta: { total: { value: 0, relation: 'EQUAL_TO' } } }));
    const { pages } = await scrape('10001');
    expect(pages.map((page) => page.listings.length)).toEqual([0]);
    expect(productPages()).toHaveLength(0);
    expect(stockCalls()).toHaveLength(0);
  });

  it('a product page that does not prove the store (no isDefaultLocation, another store, the default one): prices stand, stock unknown, the outcome says why', async () => {
    const storeId = wholeFoodsStoreIdOf(ZIP);
    const page = (pageProps: Record<string, unknown>): StandInResponse => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: `<html><body><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps } })}</script></body></html>`,
    });
    const alm = (id: string) => ({
      wfmccLocationData: {
        cateringStoreContext: { almAttributes: { storeId: id, offerListingDiscriminator: wholeFoodsStoreCodeOf(id) } },
      },
    });
    const slug = wholeFoodsSlugOf(WHOLE_FOODS_CATALOGUE[0]!);
    for (const [pageProps, reason] of [
      [{ ...alm(storeId) }, `the product page does not prove it was rendered for store ${storeId}`],
      [
        { isDefaultLocation: false, overrideStoreId: '10145', ...alm('10145') },
        `the product page was rendered for store 10145, not ${storeId}`,
      ],
      [
        { isDefaultLocation: false, overrideStoreId: storeId, ...alm('10145') },
        `the product page was rendered for store 10145, not ${storeId}`,
      ],
      [
        { isDefaultLocation: true, overrideStoreId: null, ...alm('10145') },
        `the product page was rendered for the default store, not store ${storeId}`,
      ],
    ] as const) {
      server.reset();
      overrides.set(`/grocery/product/${slug}`, () => page(pageProps));
      const outcome = await scrapeZip(wholeFoods, ZIP, context());
      expect(outcome.status).toBe('succeeded');
      expect(outcome.message).toBe(`stock unknown: ${reason}`);
      expect(outcome.accepted).toHaveLength(14);
      expect(outcome.accepted.every((listing) => listing.inStock === null && listing.price > 0)).toBe(true);
      expect(stockCalls()).toHaveLength(0);
      expect(productPages()).toHaveLength(1);
    }
  });

  it('a failing stock call does not fail the ZIP: prices stand, stock unknown, the outcome says so', async () => {
    overrides.set('/api/wwos/products', () => ({
      status: 500,
      body: '<html><body><h1>500 Internal Server Error</h1></body></html>',
    }));
    const outcome = await scrapeZip(wholeFoods, ZIP, context());
    expect(outcome.status).toBe('succeeded');
    expect(outcome.accepted).toHaveLength(14);
    expect(outcome.accepted.every((listing) => listing.inStock === null)).toBe(true);
    expect(outcome.message).toBe(
      'stock unknown: the stock service failed (Whole Foods answered HTTP 500 after 4 attempts)',
    );

    server.reset();
    overrides.set('/api/wwos/products', () => json({ error: 'unexpected' }));
    const changed = await scrapeZip(wholeFoods, ZIP, context());
    expect(changed).toMatchObject({
      status: 'succeeded',
      message:
        'stock unknown: the stock service failed (page structure not recognised (Whole Foods products: body invalid input: expected array, received object))',
    });
    expect(changed.accepted).toHaveLength(14);
  });

  it('reads the newer search when /api/search is gone: the search page proves the store and gives page 1, then rsi/search with /api/wwos/products', async () => {
    overrides.set('/api/search', () => json({ message: 'Not Found' }, 404));
    const { pages } = await scrape(ZIP);
    expect(pages.map((page) => page.listings.length)).toEqual([30, 30, 15]);
    const listings = pages.flatMap((page) => page.listings);
    expect(listings.map((listing) => listing.retailerProductId)).toEqual(WHOLE_FOODS_CATALOGUE.map(wholeFoodsAsinOf));
    const regular = wholeFoodsRegularPrice(itemOf('happy-egg-free-range-12'), ZIP);
    expect(listings.find((listing) => listing.retailerProductId === idOf('happy-egg-free-range-12'))).toMatchObject({
      title: 'Free Range Large Brown Eggs, 12 ct',
      brand: 'Happy Egg',
      price: wholeFoodsSalePrice(regular),
      regularPrice: regular,
      inStock: true,
    });
    expect(listings.find((listing) => listing.retailerProductId === idOf('wfm-cage-free-white-18'))).toMatchObject({
      inStock: null,
    });
    const storeId = wholeFoodsStoreIdOf(ZIP);
    const code = wholeFoodsStoreCodeOf(storeId);
    expect(
      server.requests.map((request) => `${decodeURIComponent(request.path + request.query)} ${request.status}`),
    ).toEqual([
      '/stores/search 200',
      `/api/search?text=eggs&store=${storeId}&limit=60&offset=0 404`,
      `/grocery/search?k=eggs&store=${storeId} 200`,
      `/api/wwos/rsi/search?text=eggs&old=${code}&offset=30&size=30&sort=relevanceblender&programType=GROCERY 200`,
      `/api/wwos/products?offerListingDiscriminator=${code}&programType=GROCERY&asins=${WHOLE_FOODS_CATALOGUE.slice(30, 60).map(wholeFoodsAsinOf).join(',')} 200`,
      `/api/wwos/rsi/search?text=eggs&old=${code}&offset=60&size=30&sort=relevanceblender&programType=GROCERY 200`,
      `/api/wwos/products?offerListingDiscriminator=${code}&programType=GROCERY&asins=${WHOLE_FOODS_CATALOGUE.slice(60).map(wholeFoodsAsinOf).join(',')} 200`,
    ]);

    const outcome = await scrapeZip(wholeFoods, ZIP, context());
    expect(outcome).toMatchObject({ status: 'succeeded', message: null });
    expect(outcome.accepted).toHaveLength(14);
  });

  it('stops at maxPages', async () => {
    const { pages } = await scrape(ZIP, context(1));
    expect(pages).toHaveLength(1);
    expect(searchRequests()).toHaveLength(1);
  });

  it('a store the search does not apply (results without prices) fails the ZIP, never zero prices', async () => {
    const ctx = context();
    const location = await wholeFoods.locate(ZIP, ctx);
    const unknown = { ...location!, retailerLocationId: '99' };
    const error = await (async () => {
      for await (const page of wholeFoods.listings(unknown, ZIP, ctx)) void page;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructureError);
    expect((error as Error).message).toBe(
      'page structure not recognised (Whole Foods search: no prices: the store was not applied)',
    );
  });
});
