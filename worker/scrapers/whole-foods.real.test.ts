// Whole Foods against bodies captured from wholefoodsmarket.com (test/retailers/real/whole-foods,
// provenance in its SOURCES.md). Every expected value was read from the bodies themselves: ids,
// titles, brands, shelf and regular prices, stock, totals and the store each page was rendered for.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RetailerHttp, type Transport } from './http.ts';
import { acceptListing } from './pipeline.ts';
import type { ListingPage, RawListing, RetailerLocation, ScrapeContext } from './types.ts';
import {
  parseWholeFoodsProducts,
  parseWholeFoodsRsiSearch,
  parseWholeFoodsSearch,
  parseWholeFoodsSearchPageHtml,
  parseWholeFoodsStoreCode,
  wholeFoods,
} from './whole-foods.ts';

const body = (name: string) =>
  fs.readFileSync(new URL(`../../test/retailers/real/whole-foods/${name}`, import.meta.url), 'utf8');
const byId = (listings: RawListing[], id: string) => listings.find((listing) => listing.retailerProductId === id)!;

/** The `__NEXT_DATA__` page props of a saved page, for the parts that are bodies of their own. */
function pageProps(name: string): Record<string, unknown> {
  const script = /<script id="__NEXT_DATA__"[^>]*>([\s\S]*?)<\/script>/.exec(body(name));
  return (JSON.parse(script![1]!) as { props: { pageProps: Record<string, unknown> } }).props.pageProps;
}

/** What the pipeline makes of a listing: [count, egg type, price, stock], or the reason it is not recorded. */
function verdict(listing: RawListing): unknown {
  const result = acceptListing(listing);
  return result.kind === 'accepted'
    ? [result.listing.count, result.listing.eggType, result.listing.price, result.listing.inStock]
    : result.reason;
}

describe('/api/search "eggs" at store 10145 Lamar, Austin (2026)', () => {
  const page = () => parseWholeFoodsSearch(body('api-search-eggs-store10145.json'), '10145');

  it('reads the 20 results kept of 1230, "EQUAL_TO" total', () => {
    expect(page().resultCount).toBe(20);
    expect(page().total).toBe(1230);
    expect(
      page()
        .listings.slice(0, 3)
        .map((listing) => listing.retailerProductId),
    ).toEqual(['B078158XZ4', 'B07813J5WT', 'B07YT7438G']);
  });

  it('reads regular prices, brands apart from titles, stock unknown (the search carries none)', () => {
    expect(byId(page().listings, 'B01MZHDHVM')).toEqual({
      retailerProductId: 'B01MZHDHVM',
      title: 'Large Grade A Eggs, 18 CT',
      brand: 'Vital Farms',
      price: 10.49,
      regularPrice: 10.49,
      sizeText: null,
      category: null,
      url: 'https://www.wholefoodsmarket.com/product/vital-farms-large-grade-a-eggs-18-ct-b01mzhdhvm',
      inStock: null,
    });
    expect(byId(page().listings, 'B0BT377KP2')).toMatchObject({
      title: 'Large Grade A Eggs, 12 CT',
      brand: 'PETE & GERRYS',
      price: 6.79,
      regularPrice: 6.79,
    });
    expect(page().listings.every((listing) => listing.inStock === null && listing.price !== null)).toBe(true);
  });

  it('settles the housing by brand when the title is silent, never below its organic, and skips what is not shell eggs', () => {
    const listings = page().listings;
    expect(verdict(byId(listings, 'B01MZHDHVM'))).toEqual([18, 'pasture_raised', 10.49, null]);
    expect(verdict(byId(listings, 'B0849MZ45Y'))).toEqual([12, 'pasture_raised', 7.49, null]);
    expect(verdict(byId(listings, 'B07Z131SQB'))).toEqual([12, 'pasture_raised', 8.39, null]);
    expect(verdict(byId(listings, 'B00M1QWODW'))).toEqual([12, 'pasture_raised', 9.99, null]);
    expect(verdict(byId(listings, 'B0BT377KP2'))).toEqual([12, 'cage_free', 6.79, null]);
    // "Organic Large Grade A Eggs, 18 CT" by Pete & Gerry's: the brand never lowers the title's organic.
    expect(verdict(byId(listings, 'B089C8KY9D'))).toEqual([18, 'organic', 10.29, null]);
    expect(verdict(byId(listings, 'B078158XZ4'))).toEqual([12, 'organic', 8.49, null]);
    expect(acceptListing(byId(listings, 'B07RHCHCLD')).kind).toBe('skipped'); // Liquid Whole Eggs, 16 OZ
    expect(acceptListing(byId(listings, 'B0BV7RMFV7')).kind).toBe('skipped'); // Kale and Spinach Egg Bites
    expect(acceptListing(byId(listings, 'B09XVMN5Q8')).kind).toBe('skipped'); // Deviled Eggs
  });

  it("fails when asked for another store: 10145 is the site's default store, its prices are not the other's", () => {
    expect(() => parseWholeFoodsSearch(body('api-search-eggs-store10145.json'), '10160')).toThrow(
      'Whole Foods search: results of store 10145, not 10160: the store was not applied',
    );
  });
});

