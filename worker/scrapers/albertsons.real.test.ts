// Albertsons against bodies captured from the banners' sites (test/retailers/real/albertsons,
// provenance in its SOURCES.md). No real pgmsearch body exists: the similar-products, wcax/pathway
// and product-page catalogue bodies carry the same doc fields, so the doc parser is tested on
// them. Every expected value was read from the bodies themselves.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAlbertsonsSearch, parseAlbertsonsStores } from './albertsons.ts';
import { acceptListing } from './pipeline.ts';
import type { RawListing } from './types.ts';

const body = (name: string) =>
  fs.readFileSync(new URL(`../../test/retailers/real/albertsons/${name}`, import.meta.url), 'utf8');
const byId = (listings: RawListing[], id: string) => listings.find((listing) => listing.retailerProductId === id)!;

/** The catalogue answer a product page carries in its React Server Components chunk (`initialPdpResponse.catalog`). */
function productPageCatalog(html: string): string {
  const chunk = /self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)/.exec(html);
  if (!chunk) throw new Error('no flight chunk');
  const row = JSON.parse(chunk[1]!) as string;
  const element = JSON.parse(row.slice(row.indexOf(':') + 1)) as [
    string,
    string,
    null,
    { initialPdpResponse: { catalog: unknown } },
  ];
  return JSON.stringify(element[3].initialPdpResponse.catalog);
}

describe('storeresolver/all for ZIP 94105 (Safeway, San Francisco)', () => {
  it('takes the nearest in-store location when pickup.stores is empty', () => {
    const parsed = JSON.parse(body('storeresolver-all-zip94105.json'));
    expect(parsed.pickup).toEqual({ count: 0, stores: [] });
    expect(parseAlbertsonsStores(body('storeresolver-all-zip94105.json'))).toEqual({
      retailerLocationId: '4601',
      name: 'Safeway San Francisco',
      zip: '94111',
      city: 'San Francisco',
      state: 'CA',
      address: '145 Jackson St',
      latitude: null,
      longitude: null,
    });
  });
});

describe('v1/aisles/similar-products, eggs at store 4601 (the pgmsearch doc fields without the primaryProducts wrapper)', () => {
  const page = () => parseAlbertsonsSearch(body('similar-products-eggs-store4601.json'));

  it('reads the four egg docs, their count, and the paging', () => {
    expect(page().numFound).toBe(4);
    expect(page().docCount).toBe(4);
    expect(page().listings.map((listing) => [listing.retailerProductId, listing.title])).toEqual([
      ['960273951', 'Lucerne Farms Eggs Large Cage Free - 12 Count'],
      ['960309878', 'Lucerne Farms Eggs Cage Free Jumbo - 12 Count'],
      ['970116262', 'Lucerne Cage Free Grade A Large Eggs - 60 Count'],
      ['960100459', 'Vital Farms Eggs Large - 12 Count'],
    ]);
  });

  it('reads price and basePrice, never pricePer (per egg on one doc, per dozen on the next)', () => {
    // pricePer 0.33 per COUNT on the first, 4.39 per DOZEN on the second, 3.4 per DOZEN on the 60.
    expect(byId(page().listings, '960273951')).toEqual({
      retailerProductId: '960273951',
      title: 'Lucerne Farms Eggs Large Cage Free - 12 Count',
      brand: null,
      price: 3.99,
      regularPrice: 3.99,
      sizeText: '12 ct',
      category: 'Eggs',
      url: 'https://www.albertsons.com/shop/product-details.960273951.html',
      inStock: true,
    });
    expect(byId(page().listings, '960309878')).toMatchObject({
      price: 4.39,
      regularPrice: 4.39,
      sizeText: '12 ct',
      inStock: true,
    });
    expect(byId(page().listings, '970116262')).toMatchObject({
      price: 16.99,
      regularPrice: 16.99,
      sizeText: '60 ct',
      inStock: true,
    });
    expect(byId(page().listings, '960100459')).toMatchObject({
      price: 10.99,
      regularPrice: 10.99,
      sizeText: '12 ct',
      inStock: true,
    });
  });

  it('records each as a pack of eggs at its shelf price', () => {
    const accepted = page().listings.map((listing) => acceptListing(listing));
    expect(
      accepted.map((result) =>
        result.kind === 'accepted' ? [result.listing.count, result.listing.eggType, result.listing.price] : result.kind,
      ),
    ).toEqual([
      [12, 'cage_free', 3.99],
      [12, 'cage_free', 4.39],
      [60, 'cage_free', 16.99],
      [12, 'pasture_raised', 10.99],
    ]);
  });
});

