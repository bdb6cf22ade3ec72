// prices__partitions through graphile-worker's run-once API, on the seeded database (120 days of
// history, written into the partitions of their months), with a month whose rows the default
// partition caught, as rows written while their month had no partition.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOnce } from 'graphile-worker';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { until } from '../test/until.ts';
import { quietLogger } from '../src/server/migrate.ts';
import { refreshRollups } from '../src/server/queries/rollups.ts';
import { PARTITION_MONTHS_AHEAD } from '../src/server/queries/price-history.ts';
import { CRONTAB, taskList } from './tasks.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

async function runPartitionsTask(retentionMonths?: number) {
  await db.sql`select graphile_worker.add_job('prices__partitions', '{}'::json, job_key := 'prices__partitions')`;
  const tasks = taskList({
    sql: db.sql,
    email: { from: 'EggWatch <test@eggwatch.local>' },
    history: { retentionMonths },
  });
  await runOnce({
    connectionString: db.url,
    taskList: { prices__partitions: tasks.prices__partitions! },
    logger: quietLogger,
  });
  // graphile-worker records a job's completion without waiting for it: the row goes just after.
  await expect
    .poll(
      async () => db.sql`select last_error from graphile_worker.jobs where task_identifier = 'prices__partitions'`,
      { timeout: 10_000 },
    )
    .toEqual([]);
}

const placement = () =>
  db.sql<{ partition: string; day: string; n: number }[]>`
    select tableoid::regclass::text as partition, observed_on::text as day, count(*)::int as n
    from price_observations group by 1, 2 order by 2`;
const partitionCount = async () =>
  (
    await db.sql<
      { n: number }[]
    >`select count(*)::int as n from pg_inherits where inhparent = 'price_observations'::regclass`
  )[0]!.n;
const monthName = (offset: number) => {
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  return `price_observations_y${month.getUTCFullYear()}m${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
};

describe('prices__partitions', () => {
  it('is in the crontab, daily', () => {
    expect(CRONTAB).toMatch(/^\d+ \d+ \* \* \* prices__partitions\b/m);
  });

  it('gives the months the default partition caught partitions of their own, and makes sure of the months ahead, idempotently', async () => {
    // The seed writes into its months' partitions, made first.
    const seeded = await placement();
    for (const row of seeded)
      expect(row.partition).toBe(`price_observations_y${row.day.slice(0, 4)}m${row.day.slice(5, 7)}`);
    // As on a database written while a month had no partition: the oldest month's rows sit in the default partition.
    const oldest = seeded[0]!.partition;
    await db.sql.begin(async (tx) => {
      await tx`alter table price_observations detach partition ${tx(oldest)}`;
      // (PostgreSQL 17 gives partitions the parent's identity column: the ids are kept as they are.)
      await tx`insert into price_observations_default overriding system value select * from ${tx(oldest)}`;
      await tx`drop table ${tx(oldest)}`;
    });
    const before = await placement();
    expect(before.filter((p) => p.partition === 'price_observations_default').map((p) => p.day)).toEqual(
      seeded.filter((p) => p.partition === oldest).map((p) => p.day),
    );
    await db.sql`drop table ${db.sql(monthName(PARTITION_MONTHS_AHEAD))}`;

    await runPartitionsTask();
    const after = await placement();
    expect(after.map(({ day, n }) => ({ day, n }))).toEqual(before.map(({ day, n }) => ({ day, n })));
    for (const row of after)
      expect(row.partition).toBe(`price_observations_y${row.day.slice(0, 4)}m${row.day.slice(5, 7)}`);
    expect(await db.sql`select to_regclass(${monthName(PARTITION_MONTHS_AHEAD)}) is not null as made`).toEqual([
      { made: true },
    ]);

    const count = await partitionCount();
    await runPartitionsTask();
    expect(await partitionCount()).toBe(count);
    expect(await placement()).toEqual(after);
  });

  it('with a retention setting, drops the whole months older than it and nothing newer; their rollups stay', async () => {
    // A price fourteen months old (in the default partition: its month has no partition yet).
    const [entry] = await db.sql<
      { product_id: number; location_id: number }[]
    >`select product_id, location_id from price_entries limit 1`;
    const [old] = await db.sql<{ day: string }[]>`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${entry!.product_id}, ${entry!.location_id}, 2.22, now() - interval '14 months', utc_day(now() - interval '14 months'), 'sample')
      returning observed_on::text as day`;
    await refreshRollups(db.sql, { all: true });
    const oldRollups =
      await db.sql`select * from price_daily_rollups where day = ${old!.day}::date order by egg_type, region`;
    expect(oldRollups).toHaveLength(1);
    const recent = (await placement()).filter((p) => p.day !== old!.day);

    await runPartitionsTask(12);
    expect((await placement()).map(({ day, n }) => ({ day, n }))).toEqual(recent.map(({ day, n }) => ({ day, n })));
    expect(await db.sql`select 1 from price_observations where observed_on = ${old!.day}::date`).toHaveLength(0);

    await refreshRollups(db.sql, { all: true });
    expect(
      await db.sql`select * from price_daily_rollups where day = ${old!.day}::date order by egg_type, region`,
    ).toEqual(oldRollups);
  });
});

describe('a worker process', () => {
  it('runs prices__partitions as it starts, with PRICE_HISTORY_RETENTION_MONTHS from its environment', async () => {
    const own = await createTestDatabase();
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const [entry] = await own.sql<
      { product_id: number; location_id: number }[]
    >`select product_id, location_id from price_entries limit 1`;
    await own.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${entry!.product_id}, ${entry!.location_id}, 2.22, now() - interval '14 months', utc_day(now() - interval '14 months'), 'sample')`;
    const total = (await own.sql<{ n: number }[]>`select count(*)::int as n from price_observations`)[0]!.n;
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'worker/index.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: own.url,
        PRICE_HISTORY_RETENTION_MONTHS: '12',
        WORKER_CONCURRENCY: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(
        async () =>
          (await own.sql`select 1 from price_observations_default limit 1`).length === 0 &&
          (await own.sql`select 1 from price_history_retention`).length === 1,
        60_000,
        "the default partition's months moved out and the month 14 months back dropped",
      );
      expect((await own.sql<{ n: number }[]>`select count(*)::int as n from price_observations`)[0]!.n).toBe(total - 1);
      // The task logs once its transaction has committed: the line may come just after.
      await expect
        .poll(() => output, { timeout: 15_000 })
        .toMatch(/price history: \d+ partition\(s\) created, 1 older than 12 months dropped/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve),
      );
      await own.drop();
    }
  });
});
