// Target's parse functions on response bodies captured from RedSky and committed to public
// repositories (test/retailers/real/target/SOURCES.md: repository, path, commit, what was reduced).
// Every expected value was read from the body itself.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type StandInServer } from '../../test/retailers/http-server.ts';
import { json, type RetailerStandIn } from '../../test/retailers/types.ts';
import { TARGET_STAND_IN_KEY } from '../../test/retailers/target.ts';
import { locationPlace } from './pipeline.ts';
import { parseTargetFulfillment, parseTargetNearbyStores, parseTargetSearch, target } from './target.ts';
import type { RawListing } from './types.ts';
import { standInContext, standInServers } from '../../test/retailers/scraping.ts';

const real = (file: string) =>
  fs.readFileSync(new URL(`../../test/retailers/real/target/${file}`, import.meta.url), 'utf8');
/** A file that holds only data.search.products, as its committer saved it, in the plp envelope. */
const plpOf = (file: string) =>
  JSON.stringify({ data: { search: { search_response: {}, products: JSON.parse(real(file)) as unknown[] } } });
const byId = (listings: RawListing[]) => new Map(listings.map((l) => [l.retailerProductId, l]));
/** One store of a nearby_stores_v1 body read alone (the parser answers the first open one). */
function nearbyStore(file: string, storeId: string) {
  const body = JSON.parse(real(file)) as { data: { nearby_stores: { stores: { store_id: string }[] } } };
  const store = body.data.nearby_stores.stores.find((s) => s.store_id === storeId);
  return parseTargetNearbyStores(JSON.stringify({ data: { nearby_stores: { count: 1, stores: [store] } } }));
}

describe('plp_search_v2, Snacks category priced at store 95 (andrewdyar/switchyard, 2025-11)', () => {
  const body = real('plp-search-v2-category-snacks-5xsy9-store95-switchyard-2025-11.json');
  const page = parseTargetSearch(body, '95');
  const listings = byId(page.listings);

  it('reads all 30 products, 6 of them sponsored tiles that metadata.count (24) leaves out', () => {
    expect(page).toMatchObject({
      count: 24,
      totalPages: 50,
      totalResults: 6177,
      returned: 30,
      unsponsored: 24,
      nonProductTiles: 0,
    });
    expect(page.listings).toHaveLength(30);
    expect(new Set(page.listings.map((l) => l.retailerProductId)).size).toBe(30);
    // Sponsored at positions 0, 1, 2, 6, 7 and 8; the unsponsored ones carry no is_sponsored_sku key.
    expect([0, 1, 2, 6, 7, 8].map((i) => page.listings[i]!.retailerProductId)).toEqual([
      '52048009',
      '52048011',
      '94640256',
      '94719711',
      '94282782',
      '84648706',
    ]);
    expect(page.listings.every((l) => l.notOnShelf === undefined)).toBe(true);
  });

  it('reads a sponsored tile like any product priced at the store', () => {
    expect(listings.get('52048009')).toEqual({
      retailerProductId: '52048009',
      title: 'Quest Nutrition 20g Protein Bar - White Chocolate Raspberry - 4ct',
      brand: 'Quest Nutrition',
      price: 8.89,
      regularPrice: 8.89,
      sizeText: null,
      category: 'Snack and Protein Bars',
      url: 'https://www.target.com/p/quest-nutrition-20g-protein-bar-white-chocolate-raspberry-4ct/-/A-52048009',
      inStock: null,
    });
  });

  it('takes the displayed "was" price as the regular price (display_was_now, comparison type reg)', () => {
    // current_retail 4.69 = reg_retail, type reg, shown as reduced from $5.19.
    expect(listings.get('85928428')).toMatchObject({
      title: 'Doritos Sweet & Tangy BBQ Tortilla Chips - 9.25oz',
      price: 4.69,
      regularPrice: 5.19,
    });
  });

  it('reads a sale price with its regular price', () => {
    // &#160; in the title is a no-break space.
    expect(listings.get('94885824')).toMatchObject({
      title: 'Frito-Lay Variety Pack Bonus Family Fun Mix Chips - 18.625oz/20ct',
      brand: 'Frito-Lay',
      price: 10.29,
      regularPrice: 10.49,
    });
  });

  it('decodes entity-encoded titles beside plain brands', () => {
    expect(listings.get('92415366')).toMatchObject({
      title: 'Unsweetened Apple Fruit Puree Pouches Applesauce Pouches - 24ct - Good & Gather™ - Good & Gather™',
      brand: 'Good & Gather',
      price: 12.19,
      regularPrice: 12.19,
    });
    expect(listings.get('94566553')).toMatchObject({
      title: 'Christmas Cheddar Straws Chips - 10oz - Hearth & Hand™ with Magnolia Table',
      brand: 'Hearth & Hand with Magnolia Table',
    });
    expect(listings.get('94755182')!.title).toBe("Mother's Cookies Holiday Reindeer Games - 9oz");
  });

  it('pages by the unsponsored products: the second page asks offset 24, not 30', async () => {
    const offsets: string[] = [];
    const handler: RetailerStandIn = {
      store: 'target',
      handle(req) {
        if (req.path.endsWith('/plp_search_v2')) {
          offsets.push(req.query.get('offset')!);
          return { status: 200, headers: { 'content-type': 'application/json' }, body };
        }
        if (req.path.endsWith('/product_summary_with_fulfillment_v1')) return json({ data: { product_summaries: [] } });
        return null;
      },
    };
    const server = await serve(handler);
    const ctx = contextFor(server, 2);
    const pages = [];
    for await (const p of target.listings(
      {
        retailerLocationId: '95',
        name: 'Austin North',
        zip: '78758',
        city: 'Austin',
        state: 'TX',
        address: null,
        latitude: null,
        longitude: null,
      },
      '78758',
      ctx,
    ))
      pages.push(p);
    expect(pages.map((p) => p.listings.length)).toEqual([30, 30]);
    expect(offsets).toEqual(['0', '24']);
  });
});

