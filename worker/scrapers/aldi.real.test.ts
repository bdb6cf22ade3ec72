// ALDI against bodies captured from ALDI's commerce platform (test/retailers/real/aldi, provenance
// in its SOURCES.md). No US body exists: these are the UK and Australian storefronts of the same
// platform (api.aldi.co.uk, api.aldi.com.au), the same product-search shape the US one answers.
// Every expected value was read from the bodies themselves.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAldiMerchants, parseAldiSearch } from './aldi.ts';
import { acceptListing } from './pipeline.ts';
import type { RawListing } from './types.ts';

const body = (name: string) =>
  fs.readFileSync(new URL(`../../test/retailers/real/aldi/${name}`, import.meta.url), 'utf8');
const bySku = (listings: RawListing[], sku: string) => listings.find((listing) => listing.retailerProductId === sku)!;

describe('UK v3/product-search "cheese", walk-in, limit 30 (2026-01)', () => {
  const page = () => parseAldiSearch(body('uk-product-search-cheese-walkin-limit30.json'));

  it('reads the 30 items of 216 and the paging', () => {
    expect(page().itemCount).toBe(30);
    expect(page().totalCount).toBe(216);
    expect(page().listings).toHaveLength(30);
  });

  it('reads price.amount in integer pence, the brand apart from the title, and sellingSize as the size', () => {
    expect(bySku(page().listings, '000000000282692002')).toEqual({
      retailerProductId: '000000000282692002',
      title: 'Manchego Cheese D.O.P.',
      brand: 'SPECIALLY SELECTED',
      price: 3.19,
      regularPrice: 3.19,
      sizeText: '0.175 KG',
      category: 'Chilled Food',
      url: 'https://www.aldi.us/product/specially-selected-manchego-cheese-d-o-p-000000000282692002',
      inStock: null,
    });
    // comparison 1823 / "£18.23/1 KG" is the price per kilogram, never the item's.
    expect(bySku(page().listings, '000000000000494377')).toMatchObject({
      title: 'Cheese Singles 15 Pack',
      brand: 'EVERYDAY ESSENTIALS',
      price: 0.83,
      regularPrice: 0.83,
      sizeText: '0.225 KG',
    });
  });

  it('keeps stock unknown on items that are notForSale (every item of a walk-in answer: not sold online, not out of stock)', () => {
    const items = (
      JSON.parse(body('uk-product-search-cheese-walkin-limit30.json')) as { data: Array<{ notForSale: boolean }> }
    ).data;
    expect(items.every((item) => item.notForSale)).toBe(true);
    expect(page().listings.map((listing) => listing.inStock)).toEqual(Array(30).fill(null));
  });

  it('counts none of it as eggs (a "15 Pack" of cheese singles is no count of eggs)', () => {
    expect(page().listings.every((listing) => acceptListing(listing).kind === 'skipped')).toBe(true);
  });
});

describe('UK v3/product-search "cheese", walk-in, limit 60 (2026-01-12 20:42 UTC)', () => {
  const page = () => parseAldiSearch(body('uk-product-search-cheese-walkin-limit60.json'));

  it('reads 60 items of 216, the first 30 those of the limit-30 answer in the same order, none marked out of stock', () => {
    expect(page().itemCount).toBe(60);
    expect(page().totalCount).toBe(216);
    const first = parseAldiSearch(body('uk-product-search-cheese-walkin-limit30.json')).listings.map(
      (listing) => listing.retailerProductId,
    );
    expect(
      page()
        .listings.slice(0, 30)
        .map((listing) => listing.retailerProductId),
    ).toEqual(first);
    expect(page().listings.filter((listing) => listing.inStock !== null)).toEqual([]);
    expect(bySku(page().listings, '000000000423865003')).toMatchObject({
      title: 'Stratford Blue British Cheese',
      brand: 'SPECIALLY SELECTED',
      price: 2.59,
      sizeText: '0.165 KG',
    });
  });
});

describe('AU v3/product-search data, category "lower-prices" (2025-08/09: its data array only)', () => {
  // The file keeps the answer's `data` array (its author left meta out): read as the answer's data.
  const page = () => parseAldiSearch(JSON.stringify({ data: JSON.parse(body('au-product-search-data-3items.json')) }));

  it('reads the three items: cents, brands, sizes in grams and kilograms; notForSale is not out of stock', () => {
    expect(page().totalCount).toBeNull();
    expect(
      page().listings.map((listing) => [
        listing.retailerProductId,
        listing.title,
        listing.brand,
        listing.price,
        listing.regularPrice,
        listing.sizeText,
        listing.inStock,
      ]),
    ).toEqual([
      ['000000000000200998', 'Chocolate Chip Brioche Milk Rolls 8 Pack 280g', 'BON APPETIT', 4.69, 4.69, '280 g', null],
      ['000000000000286123', 'Goat Cheese Original 110g', 'EMPORIUM SELECTION', 3.79, 3.79, '0.11 kg', null],
      ['000000000000364955', 'Marinara Mix 800g', 'OCEAN ROYALE', 12.49, 12.49, '0.8 kg', null],
    ]);
    // "$1.68 per 100 g" is the comparison price, not the item's $4.69.
    expect(bySku(page().listings, '000000000000200998')).toMatchObject({
      category: 'Bakery',
      url: 'https://www.aldi.us/product/bon-appetit-chocolate-chip-brioche-milk-rolls-8-pack-280g-000000000000200998',
    });
  });
});

describe('AU v2/service-points, the 13 stores of the ACT (2025-08-08: the store objects of its data array)', () => {
  it("reads the first store's id, name, street, city and coordinates given as strings; an Australian region and postcode are no US state or ZIP", () => {
    const stores = (JSON.parse(body('au-service-points-act.json')) as { stores: unknown[] }).stores;
    expect(stores).toHaveLength(13);
    expect(parseAldiMerchants(JSON.stringify({ data: stores }))).toEqual({
      retailerLocationId: 'G473',
      name: 'Conder',
      zip: null,
      city: 'Conder',
      state: null,
      address: '9 Sidney Nolan Street',
      latitude: -35.45715,
      longitude: 149.09283,
    });
  });
});
