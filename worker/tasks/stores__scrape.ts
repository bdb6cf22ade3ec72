// One scrape run: every ZIP code of the run through the store's retailer module, each ZIP's prices
// and outcome written in one transaction. Idempotent and resumable: a run already finished is
// left alone, and a resumed run (after a crash or a shutdown) skips the ZIPs already written.
// While it runs it beats a heartbeat, so worker__recover can tell a dead worker from a slow one.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';
import { retailerHttp } from '../egress/job.ts';
import type { RetailerHttp } from '../scrapers/http.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import { commitZipOutcome, RunLostError, scrapeZip } from '../scrapers/pipeline.ts';
import { PriceChangeNotifier } from '#server/queries/price-writes.ts';
import {
  claimScrapeRun,
  finishScrapeRun,
  releaseScrapeRun,
  scrapedZips,
  scrapeRunHeartbeat,
  scrapeRunTotals,
  setScrapeRunDemo,
} from '#server/queries/scrape-runs.ts';
import { ScrapeError } from '../scrapers/types.ts';
import { plural } from '#shared/format.ts';

const payloadSchema = z.object({ runId: z.number().int().positive() });

function countsText(counts: Record<string, number | undefined>): string {
  return Object.entries(counts)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
}

export function storesScrape(deps: WorkerDeps): Task {
  const config = scrapeConfig(deps);
  return async (payload, helpers) => {
    const { runId } = payloadSchema.parse(payload);
    const workerId = helpers.job.locked_by ?? `pid-${process.pid}`;
    const { sql } = deps;
    const run = await claimScrapeRun(sql, runId, workerId);
    if (!run) return; // finished already, or deleted with its store

    const store = run.store_id;
    const name = SCRAPER_NAMES[store];
    const scraper = SCRAPERS[store];
    const demo = config.origins[store] !== undefined && !config.originsAreRetailers;
    await setScrapeRunDemo(sql, runId, demo);
    const done = await scrapedZips(sql, runId);
    if (done.size > 0)
      helpers.logger.info(
        `scrape run ${runId} (${name}): resuming after ${done.size} of ${run.zip_codes.length} ZIP codes`,
      );

    const heartbeat = setInterval(() => {
      scrapeRunHeartbeat(sql, runId, workerId).catch(() => {});
    }, config.heartbeatMs);
    heartbeat.unref();
    // Web processes hear of the run's new prices once a second, not once per ZIP (migration 007).
    const notifier = new PriceChangeNotifier(deps.sql);
    let http: RetailerHttp | null = null;
    try {
      try {
        scraper.checkConfig?.(config.credentials);
      } catch (error) {
        if (!(error instanceof ScrapeError)) throw error;
        await finishScrapeRun(sql, runId, workerId, 'failed', error.message);
        helpers.logger.warn(`scrape run ${runId} (${name}) failed: ${error.message}`);
        return;
      }
      http = await retailerHttp(deps, store, {
        signal: helpers.abortSignal,
        onEvent: (event) => helpers.logger.info(`scrape run ${runId}: ${event}`),
      });
      const ctx = {
        http,
        maxPages: config.maxPages,
        term: 'eggs',
        credentials: config.credentials,
        signal: helpers.abortSignal,
      };

      for (const zip of run.zip_codes) {
        if (done.has(zip)) continue;
        if (helpers.abortSignal.aborted || deps.shutdown?.aborted)
          throw new ScrapeError('aborted', 'stopped: the worker is shutting down');
        const outcome = await scrapeZip(scraper, zip, ctx);
        await commitZipOutcome(deps.sql, { runId, workerId, store, outcome, demo, notifier });
        helpers.logger.info(
          outcome.status === 'succeeded'
            ? `scrape run ${runId} (${name}) ${zip}: ${plural(outcome.accepted.length, 'price')} from ${plural(outcome.listingsSeen, 'listing')} on ${plural(outcome.pages, 'page')}` +
                (Object.keys(outcome.skipped).length ? `; skipped ${countsText(outcome.skipped)}` : '') +
                (Object.keys(outcome.rejected).length ? `; rejected ${countsText(outcome.rejected)}` : '') +
                (outcome.rejectedExamples.length ? ` (e.g. ${outcome.rejectedExamples.join(' | ')})` : '')
            : `scrape run ${runId} (${name}) ${zip} failed: ${outcome.message}`,
        );
      }
      const { failed, total, failures } = await scrapeRunTotals(sql, runId);
      const status = failed === 0 ? 'succeeded' : failed === total ? 'failed' : 'partial';
      const message =
        status === 'failed' ? `${failed === 1 ? 'The ZIP code' : `All ${failed} ZIP codes`} failed: ${failures}` : null;
      await finishScrapeRun(sql, runId, workerId, status, message);
      helpers.logger.info(`scrape run ${runId} (${name}) ${status}${failures ? `; failed: ${failures}` : ''}`);
    } catch (error) {
      if (error instanceof RunLostError) {
        helpers.logger.warn(`scrape run ${runId} (${name}): taken over by another worker; stopping here`);
        return;
      }
      if (error instanceof ScrapeError && error.kind === 'aborted') {
        // Released cleanly: nothing of the current ZIP was written; the job's retry resumes the run.
        await releaseScrapeRun(sql, runId, workerId).catch(() => {});
        helpers.logger.info(`scrape run ${runId} (${name}): released at shutdown; it resumes when a worker starts`);
      }
      throw error;
    } finally {
      clearInterval(heartbeat);
      await http
        ?.flush()
        .catch((error: unknown) =>
          helpers.logger.warn(`scrape run ${runId}: could not record its requests: ${String(error)}`),
        );
      await notifier
        .flush()
        .catch((error: unknown) =>
          helpers.logger.warn(`scrape run ${runId}: could not announce new prices: ${String(error)}`),
        );
    }
  };
}
