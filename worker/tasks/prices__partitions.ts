// The price history's monthly partitions (migration 015): creates this month's and the next ones
// ahead, and moves any rows the default partition caught into partitions of their own; with
// PRICE_HISTORY_RETENTION_MONTHS, detaches and drops the partitions of whole months older than
// that. Runs when a worker starts and daily. Idempotent.
import type { Task } from 'graphile-worker';
import { addPricePartitions, dropOldPricePartitions } from '#server/queries/price-history.ts';
import type { WorkerDeps } from '../deps.ts';

export function pricesPartitions(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const created = await addPricePartitions(deps.sql);
    const keep = deps.history?.retentionMonths;
    const dropped = keep === undefined ? [] : await dropOldPricePartitions(deps.sql, keep);
    const kept =
      keep === undefined
        ? 'every month kept'
        : `${dropped.length} older than ${keep} months dropped${dropped.length ? ` (${dropped.join(', ')})` : ''}`;
    helpers.logger.info(`price history: ${created} partition(s) created, ${kept}`);
  };
}
