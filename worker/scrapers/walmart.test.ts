import { TRANSPORTS, type TransportName } from '#shared/egress.ts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createState, type StandInServer } from '../../test/retailers/http-server.ts';
import { SCENARIO_ZIPS } from '../../test/retailers/scenarios.ts';
import { html, json, type RetailerStandIn, type StandInRequest } from '../../test/retailers/types.ts';
import {
  WALMART_CAROUSEL_REPEATS,
  WALMART_CATALOGUE,
  WALMART_DEFAULT_ZIP,
  WALMART_OFF_SHELF,
  WALMART_SPONSORED_REPEAT,
  walmartRegularPrice,
  walmartRollbackPrice,
  walmartStandIn,
  walmartStoreIdForZip,
  type WalmartStandInItem,
} from '../../test/retailers/walmart.ts';
import {
  ScrapeError,
  StructureError,
  type ListingPage,
  type RawListing,
  type RetailerLocation,
  type ScrapeContext,
} from './types.ts';
import {
  parseWalmartPageLocation,
  parseWalmartSearchPage,
  parseWalmartServiceAvailability,
  walmart,
  walmartBrand,
} from './walmart.ts';
import {
  listingPages,
  scrapeFailure as failure,
  standInContext,
  standInServers,
} from '../../test/retailers/scraping.ts';

/** The transport of the stand-in suites (each runs with both). */
let standInTransport: TransportName = 'got-scraping';

const ZIP = '10001';
const STORE = walmartStoreIdForZip(ZIP);

function request(path: string, query: Record<string, string>, cookies: Record<string, string> = {}): StandInRequest {
  return {
    method: 'GET',
    path,
    query: new URLSearchParams(query),
    headers: {},
    body: '',
    host: 'www.walmart.com',
    cookies,
  };
}

function standInBody(path: string, query: Record<string, string>, cookies: Record<string, string> = {}): string {
  const response = walmartStandIn.handle(request(path, query, cookies), createState());
  if (!response) throw new Error(`no stand-in answer for ${path}`);
  return response.body;
}

const searchBody = (page: number, zip = ZIP) =>
  standInBody('/search', {
    q: 'eggs',
    page: String(page),
    affinityOverride: 'default',
    stores: walmartStoreIdForZip(zip),
  });
const item = (key: string): WalmartStandInItem => WALMART_CATALOGUE.find((i) => i.key === key)!;
/** The store's own listings of pages, each once, in the order first seen. */
const shelf = (listings: RawListing[]) => [
  ...new Set(listings.filter((l) => l.notOnShelf === undefined).map((l) => l.retailerProductId)),
];
const byId = (listings: RawListing[], id: string) => listings.find((l) => l.retailerProductId === id)!;
const catalogueIds = (items: WalmartStandInItem[]) => items.map((i) => i.usItemId).sort();
/** Page 1's tiles: the sponsored repeat, 8 products, 3 off-shelf offers and the carousel's 2 repeats. */
const PAGE_1_LISTINGS = 1 + 8 + WALMART_OFF_SHELF.length + WALMART_CAROUSEL_REPEATS.length;

function nextDataPage(data: unknown, attributes = ''): string {
  return `<!DOCTYPE html><html><head><title>eggs - Walmart.com</title></head><body><div id="__next"></div><script id="__NEXT_DATA__"${attributes}>${JSON.stringify(data)}</script></body></html>`;
}

function productTile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    __typename: 'Product',
    id: '2ABC',
    usItemId: '111',
    name: 'Great Value Large White Eggs, 12 Count',
    brand: null,
    canonicalUrl: '/ip/Great-Value-Large-White-Eggs-12-Count/111?classType=REGULAR&athbdg=L1600',
    price: 3.12,
    priceInfo: {
      itemPrice: '',
      linePrice: '$3.12',
      linePriceDisplay: '$3.12',
      wasPrice: '',
      savings: '',
      unitPrice: '26.0 ¢/ea',
      priceDisplayType: 'UNKNOWN',
    },
    availabilityStatusV2: { display: 'In stock', value: 'IN_STOCK' },
    isOutOfStock: false,
    catalogProductType: 'Eggs',
    ...overrides,
  };
}

const pageOf = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  props: {
    pageProps: {
      initialData: {
        searchResult: { itemStacks: [{ count: items.length, items }], paginationV2: { maxPage: 2 }, ...extra },
      },
    },
  },
});

const one = (tile: Record<string, unknown>): RawListing => {
  const listings = parseWalmartSearchPage(nextDataPage(pageOf([tile]))).listings;
  expect(listings).toHaveLength(1);
  return listings[0]!;
};

function expectStructureError(fn: () => unknown, detail: string) {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StructureError);
  expect((caught as Error).message).toBe(`page structure not recognised (${detail})`);
}

