// The stand-in's shared scenarios (test/retailers/scenarios.ts) against each of the six retailer
// modules, through both transports: a ZIP with no store near it, a bot wall, a changed structure,
// a flaky first answer (500, retried), a rate limit (429, waited out) and slow answers. One table
// holds what differs per retailer; each retailer's own behaviour is tested in its <retailer>.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TRANSPORTS, type TransportName } from '#shared/egress.ts';
import type { RetailerCredentials } from '#shared/scrape.ts';
import { albertsonsStandIn } from '../../test/retailers/albertsons.ts';
import { aldiStandIn } from '../../test/retailers/aldi.ts';
import { serveStandIns, type StandInServer } from '../../test/retailers/http-server.ts';
import { KROGER_CATALOGUE, krogerRegularPrice, krogerStandIn } from '../../test/retailers/kroger.ts';
import { SCENARIO_ZIPS } from '../../test/retailers/scenarios.ts';
import { TARGET_CATALOGUE, targetRegularPrice, targetStandIn } from '../../test/retailers/target.ts';
import type { RetailerStandIn } from '../../test/retailers/types.ts';
import {
  WALMART_CAROUSEL_REPEATS,
  WALMART_CATALOGUE,
  WALMART_OFF_SHELF,
  walmartRegularPrice,
  walmartStandIn,
} from '../../test/retailers/walmart.ts';
import { wholeFoodsStandIn } from '../../test/retailers/whole-foods.ts';
import { albertsons } from './albertsons.ts';
import { aldi } from './aldi.ts';
import { kroger } from './kroger.ts';
import { target } from './target.ts';
import { ScrapeError, StructureError, type ListingPage, type RetailerScraper } from './types.ts';
import { walmart } from './walmart.ts';
import { wholeFoods } from './whole-foods.ts';
import { locateAndList, standInContext } from '../../test/retailers/scraping.ts';

interface RetailerScenarios {
  scraper: RetailerScraper;
  standIn: RetailerStandIn;
  credentials?: RetailerCredentials;
  /** The path of the listing requests (one per page). */
  searchPath: string | ((path: string) => boolean);
  /** Listings per page of a scenario ZIP that succeeds. */
  pageSizes: number[];
  blockedMessage: string;
  changedMessage: string;
  /** A listing of page 1 and its expected price at the ZIP, where the retailer's test checked one. */
  price?: { of: (pages: ListingPage[]) => number | null; expected: (zip: string) => number | null };
}

const walmartItem = (key: string) => WALMART_CATALOGUE.find((i) => i.key === key)!;
const krogerItem = (key: string) => KROGER_CATALOGUE.find((i) => i.key === key)!;
const targetItem = (key: string) => TARGET_CATALOGUE.find((i) => i.key === key)!;