describe('product page of 970123451 at store 3132 (its catalogue doc, out of stock but priced)', () => {
  const page = () => parseAlbertsonsSearch(productPageCatalog(body('product-page-rsc-eggs-970123451-store3132.html')));

  it('keeps the price of an egg doc with inventoryAvailable "0" and marks it out of stock', () => {
    expect(page().numFound).toBe(1);
    expect(page().listings).toEqual([
      {
        retailerProductId: '970123451',
        title: 'Uncle Eddies Large White Eggs - 1 DZ',
        brand: null,
        price: 4.99,
        regularPrice: 4.99,
        sizeText: '12 ct',
        category: 'Eggs',
        url: 'https://www.albertsons.com/shop/product-details.970123451.html',
        inStock: false,
      },
    ]);
    const accepted = acceptListing(page().listings[0]!);
    expect(accepted).toMatchObject({ kind: 'accepted', listing: { count: 12, price: 4.99, inStock: false } });
  });
});

describe('wcax/pathway/search, seafood at ACME store 806 (2026-03: the newer search service)', () => {
  const raw = body('wcax-pathway-search-seafood-store806.json');
  const page = () => parseAlbertsonsSearch(raw);

  it('reads a success whose appCode is a bracketed string', () => {
    expect(JSON.parse(raw).appCode).toBe('[GR200, P-GKE200][A-CT: 200][PA-CT: 200]');
    expect(page().numFound).toBe(194);
    expect(page().docCount).toBe(30);
    expect(page().listings).toHaveLength(30);
  });

  it('reads club prices against base prices, and prices written with trailing zeros', () => {
    expect(raw).toContain('"price":5.00');
    expect(byId(page().listings, '960310330')).toMatchObject({
      title: 'waterfront BISTRO Shrimp Cooked Deveined With Cocktail Sauce - 10 Oz',
      price: 5,
      regularPrice: 5,
    });
    expect(byId(page().listings, '971310258')).toMatchObject({ price: 10, regularPrice: 10 });
    expect(byId(page().listings, '970127065')).toMatchObject({
      title: 'Red Swimming Jumbo Crab Meat Lump - 16 Oz',
      price: 12.99,
      regularPrice: 19.99,
      inStock: true,
      category: 'Fish & Shellfish',
    });
  });

  it('keeps the price of the one doc out of stock', () => {
    expect(
      page()
        .listings.filter((listing) => listing.inStock === false)
        .map((listing) => [listing.retailerProductId, listing.price, listing.regularPrice]),
    ).toEqual([['970124177', 12.99, 19.99]]);
    expect(page().listings.filter((listing) => listing.inStock === true)).toHaveLength(29);
  });

  it('marks the 11 docs sold by the pound (sellByWeight "P"): their price is for an average weight', () => {
    expect(
      page()
        .listings.filter((listing) => listing.soldByWeight)
        .map((listing) => listing.retailerProductId),
    ).toEqual([
      '970115396',
      '186190041',
      '960322929',
      '970031179',
      '960290429',
      '970031218',
      '960221441',
      '186350058',
      '960026823',
      '970047745',
      '970027909',
    ]);
    // 2 lb at the club price $8.99/lb: 17.98, never a pack price.
    expect(byId(page().listings, '970115396')).toMatchObject({ price: 17.98, regularPrice: 23.98, soldByWeight: true });
    expect(byId(page().listings, '960137751').soldByWeight).toBeUndefined();
  });

  it('counts none of it as eggs', () => {
    expect(
      page()
        .listings.map((listing) => acceptListing(listing).kind)
        .every((kind) => kind === 'skipped'),
    ).toBe(true);
  });
});
