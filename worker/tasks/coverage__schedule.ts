// Every enabled, unpaused coverage plan's visit day (hourly; times UTC): the first tick of a UTC
// day starts it (startVisitDay), once per retailer and day however many workers tick (a unique
// index on the scheduled day). A retailer whose previous day is still running is started at a
// later tick of the day, once it is over.
import type { Task } from 'graphile-worker';
import { TRPCError } from '@trpc/server';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { plansDueForVisitDay, startVisitDay } from '#server/queries/coverage.ts';
import type { WorkerDeps } from '../deps.ts';

export function coverageSchedule(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const given = (payload as { now?: unknown } | null)?.now;
    const now = typeof given === 'string' ? new Date(given) : new Date();
    const day = now.toISOString().slice(0, 10);
    const plans = await plansDueForVisitDay(deps.sql, day);
    for (const store of plans) {
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