describe('/api/search "eggs" with store 10225 on every result and no price (2026)', () => {
  it('reads the results as unpriced, not as a failure and not as zero', () => {
    const page = parseWholeFoodsSearch(body('api-search-eggs-store10225-no-prices.json'), '10225');
    expect(page.resultCount).toBe(20);
    expect(page.total).toBe(1243);
    expect(page.listings.every((listing) => listing.price === null && listing.regularPrice === null)).toBe(true);
    expect(byId(page.listings, 'B00TFXF3G4')).toMatchObject({
      title: 'Organic Large Grade A Eggs, 12 CT',
      brand: 'Chino Valley Ranchers',
      price: null,
    });
    expect(verdict(byId(page.listings, 'B00TFXF3G4'))).toBe('no-price');
    expect(verdict(byId(page.listings, 'B079VRLC5G'))).toBe('no-price'); // ALEXANDRE FAMILY FARMS Organic Jumbo, 6 CT
  });
});

describe('/api/products/category/beef at store 10216 Westlake (2026-03: the search items with sale fields)', () => {
  const page = () => parseWholeFoodsSearch(body('api-products-category-beef-store10216.json'), '10216');

  it('takes salePrice as the shelf price, regularPrice beside it, never the Prime-only incrementalSalePrice', () => {
    expect(page().total).toBe(18);
    expect(byId(page().listings, 'B0943BDRKZ')).toMatchObject({
      title: 'Organic Beef New York Strip Steak, 8 OZ',
      brand: 'Organic Rancher',
      price: 12.44,
      regularPrice: 13.99,
    });
    expect(byId(page().listings, 'B09431KDP8')).toMatchObject({
      title: 'Organic Ground Beef 85% Lean/15% Fat, 16 OZ',
      price: 7.59,
      regularPrice: 9.49,
    });
    expect(byId(page().listings, 'B09439SKW3')).toMatchObject({ price: 10.49, regularPrice: 10.49 });
  });

  it('marks the counter items priced by the pound (uom "lb")', () => {
    expect(
      page()
        .listings.filter((listing) => listing.soldByWeight)
        .map((listing) => listing.title),
    ).toEqual([
      'Beef Loin Flank Steak',
      'Steakhouse Beef Burger',
      '80/20 Ground Beef',
      'Carne Asada Beef Fajitas',
      'Bone-In Beef Chuck Short Rib',
      'Superior Beef Burger',
      'Beef Chuck Flat Cut Brisket',
      'Bone-In Beef Loin Ny Strip Steak',
      'Boneless Beef Chuck Roast',
      'Boneless Beef Ribeye Steak',
      'Beef Chuck Stew',
    ]);
  });
});

