// Plans a coverage plan's visit day (a run queued by startVisitDay): the plan's open stores in
// scope with a retailer id that are due, never visited first, then the longest unvisited, as many
// as the day's request budget allows at the measured requests per visit; split into chunks of
// visitChunkSize stores, one coverage__visit job per chunk in the retailer's queue (so its
// requests go one at a time across every worker). One transaction: a run is planned once, and a
// planning job run again finds it planned. It sends no request itself.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { coverageScopeSchema, retailerQueue } from '#shared/coverage.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { requestsPerVisit } from '#server/queries/coverage-figures.ts';
import {
  planDueStores,
  VISIT_JOB_MAX_ATTEMPTS,
  VISIT_TASK,
  visitJobKeyPrefix,
} from '#server/queries/coverage-visits.ts';
import { requestsToday } from '#server/queries/egress.ts';
import { scrapeConfig, type WorkerDeps } from '../deps.ts';
import { plural } from '#shared/format.ts';

const payloadSchema = z.object({ runId: z.number().int().positive() });

export function coverageVisitDay(deps: WorkerDeps): Task {
  const config = scrapeConfig(deps);
  return async (payload, helpers) => {
    const { runId } = payloadSchema.parse(payload);
    const logs: string[] = [];
    await deps.sql.begin(async (tx) => {
      const [run] = await tx<
        Array<{
          store_id: StoreId;
          scope: unknown;
          day: string;
          revisit_days: number | null;
          daily_request_budget: number | null;
        }>
      >`
        select r.store_id, r.scope, coalesce(r.day, (now() at time zone 'UTC')::date)::text as day, p.revisit_days, p.daily_request_budget
        from coverage_runs r left join coverage_plans p on p.store_id = r.store_id
        where r.id = ${runId} and r.kind = 'visit' and r.status = 'queued'
        for update of r`;
      if (!run) return; // planned already, over, or deleted with its store
      const store = run.store_id;
      const name = SCRAPER_NAMES[store];
      const demo = config.origins[store] !== undefined && !config.originsAreRetailers;
      const fail = async (message: string) => {
        await tx`
          update coverage_runs set status = 'failed', demo = ${demo}, message = ${message}, started_at = now(), finished_at = now(), heartbeat_at = now()
          where id = ${runId}`;
        logs.push(`coverage visit day ${runId} (${name}) failed: ${message}`);
      };
      const scope = coverageScopeSchema.safeParse(run.scope);
      if (run.revisit_days === null || run.daily_request_budget === null)
        return fail(`${name} has no coverage plan any more.`);
      if (!scope.success)
        return fail(`The run's scope is not a coverage scope (${scope.error.issues[0]?.message ?? 'invalid'}).`);

      // Measured on recent visits, else ZIP runs, else the estimate (as the admin figures show it).
      const measure = (await requestsPerVisit(tx))[store];
      const perVisit = measure.value;
      // The day's budget, less what the retailer's other visit runs of the day already sent.
      const [spent] = await tx<Array<{ requests: number }>>`
        select coalesce(sum(requests), 0)::int as requests from coverage_runs
        where store_id = ${store} and kind = 'visit' and day = ${run.day}::date and id <> ${runId}`;
      // ...and no more than the retailer's own daily budget leaves today (every kind of request,
      // through any tier or proxy, counts there: egress_usage).
      const retailerBudget = config.egress.retailers[store].dailyBudget;
      const retailerLeft = retailerBudget === null ? Infinity : retailerBudget - (await requestsToday(tx, store));
      const remaining = Math.max(0, Math.min(run.daily_request_budget - spent!.requests, retailerLeft));
      const limit = Math.floor(remaining / Math.max(perVisit, 0.01));
      const ids = await planDueStores(tx, {
        storeId: store,
        scope: scope.data,
        revisitDays: run.revisit_days,
        day: run.day,
        limit: limit + 1,
      });
      const overBudget = ids.length > limit;
      const planned = ids.slice(0, limit);
      const size = config.visitChunkSize;
      const chunks: number[][] = [];
      for (let i = 0; i < planned.length; i += size) chunks.push(planned.slice(i, i + size));
      const basis = `${perVisit.toFixed(1)} requests per visit (${measure.source === 'estimate' ? 'estimated' : 'measured'}), ${plural(remaining, 'request')} of the day's budget left`;
      const message =
        `Planned ${plural(planned.length, 'store')} in ${plural(chunks.length, 'chunk')}: ${basis}` +
        (overBudget ? '; more stores are due than the budget allows today' : '');

      if (chunks.length === 0) {
        await tx`
          update coverage_runs set status = 'succeeded', demo = ${demo}, started_at = now(), finished_at = now(), heartbeat_at = now(),
            nothing_due = ${!overBudget},
            message = ${overBudget ? `No store visited: the day's request budget is spent (${basis}).` : `No store was due (${basis}).`}
          where id = ${runId}`;
        logs.push(`coverage visit day ${runId} (${name}): nothing to visit`);
        return;
      }
      await tx`
        insert into coverage_chunks (run_id, chunk, location_ids)
        select ${runId}, (n - 1)::int, array(select jsonb_array_elements_text(ids)::int)
        from jsonb_array_elements(${tx.json(chunks)}::jsonb) with ordinality as c(ids, n)`;
      await tx`
        update coverage_runs set status = 'running', demo = ${demo}, started_at = now(), heartbeat_at = now(), worker_id = null,
          stores_planned = ${planned.length}, chunks_planned = ${chunks.length}, message = ${message}
        where id = ${runId}`;
      await tx`
        select graphile_worker.add_job(${VISIT_TASK}, json_build_object('runId', ${runId}::int, 'chunk', n),
          queue_name := ${retailerQueue(store)}, job_key := ${visitJobKeyPrefix(runId)} || n, max_attempts := ${VISIT_JOB_MAX_ATTEMPTS})
        from generate_series(0, ${chunks.length - 1}::int) as n`;
      logs.push(`coverage visit day ${runId} (${name}): ${message}`);
    });
    for (const line of logs) helpers.logger.info(line);
  };
}
