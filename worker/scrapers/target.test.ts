import { TRANSPORTS, type TransportName } from '#shared/egress.ts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RetailerCredentials } from '#shared/scrape.ts';
import { createState, type StandInServer } from '../../test/retailers/http-server.ts';
import { SCENARIO_ZIPS } from '../../test/retailers/scenarios.ts';
import {
  TARGET_CATALOGUE,
  TARGET_SPONSORED_ONLY,
  TARGET_STAND_IN_KEY,
  targetRegularPrice,
  targetSalePrice,
  targetStandIn,
  targetStoreIdForZip,
  targetWasPrice,
  type TargetStandInItem,
} from '../../test/retailers/target.ts';
import { html, json, type RetailerStandIn, type StandInRequest } from '../../test/retailers/types.ts';
import {
  extractTargetApiKey,
  parseTargetFulfillment,
  parseTargetNearbyStores,
  parseTargetSearch,
  target,
  targetPrices,
} from './target.ts';
import { scrapeZip } from './pipeline.ts';
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
const STORE = targetStoreIdForZip(ZIP);
const KEY = TARGET_STAND_IN_KEY;
const AGG = '/redsky_aggregations/v1/web/';

function request(path: string, query: Record<string, string>, host = 'redsky.target.com'): StandInRequest {
  return { method: 'GET', path, query: new URLSearchParams(query), headers: {}, body: '', host, cookies: {} };
}

function standIn(path: string, query: Record<string, string>, host?: string) {
  const response = targetStandIn.handle(request(path, query, host), createState());
  if (!response) throw new Error(`no stand-in answer for ${path}`);
  return response;
}

const plpQuery = (offset: number, zip = ZIP) => ({
  key: KEY,
  keyword: 'eggs',
  page: '/s/eggs',
  channel: 'WEB',
  platform: 'desktop',
  count: '24',
  offset: String(offset),
  pricing_store_id: targetStoreIdForZip(zip),
  visitor_id: 'A'.repeat(32),
  zip,
});
const plpBody = (offset: number, zip = ZIP) => standIn(`${AGG}plp_search_v2`, plpQuery(offset, zip)).body;
const item = (key: string): TargetStandInItem => TARGET_CATALOGUE.find((i) => i.key === key)!;
const tcins = (...keys: string[]) =>
  keys.map((key) => (key === TARGET_SPONSORED_ONLY.key ? TARGET_SPONSORED_ONLY : item(key)).tcin);
/** The stand-in's sponsored tiles of every page, at positions 0, 1 and 6. */
const SPONSORED = ['vital-farms-12', TARGET_SPONSORED_ONLY.key, 'egglands-organic-12'];
/** The tcins of a stand-in page: its results with the sponsored tiles at positions 0, 1 and 6. */
const pageTcins = (results: TargetStandInItem[]) => {
  const [first, second, third] = tcins(...SPONSORED);
  const ids = results.map((i) => i.tcin);
  return [first, second, ...ids.slice(0, 4), third, ...ids.slice(4)];
};

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
  new RegExp(`^page structure not recognised \\(.*${what.replace(/[.]/g, '\\.')}.*got ${got}\\)$`);

describe('extractTargetApiKey', () => {
  const hex = '0123456789abcdef0123456789abcdef01234567';

  it('reads the key of the stand-in home page (a JSON-escaped inline config)', () => {
    expect(extractTargetApiKey(standIn('/', {}, 'www.target.com').body)).toBe(KEY);
  });

  it('reads every documented spelling', () => {
    expect(extractTargetApiKey(`<script>window.__CONFIG__={"services":{"redsky":{"apiKey":"${hex}"}}}</script>`)).toBe(
      hex,
    );
    expect(
      extractTargetApiKey(`<script>var config = { defaultServicesApiKey: '${hex.toUpperCase()}' };</script>`),
    ).toBe(hex.toUpperCase());
    expect(
      extractTargetApiKey(
        `<link rel="preload" href="https://redsky.target.com/redsky_aggregations/v1/web/store_location_v1?key=${hex}&amp;store_id=3991">`,
      ),
    ).toBe(hex);
    expect(extractTargetApiKey(`<script>JSON.parse("{\\"key\\":\\"${hex}\\"}")</script>`)).toBe(hex);
  });

  it('prefers an api-key field over another 40-hex "key"', () => {
    const other = 'f'.repeat(40);
    expect(extractTargetApiKey(`{"key":"${other}","services":{"apiKey":"${hex}"}}`)).toBe(hex);
  });

  it('prefers the key= of a RedSky URL over an api-key field', () => {
    const other = 'e'.repeat(40);
    expect(
      extractTargetApiKey(
        `<script>window.__CONFIG__={"services":{"apiKey":"${other}"}}</script><link href="https://redsky.target.com/redsky_aggregations/v1/web/store_location_v1?store_id=3991&amp;key=${hex}">`,
      ),
    ).toBe(hex);
    expect(
      extractTargetApiKey(
        `{"apiKey":"${other}","prefetch":"https:\\/\\/redsky.target.com\\/redsky_aggregations\\/v1\\/web\\/plp_search_v2?channel=WEB\\u0026key=${hex}"}`,
      ),
    ).toBe(hex);
  });

  it('reads api-key fields in any case: API_KEY, apiKey, api_key', () => {
    expect(extractTargetApiKey(`<script>window.API_KEY = "${hex}";</script>`)).toBe(hex);
    expect(extractTargetApiKey(`{"API_KEY":"${hex}"}`)).toBe(hex);
    expect(extractTargetApiKey(`{"redsky":{"api_key":"${hex}"}}`)).toBe(hex);
    expect(extractTargetApiKey(`JSON.parse("{\\"REDSKY_APIKEY\\":\\"${hex}\\"}")`)).toBe(hex);
    expect(extractTargetApiKey(`var Api_Key='${hex}'`)).toBe(hex);
  });

  it('answers null when the page carries no key of the right shape', () => {
    expect(extractTargetApiKey('<html><body>Target</body></html>')).toBeNull();
    expect(extractTargetApiKey(`{"apiKey":"${hex.slice(1)}"}`)).toBeNull();
    expect(extractTargetApiKey(`https://redsky.target.com/x?key=${hex}0`)).toBeNull();
  });
});

