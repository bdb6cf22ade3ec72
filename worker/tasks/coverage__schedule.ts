// Every enabled, unpaused coverage plan's visit day (hourly; times UTC): the first tick of a UTC
// day starts it (startVisitDay), once per retailer and day however many workers tick (a unique
// index on the scheduled day). A retailer whose previous day is still running is started at a
// later tick of the day, once it is over.
import type { Task } from 'graphile-worker';
import { TRPCError } from '@trpc/server';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { startVisitDay } from '#server/queries/coverage.ts';
import type { WorkerDeps } from '../deps.ts';

export function coverageSchedule(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const given = (payload as { now?: unknown } | null)?.now;
    const now = typeof given === 'string' ? new Date(given) : new Date();
    const day = now.toISOString().slice(0, 10);
    const plans = await deps.sql<Array<{ store_id: StoreId }>>`
      select p.store_id from coverage_plans p join stores s on s.id = p.store_id
      where p.enabled and p.paused_at is null and s.active
        and not exists (select 1 from coverage_runs r where r.store_id = p.store_id and r.kind = 'visit' and r.trigger = 'schedule' and r.day = ${day}::date)
      order by p.store_id`;
    for (const { store_id: store } of plans) {
      try {
        const { runId } = await startVisitDay(deps.sql, { store, userId: null, trigger: 'schedule', day });
        helpers.logger.info(`coverage schedule: queued visit day ${runId} of ${SCRAPER_NAMES[store]} for ${day}`);
      } catch (error) {
        if (!(error instanceof TRPCError) || error.code !== 'CONFLICT') throw error;
        helpers.logger.info(`coverage schedule: ${SCRAPER_NAMES[store]} not started for ${day}: ${error.message}`);
      }
    }
  };
}
