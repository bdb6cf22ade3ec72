// Nightly upkeep: tops up the sample catalogue to today for store and region pairs that still
// have no scraped prices (so a fresh install keeps current sample prices), then rebuilds the
// whole rollup. Both steps are idempotent.
import type { Task } from 'graphile-worker';
import { seedSampleCatalogue } from '#server/seed.ts';
import { refreshRollups } from '#server/queries/rollups.ts';
import type { WorkerDeps } from '../deps.ts';

export function pricesNightly(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const { observations } = await deps.sql.begin((tx) => seedSampleCatalogue(tx, { days: 7 }));
    const { days } = await refreshRollups(deps.sql, { all: true });
    helpers.logger.info(`nightly: ${observations} sample observation(s) added, rollup rebuilt for ${days} day(s)`);
  };
}