describe('parseWalmartSearchPage on the stand-in pages', () => {
  it('reads both stacks of page 1, skips ads and placeholders and names the served store', () => {
    const page = parseWalmartSearchPage(searchBody(1));
    expect(page.maxPage).toBe(3);
    expect(page.nonProductTiles).toBe(3);
    expect(page.totalResults).toBe(WALMART_CATALOGUE.length + WALMART_OFF_SHELF.length);
    expect(page.listings).toHaveLength(PAGE_1_LISTINGS);
    expect(shelf(page.listings).sort()).toEqual(catalogueIds(WALMART_CATALOGUE.slice(0, 8)));
    expect(page.location).toEqual({
      retailerLocationId: STORE,
      name: null,
      zip: ZIP,
      city: null,
      state: 'NY',
      address: null,
      latitude: null,
      longitude: null,
    });
    expect(byId(page.listings, '145051970')).toEqual({
      retailerProductId: '145051970',
      title: 'Great Value Large White Eggs, 12 Count',
      brand: 'Great Value',
      price: walmartRegularPrice(item('gv-white-12'), ZIP),
      regularPrice: walmartRegularPrice(item('gv-white-12'), ZIP),
      sizeText: null,
      category: 'Eggs',
      url: 'https://www.walmart.com/ip/Great-Value-Large-White-Eggs-12-Count/145051970',
      inStock: true,
      notOnShelf: undefined,
    });
  });

  it("tells marketplace sellers' offers and a ship-only item from the store's shelf, and repeats the sponsored and carousel tiles", () => {
    const page = parseWalmartSearchPage(searchBody(1));
    const [marketplace, priceless, shipOnly] = WALMART_OFF_SHELF;
    expect(byId(page.listings, marketplace!.usItemId)).toMatchObject({
      notOnShelf: 'marketplace',
      price: marketplace!.price,
      regularPrice: marketplace!.wasPrice,
    });
    expect(byId(page.listings, priceless!.usItemId)).toMatchObject({ notOnShelf: 'marketplace', price: null });
    expect(byId(page.listings, shipOnly!.usItemId)).toMatchObject({
      notOnShelf: 'online-only',
      price: shipOnly!.price,
    });
    const ids = page.listings.map((l) => l.retailerProductId);
    expect(ids.filter((id) => id === item(WALMART_SPONSORED_REPEAT).usItemId)).toHaveLength(2);
    for (const key of WALMART_CAROUSEL_REPEATS) expect(ids.filter((id) => id === item(key).usItemId)).toHaveLength(2);
  });

  it('reads a rollback, a price only in `price`, a price only in linePrice and an out-of-stock item', () => {
    const byId = new Map(
      parseWalmartSearchPage(searchBody(1))
        .listings.filter((l) => l.notOnShelf === undefined)
        .map((l) => [l.retailerProductId, l]),
    );
    const rollbackRegular = walmartRegularPrice(item('gv-cage-free-12'), ZIP);
    const rollback = byId.get('172844767')!;
    expect(rollback.price).toBe(walmartRollbackPrice(rollbackRegular));
    expect(rollback.regularPrice).toBe(rollbackRegular);
    expect(rollback.price!).toBeLessThan(rollbackRegular);

    const priceOnly = byId.get('262537816')!;
    expect(priceOnly.price).toBe(walmartRegularPrice(item('marketside-cf-brown-18'), ZIP));
    expect(priceOnly.regularPrice).toBe(priceOnly.price);
    expect(priceOnly.brand).toBe('Marketside');

    const linePriceOnly = byId.get('51259211')!;
    expect(linePriceOnly.price).toBe(walmartRegularPrice(item('marketside-organic-12'), ZIP));
    expect(linePriceOnly.title).toBe('Marketside Organic Cage Free Large Brown Eggs, 12 Count');

    const outOfStock = byId.get('44390948')!;
    expect(outOfStock.inStock).toBe(false);
    expect(outOfStock.brand).toBe('Vital Farms');

    const justEgg = byId.get('363872991')!;
    expect(justEgg).toMatchObject({
      title: 'JUST Egg Plant-Based Scramble, 12 fl oz',
      brand: 'JUST Egg',
      price: 4.98,
      category: 'Egg Substitutes',
      inStock: true,
    });
  });

  it('reads pages 2 and 3, including an item with no optional field', () => {
    const page2 = parseWalmartSearchPage(searchBody(2));
    const page3 = parseWalmartSearchPage(searchBody(3));
    expect(page2.listings.map((l) => l.retailerProductId)).toEqual(
      WALMART_CATALOGUE.slice(8, 16).map((i) => i.usItemId),
    );
    expect(page2.nonProductTiles).toBe(1);
    expect(page3.listings.map((l) => l.retailerProductId)).toEqual(WALMART_CATALOGUE.slice(16).map((i) => i.usItemId));
    const bare = page2.listings.find((l) => l.retailerProductId === '10450884')!;
    expect(bare).toEqual({
      retailerProductId: '10450884',
      title: "Eggland's Best Classic Large White Eggs Grade A, 18 Count",
      brand: "Eggland's Best",
      price: walmartRegularPrice(item('egglands-classic-18'), ZIP),
      regularPrice: walmartRegularPrice(item('egglands-classic-18'), ZIP),
      sizeText: null,
      category: null,
      url: 'https://www.walmart.com/ip/10450884',
      inStock: null,
      notOnShelf: undefined,
    });
    expect(page2.listings.find((l) => l.retailerProductId === '10295584')!.brand).toBe("Pete & Gerry's");
  });

  it('answers an empty result past the last page', () => {
    const page = parseWalmartSearchPage(searchBody(4));
    expect(page.listings).toEqual([]);
    expect(page.maxPage).toBe(3);
  });

  it('rejects the stand-in page of the "changed" scenario', () => {
    const body = standInBody('/search', { q: 'eggs', page: '1', stores: walmartStoreIdForZip(SCENARIO_ZIPS.changed) });
    expectStructureError(() => parseWalmartSearchPage(body), 'Walmart search data has no searchResult');
  });
});