const RETAILERS: RetailerScenarios[] = [
  {
    scraper: walmart,
    standIn: walmartStandIn,
    searchPath: '/search',
    // Page 1's tiles: the sponsored repeat, 8 products, the off-shelf offers and the carousel's repeats.
    pageSizes: [1 + 8 + WALMART_OFF_SHELF.length + WALMART_CAROUSEL_REPEATS.length, 8, 3],
    blockedMessage: "blocked by Walmart's bot protection (PerimeterX)",
    changedMessage: 'page structure not recognised (Walmart search data has no searchResult)',
    price: {
      of: (pages) => pages[0]!.listings.find((l) => l.retailerProductId === '145051970')!.price,
      expected: (zip) => walmartRegularPrice(walmartItem('gv-white-12'), zip),
    },
  },
  {
    scraper: target,
    standIn: targetStandIn,
    searchPath: (path) => path.endsWith('plp_search_v2'),
    pageSizes: [27, 8],
    blockedMessage: "blocked by Target's bot protection (Akamai)",
    changedMessage:
      'page structure not recognised (Target plp_search_v2: data.search invalid input: expected object, received undefined)',
    price: {
      of: (pages) => pages[0]!.listings[2]!.price,
      expected: (zip) => targetRegularPrice(targetItem('gg-large-12'), zip),
    },
  },
  {
    scraper: kroger,
    standIn: krogerStandIn,
    credentials: { krogerClientId: 'eggwatch-test-client', krogerClientSecret: 's3cret' },
    searchPath: '/v1/products',
    pageSizes: [50, 4],
    blockedMessage: "blocked by Kroger's bot protection (Akamai)",
    changedMessage:
      'page structure not recognised (Kroger products: data invalid input: expected array, received undefined)',
    price: {
      of: (pages) => pages[0]!.listings[0]!.price,
      expected: (zip) => krogerRegularPrice(krogerItem('kroger-white-12'), zip),
    },
  },
  {
    scraper: albertsons,
    standIn: albertsonsStandIn,
    searchPath: '/abs/pub/xapi/pgmsearch/v1/search/products',
    pageSizes: [30, 6],
    blockedMessage: "blocked by Albertsons' bot protection (Imperva)",
    changedMessage: 'page structure not recognised (Albertsons search: primaryProducts.response.docs is missing)',
  },
  {
    scraper: wholeFoods,
    standIn: wholeFoodsStandIn,
    searchPath: '/api/search',
    pageSizes: [60, 15],
    blockedMessage: "blocked by Whole Foods' bot protection (Cloudflare)",
    changedMessage:
      'page structure not recognised (Whole Foods search: results invalid input: expected array, received undefined)',
  },
  {
    scraper: aldi,
    standIn: aldiStandIn,
    searchPath: '/v3/product-search',
    pageSizes: [60, 15],
    blockedMessage: "blocked by Aldi's bot protection (Cloudflare)",
    changedMessage: 'page structure not recognised (ALDI product search: data.0.sku invalid input)',
  },
];

describe.each(RETAILERS)('$scraper.store: the stand-in scenarios', (retailer) => {
  const { scraper } = retailer;
  let server: StandInServer;
  beforeAll(async () => {
    // Slow answers come after 300 ms here (1.5 s by default, 2.5 s in the journeys): slower than
    // the rest by far, well inside the client's timeout.
    server = await serveStandIns([retailer.standIn], { slowMs: 300 });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const searchRequests = () =>
    server.requests.filter((r) =>
      typeof retailer.searchPath === 'string' ? r.path === retailer.searchPath : retailer.searchPath(r.path),
    );

  // Through both transports: the HTTP-level behaviour must not depend on the client.
  describe.each(TRANSPORTS)('through %s', (transport: TransportName) => {
    const context = () => standInContext(scraper, server.url, { transport, credentials: retailer.credentials ?? {} });

    const scrape = (zip: string) => locateAndList(scraper, zip, context());

    it('noStore: locate answers null and no listing is asked for', async () => {
      const { location, pages } = await scrape(SCENARIO_ZIPS.noStore);
      expect(location).toBeNull();
      expect(pages).toEqual([]);
      expect(searchRequests()).toHaveLength(0);
    });

    it('blocked: the bot wall fails the ZIP as blocked, naming the protection', async () => {
      const error = await scrape(SCENARIO_ZIPS.blocked).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ScrapeError);
      expect(error).toMatchObject({ kind: 'blocked', message: retailer.blockedMessage });
    });

    it('changed: an undocumented body is a structure failure', async () => {
      const error = await scrape(SCENARIO_ZIPS.changed).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StructureError);
      expect((error as Error).message).toBe(retailer.changedMessage);
    });

    it.each([
      ['flaky: the 500 is retried', SCENARIO_ZIPS.flaky, 500],
      ['rateLimited: the 429 is waited out', SCENARIO_ZIPS.rateLimited, 429],
      ['slow: the slow answers still succeed', SCENARIO_ZIPS.slow, null],
    ] as const)(
      '%s',
      async (_name, zip, firstStatus) => {
        const { pages } = await scrape(zip);
        expect(pages.map((page) => page.listings.length)).toEqual(retailer.pageSizes);
        if (retailer.price) expect(retailer.price.of(pages)).toBe(retailer.price.expected(zip));
        const statuses = retailer.pageSizes.map(() => 200);
        expect(searchRequests().map((r) => r.status)).toEqual(
          firstStatus === null ? statuses : [firstStatus, ...statuses],
        );
      },
      15_000,
    );
  });
});
