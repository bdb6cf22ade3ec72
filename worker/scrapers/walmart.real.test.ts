// Walmart against bodies captured from walmart.com (test/retailers/real/walmart, provenance in its
// SOURCES.md). Every expected value was read from the bodies themselves: the store a page serves,
// its totals and paging, which tiles are the store's shelf and which are marketplace sellers'
// offers or items shipped from Walmart's warehouses, prices, "was" prices and stock.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isBotWall } from './http.ts';
import { scrapeZip } from './pipeline.ts';
import type { RawListing, RetailerScraper, ScrapeContext } from './types.ts';
import { parseWalmartSearchPage, type WalmartSearchPage } from './walmart.ts';

const body = (name: string) =>
  fs.readFileSync(new URL(`../../test/retailers/real/walmart/${name}`, import.meta.url), 'utf8');
const page = (name: string) => parseWalmartSearchPage(body(name));

const ids = (listings: RawListing[]) => listings.map((l) => l.retailerProductId);
const unique = (values: string[]) => [...new Set(values)];
const notOnShelf = (parsed: WalmartSearchPage, reason: RawListing['notOnShelf']) =>
  ids(parsed.listings.filter((l) => l.notOnShelf === reason));
const listing = (parsed: WalmartSearchPage, id: string) => parsed.listings.find((l) => l.retailerProductId === id)!;

/** The page run through the pipeline as one ZIP of a run (what would be recorded and counted). */
async function throughPipeline(parsed: WalmartSearchPage) {
  const scraper: RetailerScraper = {
    store: 'walmart',
    storeName: 'Walmart',
    origins: [],
    locate: async () => parsed.location,
    async *listings() {
      yield { listings: parsed.listings, nonProductTiles: parsed.nonProductTiles };
    },
  };
  const ctx = {
    http: { requests: 0 } as unknown as ScrapeContext['http'],
    maxPages: 1,
    term: 'eggs',
    credentials: {},
  } satisfies ScrapeContext;
  return scrapeZip(scraper, parsed.location?.zip ?? '95829', ctx);
}

describe('"eggs" search page 1, store 4438 Eagle Mountain UT (2026-08, a browser copy of the page)', () => {
  const parsed = page('search-eggs-p1-store4438.html');

  it('names its store, total and pages', () => {
    expect(parsed.location).toMatchObject({
      retailerLocationId: '4438',
      zip: '84043',
      city: 'Eagle Mountain',
      state: 'UT',
    });
    expect(parsed.totalResults).toBe(53);
    expect(parsed.maxPage).toBe(3);
    // 41 products and 2 placeholders in the results stack, 10 products in the "Only at Walmart" carousel.
    expect(parsed.listings).toHaveLength(51);
    expect(parsed.nonProductTiles).toBe(2);
  });

  it("tells the 15 marketplace sellers' offers (foodservice liquid and powdered eggs) from the store's shelf", () => {
    expect(notOnShelf(parsed, 'marketplace')).toEqual([
      '261171981',
      '1181831780',
      '1520550190',
      '741776530',
      '5511012312',
      '588620928',
      '15678861341',
      '411716234',
      '1416405297',
      '887429170',
      '5510365340',
      '804094513',
      '5312893556',
      '16035768953',
      '803317305',
    ]);
    expect(listing(parsed, '261171981')).toMatchObject({
      title: 'Sunny Fresh Cage Free Selections Whole Eggs with Citric Acid, 2 Pound -- 12 per case.',
      price: 188.58,
    });
    expect(notOnShelf(parsed, 'online-only')).toEqual([]);
  });

  it('reads shelf prices, rollback "was" prices and stock', () => {
    expect(listing(parsed, '48319449')).toMatchObject({
      title: 'Marketside Cage Free Large Brown Eggs 18 Count',
      brand: 'Marketside',
      price: 3.93,
      regularPrice: 4.37,
      inStock: true,
      url: 'https://www.walmart.com/ip/Marketside-Cage-Free-Large-Brown-Eggs-18-Count/48319449',
    });
    expect(listing(parsed, '103020312')).toMatchObject({
      title: 'Great Value White Large Eggs, 12 Count',
      price: 1.67,
      regularPrice: 1.67,
      inStock: true,
    });
    expect(listing(parsed, '5326288982')).toMatchObject({ price: 3.74, regularPrice: 4.16 });
    expect(listing(parsed, '115864065')).toMatchObject({
      title: 'Vital Farms Pasture Raised Grade A Brown Eggs, Large, 12 Ct',
      price: 7.46,
      brand: 'Vital Farms',
    });
  });

  it('records the 22 shell-egg packs of the shelf once each, and counts the rest with their reasons', async () => {
    const outcome = await throughPipeline(parsed);
    expect(outcome.status).toBe('succeeded');
    expect(outcome.accepted.map((l) => l.retailerProductId).sort()).toEqual(
      [
        '115864065',
        '172844767',
        '103020312',
        '142616435',
        '48319449',
        '193637719',
        '49463949',
        '135825185',
        '172144435',
        '5326288982',
        '51259534',
        '33141086',
        '10324125',
        '51259531',
        '48319448',
        '165233284',
        '15716858',
        '108807760',
        '12167419',
        '134714692',
        '49409646',
        '10449724',
      ].sort(),
    );
    // The carousel repeats 10 results and the sponsored Vital Farms tile appears twice; three
    // hard-boiled packs are prepared food.
    expect(outcome.skipped).toEqual({ marketplace: 15, duplicate: 11, prepared: 3 });
    const byId = new Map(outcome.accepted.map((l) => [l.retailerProductId, l]));
    expect(byId.get('193637719')).toMatchObject({ eggType: 'standard', count: 60, price: 8.12 });
    expect(byId.get('48319449')).toMatchObject({ eggType: 'cage_free', count: 18, price: 3.93, regularPrice: 4.37 });
    expect(byId.get('5326288982')).toMatchObject({ eggType: 'pasture_raised', count: 12 });
    expect(byId.get('134714692')).toMatchObject({ eggType: 'cage_free', count: 12, price: 6.64 });
    expect(byId.get('10449724')).toMatchObject({ eggType: 'organic', count: 12, price: 5.96 });
    expect(byId.get('172144435')).toMatchObject({ count: 6, price: 0.96 });
  });
});