describe('parseWalmartSearchPage on documented variants', () => {
  it('matches the __NEXT_DATA__ script by id, with or without a type attribute', () => {
    const data = pageOf([productTile()]);
    expect(parseWalmartSearchPage(nextDataPage(data)).listings).toHaveLength(1);
    expect(parseWalmartSearchPage(nextDataPage(data, ' type="application/json" nonce="x"')).listings).toHaveLength(1);
  });

  it('keeps only Product tiles with a usItemId', () => {
    const page = parseWalmartSearchPage(
      nextDataPage(
        pageOf([
          { __typename: 'AdPlaceholder', id: 'ad' },
          productTile(),
          { __typename: 'TileTakeOverProductPlaceholder' },
          productTile({ usItemId: null }),
          { __typename: 'Product', usItemId: '' },
        ]),
      ),
    );
    expect(page.listings.map((l) => l.retailerProductId)).toEqual(['111']);
    expect(page.nonProductTiles).toBe(4);
  });

  it('takes a tile with usItemId and name but no __typename as a product; only other typenames are not', () => {
    const untyped = productTile({ usItemId: '333' });
    delete untyped.__typename;
    const page = parseWalmartSearchPage(
      nextDataPage(
        pageOf([
          untyped,
          productTile({ __typename: null, usItemId: '444' }),
          { usItemId: '555' },
          { __typename: 'AdPlaceholder', usItemId: '666', name: 'Ad' },
          { __typename: 'SponsoredBrandTile', usItemId: '777', name: 'Eggs' },
        ]),
      ),
    );
    expect(page.listings.map((l) => l.retailerProductId)).toEqual(['333', '444']);
    expect(page.listings[0]).toMatchObject({
      title: 'Great Value Large White Eggs, 12 Count',
      price: 3.12,
      inStock: true,
    });
    expect(page.nonProductTiles).toBe(3);
  });

  it('reads maxPage as a number or a numeric string, and an unreadable paginationV2 as none', () => {
    const withPagination = (paginationV2: unknown) =>
      parseWalmartSearchPage(nextDataPage(pageOf([productTile()], { paginationV2 })));
    expect(withPagination({ maxPage: 3 }).maxPage).toBe(3);
    expect(withPagination({ maxPage: '3' }).maxPage).toBe(3);
    expect(withPagination({ maxPage: 'many' }).maxPage).toBeNull();
    expect(withPagination({ maxPage: 2.5 }).maxPage).toBeNull();
    expect(withPagination({ pageProperties: { page: '1' } }).maxPage).toBeNull();
    expect(withPagination('none').maxPage).toBeNull();
    expect(withPagination(null).listings).toHaveLength(1);
  });

  it('reads the largest stack count (total results), as a number or a numeric string', () => {
    const withCounts = (...counts: unknown[]) =>
      parseWalmartSearchPage(
        nextDataPage({
          props: {
            pageProps: {
              initialData: { searchResult: { itemStacks: counts.map((count) => ({ count, items: [productTile()] })) } },
            },
          },
        }),
      ).totalResults;
    expect(withCounts(66, 121)).toBe(121);
    expect(withCounts('40')).toBe(40);
    expect(withCounts(undefined, 0)).toBeNull();
    expect(withCounts('lots')).toBeNull();
  });

  it('iterates every stack', () => {
    const data = {
      props: {
        pageProps: {
          initialData: {
            searchResult: {
              itemStacks: [{ items: [productTile()] }, { items: [productTile({ usItemId: 222 })] }, { items: [] }],
            },
          },
        },
      },
    };
    const page = parseWalmartSearchPage(nextDataPage(data));
    expect(page.listings.map((l) => l.retailerProductId)).toEqual(['111', '222']);
    expect(page.maxPage).toBeNull();
    expect(page.location).toBeNull();
  });

  it('reads the listings of a page whose location is not the documented object', () => {
    const data = {
      props: {
        pageProps: {
          initialData: {
            pageMetadata: { location: 'Sacramento' },
            searchResult: { itemStacks: [{ items: [productTile()] }] },
          },
        },
      },
    };
    const page = parseWalmartSearchPage(nextDataPage(data));
    expect(page.listings).toHaveLength(1);
    expect(page.location).toBeNull();
  });

  it('reads the price from `price` first, then linePrice, and a wasPrice as the regular price', () => {
    expect(one(productTile({ price: 2.5, priceInfo: { linePrice: '$9.99' } })).price).toBe(2.5);
    expect(one(productTile({ price: undefined, priceInfo: { linePrice: '$4.12', wasPrice: '' } }))).toMatchObject({
      price: 4.12,
      regularPrice: 4.12,
    });
    expect(one(productTile({ price: null, priceInfo: { linePrice: 'Now $3.50', wasPrice: '$4.27' } }))).toMatchObject({
      price: 3.5,
      regularPrice: 4.27,
    });
    expect(
      one(productTile({ price: 159, priceInfo: { itemPrice: '$219.99', linePrice: '$159.00', wasPrice: '$219.99' } })),
    ).toMatchObject({ price: 159, regularPrice: 219.99 });
    expect(
      one(productTile({ price: undefined, priceInfo: { linePrice: '', wasPrice: '', unitPrice: '' } })),
    ).toMatchObject({ price: null, regularPrice: null });
    expect(one(productTile({ price: undefined, priceInfo: undefined }))).toMatchObject({
      price: null,
      regularPrice: null,
    });
  });

  it('takes a non-null brand as is, else a known brand the title starts with', () => {
    expect(one(productTile({ brand: 'Marketside', name: 'Cage Free Large Brown Eggs, 18 ct' })).brand).toBe(
      'Marketside',
    );
    expect(one(productTile({ name: 'Sauder&#39;s Eggs Grade A Large Brown, 12 Count' }))).toMatchObject({
      brand: "Sauder's",
      title: "Sauder's Eggs Grade A Large Brown, 12 Count",
    });
    expect(one(productTile({ name: 'Farm Fresh Large Eggs, 12 Count' })).brand).toBeNull();
    expect(walmartBrand(null, 'Pete and Gerry’s Organic Eggs, 12 Count')).toBe('Pete and Gerry’s');
    expect(walmartBrand(null, 'Great Valuex Eggs')).toBeNull();
    expect(walmartBrand(undefined, 'Land O Lakes Large Brown Eggs, 12 ct')).toBe('Land O Lakes');
    expect(walmartBrand(null, 'Simple Truth Organic Large Brown Eggs')).toBe('Simple Truth Organic');
  });

  it('reads stock from availabilityStatusV2, else isOutOfStock', () => {
    expect(one(productTile({ availabilityStatusV2: { value: 'OUT_OF_STOCK' }, isOutOfStock: false })).inStock).toBe(
      false,
    );
    expect(one(productTile({ availabilityStatusV2: undefined, isOutOfStock: true })).inStock).toBe(false);
    expect(one(productTile({ availabilityStatusV2: { value: 'LIMITED_STOCK' }, isOutOfStock: false })).inStock).toBe(
      true,
    );
    expect(one(productTile({ availabilityStatusV2: null, isOutOfStock: undefined })).inStock).toBeNull();
  });

  it('builds the product URL on www.walmart.com without the query string', () => {
    expect(one(productTile()).url).toBe('https://www.walmart.com/ip/Great-Value-Large-White-Eggs-12-Count/111');
    expect(one(productTile({ canonicalUrl: 'https://www.walmart.com/ip/Eggs/111?x=1' })).url).toBe(
      'https://www.walmart.com/ip/Eggs/111',
    );
    expect(one(productTile({ canonicalUrl: '' })).url).toBe('https://www.walmart.com/ip/111');
  });

  it('decodes entities in titles and reads catalogProductType as the category', () => {
    expect(
      one(productTile({ name: 'Marketside Free Range Eggs &amp; More,  12 ct', catalogProductType: 'Eggs' })),
    ).toMatchObject({ title: 'Marketside Free Range Eggs & More, 12 ct', category: 'Eggs' });
    expect(one(productTile({ catalogProductType: undefined })).category).toBeNull();
  });

  it('reads the GraphQL-shaped body: itemsV2 with a structured priceInfo', () => {
    const body = JSON.stringify({
      data: {
        search: {
          searchResult: {
            itemStacks: [
              {
                itemsV2: [
                  {
                    __typename: 'Product',
                    usItemId: '55',
                    name: 'Marketside Cage Free Large Brown Eggs, 18 ct',
                    priceInfo: {
                      currentPrice: { price: 5.48, priceString: '$5.48' },
                      unitPrice: { price: 0.304, priceString: '30.4 ¢/ea' },
                      wasPrice: { price: 5.98, priceString: '$5.98' },
                    },
                    canonicalUrl: '/ip/x/55?classType=VARIANT',
                  },
                  {
                    __typename: 'Product',
                    usItemId: '56',
                    name: 'Goya Red Kidney Beans, 15.5 oz',
                    priceInfo: { currentPrice: { price: 1.58, priceString: '$1.58' }, wasPrice: null },
                    catalogProductType: 'Canned & Jarred Beans & Legumes',
                  },
                  { __typename: 'AdPlaceholder' },
                ],
              },
            ],
          },
        },
        contentLayout: {
          pageMetadata: {
            location: {
              pickupStore: '4554',
              deliveryStore: '4554',
              intent: 'PICKUP',
              postalCode: '78757',
              stateOrProvinceCode: 'TX',
              city: 'Austin',
              storeId: '4554',
            },
          },
        },
      },
    });
    const page = parseWalmartSearchPage(body);
    expect(page.listings).toEqual([
      {
        retailerProductId: '55',
        title: 'Marketside Cage Free Large Brown Eggs, 18 ct',
        brand: 'Marketside',
        price: 5.48,
        regularPrice: 5.98,
        sizeText: null,
        category: null,
        url: 'https://www.walmart.com/ip/x/55',
        inStock: null,
      },
      {
        retailerProductId: '56',
        title: 'Goya Red Kidney Beans, 15.5 oz',
        brand: null,
        price: 1.58,
        regularPrice: 1.58,
        sizeText: null,
        category: 'Canned & Jarred Beans & Legumes',
        url: 'https://www.walmart.com/ip/56',
        inStock: null,
      },
    ]);
    expect(page.nonProductTiles).toBe(1);
    expect(page.maxPage).toBeNull();
    expect(page.location).toEqual({
      retailerLocationId: '4554',
      name: null,
      zip: '78757',
      city: 'Austin',
      state: 'TX',
      address: null,
      latitude: null,
      longitude: null,
    });
  });

  it('reads items[] of the page data too when a stack carries itemsV2 instead', () => {
    const data = {
      props: { pageProps: { initialData: { searchResult: { itemStacks: [{ itemsV2: [productTile()] }] } } } },
    };
    expect(parseWalmartSearchPage(nextDataPage(data)).listings.map((l) => l.retailerProductId)).toEqual(['111']);
  });
});

