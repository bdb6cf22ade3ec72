// What the scraper tests share to run a scraper against its stand-in server (http-server.ts): a
// context whose client sends every request to the stand-in, without delays and with quick
// backoffs; the pages it reads; and the errors it throws.
import { afterAll } from 'vitest';
import type { TransportName } from '#shared/egress.ts';
import type { RetailerCredentials } from '#shared/scrape.ts';
import { RetailerHttp } from '#worker/scrapers/http.ts';
import {
  ScrapeError,
  StructureError,
  type ListingPage,
  type RetailerLocation,
  type RetailerScraper,
  type ScrapeContext,
} from '#worker/scrapers/types.ts';
import { serveStandIns, type StandInServer } from './http-server.ts';
import type { RetailerStandIn } from './types.ts';

/**
 * A test file's stand-in servers, every one closed after the file's tests (call it at the top
 * level): the function it answers starts one more with the given retailers' stand-ins.
 */
export function standInServers(): (standIns: RetailerStandIn[]) => Promise<StandInServer> {
  const servers: StandInServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  return async (standIns) => {
    const server = await serveStandIns(standIns);
    servers.push(server);
    return server;
  };
}

/** A scrape context for the scraper with every request sent to `origin` (a stand-in server's URL). */
export function standInContext(
  scraper: Pick<RetailerScraper, 'storeName' | 'origins'>,
  origin: string,
  options: { transport?: TransportName; credentials?: RetailerCredentials; maxPages?: number } = {},
): ScrapeContext {
  const http = new RetailerHttp(scraper.storeName, scraper.origins, {
    ...(options.transport ? { transport: options.transport } : {}),
    originOverride: origin,
    delayMs: 0,
    backoffBaseMs: 1,
    backoffCapMs: 5,
    maxRetryAfterMs: 5000,
  });
  return { http, maxPages: options.maxPages ?? 10, term: 'eggs', credentials: options.credentials ?? {} };
}

/** Every page of the scraper's listings at the location. */
export async function listingPages(
  scraper: Pick<RetailerScraper, 'listings'>,
  location: RetailerLocation,
  zip: string,
  ctx: ScrapeContext,
): Promise<ListingPage[]> {
  const pages: ListingPage[] = [];
  for await (const page of scraper.listings(location, zip, ctx)) pages.push(page);
  return pages;
}

/** The store the scraper locates for the ZIP code and every page of its listings (none without a store). */
export async function locateAndList(
  scraper: Pick<RetailerScraper, 'locate' | 'listings'>,
  zip: string,
  ctx: ScrapeContext,
): Promise<{ location: RetailerLocation | null; pages: ListingPage[] }> {
  const location = await scraper.locate(zip, ctx);
  return { location, pages: location ? await listingPages(scraper, location, zip, ctx) : [] };
}

/** The ScrapeError the promise rejects with. */
export async function scrapeFailure(promise: Promise<unknown>): Promise<ScrapeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ScrapeError) return error;
    throw error;
  }
  throw new Error('expected a ScrapeError');
}

/** The StructureError a parse throws (its wording around the detail belongs to http.ts). */
export function structureError(run: () => unknown): StructureError {
  try {
    run();
  } catch (error) {
    if (error instanceof StructureError) return error;
    throw error;
  }
  throw new Error('no StructureError was thrown');
}