describe('/api/wwos/products, bananas and eggs (2026)', () => {
  it('reads IN_STOCK as in stock and a null availability as unknown, never out of stock', () => {
    const products = parseWholeFoodsProducts(body('wwos-products-bananas-eggs.json'));
    expect(products.map((product) => [product.retailerProductId, product.inStock, product.price])).toEqual([
      ['B0014GPSKQ', null, null],
      ['B0787Y4V6T', true, 0.99],
      ['B07FYYKKQK', true, 0.69],
      ['B0BT377KP2', true, 7.49],
    ]);
    expect(byId(products, 'B0BT377KP2')).toEqual({
      retailerProductId: 'B0BT377KP2',
      title: 'Pete & Gerrys Pasture-Raised Large 12 CT',
      brand: null,
      price: 7.49,
      regularPrice: 7.49,
      sizeText: null,
      category: null,
      url: 'https://www.wholefoodsmarket.com/grocery/product/Pete-Gerrys-Pasture-Raised-Large-12-CT-B0BT377KP2',
      inStock: true,
    });
  });
});

describe('/api/wwos/products reads with discriminator A0SL at store 10717 Stonestown (re-wrapped by their author)', () => {
  const reads = () =>
    JSON.parse(body('wwos-products-reads-A0SL-store10717.json')) as Record<string, Record<string, unknown>>;

  it('reads the same ASIN unknown in one read and in stock in another', () => {
    const bare = parseWholeFoodsProducts(JSON.stringify(Object.values(reads().bare_negative_reads!)));
    expect(bare.map((product) => [product.retailerProductId, product.brand, product.inStock, product.price])).toEqual([
      ['B07814PS49', '365 by Whole Foods Market', null, null],
      ['B07YFT8JTH', "Mary's Chicken", null, null],
    ]);
    const live = parseWholeFoodsProducts(JSON.stringify(Object.values(reads().live_offer_reads!)));
    expect(live).toEqual([
      {
        retailerProductId: 'B07YFT8JTH',
        title: "Mary's Chicken Boneless Skinless Heirloom Chicken Breast",
        brand: "Mary's Chicken",
        price: 9.99,
        regularPrice: 9.99,
        sizeText: null,
        category: null,
        url: 'https://www.wholefoodsmarket.com/grocery/product/Marys-Chicken-Boneless-Skinless-Heirloom-Chicken-Breast-B07YFT8JTH',
        inStock: true,
        // pricingUom WEIGHT / POUNDS: 9.99 is per pound.
        soldByWeight: true,
      },
    ]);
  });
});

describe('product page of B0787Y4V6T rendered for store 10151 SoMa (2026, trimmed by its author)', () => {
  it('proves store code A0D4 for 10151: isDefaultLocation false, overrideStoreId and almAttributes.storeId 10151', () => {
    expect(parseWholeFoodsStoreCode(body('product-page-store10151-A0D4.html'), '10151')).toEqual({ code: 'A0D4' });
  });

  it('proves nothing for another store, whatever its locationCookie says (Lamar, the default store)', () => {
    expect(pageProps('product-page-store10151-A0D4.html').locationCookie).toMatchObject({ id: '10151', name: 'Lamar' });
    expect(parseWholeFoodsStoreCode(body('product-page-store10151-A0D4.html'), '10145')).toEqual({
      code: null,
      reason: 'the product page was rendered for store 10151, not 10145',
    });
  });

  it('carries the product in the /api/wwos/products shape', () => {
    expect(
      parseWholeFoodsProducts(JSON.stringify([pageProps('product-page-store10151-A0D4.html').aapiData])),
    ).toMatchObject([
      {
        retailerProductId: 'B0787Y4V6T',
        title: 'Organic Banana, 1 Each',
        brand: 'Fresh Produce (Brands May Vary)',
        price: 0.99,
        regularPrice: 0.99,
        inStock: true,
      },
    ]);
  });
});