describe('"mustard" search page 1, Sacramento store 3081 (2024-12, raw page)', () => {
  const parsed = page('search-mustard-p1-store3081.html');

  it('names its store, total and pages', () => {
    expect(parsed.location).toMatchObject({
      retailerLocationId: '3081',
      zip: '95829',
      city: 'Sacramento',
      state: 'CA',
    });
    // aggregatedCount and the results stack's count; searchResult.count (52) is the tiles on the page.
    expect(parsed.totalResults).toBe(4772);
    expect(parsed.maxPage).toBe(25);
    expect(parsed.listings).toHaveLength(50);
  });

  it('skips the 15 marketplace offers (one sponsored twice), including two with price 0 and no price text', () => {
    expect(notOnShelf(parsed, 'marketplace')).toHaveLength(15);
    expect(unique(notOnShelf(parsed, 'marketplace'))).toEqual([
      '43931008',
      '19400084',
      '10535162',
      '38102449',
      '10805268',
      '121192897',
      '10535271',
      '25752081',
      '5278757485',
      '51762274',
      '12166910',
      '19400085',
      '10535291',
      '25875682',
    ]);
    expect(listing(parsed, '10535162').price).toBeNull();
    expect(listing(parsed, '10805268').price).toBeNull();
  });

  it('skips Walmart.com items shipped from its warehouses (no fulfilment at the store)', () => {
    expect(notOnShelf(parsed, 'online-only')).toEqual(['130260319', '14710093']);
    expect(listing(parsed, '14710093').price).toBe(5.98);
  });

  it('keeps the store items that are out of stock there (no fulfilment entries left) as out of stock', () => {
    for (const id of ['10315055', '544531074', '10533396', '10315532']) {
      expect(listing(parsed, id)).toMatchObject({ inStock: false });
      expect(listing(parsed, id).notOnShelf).toBeUndefined();
    }
    expect(listing(parsed, '10315055').price).toBe(1.67);
  });

  it('reads a shelf price and a rollback', () => {
    expect(listing(parsed, '43711099')).toMatchObject({
      title: 'Great Value Yellow Mustard, 20 oz Squeeze Bottle',
      price: 1.08,
      regularPrice: 1.08,
      inStock: true,
    });
    expect(listing(parsed, '17247767')).toMatchObject({ price: 1.52, regularPrice: 1.96 });
  });
});

describe('"mustard" search page 2, Sacramento store 3081 (2024-12)', () => {
  const parsed = page('search-mustard-p2-store3081.html');

  it('skips 24 marketplace offers, nine of them without a price, and three ship-only tiles', () => {
    expect(notOnShelf(parsed, 'marketplace')).toHaveLength(24);
    for (const id of [
      '5556730187',
      '868317510',
      '10801675',
      '14711247',
      '51804514',
      '431020644',
      '413844318',
      '10805272',
      '10805271',
    ]) {
      expect(listing(parsed, id)).toMatchObject({ price: null, notOnShelf: 'marketplace' });
    }
    expect(notOnShelf(parsed, 'online-only')).toEqual(['130260319', '51762349', '130260319']);
    // A Walmart.com ship-only offer with a "was" price far above it.
    expect(listing(parsed, '51762349')).toMatchObject({ price: 4.74, regularPrice: 16.58 });
  });

  it('has seven products twice (sponsored repeats), recorded once by the pipeline', async () => {
    expect(parsed.listings).toHaveLength(50);
    expect(unique(ids(parsed.listings))).toHaveLength(43);
    const outcome = await throughPipeline(parsed);
    expect(outcome.skipped.duplicate).toBe(7);
    expect(outcome.skipped.marketplace).toBe(24);
    expect(outcome.skipped['online-only']).toBe(2);
  });
});

