// The daily scrape (admin Settings): ticks every hour; at the configured UTC hour it queues one run
// per active store over the configured ZIP codes. One run per store and slot, however many workers
// tick (a unique index on the slot); a store still busy with an earlier run is skipped.
import type { Task } from 'graphile-worker';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { getScrapeSettings, queueRun } from '#server/queries/scrape.ts';
import { activeStoreIds } from '#server/queries/stores.ts';
import type { WorkerDeps } from '../deps.ts';

export function scrapeSchedule(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const now =
      typeof (payload as { now?: unknown })?.now === 'string' ? new Date((payload as { now: string }).now) : new Date();
    const settings = await getScrapeSettings(deps.sql);
    if (!settings.dailyEnabled || now.getUTCHours() !== settings.hourUtc) return;
    const slot = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), settings.hourUtc));
    for (const id of await activeStoreIds(deps.sql)) {
      const runId = await deps.sql.begin((tx) =>
        queueRun(tx, {
          store: id,
          zipCodes: settings.zipCodes,
          requestedBy: null,
          trigger: 'schedule',
          scheduledFor: slot,
        }),
      );
      helpers.logger.info(
        runId === null
          ? `daily scrape: ${SCRAPER_NAMES[id]} skipped (already queued for ${slot.toISOString()} or still running)`
          : `daily scrape: queued run ${runId} for ${SCRAPER_NAMES[id]} over ${settings.zipCodes.length} ZIP codes`,
      );
    }
  };
}