describe('parseWalmartSearchPage on bodies that are not the documented structure', () => {
  it('rejects a page without __NEXT_DATA__', () => {
    expectStructureError(
      () => parseWalmartSearchPage('<html><body><div class="search-results"></div></body></html>'),
      'Walmart search page has no __NEXT_DATA__ script',
    );
    expectStructureError(
      () => parseWalmartSearchPage('<script id="__NEXT_DATA_V2__">{}</script>'),
      'Walmart search page has no __NEXT_DATA__ script',
    );
  });

  it('rejects truncated JSON', () => {
    expectStructureError(
      () => parseWalmartSearchPage('<script id="__NEXT_DATA__">{"props":{"pageProps":</script>'),
      'Walmart search page: __NEXT_DATA__ is not valid JSON',
    );
    expectStructureError(() => parseWalmartSearchPage('{"data":{"search":'), 'Walmart search JSON is unreadable');
  });

  it('rejects missing or renamed keys', () => {
    expectStructureError(
      () => parseWalmartSearchPage(nextDataPage({ props: { pageProps: {} } })),
      'Walmart search data has no searchResult',
    );
    expectStructureError(
      () =>
        parseWalmartSearchPage(
          nextDataPage({ props: { pageProps: { initialData: { searchResult: { stacks: [] } } } } }),
        ),
      'Walmart searchResult: itemStacks invalid input: expected array, received undefined',
    );
    expectStructureError(
      () =>
        parseWalmartSearchPage(
          nextDataPage({ props: { pageProps: { initialData: { searchResult: { itemStacks: [{ tiles: [] }] } } } } }),
        ),
      'Walmart searchResult: itemStacks.0 has neither items nor itemsV2',
    );
    expectStructureError(
      () => parseWalmartSearchPage(nextDataPage(pageOf([productTile({ name: undefined, title: 'Eggs' })]))),
      'Walmart item 0.0: name invalid input: expected string, received undefined',
    );
    expectStructureError(
      () => parseWalmartSearchPage(nextDataPage(pageOf([productTile({ price: { amount: 3 } })]))),
      'Walmart item 0.0: price invalid input',
    );
  });
});

