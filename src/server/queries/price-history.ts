// The price history's monthly partitions (migration 015, docs/decisions/009): the partitions
// ahead, and retention. The worker's prices__partitions task runs both.
import type { Db, Sql } from '../db.ts';

/** Months after the current one that always have a partition, so a daily run missed for weeks still finds them. */
export const PARTITION_MONTHS_AHEAD = 3;

/**
 * Creating a partition locks the history's parent table SHARE UPDATE EXCLUSIVE, dropping one
 * ACCESS EXCLUSIVE: a long read in the way makes it give up (the job is retried) rather than
 * queue every reader and writer behind it.
 */
const LOCK_TIMEOUT = '10s';

/**
 * Creates the partitions of this month and the months ahead, and of any month whose rows the
 * default partition caught (moving them in). Idempotent; answers how many it created.
 */
export async function addPricePartitions(sql: Sql, monthsAhead = PARTITION_MONTHS_AHEAD): Promise<number> {
  const [row] = await sql.begin(async (tx) => {
    await tx`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`;
    return tx<{ created: number }[]>`select price_observations_add_partitions(${monthsAhead}::int) as created`;
  });
  return row!.created;
}

/**
 * Detaches and drops the partitions of whole months older than the `keepMonths` months before
 * the current one (never a row-by-row delete); answers their names.
 */
export async function dropOldPricePartitions(sql: Sql, keepMonths: number): Promise<string[]> {
  const [row] = await sql.begin(async (tx) => {
    await tx`select set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`;
    return tx<{ dropped: string[] }[]>`select price_observations_drop_partitions(${keepMonths}::int) as dropped`;
  });
  return row!.dropped;
}

/**
 * The partitions of every month from `first` to `last` (UTC days, inclusive), made before a bulk
 * write of those days so its rows go straight to their month rather than through the default
 * partition (the seed, the benchmark databases). Idempotent.
 */
export async function addPricePartitionsBetween(sql: Db, first: string, last: string): Promise<void> {
  await sql`
    select price_observations_add_partition(month::date)
    from generate_series(date_trunc('month', ${first}::date), ${last}::date, interval '1 month') month`;
}
