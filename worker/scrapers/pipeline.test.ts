// Where a located store is recorded: the retailer's own position and place names first, the ZIP
// code's geodata for what the locator leaves out.
import { describe, expect, it } from 'vitest';
import { zipFacts } from '#server/geo.ts';
import { locationPlace, scrapeZip } from './pipeline.ts';
import type { RawListing, RetailerLocation, RetailerScraper, ScrapeContext } from './types.ts';

const located = (over: Partial<RetailerLocation> = {}): RetailerLocation => ({
  retailerLocationId: '42',
  name: 'Store #42',
  zip: '50309',
  city: null,
  state: null,
  address: null,
  latitude: null,
  longitude: null,
  ...over,
});

describe('locationPlace', () => {
  it("keeps the retailer's coordinates, city and state", () => {
    expect(
      locationPlace(located({ latitude: 41.6, longitude: -93.7, city: 'Des Moines', state: 'ia' }), '50309'),
    ).toEqual({
      city: 'Des Moines',
      state: 'IA',
      latitude: 41.6,
      longitude: -93.7,
      coordinatesSource: 'retailer',
    });
  });

  it("falls back to the ZIP code's centroid, city and state", () => {
    const facts = zipFacts('50309')!;
    expect(locationPlace(located(), '50309')).toEqual({
      city: facts.city,
      state: 'IA',
      latitude: facts.latitude,
      longitude: facts.longitude,
      coordinatesSource: 'zip',
    });
  });

  it('takes no half or impossible position from the retailer', () => {
    const facts = zipFacts('50309')!;
    for (const position of [
      { latitude: 41.6, longitude: null },
      { latitude: 141.6, longitude: -93.7 },
      { latitude: Number.NaN, longitude: -93.7 },
    ]) {
      expect(locationPlace(located(position), '50309')).toMatchObject({
        latitude: facts.latitude,
        longitude: facts.longitude,
        coordinatesSource: 'zip',
      });
    }
  });

  it("does not believe a retailer's point far from its ZIP code (0,0, a flipped sign)", () => {
    const facts = zipFacts('50309')!;
    for (const position of [
      { latitude: 0, longitude: 0 },
      { latitude: 41.6, longitude: 93.7 },
    ]) {
      expect(locationPlace(located(position), '50309')).toMatchObject({
        latitude: facts.latitude,
        longitude: facts.longitude,
        coordinatesSource: 'zip',
      });
    }
    // A store a few miles from its ZIP's centre keeps its own point.
    expect(locationPlace(located({ latitude: 41.68, longitude: -93.62 }), '50309')).toMatchObject({
      latitude: 41.68,
      longitude: -93.62,
      coordinatesSource: 'retailer',
    });
  });

  it('ignores a state that is not a two-letter code', () => {
    expect(locationPlace(located({ state: 'Iowa' }), '50309').state).toBe('IA');
  });

  it('has no position for a ZIP code the geodata does not know', () => {
    expect(locationPlace(located({ zip: null }), '00000')).toEqual({
      city: null,
      state: null,
      latitude: null,
      longitude: null,
      coordinatesSource: null,
    });
  });
});

describe('scrapeZip: what a ZIP keeps and counts', () => {
  const raw = (id: string, over: Partial<RawListing> = {}): RawListing => ({
    retailerProductId: id,
    title: 'Large Grade A Eggs, 12 ct',
    brand: null,
    price: 3.49,
    regularPrice: 3.49,
    sizeText: null,
    category: null,
    url: null,
    inStock: true,
    ...over,
  });

  function scraper(pages: RawListing[][]): RetailerScraper {
    return {
      store: 'walmart',
      storeName: 'Walmart',
      origins: [],
      locate: async () => located({ zip: '50309' }),
      async *listings() {
        for (const listings of pages) yield { listings, nonProductTiles: 0 };
      },
    };
  }

  const ctx = {
    http: { requests: 0 } as unknown as ScrapeContext['http'],
    maxPages: 5,
    term: 'eggs',
    credentials: {},
  } satisfies ScrapeContext;

  it('skips marketplace and online-only tiles and repeats with their own reasons, and classifies by the brand', async () => {
    const outcome = await scrapeZip(
      scraper([
        [
          raw('1'),
          raw('2', { notOnShelf: 'marketplace', price: 189.99 }),
          raw('3', { notOnShelf: 'online-only' }),
          raw('4', { title: 'Large Grade A Eggs, 18 CT', brand: 'Vital Farms', price: 7.46 }),
        ],
        // A sponsored repeat of a tile, and a second stack repeating a marketplace offer.
        [raw('1'), raw('2', { notOnShelf: 'marketplace' })],
      ]),
      '50309',
      ctx,
    );
    expect(outcome.status).toBe('succeeded');
    expect(outcome.listingsSeen).toBe(6);
    expect(outcome.accepted.map((l) => [l.retailerProductId, l.eggType])).toEqual([
      ['1', 'standard'],
      ['4', 'pasture_raised'],
    ]);
    expect(outcome.skipped).toEqual({ marketplace: 1, 'online-only': 1, duplicate: 2 });
  });
});