describe('plp_search_v2, category 4xq89 (pet treats) priced at store 1771 (mbuthimungai/Target-Scraper, 2024-03-29)', () => {
  const page = parseTargetSearch(real('plp-search-v2-category-4xq89-store1771-mbuthimungai-2024-03-29.json'), '1771');
  const listings = byId(page.listings);

  it('reads 29 products, 5 sponsored, paging by the 24 others', () => {
    expect(page).toMatchObject({
      count: 24,
      totalPages: 50,
      totalResults: 3887,
      returned: 29,
      unsponsored: 24,
      nonProductTiles: 0,
    });
    expect([0, 1, 6, 7, 8].map((i) => page.listings[i]!.retailerProductId)).toEqual([
      '89490549',
      '89490550',
      '89560690',
      '89490547',
      '80602507',
    ]);
    expect(page.listings.every((l) => l.notOnShelf === undefined)).toBe(true);
  });

  it('reads titles, brands, item types and prices', () => {
    expect(listings.get('87068953')).toMatchObject({
      title: 'Flying Squirrel Cat Toy - Boots & Barkley™',
      brand: 'Boots & Barkley',
      category: 'Pet Toy',
      price: 2.99,
      regularPrice: 2.99,
    });
    expect(listings.get('80602507')).toMatchObject({
      title: "Newman's Own Beef Jerky Soft Dog Treats - 14oz",
      brand: "Newman's Own",
      price: 11.99,
    });
    expect(listings.get('83904077')).toMatchObject({
      title: 'Delectables Squeeze Up Tube with Vegetable, Chicken and Tuna Flavor Cat Treats - 20ct/10oz',
      price: 12.29,
      regularPrice: 12.29,
      category: 'Pet Treats',
    });
    expect(listings.get('53127826')!.title).toBe('Cadet Stuffed Shin Bone Peanut Butter Dog Treat - 3-4" - 6oz');
  });
});

