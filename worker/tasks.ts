// The worker's task list and crontab, shared by the worker process and the task tests.
import type { TaskList } from 'graphile-worker';
import type { WorkerDeps } from './deps.ts';
import { pricesRollup } from './tasks/prices__rollup.ts';
import { pricesNightly } from './tasks/prices__nightly.ts';

export function taskList(deps: WorkerDeps): TaskList {
  return {
    prices__rollup: pricesRollup(deps),
    prices__nightly: pricesNightly(deps),
  };
}

/** Times are UTC. One entry per job kind; tasks fan out themselves. */
export const CRONTAB = [
  '# nightly upkeep: sample top-up and a full rollup rebuild',
  '15 2 * * * prices__nightly ?max=3',
].join('\n');