describe('product page of B07FW2S6J1 with almAttributes of store 10036 Gateway (2025-11-27, reduced)', () => {
  it('proves no store code: the page has neither isDefaultLocation nor overrideStoreId', () => {
    const props = pageProps('product-page-B07FW2S6J1-store10036-2025.html');
    expect(props).not.toHaveProperty('isDefaultLocation');
    expect(props).not.toHaveProperty('overrideStoreId');
    expect(props.wfmccLocationData).toMatchObject({
      cateringStoreContext: { almAttributes: { storeId: '10036', offerListingDiscriminator: 'A0EZ' } },
    });
    expect(parseWholeFoodsStoreCode(body('product-page-B07FW2S6J1-store10036-2025.html'), '10036')).toEqual({
      code: null,
      reason: 'the product page does not prove it was rendered for store 10036',
    });
  });

  it('carries the product in the /api/wwos/products shape', () => {
    expect(
      parseWholeFoodsProducts(JSON.stringify([pageProps('product-page-B07FW2S6J1-store10036-2025.html').aapiData])),
    ).toMatchObject([
      {
        retailerProductId: 'B07FW2S6J1',
        title: '365 by Whole Foods Market Flour Tortillas, 10.7 OZ',
        brand: '365 by Whole Foods Market',
        price: 2.29,
        inStock: true,
      },
    ]);
  });
});

describe('product page of B0BT377KP2 (2026, trimmed to its aapiData by its author)', () => {
  it('names no store code', () => {
    expect(parseWholeFoodsStoreCode(body('product-page-aapidata-B0BT377KP2.html'), '10145')).toEqual({
      code: null,
      reason: 'the product page names no store code',
    });
  });

  it("reads the brand apart from the title: Pete & Gerry's, in stock at 6.99", () => {
    expect(
      parseWholeFoodsProducts(JSON.stringify([pageProps('product-page-aapidata-B0BT377KP2.html').aapiData])),
    ).toMatchObject([
      {
        retailerProductId: 'B0BT377KP2',
        title: 'Pete & Gerrys Pasture-Raised Large 12 CT',
        brand: "Pete & Gerry's",
        price: 6.99,
        regularPrice: 6.99,
        inStock: true,
      },
    ]);
  });
});

describe('grocery search page (deals) with almAttributes of store 10160 Columbus Circle, A08F (2026-04-04, reduced)', () => {
  const name = 'grocery-search-deals-store10160-A08F.html';

  it('embeds the newer search answer: 30 ASINs of 1000 available (2187 approximate)', () => {
    const rsi = parseWholeFoodsRsiSearch(JSON.stringify(pageProps(name).searchResults));
    expect(rsi.asins).toHaveLength(30);
    expect(rsi.asins.slice(0, 3)).toEqual(['B07FZKXQT2', 'B002B8Z98W', 'B079YXD4H2']);
    expect(rsi.total).toBe(1000);
  });

  it('embeds the products: priceAmount is the shelf price, basisPriceAmount the regular one, the Prime price left aside', () => {
    const page = parseWholeFoodsSearchPageHtml(body(name), '10160');
    expect(page.listings).toHaveLength(30);
    expect(page.nonProductTiles).toBe(0);
    expect(page.listings.every((listing) => listing.inStock === true)).toBe(true);
    expect(
      page.listings.filter(
        (listing) => listing.regularPrice !== null && listing.price !== null && listing.regularPrice > listing.price,
      ),
    ).toHaveLength(26);
    expect(byId(page.listings, 'B002B8Z98W')).toMatchObject({
      title: 'Organic Strawberries, 1 Lb',
      brand: 'Fresh Produce',
      price: 5.32,
      regularPrice: 6.99,
      inStock: true,
    });
    // A Prime-only deal: 4.43 for everyone (Prime 3.99), no basis price.
    expect(byId(page.listings, 'B07FTYWCCD')).toMatchObject({
      title: 'Organic Mini Cucumbers, 1 lb',
      brand: 'Wholesum',
      price: 4.43,
      regularPrice: 4.43,
    });
    // pricingUom WEIGHT: priced by the pound.
    expect(byId(page.listings, 'B07FZKXQT2')).toMatchObject({
      title: 'Potato Sweet Orange Organic',
      price: 2.54,
      regularPrice: 2.99,
      soldByWeight: true,
    });
  });

  it('proves no store: the page has neither isDefaultLocation nor overrideStoreId', () => {
    expect(parseWholeFoodsSearchPageHtml(body(name), '10160').storeCode).toEqual({
      code: null,
      reason: 'the search page does not prove it was rendered for store 10160',
    });
  });
});