describe('plp_search_v2 products asked for store 1771, 13 priced at location 3991 (mbuthimungai/Target-Scraper, 2024-04-04)', () => {
  const page = parseTargetSearch(plpOf('plp-products-array-store1771-mbuthimungai-2024-04-04.json'), '1771');
  const listings = byId(page.listings);

  it("skips the items another location prices as not on the store's shelf", () => {
    expect(page.listings).toHaveLength(29);
    expect(page.unsponsored).toBe(24);
    const elsewhere = page.listings.filter((l) => l.notOnShelf === 'online-only').map((l) => l.retailerProductId);
    // Vinyl records and books, priced at 3991.
    expect(elsewhere).toEqual([
      '88314904',
      '89571323',
      '89962609',
      '89809419',
      '88555109',
      '84157202',
      '88165702',
      '89113974',
      '88568131',
      '86045769',
      '80550934',
      '52826557',
      '76458739',
    ]);
    expect(listings.get('87436022')).toMatchObject({
      title: 'Partake Gluten Free Vegan Soft Baked Lemon Cookies - 5.5oz',
      price: 4.89,
      regularPrice: 4.89,
    });
    expect(listings.get('87436022')!.notOnShelf).toBeUndefined();
  });

  it('keeps a sponsored sale item priced at the store, with its regular price', () => {
    expect(listings.get('89659027')).toMatchObject({ price: 7.99, regularPrice: 9.99 });
    expect(listings.get('89659027')!.notOnShelf).toBeUndefined();
  });

  it('never takes an MSRP comparison price as the regular price', () => {
    // current 11.15 = reg_retail, comparison "$18.99" of type MSRP.
    expect(listings.get('88555109')).toMatchObject({
      title: 'Something, Someday - by Amanda Gorman (Hardcover)',
      price: 11.15,
      regularPrice: 11.15,
    });
    expect(listings.get('89113974')).toMatchObject({ price: 19.05, regularPrice: 19.05 });
  });

  it('reads every price when the store is not known', () => {
    expect(
      parseTargetSearch(plpOf('plp-products-array-store1771-mbuthimungai-2024-04-04.json')).listings.every(
        (l) => l.notOnShelf === undefined,
      ),
    ).toBe(true);
  });
});

describe('plp_search_v2 products with Target Circle offers (mbuthimungai/Target-Scraper, 2024-04-10)', () => {
  // The requested store is not recorded with this commit: read without one.
  const listings = byId(
    parseTargetSearch(plpOf('plp-products-array-candles-circle-offer-mbuthimungai-2024-04-10.json')).listings,
  );

  it('keeps current_retail, not the Circle member price, as the shelf price', () => {
    // discount_price_circle_base.price 11.2 ("Save 30% on Candles", circle_offer).
    expect(listings.get('83692619')).toMatchObject({
      title: '7"x4" Peony & Cherry Blossom Cozy Pillar Candle Pink - Threshold™',
      brand: 'Threshold',
      price: 16,
      regularPrice: 16,
    });
    expect(listings.get('82082869')).toMatchObject({ price: 17.99, regularPrice: 17.99 });
    expect(listings.size).toBe(24);
  });

  it('reads the sale items', () => {
    expect(listings.get('85025201')).toMatchObject({ price: 35.98, regularPrice: 37.99 });
    expect(listings.get('84235907')).toMatchObject({ price: 19.99, regularPrice: 24.99 });
  });
});

describe('product_summary_with_fulfillment_v1, 29 items at store 1750 (Graqr/archived-threshr-cli, 2023-10-27)', () => {
  const body = real('product-summary-with-fulfillment-v1-store1750-29items-graqr-2023-10-27.json');

  it("reads the store's stock: 26 in stock, 3 out", () => {
    const stock = parseTargetFulfillment(body, '1750');
    expect(stock.size).toBe(29);
    const out = [...stock].filter(([, inStock]) => inStock === false).map(([tcin]) => tcin);
    // All out at the store; out at the store but shipping; in-store out with pickup UNAVAILABLE.
    expect(out).toEqual(['86065484', '14886100', '88541940']);
    expect([...stock.values()].filter((v) => v === true)).toHaveLength(26);
    // In stock at the store though out of stock for shipping.
    expect(stock.get('54564296')).toBe(true);
  });

  it("never reads another store's stock", () => {
    expect([...parseTargetFulfillment(body, '1771').values()].every((v) => v === null)).toBe(true);
  });
});

