// One official source's fetch (worker/official/run.ts), queued by official__schedule when the
// source is due or by an administrator's "Fetch now"; one job per source at a time (job key).
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { OFFICIAL_SOURCES } from '#shared/official.ts';
import type { WorkerDeps } from '../deps.ts';
import { runOfficialSource } from '../official/run.ts';

const payloadSchema = z.object({ source: z.enum(OFFICIAL_SOURCES) });

export function officialFetch(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const { source } = payloadSchema.parse(payload);
    if (!deps.official) {
      helpers.logger.info(`official source ${source}: not configured in this worker`);
      return;
    }
    const outcome = await runOfficialSource(deps.sql, deps.official, source, { signal: helpers.abortSignal });
    switch (outcome.kind) {
      case 'off':
        helpers.logger.info(`official source ${source}: off (${outcome.reason})`);
        break;
      case 'waiting':
        helpers.logger.info(`official source ${source}: not asked before ${outcome.until.toISOString()}`);
        break;
      case 'fetched':
        helpers.logger.info(
          `official source ${source}: ${outcome.summary}; ${outcome.result.inserted} new, ${outcome.result.revised} revised, ${outcome.result.unchanged} unchanged`,
        );
        break;
      case 'failed':
        helpers.logger.warn(
          `official source ${source}: ${outcome.message}; next attempt ${outcome.until.toISOString()}`,
        );
        break;
    }
  };
}
