// Kroger's parse functions on /v1/products bodies from the real public API, committed to public
// repositories (test/retailers/real/kroger/SOURCES.md: repository, path, commit). Every expected
// value was read from the body itself. No real /v1/locations body exists (see SOURCES.md).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseKrogerProducts } from './kroger.ts';
import { StructureError, type RawListing } from './types.ts';

const real = (file: string) =>
  fs.readFileSync(new URL(`../../test/retailers/real/kroger/${file}`, import.meta.url), 'utf8');
const byId = (listings: RawListing[]) => new Map(listings.map((l) => [l.retailerProductId, l]));

describe('/v1/products, pet toys at a store (datamaw/CP-Personal-Project, 2021)', () => {
  const page = parseKrogerProducts(real('products-petToys-datamaw-2021.json'));
  const listings = byId(page.listings);

  it('reads the 10 products and the total', () => {
    expect(page.total).toBe(469);
    expect(page.nonProductTiles).toBe(0);
    expect(page.listings.map((l) => l.retailerProductId)).toEqual([
      '0078436961006',
      '0001111086798',
      '0078436947712',
      '0842113471200',
      '0007538077816',
      '0088796197161',
      '0067341933962',
      '0078436948375',
      '0078436916674',
      '0078436961035',
    ]);
  });

  it('reads a product without promotion (promo 0), with its size and no stock level (unknown)', () => {
    expect(listings.get('0001111086798')).toEqual({
      retailerProductId: '0001111086798',
      title: 'Pet Pride® Cat Laser Beam Toy',
      brand: 'Pet Pride',
      price: 4.69,
      regularPrice: 4.69,
      sizeText: '1 ct',
      category: 'Pet Care',
      url: 'https://www.kroger.com/p/0001111086798',
      inStock: null,
    });
  });

  it('takes a promo above 0 as the shelf price, with the regular price beside it', () => {
    expect(listings.get('0842113471200')).toMatchObject({
      title: 'VIP Pets Color Boost Series 3',
      price: 10.19,
      regularPrice: 16.99,
      sizeText: '6 ct',
    });
    expect(listings.get('0067341933962')).toMatchObject({
      price: 7.99,
      regularPrice: 9.99,
      brand: 'LEGO®',
      sizeText: '11 pcs',
    });
    expect(listings.get('0078436916674')).toMatchObject({
      title: 'Multipet Gumby Plush Dog Toy',
      price: 4.99,
      regularPrice: 5.49,
    });
  });

  it('reads an item without a price object as unpriced at the store', () => {
    expect(listings.get('0078436961006')).toMatchObject({
      title: 'Multipet Latex Polka Dot Pig Dog Toy',
      price: null,
      regularPrice: null,
      sizeText: '9 in',
    });
  });

  it('reads camelCase fulfilment keys: every item sold in store, no stock level, so stock unknown', () => {
    // VIP Pets has curbside and delivery false but inStore true: still the store's shelf.
    expect(page.listings.every((l) => l.notOnShelf === undefined && l.inStock === null)).toBe(true);
  });
});

describe('/v1/products data array, milk at a store (elikyaB/kroger-api-backend, 2021-11)', () => {
  const page = parseKrogerProducts(
    JSON.stringify({ data: JSON.parse(real('products-milk-data-array-elikyaB-2021-11.json')) as unknown }),
  );
  const listings = byId(page.listings);

  it('reads the 10 products with their prices and promotions', () => {
    expect(page.listings).toHaveLength(10);
    expect(page.total).toBeNull();
    expect(listings.get('0001111042908')).toMatchObject({
      title: 'Simple Truth Organic® Whole Milk',
      brand: 'Simple Truth Organic',
      price: 5.49,
      regularPrice: 5.89,
      sizeText: '1 gal',
      category: 'Natural & Organic',
    });
    // promo written as a plain 3.
    expect(listings.get('0085631200277')).toMatchObject({
      title: 'Fairlife 2% Reduced Fat Ultra Filtered Lactose Free Milk',
      price: 3,
      regularPrice: 4.29,
      sizeText: '52 fl oz',
    });
    expect(listings.get('0001111041600')).toMatchObject({
      title: 'Kroger® 2% Reduced Fat Milk',
      price: 1.99,
      regularPrice: 1.99,
      sizeText: '1/2 gal',
    });
    expect(page.listings.every((l) => l.inStock === null && l.notOnShelf === undefined)).toBe(true);
  });
});

describe('/v1/products asked without filter.locationId (Adwathnath/Kroger_Data_Fetch_and_Store, 2024-07)', () => {
  it('fails: nothing is priced without a location, so nothing may be recorded', () => {
    const body = real('products-milk-NO-locationId-adwathnath-2024-07.json');
    // Three products, none with a price; every fulfilment flag false; a size "1/2 gal." with a period.
    expect(JSON.parse(body)).toMatchObject({ meta: { pagination: { start: 0, limit: 3, total: 2072 } } });
    expect(() => parseKrogerProducts(body)).toThrowError(
      new StructureError('Kroger products: no prices: the store was not applied'),
    );
  });
});