describe('product_summary_with_fulfillment_v1, one item at store 1750 (Graqr/archived-threshr-cli, 2023-10-27)', () => {
  it('reads in stock at the store while shipping is out of stock', () => {
    expect([
      ...parseTargetFulfillment(
        real('product-summary-with-fulfillment-v1-store1750-1item-graqr-2023-10-27.json'),
        '1750',
      ),
    ]).toEqual([['82691535', true]]);
  });
});

describe('product_summary_with_fulfillment_v1 fulfillment object, store 1771 (scrapfly/scrapfly-scrapers, 2026-07)', () => {
  it('reads the raw fulfillment object its scraper kept', () => {
    // The committed file re-keys the summaries by tcin; its fulfillment objects are raw.
    const processed = JSON.parse(real('product-summary-with-fulfillment-v1-PROCESSED-scrapfly-2026-07.json')) as Record<
      string,
      { tcin: string; fulfillment: unknown }
    >;
    const body = JSON.stringify({
      data: { product_summaries: Object.values(processed).map(({ tcin, fulfillment }) => ({ tcin, fulfillment })) },
    });
    expect([...parseTargetFulfillment(body, '1771')]).toEqual([['88440369', true]]);
    expect([...parseTargetFulfillment(body, '95')]).toEqual([['88440369', null]]);
  });
});

describe('nearby_stores_v1, 15 stores near Centerville, UT (Graqr/archived-threshr-cli, 2024-01-17)', () => {
  const file = 'nearby-stores-v1-centerville-UT-15stores-graqr-2024-01-17.json';

  it('reads the first open store with the two-letter region and the ZIP of its ZIP+4', () => {
    const location = parseTargetNearbyStores(real(file));
    expect(location).toEqual({
      retailerLocationId: '1750',
      name: 'Centerville',
      zip: '84014',
      city: 'Centerville',
      state: 'UT',
      address: '200 N Market Place Dr',
      latitude: null,
      longitude: null,
    });
    // No coordinates in this body: the pipeline places the store at its ZIP code's centre.
    expect(locationPlace(location!, location!.zip!)).toMatchObject({
      city: 'Centerville',
      state: 'UT',
      coordinatesSource: 'zip',
    });
  });

  it('keeps the store name apart from the city', () => {
    expect(nearbyStore(file, '1751')).toEqual({
      retailerLocationId: '1751',
      name: 'Fort Union',
      zip: '84121',
      city: 'Salt Lake City',
      state: 'UT',
      address: '7025 S Park Centre Dr',
      latitude: null,
      longitude: null,
    });
  });
});

describe('nearby_stores_v1, 20 stores in RI, MA and CT (Graqr/archived-threshr-cli, 2024-01-17)', () => {
  const file = 'nearby-stores-v1-rhode-island-20stores-graqr-2024-01-17.json';

  it('reads the first open store', () => {
    expect(parseTargetNearbyStores(real(file))).toEqual({
      retailerLocationId: '1404',
      name: 'Smithfield',
      zip: '02917',
      city: 'Smithfield',
      state: 'RI',
      address: '371 Putnam Pike Ste A-250',
      latitude: null,
      longitude: null,
    });
  });

  it('reads stores whose name is not their city, in other states', () => {
    expect(nearbyStore(file, '2432')).toMatchObject({ name: 'Killingly', city: 'Dayville', state: 'CT', zip: '06241' });
    expect(nearbyStore(file, '1190')).toMatchObject({
      name: 'North Attleborough',
      city: 'North Attleboro',
      state: 'MA',
      zip: '02760',
    });
  });
});

// ---------------------------------------------------------------------------------------------

const serveStandInsOnce = standInServers();
const serve = (standIn: RetailerStandIn) => serveStandInsOnce([standIn]);

const contextFor = (server: StandInServer, maxPages: number) =>
  standInContext(target, server.url, { maxPages, credentials: { targetApiKey: TARGET_STAND_IN_KEY } });
