// Ticks every quarter hour: queues official__fetch for each source that is due (never fetched, or
// its next_due_at passed). The job key makes it one job per source, however many workers tick.
import type { Task } from 'graphile-worker';
import type { WorkerDeps } from '../deps.ts';
import { dueOfficialSources, queueOfficialFetch } from '#server/queries/official.ts';
import { READERS } from '../official/run.ts';

export function officialSchedule(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const config = deps.official;
    if (!config) return;
    const due = await dueOfficialSources(deps.sql);
    for (const source of due) {
      const reader = READERS[source as keyof typeof READERS];
      if (!reader || reader.off(config)) continue;
      await queueOfficialFetch(deps.sql, reader.source);
      helpers.logger.info(`official source ${source}: due, fetch queued`);
    }
  };
}