describe('parseWalmartServiceAvailability and parseWalmartPageLocation', () => {
  it('reads the first access point of the stand-in body', () => {
    expect(
      parseWalmartServiceAvailability(standInBody('/grocery/v4/api/serviceAvailability', { postalCode: ZIP })),
    ).toEqual({
      retailerLocationId: STORE,
      name: `Walmart Supercenter #${STORE}`,
      zip: ZIP,
      // The ZIP code's real city (test/retailers/places.ts).
      city: 'New York',
      state: 'NY',
      address: expect.stringMatching(/^\d+ Market St$/),
      latitude: null,
      longitude: null,
    });
  });

  it('reads the first access point that has an assortmentStoreId', () => {
    const body = JSON.stringify({
      accessPointList: [
        { accessPointType: 'DELIVERY_ADDRESS', name: 'Delivery' },
        { accessPointType: 'PICKUP_CURBSIDE', assortmentStoreId: '', name: 'Empty' },
        {
          accessPointType: 'PICKUP_INSTORE',
          assortmentStoreId: '5293',
          name: 'Walmart Supercenter #5293',
          address: { postalCode: '60611' },
        },
        { accessPointType: 'PICKUP_INSTORE', assortmentStoreId: '1111', name: 'Later' },
      ],
    });
    expect(parseWalmartServiceAvailability(body)).toMatchObject({
      retailerLocationId: '5293',
      name: 'Walmart Supercenter #5293',
      zip: '60611',
    });
  });

  it('answers null for an empty list and undefined for an unrecognised body', () => {
    expect(
      parseWalmartServiceAvailability(
        standInBody('/grocery/v4/api/serviceAvailability', { postalCode: SCENARIO_ZIPS.noStore }),
      ),
    ).toBeNull();
    expect(parseWalmartServiceAvailability('{"accessPointList":[]}')).toBeNull();
    expect(parseWalmartServiceAvailability('<html>Not found</html>')).toBeUndefined();
    expect(parseWalmartServiceAvailability('{"status":"MOVED"}')).toBeUndefined();
    expect(parseWalmartServiceAvailability('{"accessPointList":[{"storeId":"1"}]}')).toBeUndefined();
  });

  it('accepts a numeric store id and other address spellings', () => {
    expect(
      parseWalmartServiceAvailability(
        JSON.stringify({
          accessPointList: [
            {
              assortmentStoreId: 3081,
              accessPointName: 'Sacramento Supercenter',
              address: { addressLineOne: '8915 Gerber Road', city: 'Sacramento', state: 'ca', zipCode: '95829-0000' },
            },
          ],
        }),
      ),
    ).toEqual({
      retailerLocationId: '3081',
      name: 'Sacramento Supercenter',
      zip: '95829',
      city: 'Sacramento',
      state: 'CA',
      address: '8915 Gerber Road',
      latitude: null,
      longitude: null,
    });
  });

  it('reads a page location from storeId, pickupStore or deliveryStore', () => {
    expect(parseWalmartPageLocation({ pickupStore: '4554', postalCode: '78757' })).toMatchObject({
      retailerLocationId: '4554',
      zip: '78757',
    });
    expect(parseWalmartPageLocation({ deliveryStore: 12, stateOrProvinceCode: 'TX' })).toMatchObject({
      retailerLocationId: '12',
      zip: null,
      state: 'TX',
    });
    expect(parseWalmartPageLocation({ postalCode: '95829' })).toMatchObject({ retailerLocationId: null, zip: '95829' });
    expect(parseWalmartPageLocation({ intent: 'SHIPPING' })).toBeNull();
    expect(parseWalmartPageLocation(undefined)).toBeNull();
    expectStructureError(
      () => parseWalmartPageLocation('95829'),
      'Walmart pageMetadata.location is not an object of the documented fields',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Against the stand-in server

const serve = standInServers();

const contextFor = (server: StandInServer, maxPages = 10) =>
  standInContext(walmart, server.url, { transport: standInTransport, maxPages });

const collect = (location: RetailerLocation, zip: string, ctx: ScrapeContext) =>
  listingPages(walmart, location, zip, ctx);

const paths = (server: StandInServer) => server.requests.map((r) => `${r.status} ${r.host} ${r.path}${r.query}`);

let server: StandInServer;
beforeAll(async () => {
  server = await serve([walmartStandIn]);
});
beforeEach(() => server.reset());

// Through both transports: the HTTP-level behaviour must not depend on the client.
describe.each(TRANSPORTS)('walmart against the stand-in (%s)', (transport) => {
  beforeAll(() => {
    standInTransport = transport;
  });

  it('locates the store of an ordinary ZIP and reads every page of its listings', async () => {
    const ctx = contextFor(server);
    const location = await walmart.locate(ZIP, ctx);
    expect(location).toMatchObject({
      retailerLocationId: STORE,
      name: `Walmart Supercenter #${STORE}`,
      zip: ZIP,
      state: 'NY',
    });
    const pages = await collect(location!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([PAGE_1_LISTINGS, 8, 3]);
    expect(pages.map((p) => p.nonProductTiles)).toEqual([3, 1, 1]);
    const listings = pages.flatMap((p) => p.listings);
    expect(shelf(listings).sort()).toEqual(catalogueIds(WALMART_CATALOGUE));
    for (const entry of WALMART_CATALOGUE) {
      const listing = listings.find((l) => l.retailerProductId === entry.usItemId)!;
      const regular = walmartRegularPrice(entry, ZIP);
      expect(listing.title).toBe(entry.name);
      expect(listing.regularPrice).toBe(regular);
      expect(listing.price).toBe(entry.variant === 'rollback' ? walmartRollbackPrice(regular) : regular);
      expect(listing.url).toMatch(new RegExp(`^https://www\\.walmart\\.com/ip/(.+/)?${entry.usItemId}$`));
      expect(listing.inStock).toBe(entry.variant === 'outOfStock' ? false : entry.variant === 'bare' ? null : true);
    }
    expect(paths(server)).toEqual([
      `200 www.walmart.com /grocery/v4/api/serviceAvailability?postalCode=${ZIP}`,
      `200 www.walmart.com /search?q=eggs&page=1&sort=best_match&affinityOverride=default&stores=${STORE}`,
      `200 www.walmart.com /search?q=eggs&page=2&sort=best_match&affinityOverride=default&stores=${STORE}`,
      `200 www.walmart.com /search?q=eggs&page=3&sort=best_match&affinityOverride=default&stores=${STORE}`,
    ]);
  });

  it('pins the store with the assortmentStoreId cookie alone', async () => {
    const body = standInBody(
      '/search',
      { q: 'eggs', page: '1' },
      { assortmentStoreId: walmartStoreIdForZip('60611'), hasLocData: '1' },
    );
    const page = parseWalmartSearchPage(body);
    expect(page.location?.zip).toBe('60611');
    expect(byId(page.listings, '145051970').price).toBe(walmartRegularPrice(item('gv-white-12'), '60611'));
  });

  it('stops at ctx.maxPages', async () => {
    const ctx = contextFor(server, 2);
    const pages = await collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages).toHaveLength(2);
    expect(server.requests.filter((r) => r.path === '/search')).toHaveLength(2);
  });

  const rewriting = (rewrite: (body: string, req: StandInRequest) => string): RetailerStandIn => ({
    store: 'walmart',
    handle(req, state) {
      const response = walmartStandIn.handle(req, state);
      if (!response || req.path !== '/search') return response;
      return { ...response, body: rewrite(response.body, req) };
    },
  });
  const withoutPagination = (body: string) =>
    body.replace(/"paginationV2":\{"maxPage":\d+,"pageProperties":\{[^}]*\}\},/, '');
  const withoutCounts = (body: string) =>
    body.replace(/"(?:count|aggregatedCount)":\d+,/g, '').replace(/,"(?:count|aggregatedCount)":\d+/g, '');
  const searchPages = (local: StandInServer) =>
    local.requests.filter((r) => r.path === '/search').map((r) => new URLSearchParams(r.query).get('page'));

  it('stops when the results read, each once, reach the total when the page has no paginationV2', async () => {
    const local = await serve([rewriting(withoutPagination)]);
    const ctx = contextFor(local);
    const pages = await collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([PAGE_1_LISTINGS, 8, 3]);
    expect(searchPages(local)).toEqual(['1', '2', '3']);
  });

  it('stops on an empty page when the page has neither paginationV2 nor a count', async () => {
    const local = await serve([rewriting((body) => withoutCounts(withoutPagination(body)))]);
    const ctx = contextFor(local);
    const pages = await collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([PAGE_1_LISTINGS, 8, 3, 0]);
    expect(searchPages(local)).toEqual(['1', '2', '3', '4']);
  });

  it('stops at the count (total results) even when maxPage says more', async () => {
    const local = await serve([rewriting((body) => body.replace(/"maxPage":\d+/, '"maxPage":25'))]);
    const ctx = contextFor(local);
    const pages = await collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([PAGE_1_LISTINGS, 8, 3]);
    expect(searchPages(local)).toEqual(['1', '2', '3']);
  });

  it('reads maxPage given as a numeric string', async () => {
    const local = await serve([rewriting((body) => withoutCounts(body).replace(/"maxPage":\d+/, '"maxPage":"2"'))]);
    const ctx = contextFor(local);
    const pages = await collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([PAGE_1_LISTINGS, 8]);
    expect(searchPages(local)).toEqual(['1', '2']);
  });

  it('takes a 4xx past page 1 as the end of the results and keeps the pages read', async () => {
    for (const status of [404, 400, 410]) {
      const local = await serve([
        {
          store: 'walmart',
          handle: (req, state) =>
            req.path === '/search' && req.query.get('page') === '3'
              ? html('<html><body>Not here</body></html>', status)
              : walmartStandIn.handle(req, state),
        },
      ]);
      const ctx = contextFor(local);
      const pages = await collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx);
      expect(pages.map((p) => p.listings.length)).toEqual([PAGE_1_LISTINGS, 8]);
      expect(local.requests.filter((r) => r.path === '/search').map((r) => r.status)).toEqual([200, 200, status]);
    }
  });

  it('still fails on a 4xx of page 1 and on a 5xx past page 1', async () => {
    const firstMissing = await serve([
      {
        store: 'walmart',
        handle: (req, state) =>
          req.path === '/search' ? html('<html><body>Not here</body></html>', 404) : walmartStandIn.handle(req, state),
      },
    ]);
    let ctx = contextFor(firstMissing);
    let error = await failure(collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx));
    expect(error.kind).toBe('http');
    expect(error.message).toBe('Walmart answered HTTP 404 for /search');

    const broken = await serve([
      {
        store: 'walmart',
        handle: (req, state) =>
          req.path === '/search' && req.query.get('page') === '2'
            ? html('<html><body>Internal Server Error</body></html>', 500)
            : walmartStandIn.handle(req, state),
      },
    ]);
    ctx = contextFor(broken);
    error = await failure(collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx));
    expect(error.kind).toBe('http');
    expect(error.message).toBe('Walmart answered HTTP 500 after 4 attempts');
  });

  it('fails page 1 with tiles of which not one product could be read', async () => {
    const local = await serve([rewriting((body) => body.replace(/"usItemId":/g, '"itemId":'))]);
    const ctx = contextFor(local);
    const error = await failure(collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx));
    expect(error).toBeInstanceOf(StructureError);
    expect(error.message).toBe(
      `page structure not recognised (Walmart search page 1 has ${PAGE_1_LISTINGS + 3} tiles but not one product could be read)`,
    );
  });

  it('sends the ZIP cookie along with assortmentStoreId and hasLocData', async () => {
    const seen: Record<string, string>[] = [];
    const local = await serve([
      {
        store: 'walmart',
        handle(req, state) {
          if (req.path === '/search') seen.push(req.cookies);
          return walmartStandIn.handle(req, state);
        },
      },
    ]);
    const ctx = contextFor(local);
    await collect((await walmart.locate(ZIP, ctx))!, ZIP, ctx);
    expect(seen).toHaveLength(3);
    for (const cookies of seen) {
      expect(cookies).toMatchObject({ assortmentStoreId: STORE, hasLocData: '1', locGuestData: expect.any(String) });
      const guest = JSON.parse(Buffer.from(decodeURIComponent(cookies.locGuestData!), 'base64').toString('utf8')) as {
        postalCode: { base: string };
      };
      expect(guest.postalCode.base).toBe(ZIP);
    }
  });

  it('fails the ZIP when a listing page serves another store than the one located', async () => {
    // Walmart ignores the pin and places the visit by default on page 2.
    const local = await serve([
      {
        store: 'walmart',
        handle(req, state) {
          if (req.path !== '/search' || req.query.get('page') !== '2') return walmartStandIn.handle(req, state);
          const query = new URLSearchParams(req.query);
          query.delete('stores');
          return walmartStandIn.handle({ ...req, query, cookies: {} }, state);
        },
      },
    ]);
    const ctx = contextFor(local);
    const pages: ListingPage[] = [];
    let caught: unknown;
    try {
      for await (const page of walmart.listings((await walmart.locate(ZIP, ctx))!, ZIP, ctx)) pages.push(page);
    } catch (error) {
      caught = error;
    }
    expect(pages.map((p) => p.listings.length)).toEqual([PAGE_1_LISTINGS]);
    expect(caught).toBeInstanceOf(ScrapeError);
    expect((caught as ScrapeError).kind).toBe('http');
    expect((caught as ScrapeError).message).toBe(
      `Walmart served store ${walmartStoreIdForZip(WALMART_DEFAULT_ZIP)}, not the located store ${STORE}`,
    );
  });

  it('waits for a slow page', async () => {
    const ctx = contextFor(server);
    const started = Date.now();
    const pages = await collect((await walmart.locate(SCENARIO_ZIPS.slow, ctx))!, SCENARIO_ZIPS.slow, ctx);
    expect(shelf(pages.flatMap((p) => p.listings))).toHaveLength(WALMART_CATALOGUE.length);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 1400);
  });
});

