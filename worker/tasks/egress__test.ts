// Test connection (admin area, POST /api/scrapers/{store}/test): one locator call and one
// product-list call for a ZIP code through the retailer's egress as it stands (its tier in use,
// its proxies, its transport), every request traced: tier, proxy (host and port), transport,
// status, the wall recognised, the time. Its requests count like any other (usage, budget, tier).
// The result is written once; a test already finished is left alone.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { EgressTestAttempt, EgressTestResult } from '#shared/egress.ts';
import { finishTest, startTest } from '#server/queries/egress.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';
import { retailerHttp } from '../egress/job.ts';
import type { RetailerHttp } from '../scrapers/http.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import { acceptListing } from '../scrapers/pipeline.ts';
import { ScrapeError } from '../scrapers/types.ts';

const payloadSchema = z.object({ testId: z.number().int().positive() });

export function egressTest(deps: WorkerDeps): Task {
  const config = scrapeConfig(deps);
  return async (payload, helpers) => {
    const { testId } = payloadSchema.parse(payload);
    const test = await startTest(deps.sql, testId);
    if (!test) return;
    const { store, zip } = test;
    const scraper = SCRAPERS[store];
    const attempts: EgressTestAttempt[] = [];
    let step: EgressTestAttempt['step'] = 'locator';
    const started = Date.now();
    const result: EgressTestResult = {
      transport: config.egress.retailers[store].transport,
      attempts,
      store: null,
      stores: 0,
      listings: 0,
      eggPrices: 0,
      durationMs: 0,
    };
    let http: RetailerHttp | null = null;
    let message: string | null = null;
    let unexpected: unknown = null;
    try {
      scraper.checkConfig?.(config.credentials);
      http = await retailerHttp(deps, store, {
        signal: helpers.abortSignal,
        onEvent: (event) => helpers.logger.info(`connection test ${testId}: ${event}`),
        onAttempt: (attempt) => attempts.push({ step, ...attempt }),
      });
      const ctx = { http, maxPages: 1, term: 'eggs', credentials: config.credentials, signal: helpers.abortSignal };
      const location = await scraper.locate(zip, ctx);
      if (!location) throw new ScrapeError('no-store', `no ${scraper.storeName} store near ${zip}`);
      result.store = { id: location.retailerLocationId, name: location.name, zip: location.zip };
      result.stores = 1;
      step = 'listings';
      for await (const page of scraper.listings(location, zip, ctx)) {
        result.listings = page.listings.length;
        result.eggPrices = page.listings.filter(
          (raw) => !raw.notOnShelf && acceptListing(raw).kind === 'accepted',
        ).length;
        break;
      }
    } catch (error) {
      // (the test is written as failed either way: it runs once, and an open one blocks the next)
      if (error instanceof ScrapeError) message = error.message;
      else {
        message = 'The test stopped on an unexpected error (the worker log has it)';
        unexpected = error;
      }
    } finally {
      result.durationMs = Date.now() - started;
      await http
        ?.flush()
        .catch((error: unknown) =>
          helpers.logger.warn(`connection test ${testId}: could not record its requests: ${String(error)}`),
        );
    }
    await finishTest(deps.sql, testId, { status: message === null ? 'succeeded' : 'failed', result, message });
    helpers.logger.info(`connection test ${testId} (${scraper.storeName} ${zip}): ${message ?? 'succeeded'}`);
    if (unexpected) throw unexpected;
  };
}
