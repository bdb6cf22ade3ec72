// Plans a coverage plan's visit day (a run queued by startVisitDay): the plan's open stores in
// scope with a retailer id that are due, never visited first, then the longest unvisited, as many
// as the day's request budget allows at the measured requests per visit; split into chunks of
// visitChunkSize stores, one coverage__visit job per chunk in the retailer's queue (so its
// requests go one at a time across every worker). One transaction: a run is planned once, and a
// planning job run again finds it planned. It sends no request itself.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { coverageScopeSchema } from '#shared/coverage.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { requestsPerVisit } from '#server/queries/coverage-figures.ts';
import {
  failVisitDay,
  finishEmptyVisitDay,
  lockQueuedVisitDay,
  planDueStores,
  startPlannedVisitDay,
  visitDayRequestsSpent,
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
      const run = await lockQueuedVisitDay(tx, runId);
      if (!run) return; // planned already, over, or deleted with its store
      const store = run.store_id;
      const name = SCRAPER_NAMES[store];
      const demo = config.origins[store] !== undefined && !config.originsAreRetailers;
      const fail = async (message: string) => {
        await failVisitDay(tx, runId, demo, message);
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
      const spent = await visitDayRequestsSpent(tx, store, run.day, runId);
      // ...and no more than the retailer's own daily budget leaves today (every kind of request,
      // through any tier or proxy, counts there: egress_usage).
      const retailerBudget = config.egress.retailers[store].dailyBudget;
      const retailerLeft = retailerBudget === null ? Infinity : retailerBudget - (await requestsToday(tx, store));
      const remaining = Math.max(0, Math.min(run.daily_request_budget - spent, retailerLeft));
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
        await finishEmptyVisitDay(tx, runId, {
          demo,
          nothingDue: !overBudget,
          message: overBudget
            ? `No store visited: the day's request budget is spent (${basis}).`
            : `No store was due (${basis}).`,
        });
        logs.push(`coverage visit day ${runId} (${name}): nothing to visit`);
        return;
      }
      await startPlannedVisitDay(tx, runId, { store, demo, chunks, planned: planned.length, message });
      logs.push(`coverage visit day ${runId} (${name}): ${message}`);
    });
    for (const line of logs) helpers.logger.info(line);
  };
}