describe('grocery search page (deals) with almAttributes of store 10713 Manhattan West, A0NZ, and storeTlc "LMR" (2026-04-04, reduced)', () => {
  const name = 'grocery-search-deals-store10713-A0NZ.html';

  it('reads the one product without an offer as unpriced with stock unknown', () => {
    const page = parseWholeFoodsSearchPageHtml(body(name), '10713');
    expect(pageProps(name).storeTlc).toBe('LMR');
    expect(page.total).toBe(1000);
    expect(page.listings).toHaveLength(30);
    expect(page.listings.filter((listing) => listing.inStock === true)).toHaveLength(29);
    expect(byId(page.listings, 'B086G5HQVL')).toMatchObject({
      title: "Annie's Organic Bunny Grahams Snacks, Neapolitan, 7.5 oz",
      price: null,
      regularPrice: null,
      inStock: null,
    });
    expect(page.storeCode.code).toBeNull();
  });
});

describe('the scraper on real pages', () => {
  /** A run whose requests are answered by path: a real body, or a 404. */
  function context(answers: Record<string, string>): { ctx: ScrapeContext; paths: string[] } {
    const paths: string[] = [];
    const transport: Transport = async (request) => {
      const url = new URL(request.url);
      paths.push(url.pathname);
      const answer = answers[url.pathname];
      return answer === undefined
        ? { status: 404, headers: {}, body: 'Not Found', url: request.url }
        : { status: 200, headers: {}, body: answer, url: request.url };
    };
    const http = new RetailerHttp(wholeFoods.storeName, wholeFoods.origins, {
      delayMs: 0,
      retries: 0,
      timeoutMs: 1000,
      backoffBaseMs: 1,
      backoffCapMs: 1,
      maxRetryAfterMs: 1,
      transport,
    });
    return { ctx: { http, maxPages: 3, term: 'eggs', credentials: {} }, paths };
  }

  const store = (id: string): RetailerLocation => ({
    retailerLocationId: id,
    name: null,
    zip: null,
    city: null,
    state: null,
    address: null,
    latitude: null,
    longitude: null,
  });

  async function pages(ctx: ScrapeContext, id: string): Promise<ListingPage[]> {
    const read: ListingPage[] = [];
    for await (const page of wholeFoods.listings(store(id), '78703', ctx)) read.push(page);
    return read;
  }

  it('keeps the prices with stock unknown, and says why, when the product page does not prove the store (the 2025 page)', async () => {
    const { ctx, paths } = context({
      '/api/search': body('api-search-eggs-store10145.json'),
      '/grocery/product/worlds-best-eggs-organic-large-grade-a-eggs-12-ct-b078158xz4': body(
        'product-page-B07FW2S6J1-store10036-2025.html',
      ),
    });
    const [page] = await pages(ctx, '10145');
    expect(page!.listings).toHaveLength(20);
    expect(page!.listings.every((listing) => listing.inStock === null && listing.price !== null)).toBe(true);
    expect(page!.notes).toEqual(['stock unknown: the product page does not prove it was rendered for store 10145']);
    // The product page once, no stock call.
    expect(paths).toEqual([
      '/api/search',
      '/grocery/product/worlds-best-eggs-organic-large-grade-a-eggs-12-ct-b078158xz4',
    ]);
  });

  it("fails the ZIP when /api/search is gone and the search page does not prove the store: its prices are not the store's", async () => {
    const { ctx } = context({ '/grocery/search': body('grocery-search-deals-store10160-A08F.html') });
    await expect(pages(ctx, '10160')).rejects.toThrow(
      "page structure not recognised (Whole Foods search page: the search page does not prove it was rendered for store 10160: its prices are not the store's)",
    );
  });
});
