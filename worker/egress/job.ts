// A job's HTTP client for one retailer: its egress (shared by the worker process's jobs, its tier
// read afresh from the database), its pace (requests a minute, else the delay) and the settings of
// the run. Every task that sends requests builds it here, so each goes out the same way.
import { spacingMs } from '#shared/egress.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';
import { RetailerHttp, type HttpOptions } from '../scrapers/http.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import { egressFor } from './egress.ts';

export async function retailerHttp(
  deps: WorkerDeps,
  store: StoreId,
  options: Pick<HttpOptions, 'signal' | 'onEvent' | 'onAttempt'>,
): Promise<RetailerHttp> {
  const config = scrapeConfig(deps);
  const egress = egressFor(deps, store, config.egress, deps.sql);
  await egress.load();
  const { requestsPerMinute } = config.egress.retailers[store];
  return new RetailerHttp(SCRAPER_NAMES[store], SCRAPERS[store].origins, {
    ...config.http,
    delayMs: requestsPerMinute ? spacingMs(requestsPerMinute) : config.http.delayMs,
    originOverride: config.origins[store],
    // (the previous job of the retailer's queue may have just sent its last request)
    spacedFromStart: true,
    egress,
    ...options,
  });
}
