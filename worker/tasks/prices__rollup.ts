// Refreshes the daily rollup for the days whose observations changed (queued by the price
// trigger), or for every day when the nightly cron asks ({ all: true }). Idempotent.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { refreshRollups } from '#server/queries/rollups.ts';
import type { WorkerDeps } from '../deps.ts';

const payloadSchema = z.object({ all: z.boolean().optional() }).passthrough();

export function pricesRollup(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const { all } = payloadSchema.parse(payload ?? {});
    const { days } = await refreshRollups(deps.sql, { all });
    helpers.logger.info(`price rollup refreshed ${days} day(s)`);
  };
}