describe('walmart locate fallback (serviceAvailability gone)', () => {
  const withServiceAvailability = (
    answer: (req: StandInRequest) => ReturnType<RetailerStandIn['handle']>,
  ): RetailerStandIn => ({
    store: 'walmart',
    handle: (req, state) =>
      req.path === '/grocery/v4/api/serviceAvailability' ? answer(req) : walmartStandIn.handle(req, state),
  });

  it('reads the location the search page names for the ZIP in the cookies after a 404', async () => {
    const local = await serve([withServiceAvailability(() => json({ message: 'Not Found' }, 404))]);
    const ctx = contextFor(local);
    const location = await walmart.locate('60611', ctx);
    expect(location).toEqual({
      retailerLocationId: walmartStoreIdForZip('60611'),
      name: null,
      zip: '60611',
      city: null,
      state: 'IL',
      address: null,
      latitude: null,
      longitude: null,
    });
    expect(paths(local)).toEqual([
      '404 www.walmart.com /grocery/v4/api/serviceAvailability?postalCode=60611',
      '200 www.walmart.com /search?q=eggs&page=1&sort=best_match&affinityOverride=default',
    ]);
    const pages = await collect(location!, '60611', ctx);
    expect(byId(pages[0]!.listings, '145051970').price).toBe(walmartRegularPrice(item('gv-white-12'), '60611'));
  });

  it('falls back on an unrecognised body too', async () => {
    const local = await serve([withServiceAvailability(() => html('<html><body>We moved grocery</body></html>'))]);
    expect((await walmart.locate('30301', contextFor(local)))?.retailerLocationId).toBe(walmartStoreIdForZip('30301'));
  });

  it('returns a location without id or ZIP when the page names none, and lists by the ZIP cookie', async () => {
    const noLocation: RetailerStandIn = {
      store: 'walmart',
      handle(req, state) {
        if (req.path === '/grocery/v4/api/serviceAvailability') return json({}, 404);
        const response = walmartStandIn.handle(req, state);
        return response && { ...response, body: response.body.replace(/"location":\{[^}]*\},/, '') };
      },
    };
    const local = await serve([noLocation]);
    const ctx = contextFor(local);
    const location = await walmart.locate('77001', ctx);
    expect(location).toEqual({
      retailerLocationId: null,
      name: null,
      zip: null,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    });
    const pages = await collect(location!, '77001', ctx);
    expect(pages.map((p) => p.listings.length)).toEqual([PAGE_1_LISTINGS, 8, 3]);
    // Priced for the ZIP in locGuestData, not the default placement.
    expect(byId(pages[0]!.listings, '145051970').price).toBe(walmartRegularPrice(item('gv-white-12'), '77001'));
    expect(walmartRegularPrice(item('gv-white-12'), '77001')).not.toBe(
      walmartRegularPrice(item('gv-white-12'), WALMART_DEFAULT_ZIP),
    );
    expect(local.requests.filter((r) => r.path === '/search').every((r) => !r.query.includes('stores='))).toBe(true);
  });

  it('falls back on any HTTP failure of the call (400, 405, 5xx after retries)', async () => {
    for (const status of [400, 405, 500, 503]) {
      const local = await serve([withServiceAvailability(() => json({ message: 'nope' }, status))]);
      const location = await walmart.locate('60611', contextFor(local));
      expect(location?.retailerLocationId).toBe(walmartStoreIdForZip('60611'));
      expect(local.requests.at(-1)!.path).toBe('/search');
    }
  });

  it('does not fall back past a rate limit', async () => {
    const local = await serve([
      withServiceAvailability(() => json({ message: 'slow down' }, 429, { 'retry-after': '600' })),
    ]);
    const error = await failure(walmart.locate('60611', contextFor(local)));
    expect(error.kind).toBe('rate-limited');
    expect(local.requests).toHaveLength(1);
  });

  /** serviceAvailability gone, and a search page that places every visitor where `location` says. */
  const placing = (location: Record<string, unknown>): RetailerStandIn => ({
    store: 'walmart',
    handle(req, state) {
      if (req.path === '/grocery/v4/api/serviceAvailability') return json({ message: 'Not Found' }, 404);
      const response = walmartStandIn.handle(req, state);
      return (
        response && {
          ...response,
          body: response.body.replace(/"location":\{[^}]*\}/, `"location":${JSON.stringify(location)}`),
        }
      );
    },
  });

  it("fails the ZIP when the page answers with Walmart's default store far from the ZIP", async () => {
    const message = 'Walmart did not place the visit near 60611 (it answered with its default store 3081, Sacramento)';
    for (const location of [
      {
        pickupStore: '3081',
        deliveryStore: '3081',
        intent: 'PICKUP',
        postalCode: '95829',
        stateOrProvinceCode: 'CA',
        city: 'Sacramento',
        storeId: '3081',
      },
      { postalCode: '95829', stateOrProvinceCode: 'CA' },
      { storeId: 3081 },
    ]) {
      const local = await serve([placing(location)]);
      const error = await failure(walmart.locate('60611', contextFor(local)));
      expect(error.kind).toBe('no-store');
      expect(error.message).toBe(message);
    }
  });

  it("keeps the default store for a ZIP of its own area, and store 3081 placed in the ZIP's area", async () => {
    const sacramento = await serve([placing({ postalCode: '95829', storeId: '3081', stateOrProvinceCode: 'CA' })]);
    expect(await walmart.locate('95814', contextFor(sacramento))).toMatchObject({
      retailerLocationId: '3081',
      zip: '95829',
    });
    const elsewhere = await serve([placing({ postalCode: '60611', storeId: '3081' })]);
    expect(await walmart.locate('60614', contextFor(elsewhere))).toMatchObject({
      retailerLocationId: '3081',
      zip: '60611',
    });
  });

  it('does not fall back past a bot wall', async () => {
    const local = await serve([
      withServiceAvailability(() =>
        html('<html><head><title>Robot or human?</title></head><body>Robot or human?</body></html>'),
      ),
    ]);
    const error = await failure(walmart.locate('60611', contextFor(local)));
    expect(error.kind).toBe('blocked');
    expect(local.requests).toHaveLength(1);
  });
});
