// The price history's monthly partitions (migration 015): creates this month's and the next ones
// ahead, and moves any rows the default partition caught into partitions of their own; with a
// retention setting, detaches and drops the partitions of whole months older than it. Runs when a
// worker starts and daily. Idempotent.
import type { Task } from 'graphile-worker';
import type { Sql } from '#server/db.ts';
import type { WorkerDeps } from '../deps.ts';

/** Months after the current one that always have a partition, so a daily run missed for weeks still finds them. */
export const PARTITION_MONTHS_AHEAD = 3;

/**
 * Creating a partition locks the history's parent table SHARE UPDATE EXCLUSIVE, dropping one
 * ACCESS EXCLUSIVE: a long read in the way makes it give up (the job is retried) rather than
 * queue every reader and writer behind it.
 */
const LOCK_TIMEOUT = '10s';

export async function addPricePartitions(sql: Sql, monthsAhead = PARTITION_MONTHS_AHEAD): Promise<number> {
  const [row] = await sql.begin(async (tx) => {
    await tx`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`;
    return tx<{ created: number }[]>`select price_observations_add_partitions(${monthsAhead}::int) as created`;
  });
  return row!.created;
}

/** Drops the partitions of whole months older than `keepMonths` months before the current one. */
export async function dropOldPricePartitions(sql: Sql, keepMonths: number): Promise<string[]> {
  const [row] = await sql.begin(async (tx) => {
    await tx`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`;
    return tx<{ dropped: string[] }[]>`select price_observations_drop_partitions(${keepMonths}::int) as dropped`;
  });
  return row!.dropped;
}

export function pricesPartitions(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const created = await addPricePartitions(deps.sql);
    const keep = deps.history?.retentionMonths;
    const dropped = keep === undefined ? [] : await dropOldPricePartitions(deps.sql, keep);
    helpers.logger.info(
      `price history: ${created} partition(s) created` + (keep === undefined ? ', all months kept' : `, ${dropped.length} older than ${keep} months dropped${dropped.length ? ` (${dropped.join(', ')})` : ''}`),
    );
  };
}
