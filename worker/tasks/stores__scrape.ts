// One scrape run: every ZIP code of the run through the store's retailer module, each ZIP's prices
// and outcome written in one transaction. Idempotent and resumable: a run already finished is
// left alone, and a resumed run (after a crash or a shutdown) skips the ZIPs already written.
// While it runs it beats a heartbeat, so worker__recover can tell a dead worker from a slow one.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';
import { retailerHttp } from '../egress/job.ts';
import type { RetailerHttp } from '../scrapers/http.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import { commitZipOutcome, RunLostError, scrapeZip } from '../scrapers/pipeline.ts';
import { PriceChangeNotifier } from '#server/queries/price-writes.ts';
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
    const [run] = await sql<Array<{ store_id: StoreId; zip_codes: string[]; resumed: boolean }>>`
      update scrape_runs set status = 'running', started_at = coalesce(started_at, now()), heartbeat_at = now(), worker_id = ${workerId}
      where id = ${runId} and status in ('queued', 'running')
      returning store_id, zip_codes, started_at < now() as resumed`;
    if (!run) return; // finished already, or deleted with its store

    const store = run.store_id;
    const name = SCRAPER_NAMES[store];
    const scraper = SCRAPERS[store];
    const demo = config.origins[store] !== undefined && !config.originsAreRetailers;
    await sql`update scrape_runs set demo = ${demo} where id = ${runId}`;
    const done = new Set(
      (await sql<Array<{ zip: string }>>`select zip from scrape_run_zips where run_id = ${runId}`).map((r) => r.zip),
    );
    if (done.size > 0)
      helpers.logger.info(
        `scrape run ${runId} (${name}): resuming after ${done.size} of ${run.zip_codes.length} ZIP codes`,
      );

    const heartbeat = setInterval(() => {
      sql`update scrape_runs set heartbeat_at = now() where id = ${runId} and worker_id = ${workerId}`.catch(() => {});
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
        await finish(runId, workerId, 'failed', error.message);
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
      const [totals] = await sql<Array<{ failed: number; total: number; failures: string | null }>>`
        select count(*) filter (where status = 'failed')::int as failed, count(*)::int as total,
               string_agg(zip || ': ' || coalesce(message, 'failed'), '; ' order by zip) filter (where status = 'failed') as failures
        from scrape_run_zips where run_id = ${runId}`;
      const { failed, total, failures } = totals!;
      const status = failed === 0 ? 'succeeded' : failed === total ? 'failed' : 'partial';
      const message =
        status === 'failed' ? `${failed === 1 ? 'The ZIP code' : `All ${failed} ZIP codes`} failed: ${failures}` : null;
      await finish(runId, workerId, status, message);
      helpers.logger.info(`scrape run ${runId} (${name}) ${status}${failures ? `; failed: ${failures}` : ''}`);
    } catch (error) {
      if (error instanceof RunLostError) {
        helpers.logger.warn(`scrape run ${runId} (${name}): taken over by another worker; stopping here`);
        return;
      }
      if (error instanceof ScrapeError && error.kind === 'aborted') {
        // Released cleanly: nothing of the current ZIP was written; the job's retry resumes the run.
        await sql`update scrape_runs set worker_id = null where id = ${runId} and worker_id = ${workerId}`.catch(
          () => {},
        );
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

  async function finish(
    runId: number,
    workerId: string,
    status: 'succeeded' | 'partial' | 'failed',
    message: string | null,
  ): Promise<void> {
    await deps.sql.begin(async (tx) => {
      await tx`
      update scrape_runs r set status = ${status}, message = ${message?.slice(0, 2000) ?? null}, finished_at = now(), heartbeat_at = now(),
        progress = z.progress, listings_seen = z.listings_seen, accepted = z.accepted, products_found = z.accepted,
        observations_written = z.observations, requests = z.requests,
        skipped = (select coalesce(jsonb_object_agg(key, n), '{}') from (
          select key, sum(value::int) as n from scrape_run_zips, jsonb_each_text(skipped) where run_id = ${runId} group by key) s),
        rejected = (select coalesce(jsonb_object_agg(key, n), '{}') from (
          select key, sum(value::int) as n from scrape_run_zips, jsonb_each_text(rejected) where run_id = ${runId} group by key) s)
      from (select count(*)::int as progress, coalesce(sum(listings_seen), 0)::int as listings_seen,
                   coalesce(sum(accepted), 0)::int as accepted, coalesce(sum(observations_written), 0)::int as observations,
                   coalesce(sum(requests), 0)::int as requests
            from scrape_run_zips where run_id = ${runId}) z
      where r.id = ${runId} and r.worker_id = ${workerId} and r.status = 'running'`;
      // Immediate price alerts read what the run wrote, so they are queued as it commits (never for
      // demo prices, which are not a retailer's).
      await tx`
        select graphile_worker.add_job('alerts__immediate', json_build_object('runId', ${runId}::int), job_key := ${`alerts:run:${runId}`}, max_attempts := 10)
        from scrape_runs where id = ${runId} and not demo and observations_written > 0 and status in ('succeeded', 'partial')`;
    });
  }
}