describe('parseTargetNearbyStores', () => {
  const body = (stores: unknown) => JSON.stringify({ data: { nearby_stores: { count: 2, stores } } });
  const store = (id: string | number, status: string) => ({
    store_id: id,
    location_name: `Store ${id}`,
    distance: 1,
    status,
    mailing_address: { address_line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78757-1234' },
  });

  it('reads the stand-in body', () => {
    expect(
      parseTargetNearbyStores(
        standIn(`${AGG}nearby_stores_v1`, { key: KEY, channel: 'WEB', place: ZIP, limit: '5', within: '100' }).body,
      ),
    ).toEqual({
      retailerLocationId: STORE,
      name: 'New York Central',
      zip: ZIP,
      city: 'New York',
      state: 'NY',
      address: expect.stringMatching(/^\d+ Commerce Blvd$/),
      latitude: null,
      longitude: null,
    });
  });

  it('prefers the first open store, in any case, else the first', () => {
    expect(
      parseTargetNearbyStores(body([store('1', 'Closed'), store('2', 'OPEN'), store('3', 'Open')]))?.retailerLocationId,
    ).toBe('2');
    expect(parseTargetNearbyStores(body([store('1', 'Temporarily Closed'), store(95, 'open')]))).toEqual({
      retailerLocationId: '95',
      name: 'Store 95',
      zip: '78757',
      city: 'Austin',
      state: 'TX',
      address: '1 Main St',
      latitude: null,
      longitude: null,
    });
    expect(parseTargetNearbyStores(body([store('7', 'Closed'), store('8', 'Closed')]))?.retailerLocationId).toBe('7');
  });

  it('takes the two-letter region, else maps a full state name to its code', () => {
    const address = (fields: Record<string, unknown>) =>
      body([
        {
          store_id: '95',
          status: 'Open',
          mailing_address: {
            address_line1: '8601 Research Blvd',
            city: 'Austin',
            postal_code: '78758-7121',
            ...fields,
          },
        },
      ]);
    expect(parseTargetNearbyStores(address({ region: 'TX', state: 'Texas' }))?.state).toBe('TX');
    expect(parseTargetNearbyStores(address({ state: 'Texas' }))).toMatchObject({
      state: 'TX',
      zip: '78758',
      city: 'Austin',
    });
    expect(parseTargetNearbyStores(address({ region: null, state: 'rhode island' }))?.state).toBe('RI');
    expect(parseTargetNearbyStores(address({ region: 'ON', state: 'Ontario' }))?.state).toBeNull();
    expect(parseTargetNearbyStores(address({ region: '', state: 'Texass' }))?.state).toBeNull();
  });

  it('accepts missing optional fields', () => {
    expect(parseTargetNearbyStores(body([{ store_id: '3991' }]))).toEqual({
      retailerLocationId: '3991',
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
    expect(parseTargetNearbyStores(body([]))).toBeNull();
    expect(parseTargetNearbyStores(body(null))).toBeNull();
    expect(
      parseTargetNearbyStores(standIn(`${AGG}nearby_stores_v1`, { key: KEY, place: SCENARIO_ZIPS.noStore }).body),
    ).toBeNull();
  });

  it('rejects other structures', () => {
    expectStructureError(
      () => parseTargetNearbyStores('<html><body>Not here</body></html>'),
      notJson('Target nearby_stores_v1', 'an HTML page'),
    );
    expectStructureError(
      () => parseTargetNearbyStores('{"data":{"stores":[]}}'),
      'Target nearby_stores_v1: data.nearby_stores invalid input: expected object, received undefined',
    );
    expectStructureError(
      () => parseTargetNearbyStores(body([{ location_name: 'No id' }])),
      'Target nearby_stores_v1: data.nearby_stores.stores.0.store_id invalid input',
    );
    expectStructureError(
      () => parseTargetNearbyStores('{"data":{"nearby_stores":{"stores":[{"store_id":"1"'),
      notJson('Target nearby_stores_v1', 'unreadable text'),
    );
  });
});

describe('parseTargetSearch on the stand-in pages', () => {
  it('reads page 1 with its pagination, decoding entity-encoded titles and brands', () => {
    const page = parseTargetSearch(plpBody(0), STORE);
    expect(page.totalPages).toBe(2);
    expect(page.totalResults).toBe(29);
    expect(page.count).toBe(24);
    expect(page.nonProductTiles).toBe(0);
    expect(page).toMatchObject({ returned: 27, unsponsored: 24 });
    expect(page.listings.map((l) => l.retailerProductId)).toEqual(pageTcins(TARGET_CATALOGUE.slice(0, 24)));
    const regular = targetRegularPrice(item('gg-large-12'), ZIP);
    expect(page.listings[2]).toEqual({
      retailerProductId: '14713534',
      title: 'Grade A Large Eggs - 12ct - Good & Gather™ (Packaging May Vary)',
      brand: 'Good & Gather',
      price: regular,
      regularPrice: regular,
      sizeText: null,
      category: 'Eggs',
      url: 'https://www.target.com/p/grade-a-large-eggs-12ct-good-gather-packaging-may-vary/-/A-14713534',
      inStock: null,
    });
    const byTcin = new Map(page.listings.map((l) => [l.retailerProductId, l]));
    expect(byTcin.get('13474130')).toMatchObject({
      title: "Pete & Gerry's Organic Free-Range Large Brown Eggs - 12ct",
      brand: "Pete & Gerry's",
    });
    expect(byTcin.get('53397620')).toMatchObject({
      title: "Eggland's Best Cage Free Large Brown Eggs - 12ct",
      brand: "Eggland's Best",
    });
  });

  it('reads sale prices, a "was" price, a formatted-only price, a variation parent and an item without optional fields', () => {
    const byTcin = new Map(parseTargetSearch(plpBody(0)).listings.map((l) => [l.retailerProductId, l]));
    const current = targetRegularPrice(item('gg-large-18'), ZIP);
    expect(byTcin.get('14713536')).toMatchObject({ price: current, regularPrice: targetWasPrice(current) });
    expect(targetWasPrice(current)).toBeGreaterThan(current);
    for (const key of ['gg-cage-free-12', 'vital-farms-18']) {
      const regular = targetRegularPrice(item(key), ZIP);
      const listing = byTcin.get(item(key).tcin)!;
      expect(listing.price).toBe(targetSalePrice(regular));
      expect(listing.regularPrice).toBe(regular);
      expect(listing.price!).toBeLessThan(regular);
    }
    const nellies = targetRegularPrice(item('nellies-18'), ZIP);
    expect(byTcin.get('82150935')).toMatchObject({
      title: "Nellie's Free Range Large Brown Eggs - 18ct",
      price: nellies,
      regularPrice: nellies,
    });
    const variation = targetRegularPrice(item('vital-farms-organic-12'), ZIP);
    expect(byTcin.get('89011247')).toMatchObject({ price: variation, regularPrice: variation });
    const bare = targetRegularPrice(item('happy-egg-12'), ZIP);
    expect(byTcin.get('52164823')).toEqual({
      retailerProductId: '52164823',
      title: 'Happy Egg Free Range Large Brown Eggs - 12ct',
      brand: null,
      price: bare,
      regularPrice: bare,
      sizeText: null,
      category: null,
      url: 'https://www.target.com/p/-/A-52164823',
      inStock: null,
    });
    expect(byTcin.get('76627411')).toMatchObject({
      title: 'JUST Egg Plant-Based Scramble - 12 fl oz',
      brand: 'JUST',
      price: 4.99,
      category: 'Egg Substitutes',
    });
  });

  it('reads the last page', () => {
    const page = parseTargetSearch(plpBody(24));
    // The sponsored repeat of 13474125 right after its own result.
    expect(page.listings.map((l) => l.retailerProductId)).toEqual([
      '14925361',
      '81119052',
      '53847129',
      '80954517',
      '13016325',
      '13474125',
      '13474125',
      '53420219',
    ]);
    expect(page).toMatchObject({ totalPages: 2, returned: 8, unsponsored: 5 });
  });

  it('rejects the stand-in body of the "changed" scenario', () => {
    expectStructureError(
      () => parseTargetSearch(plpBody(0, SCENARIO_ZIPS.changed)),
      'Target plp_search_v2: data.search invalid input: expected object, received undefined',
    );
  });
});

describe('parseTargetSearch on documented variants', () => {
  const product = (
    overrides: Record<string, unknown> = {},
    price: Record<string, unknown> | null = {
      current_retail: 4.19,
      reg_retail: 4.19,
      formatted_current_price: '$4.19',
      formatted_current_price_type: 'reg',
    },
  ) => ({
    __typename: 'ProductSummary',
    tcin: '92186007',
    item: {
      product_description: { title: 'Grade A Large Eggs - 12ct - Good &#38; Gather&#8482;' },
      primary_brand: { name: 'Good &#38; Gather' },
      enrichment: { buy_url: 'https://www.target.com/p/grade-a-large-eggs-12ct-good-38-gather-8482/-/A-92186007' },
      product_classification: { item_type: { name: 'Eggs' } },
      fulfillment: {},
    },
    ...(price ? { price } : {}),
    ...overrides,
  });
  const body = (
    products: unknown[],
    metadata: Record<string, unknown> | null = {
      count: 24,
      current_page: 1,
      offset: 0,
      total_pages: 1,
      total_results: products.length,
    },
  ) => JSON.stringify({ data: { search: { search_response: metadata ? { metadata } : {}, products } } });
  const one = (p: unknown) => parseTargetSearch(body([p])).listings[0]!;

  it('decodes entities and builds the URL from buy_url', () => {
    expect(one(product())).toEqual({
      retailerProductId: '92186007',
      title: 'Grade A Large Eggs - 12ct - Good & Gather™',
      brand: 'Good & Gather',
      price: 4.19,
      regularPrice: 4.19,
      sizeText: null,
      category: 'Eggs',
      url: 'https://www.target.com/p/grade-a-large-eggs-12ct-good-38-gather-8482/-/A-92186007',
      inStock: null,
    });
    expect(
      one(
        product({
          tcin: 14713534,
          item: { product_description: { title: 'Eggs' }, enrichment: { buy_url: '/p/eggs/-/A-14713534?preselect=1' } },
        }),
      ),
    ).toMatchObject({
      retailerProductId: '14713534',
      url: 'https://www.target.com/p/eggs/-/A-14713534',
      brand: null,
      category: null,
    });
  });

  it('reads a captured sale item and the variation-parent and formatted forms', () => {
    expect(
      one(
        product(
          {},
          {
            current_retail: 10.29,
            reg_retail: 10.49,
            formatted_current_price: '$10.29',
            formatted_current_price_type: 'sale',
            formatted_comparison_price: '$10.49',
            formatted_comparison_price_type: 'reg',
            save_dollar: 0.2,
          },
        ),
      ),
    ).toMatchObject({ price: 10.29, regularPrice: 10.49 });
    expect(
      one(
        product(
          {},
          {
            formatted_current_price: '$3.29',
            formatted_current_price_type: 'sale',
            formatted_comparison_price: '$3.99',
            formatted_comparison_price_type: 'reg',
          },
        ),
      ),
    ).toMatchObject({ price: 3.29, regularPrice: 3.99 });
    expect(
      one(product({}, { formatted_current_price: '$3.29', formatted_current_price_type: 'clearance' })),
    ).toMatchObject({ price: 3.29, regularPrice: null });
    expect(one(product({}, { current_retail: 5.49 }))).toMatchObject({ price: 5.49, regularPrice: 5.49 });
    expect(
      one(
        product(
          {},
          {
            current_retail_min: 4.99,
            current_retail_max: 6.99,
            reg_retail_max: 6.99,
            formatted_current_price: '$4.99 - $6.99',
          },
        ),
      ),
    ).toMatchObject({ price: 4.99, regularPrice: 4.99 });
    expect(
      one(
        product(
          {},
          {
            current_retail_min: 4.99,
            current_retail_max: 6.49,
            reg_retail_max: 6.99,
            formatted_current_price_type: 'sale',
          },
        ),
      ),
    ).toMatchObject({ price: 4.99, regularPrice: 6.99 });
    expect(one(product({}, { current_retail_min: 4.49, reg_retail_min: 4.99, reg_retail_max: 6.99 }))).toMatchObject({
      price: 4.49,
      regularPrice: 4.99,
    });
    expect(one(product({}, null))).toMatchObject({ price: null, regularPrice: null });
    expect(
      one(product({}, { formatted_current_price: 'See price in cart', formatted_current_price_type: 'reg' })),
    ).toMatchObject({ price: null, regularPrice: null });
  });

  it('counts the products that are not flagged sponsored (a missing key is false) for the offset', () => {
    const page = parseTargetSearch(
      body([
        product({ is_sponsored_sku: true, tcin: '1' }),
        product({ is_sponsored_sku: false, tcin: '2' }),
        product({ tcin: '3' }),
        { __typename: 'SponsoredTile', is_sponsored_sku: true },
      ]),
    );
    expect(page.listings.map((l) => l.retailerProductId)).toEqual(['1', '2', '3']);
    expect(page).toMatchObject({ returned: 4, unsponsored: 2, nonProductTiles: 1 });
  });

  it('takes a displayed "was" price of type reg as the regular price, never an MSRP', () => {
    const was = {
      current_retail: 4.69,
      reg_retail: 4.69,
      formatted_current_price: '$4.69',
      formatted_current_price_type: 'reg',
      formatted_comparison_price: '$5.19',
      formatted_comparison_price_type: 'reg',
      display_was_now: true,
      save_dollar: 0.5,
    };
    expect(one(product({}, was))).toMatchObject({ price: 4.69, regularPrice: 5.19 });
    expect(one(product({}, { ...was, display_was_now: false }))).toMatchObject({ price: 4.69, regularPrice: 4.69 });
    expect(one(product({}, { ...was, formatted_comparison_price_type: 'MSRP' }))).toMatchObject({
      price: 4.69,
      regularPrice: 4.69,
    });
    expect(one(product({}, { ...was, formatted_comparison_price: '$4.19' }))).toMatchObject({
      price: 4.69,
      regularPrice: 4.69,
    });
    const { reg_retail: _, ...noReg } = was;
    expect(
      one(product({}, { ...noReg, formatted_comparison_price_type: 'MSRP', formatted_current_price_type: 'sale' })),
    ).toMatchObject({ price: 4.69, regularPrice: null });
  });

  it('marks an item priced at another location than the store as not on its shelf', () => {
    const at = (location_id: unknown) => ({
      current_retail: 4.19,
      reg_retail: 4.19,
      formatted_current_price_type: 'reg',
      location_id,
    });
    const read = (storeId: string | null, ...locations: unknown[]) =>
      parseTargetSearch(
        body(locations.map((location, i) => product({ tcin: String(i) }, at(location)))),
        storeId,
      ).listings.map((l) => l.notOnShelf ?? null);
    expect(read('1771', 1771, '1771', 3991, '01771', undefined, null)).toEqual([
      null,
      null,
      'online-only',
      null,
      null,
      null,
    ]);
    expect(read(null, 1771, 3991)).toEqual([null, null]);
  });

  it('reads the pagination fields that are present', () => {
    const page = parseTargetSearch(body([product()], { total_results: '61', count: 24 }));
    expect(page).toMatchObject({ totalPages: null, totalResults: 61, count: 24 });
    expect(parseTargetSearch(body([product()], null))).toMatchObject({
      totalPages: null,
      totalResults: null,
      count: null,
    });
  });

  it('accepts a recognised page with an empty products array', () => {
    expect(parseTargetSearch(body([]))).toMatchObject({ listings: [], nonProductTiles: 0, returned: 0 });
  });

  it('rejects a body without a data.search.products array (not zero listings)', () => {
    expectStructureError(
      () =>
        parseTargetSearch(
          JSON.stringify({ data: { search: { search_response: { metadata: { total_results: 0 } } } } }),
        ),
      'Target plp_search_v2: data.search.products invalid input: expected array, received undefined',
    );
    expectStructureError(
      () => parseTargetSearch(JSON.stringify({ data: { search: { search_response: {}, products: null } } })),
      'Target plp_search_v2: data.search.products invalid input: expected array, received null',
    );
    expectStructureError(
      () => parseTargetSearch(JSON.stringify({ data: { search: { search_response: {}, products: { items: [] } } } })),
      'Target plp_search_v2: data.search.products invalid input: expected array, received object',
    );
  });

  it('counts a product without a readable title as a non-product tile', () => {
    const page = parseTargetSearch(
      body([
        product({ tcin: '1', item: { title: 'Eggs' } }),
        product({ tcin: '2', item: { product_description: { title: '' } } }),
        product({ tcin: '3', item: { product_description: { title: 42 } } }),
        { __typename: 'SponsoredTile', is_sponsored_sku: true },
        product(),
        product({ tcin: '4', item: { product_description: { title: ' &nbsp; ' } } }),
      ]),
    );
    expect(page.listings.map((l) => l.retailerProductId)).toEqual(['92186007']);
    expect(page.nonProductTiles).toBe(5);
    expect(page.returned).toBe(6);
  });

  it('rejects other structures', () => {
    expectStructureError(
      () => parseTargetSearch('<!DOCTYPE html><html><body>Oops</body></html>'),
      notJson('Target plp_search_v2', 'an HTML page'),
    );
    expectStructureError(
      () => parseTargetSearch('{"data":{"search":{"search_response":'),
      notJson('Target plp_search_v2', 'unreadable text'),
    );
    expectStructureError(
      () => parseTargetSearch(JSON.stringify({ data: { search: { products: [] } } })),
      'Target plp_search_v2: data.search.search_response invalid input: expected object, received undefined',
    );
    expectStructureError(
      () => parseTargetSearch(body([product({ tcin: undefined })])),
      'Target plp_search_v2: data.search.products.0.tcin invalid input',
    );
    expectStructureError(
      () =>
        parseTargetSearch(body([product({ item: { product_description: { title: 'Eggs' }, primary_brand: 'Acme' } })])),
      'Target plp_search_v2: data.search.products.0.item.primary_brand invalid input: expected object, received string',
    );
    expectStructureError(
      () => parseTargetSearch(JSON.stringify({ errors: [{ message: 'No query' }] })),
      'Target plp_search_v2: data invalid input: expected object, received undefined',
    );
  });

  it('targetPrices answers nulls without a price object', () => {
    expect(targetPrices(undefined)).toEqual({ price: null, regularPrice: null });
  });
});

describe('parseTargetFulfillment', () => {
  const summary = (tcin: string, fulfillment: unknown) => ({ tcin, fulfillment });
  const body = (...summaries: unknown[]) => JSON.stringify({ data: { product_summaries: summaries } });
  const option = (location_id: string, status: string) => ({
    location_id,
    in_store_only: { availability_status: status },
    order_pickup: { availability_status: status },
  });

  it('reads the stand-in answer', () => {
    const tcins = ['14713534', '14925361', '47087163', '13474130', '50372145'];
    const stock = parseTargetFulfillment(
      standIn(`${AGG}product_summary_with_fulfillment_v1`, {
        key: KEY,
        tcins: tcins.join(','),
        store_id: STORE,
        zip: ZIP,
      }).body,
      STORE,
    );
    expect([...stock.entries()]).toEqual([
      ['14713534', true],
      ['14925361', false],
      ['47087163', true],
      ['13474130', false],
    ]);
  });

  it('reads the captured body and the documented flags', () => {
    const captured = {
      is_out_of_stock_in_all_store_locations: false,
      sold_out: false,
      shipping_options: { availability_status: 'IN_STOCK' },
      store_options: [
        {
          location_id: '1771',
          store: { location_name: 'Cedar Rapids South' },
          order_pickup: { availability_status: 'IN_STOCK', pickup_date: '2026-07-07' },
          in_store_only: { availability_status: 'IN_STOCK' },
          location_available_to_promise_quantity: 1.0,
        },
      ],
      scheduled_delivery: { availability_status: 'IN_STOCK' },
    };
    const stock = parseTargetFulfillment(
      body(
        summary('88440369', captured),
        summary('1', { is_out_of_stock_in_all_store_locations: true, store_options: [option('1771', 'IN_STOCK')] }),
        summary('2', { sold_out: true }),
        summary('3', { store_options: [option('999', 'IN_STOCK'), option('1771', 'OUT_OF_STOCK')] }),
        summary('4', { store_options: [option('999', 'LIMITED_STOCK')] }),
        summary('4b', { store_options: [option('999', 'OUT_OF_STOCK')], sold_out: false }),
        summary('5', { sold_out: false, store_options: [option('1771', 'SOMETHING_NEW')] }),
        summary('6', null),
        { tcin: 7 },
      ),
      '1771',
    );
    expect(Object.fromEntries(stock)).toEqual({
      '88440369': true,
      '1': false,
      '2': false,
      '3': false,
      '4': null,
      '4b': null,
      '5': null,
      '6': null,
      '7': null,
    });
  });

  it('reads our store: in_store_only, then order_pickup, then location_available_to_promise_quantity', () => {
    const store = (fields: Record<string, unknown>) => ({ location_id: 1771, ...fields });
    const stock = parseTargetFulfillment(
      body(
        summary('a', {
          store_options: [
            store({
              in_store_only: { availability_status: 'OUT_OF_STOCK' },
              order_pickup: { availability_status: 'IN_STOCK' },
              location_available_to_promise_quantity: 5,
            }),
          ],
        }),
        summary('b', {
          store_options: [
            store({
              in_store_only: { availability_status: 'SOMETHING_NEW' },
              order_pickup: { availability_status: 'IN_STOCK' },
              location_available_to_promise_quantity: 0,
            }),
          ],
        }),
        summary('c', {
          store_options: [store({ in_store_only: null, order_pickup: { availability_status: 'UNAVAILABLE' } })],
        }),
        summary('d', {
          store_options: [store({ in_store_only: {}, order_pickup: {}, location_available_to_promise_quantity: 3.0 })],
        }),
        summary('e', { store_options: [store({ location_available_to_promise_quantity: 0 })] }),
        summary('f', { store_options: [store({ location_available_to_promise_quantity: '2' })] }),
        summary('g', { store_options: [store({})] }),
        summary('h', {
          sold_out: true,
          store_options: [store({ in_store_only: { availability_status: 'IN_STOCK' } })],
        }),
        summary('i', {
          store_options: [
            store({
              in_store_only: { availability_status: 'UNAVAILABLE' },
              order_pickup: { availability_status: 'UNAVAILABLE' },
              location_available_to_promise_quantity: 0,
            }),
          ],
        }),
        summary('j', {
          store_options: [
            store({
              in_store_only: { availability_status: 'UNAVAILABLE' },
              order_pickup: { availability_status: 'IN_STOCK' },
            }),
          ],
        }),
      ),
      '1771',
    );
    // c: UNAVAILABLE is the pickup service's state, not the stock (see the real-body test).
    expect(Object.fromEntries(stock)).toEqual({
      a: false,
      b: true,
      c: null,
      d: true,
      e: false,
      f: true,
      g: null,
      h: true,
      i: false,
      j: true,
    });
  });

  it("never uses another store's stock: null unless out everywhere or sold out", () => {
    const elsewhere = [option('999', 'IN_STOCK'), option('888', 'OUT_OF_STOCK')];
    const read = (storeId: string | null) =>
      Object.fromEntries(
        parseTargetFulfillment(
          body(
            summary('x', { store_options: elsewhere }),
            summary('y', { store_options: elsewhere, is_out_of_stock_in_all_store_locations: true }),
            summary('z', { store_options: elsewhere, sold_out: true }),
            summary('w', { store_options: [] }),
          ),
          storeId,
        ),
      );
    expect(read('1771')).toEqual({ x: null, y: false, z: false, w: null });
    expect(read(null)).toEqual({ x: null, y: false, z: false, w: null });
  });

  it('rejects other structures', () => {
    expectStructureError(
      () => parseTargetFulfillment('{"data":{"product_summary":[]}}', null),
      'Target product_summary_with_fulfillment_v1: data.product_summaries invalid input: expected array, received undefined',
    );
    expectStructureError(
      () => parseTargetFulfillment('<html></html>', null),
      notJson('Target product_summary_with_fulfillment_v1', 'an HTML page'),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Against the stand-in server

const serve = standInServers();

const contextFor = (server: StandInServer, credentials: RetailerCredentials = {}, maxPages = 10) =>
  standInContext(target, server.url, { transport: standInTransport, credentials, maxPages });

const collect = (location: RetailerLocation, zip: string, ctx: ScrapeContext) =>
  listingPages(target, location, zip, ctx);

const endpoint = (path: string) => path.replace(/^\/redsky_aggregations\/v1\//, '');
const calls = (server: StandInServer) => server.requests.map((r) => `${r.status} ${r.host} ${endpoint(r.path)}`);
const queryOf = (server: StandInServer, name: string, index = 0) =>
  new URLSearchParams(server.requests.filter((r) => r.path.endsWith(name))[index]!.query);

let server: StandInServer;
beforeAll(async () => {
  server = await serve([targetStandIn]);
});
beforeEach(() => server.reset());

// Through both transports: the HTTP-level behaviour must not depend on the client.
describe.each(TRANSPORTS)('target against the stand-in (%s)', (transport) => {
  beforeAll(() => {
    standInTransport = transport;
  });

  it('reads the web key once, locates the store and reads every page with its stock', async () => {
    const ctx = contextFor(server);
    const location = await target.locate(ZIP, ctx);
    expect(location).toMatchObject({
      retailerLocationId: STORE,
      name: 'New York Central',
      zip: ZIP,
      city: 'New York',
      state: 'NY',
    });
    const pages = await collect(location!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([27, 8]);
    const listings = pages.flatMap((p) => p.listings);
    expect(listings.map((l) => l.retailerProductId)).toEqual([
      ...pageTcins(TARGET_CATALOGUE.slice(0, 24)),
      ...pageTcins(TARGET_CATALOGUE.slice(24)),
    ]);
    for (const entry of [...TARGET_CATALOGUE, TARGET_SPONSORED_ONLY]) {
      const listing = listings.find((l) => l.retailerProductId === entry.tcin)!;
      const regular = targetRegularPrice(entry, ZIP);
      expect(listing.regularPrice).toBe(entry.variant === 'wasNow' ? targetWasPrice(regular) : regular);
      expect(listing.price).toBe(entry.variant === 'sale' ? targetSalePrice(regular) : regular);
      expect(listing.url).toMatch(new RegExp(`^https://www\\.target\\.com/p/.*A-${entry.tcin}$`));
      const stock = entry.stock ?? 'in';
      expect(listing.inStock).toBe(stock === 'missing' ? null : stock === 'in' || stock === 'limited');
    }
    expect(calls(server)).toEqual([
      '200 www.target.com /',
      '200 redsky.target.com web/nearby_stores_v1',
      '200 redsky.target.com web/plp_search_v2',
      '200 redsky.target.com web/product_summary_with_fulfillment_v1',
      '200 redsky.target.com web/plp_search_v2',
      '200 redsky.target.com web/product_summary_with_fulfillment_v1',
    ]);
    const nearby = queryOf(server, 'nearby_stores_v1');
    expect(Object.fromEntries(nearby)).toEqual({
      key: KEY,
      channel: 'WEB',
      place: ZIP,
      limit: '5',
      within: '100',
      visitor_id: expect.stringMatching(/^[0-9A-F]{32}$/),
      page: '/s/eggs',
    });
    const plp = Object.fromEntries(queryOf(server, 'plp_search_v2', 1));
    expect(plp).toEqual({
      key: KEY,
      keyword: 'eggs',
      page: '/s/eggs',
      channel: 'WEB',
      platform: 'desktop',
      count: '24',
      offset: '24',
      pricing_store_id: STORE,
      store_ids: STORE,
      scheduled_delivery_store_id: STORE,
      visitor_id: nearby.get('visitor_id'),
      default_purchasability_filter: 'true',
      include_sponsored: 'true',
      include_dmc_dmr: 'true',
      zip: ZIP,
    });
    const stock = Object.fromEntries(queryOf(server, 'product_summary_with_fulfillment_v1', 1));
    expect(stock).toEqual({
      key: KEY,
      visitor_id: nearby.get('visitor_id'),
      // Each tcin once: the sponsored tiles repeat 14925361 and 13474125.
      tcins: '14925361,81119052,53847129,80954517,13016325,13474125,53420219',
      store_id: STORE,
      pricing_store_id: STORE,
      required_store_id: STORE,
      scheduled_delivery_store_id: STORE,
      zip: ZIP,
      channel: 'WEB',
      page: '/p/A-14925361',
    });

    // The key is kept for the run: a second ZIP does not read the home page again.
    await target.locate('60611', ctx);
    expect(server.requests.filter((r) => r.path === '/')).toHaveLength(1);
  });

  it('records a sponsored repeat once and a product only advertised once, with the "was" price as the regular price', async () => {
    const outcome = await scrapeZip(target, ZIP, contextFor(server));
    expect(outcome.status).toBe('succeeded');
    // 35 tiles: 29 results and 6 sponsored, of which 5 repeat a product already read.
    expect(outcome.listingsSeen).toBe(35);
    expect(outcome.skipped.duplicate).toBe(5);
    const accepted = outcome.accepted.map((l) => l.retailerProductId);
    expect(new Set(accepted).size).toBe(accepted.length);
    expect(accepted.filter((id) => id === TARGET_SPONSORED_ONLY.tcin)).toHaveLength(1);
    expect(accepted).toContain(item('vital-farms-12').tcin);
    expect(accepted).toContain(item('egglands-organic-12').tcin);
    const current = targetRegularPrice(item('gg-large-18'), ZIP);
    expect(outcome.accepted.find((l) => l.retailerProductId === '14713536')).toMatchObject({
      price: current,
      regularPrice: targetWasPrice(current),
    });
    expect(outcome.location).toMatchObject({ state: 'NY', latitude: null, longitude: null });
  });

  it('uses TARGET_API_KEY without reading the home page', async () => {
    const ctx = contextFor(server, { targetApiKey: KEY });
    expect((await target.locate(ZIP, ctx))?.retailerLocationId).toBe(STORE);
    expect(calls(server)).toEqual(['200 redsky.target.com web/nearby_stores_v1']);
  });

  it('fails with the 401 of a wrong configured key', async () => {
    const error = await failure(target.locate(ZIP, contextFor(server, { targetApiKey: 'f'.repeat(40) })));
    expect(error.kind).toBe('http');
    expect(error.message).toBe('Target refused the credentials (HTTP 401)');
  });

  it('fails with a ConfigError when target.com carries no key', async () => {
    const noKey: RetailerStandIn = {
      store: 'target',
      handle: (req, state) =>
        req.path === '/' ? html('<html><body>Target</body></html>') : targetStandIn.handle(req, state),
    };
    const local = await serve([noKey]);
    const error = await failure(target.locate(ZIP, contextFor(local)));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe("Target's web API key was not found on target.com; set TARGET_API_KEY");
  });

  it('reads the key again once when RedSky refuses the one read earlier in the run', async () => {
    let currentKey = 'a'.repeat(40);
    const rotating: RetailerStandIn = {
      store: 'target',
      handle(req, state) {
        if (req.path === '/')
          return html(`<script>window.__CONFIG__={"services":{"redsky":{"apiKey":"${currentKey}"}}}</script>`);
        if (req.query.get('key') !== currentKey) return json({ errors: [{ message: 'Unauthorized' }] }, 401);
        const query = new URLSearchParams(req.query);
        query.set('key', KEY);
        return targetStandIn.handle({ ...req, query }, state);
      },
    };
    const local = await serve([rotating]);
    const ctx = contextFor(local);
    const location = await target.locate(ZIP, ctx);
    currentKey = 'b'.repeat(40);
    const pages = await collect(location!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([27, 8]);
    expect(calls(local).slice(0, 5)).toEqual([
      '200 www.target.com /',
      '200 redsky.target.com web/nearby_stores_v1',
      '401 redsky.target.com web/plp_search_v2',
      '200 www.target.com /',
      '200 redsky.target.com web/plp_search_v2',
    ]);
  });

  it('retries the older web_platform path after a 404', async () => {
    const older: RetailerStandIn = {
      store: 'target',
      handle(req, state) {
        if (req.path.endsWith('/v1/web/nearby_stores_v1')) return json({ message: 'Not Found' }, 404);
        if (req.path.endsWith('/v1/web_platform/nearby_stores_v1'))
          return targetStandIn.handle({ ...req, path: `${AGG}nearby_stores_v1` }, state);
        return targetStandIn.handle(req, state);
      },
    };
    const local = await serve([older]);
    expect((await target.locate(ZIP, contextFor(local)))?.retailerLocationId).toBe(STORE);
    expect(calls(local)).toEqual([
      '200 www.target.com /',
      '404 redsky.target.com web/nearby_stores_v1',
      '200 redsky.target.com web_platform/nearby_stores_v1',
    ]);
  });

  it('keeps the listings with inStock null when the stock call fails, but not when it is blocked', async () => {
    const failing = (status: number, body: string): RetailerStandIn => ({
      store: 'target',
      handle: (req, state) =>
        req.path.endsWith('product_summary_with_fulfillment_v1')
          ? { status, headers: { 'content-type': 'application/json' }, body }
          : targetStandIn.handle(req, state),
    });
    const broken = await serve([failing(400, '{"errors":[{"message":"bad tcins"}]}')]);
    let ctx = contextFor(broken);
    const pages = await collect((await target.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages.flatMap((p) => p.listings)).toHaveLength(35);
    expect(pages.flatMap((p) => p.listings).every((l) => l.inStock === null)).toBe(true);

    const garbled = await serve([failing(200, '{"data":{"summaries":[]}}')]);
    ctx = contextFor(garbled);
    const garbledPages = await collect((await target.locate(ZIP, ctx))!, ZIP, ctx);
    expect(garbledPages[0]!.listings.every((l) => l.inStock === null)).toBe(true);

    const blocked = await serve([
      failing(403, '<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>Access Denied</BODY></HTML>'),
    ]);
    ctx = contextFor(blocked);
    const error = await failure(collect((await target.locate(ZIP, ctx))!, ZIP, ctx));
    expect(error.kind).toBe('blocked');
  });

  /** The stand-in answering `size` products a page whatever count asks, its body then edited. */
  const sized = (
    size: number,
    edit: (body: {
      data: { search: { search_response: { metadata?: Record<string, unknown> }; products: unknown[] } };
    }) => void = () => {},
  ): RetailerStandIn => ({
    store: 'target',
    handle(req, state) {
      if (!req.path.endsWith('plp_search_v2')) return targetStandIn.handle(req, state);
      const query = new URLSearchParams(req.query);
      query.set('count', String(size));
      const response = targetStandIn.handle({ ...req, query }, state)!;
      if (response.status !== 200) return response;
      const parsed = JSON.parse(response.body) as Parameters<typeof edit>[0];
      edit(parsed);
      return { ...response, body: JSON.stringify(parsed) };
    },
  });
  const offsets = (local: StandInServer) =>
    local.requests
      .filter((r) => r.path.endsWith('plp_search_v2'))
      .map((r) => new URLSearchParams(r.query).get('offset'));

  const everyTcin = new Set([...TARGET_CATALOGUE, TARGET_SPONSORED_ONLY].map((i) => i.tcin));

  it('pages by the unsponsored products returned (page sizes 28 and 5), sponsored tiles on top', async () => {
    for (const [size, expected, expectedOffsets] of [
      [28, [31, 4], ['0', '28']],
      [5, [8, 8, 8, 8, 8, 7], ['0', '5', '10', '15', '20', '25']],
    ] as const) {
      const local = await serve([sized(size)]);
      const ctx = contextFor(local);
      const pages = await collect((await target.locate(ZIP, ctx))!, ZIP, ctx);
      expect(pages.map((p) => p.listings.length)).toEqual(expected);
      expect(new Set(pages.flatMap((p) => p.listings.map((l) => l.retailerProductId)))).toEqual(everyTcin);
      expect(offsets(local)).toEqual(expectedOffsets);
    }
  });

  it('stops by total_results when present, before total_pages', async () => {
    // total_pages as if pages were 24 long while the server answers 5 a page.
    const local = await serve([
      sized(5, (b) => Object.assign(b.data.search.search_response.metadata!, { total_pages: 2 })),
    ]);
    const ctx = contextFor(local);
    const pages = await collect((await target.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages).toHaveLength(6);
    expect(new Set(pages.flatMap((p) => p.listings.map((l) => l.retailerProductId)))).toEqual(everyTcin);
  });

  it('stops by total_pages without total_results', async () => {
    const local = await serve([sized(28, (b) => delete b.data.search.search_response.metadata!.total_results)]);
    const ctx = contextFor(local);
    const pages = await collect((await target.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([31, 4]);
    expect(offsets(local)).toEqual(['0', '28']);
  });

  it('stops on a short or empty page without metadata', async () => {
    for (const [size, expected] of [
      [5, [5, 5, 5, 5, 5, 4]],
      [24, [24, 5]],
      [29, [29, 0]],
    ] as const) {
      const local = await serve([
        {
          store: 'target',
          handle(req, state) {
            // A stand-in without the count bound nor metadata: `size` products a page.
            if (!req.path.endsWith('plp_search_v2')) return targetStandIn.handle(req, state);
            const offset = Number(req.query.get('offset'));
            const all = JSON.parse(
              targetStandIn.handle(
                { ...req, query: new URLSearchParams({ ...Object.fromEntries(req.query), count: '28', offset: '0' }) },
                state,
              )!.body,
            ) as { data: { search: { products: unknown[] } } };
            const rest = JSON.parse(
              targetStandIn.handle(
                { ...req, query: new URLSearchParams({ ...Object.fromEntries(req.query), count: '28', offset: '28' }) },
                state,
              )!.body,
            ) as { data: { search: { products: unknown[] } } };
            const results = (page: { data: { search: { products: unknown[] } } }) =>
              page.data.search.products.filter((p) => (p as { is_sponsored_sku?: boolean }).is_sponsored_sku !== true);
            const products = [...results(all), ...results(rest)].slice(offset, offset + size);
            return json({ data: { search: { search_response: {}, products } } });
          },
        },
      ]);
      const ctx = contextFor(local);
      const pages = await collect((await target.locate(ZIP, ctx))!, ZIP, ctx);
      expect(pages.map((p) => p.listings.length)).toEqual(expected);
    }
  });

  it('fails the first page when it has products but not one with a readable title', async () => {
    const local = await serve([
      sized(24, (b) => {
        for (const product of b.data.search.products as { item: Record<string, unknown> }[])
          product.item.product_description = { bullet_descriptions: [] };
      }),
    ]);
    const ctx = contextFor(local);
    const error = await failure(collect((await target.locate(ZIP, ctx))!, ZIP, ctx));
    expect(error).toBeInstanceOf(StructureError);
    expect(error.message).toBe(
      'page structure not recognised (Target plp_search_v2: 27 products but not one with a readable title)',
    );
  });

  it('stops at ctx.maxPages', async () => {
    const ctx = contextFor(server, {}, 1);
    const pages = await collect((await target.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages).toHaveLength(1);
    expect(server.requests.filter((r) => r.path.endsWith('plp_search_v2'))).toHaveLength(1);
  });
});