describe('"aaa" search page 2, Sacramento store 3081 (2024-12): a second "Only at Walmart" stack', () => {
  const parsed = page('search-aaa-p2-store3081.html');

  it('reads both stacks; the total is the results stack, not the carousel', () => {
    expect(parsed.listings).toHaveLength(54);
    expect(parsed.totalResults).toBe(20913);
    expect(parsed.maxPage).toBe(25);
  });

  it('skips 26 marketplace offers and eight Walmart.com items shipped only (one in both stacks)', () => {
    expect(notOnShelf(parsed, 'marketplace')).toHaveLength(26);
    expect(listing(parsed, '1252375755')).toMatchObject({
      price: 19.99,
      regularPrice: 29.99,
      notOnShelf: 'marketplace',
    });
    expect(unique(notOnShelf(parsed, 'online-only'))).toEqual([
      '20512707',
      '895759390',
      '5740891060',
      '305676039',
      '30268122',
      '796955198',
      '39111778',
      '882165709',
    ]);
    expect(listing(parsed, '563363379')).toMatchObject({ price: 6.97, inStock: false });
    expect(listing(parsed, '563363379').notOnShelf).toBeUndefined();
  });
});

describe('GraphQL bodies (the orchestra search/browse answer)', () => {
  it('canned goods browse, Austin store 4554 (2025-11): the total is aggregatedCount (no stack count)', () => {
    const parsed = page('graphql-browse-canned-goods-store4554.json');
    expect(parsed.location).toMatchObject({ retailerLocationId: '4554', zip: '78757', city: 'Austin', state: 'TX' });
    expect(parsed.totalResults).toBe(854);
    expect(parsed.maxPage).toBe(22);
    expect(parsed.listings).toHaveLength(49);
    expect(parsed.listings.every((l) => l.notOnShelf === undefined && l.inStock === true)).toBe(true);
    expect(listing(parsed, '10290926').price).toBeGreaterThan(0);
  });

  it('frozen meals browse page 2, store 4554: a marketplace offer with no fulfilment entries, out-of-stock store items', () => {
    const parsed = page('graphql-browse-frozen-meals-p2-store4554.json');
    expect(parsed.totalResults).toBe(522);
    expect(notOnShelf(parsed, 'marketplace')).toEqual(['51935090']);
    expect(listing(parsed, '51935090').price).toBe(6.2);
    for (const id of ['19758180', '15556508', '10804755', '47386170', '538649993', '14940855']) {
      expect(listing(parsed, id)).toMatchObject({ inStock: false });
      expect(listing(parsed, id).notOnShelf).toBeUndefined();
    }
  });

  it('"ebt food" page 2, Buena Vista VA store 1335 (2022-12): an egg item in the older shape without fulfilment entries', () => {
    const parsed = page('graphql-search-ebt-food-p2-store1335.json');
    expect(parsed.location).toMatchObject({ retailerLocationId: '1335', zip: '24416', state: 'VA' });
    expect(parsed.totalResults).toBe(12486);
    expect(parsed.listings).toHaveLength(40);
    expect(listing(parsed, '145051970')).toMatchObject({
      title: 'Great Value Large White Eggs, 12 Count',
      price: 2.16,
      regularPrice: 2.16,
      inStock: true,
      url: 'https://www.walmart.com/ip/Great-Value-Large-White-Eggs-12-Count/145051970',
    });
    expect(listing(parsed, '145051970').notOnShelf).toBeUndefined();
  });

  it('"coffee starbucks" page 3 sorted by price (2021-10): mostly marketplace offers; no store named', () => {
    const parsed = page('graphql-search-coffee-p3-store2447.json');
    expect(parsed.location).toBeNull();
    expect(parsed.totalResults).toBe(681);
    expect(parsed.maxPage).toBe(18);
    expect(notOnShelf(parsed, 'marketplace')).toHaveLength(34);
    expect(notOnShelf(parsed, 'online-only')).toEqual(['871532776', '990896636', '222362473']);
    expect(listing(parsed, '141915260').price).toBeNull();
  });
});

describe('bot walls', () => {
  it.each([
    'block-robot-or-human-2025-06.html',
    'block-robot-or-human-2026-03.html',
    'block-robot-or-human-2026-04.html',
  ])('PerimeterX "Robot or human?" (%s), served with HTTP 200, is a wall', (name) => {
    expect(isBotWall(200, body(name))).toBe(true);
  });

  it('a "Request Rejected" page (a web application firewall) is a wall', () => {
    expect(isBotWall(200, body('block-request-rejected-2025-07.html'))).toBe(true);
  });

  it('no real search page is taken for a wall', () => {
    for (const name of [
      'search-eggs-p1-store4438.html',
      'search-mustard-p1-store3081.html',
      'graphql-search-ebt-food-p2-store1335.json',
    ]) {
      expect(isBotWall(200, body(name))).toBe(false);
    }
  });
});
