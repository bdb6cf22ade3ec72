// Worker tasks through graphile-worker's run-once API, against a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { runJobs } from '../test/jobs.ts';
import { taskList } from './tasks.ts';
import { refreshRollups } from '../src/server/queries/rollups.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

// Jobs are queued a second ahead so bursts of writes share one run; runJobs makes them due now.
const runDueJobs = () => runJobs(db, taskList({ sql: db.sql, email: { from: 'EggWatch <test@eggwatch.local>' } }));

const rollupRows = () =>
  db.sql<{ day: string; egg_type: string; region: string; avg: number; n: number }[]>`
    select day::text, egg_type, region, avg_per_dozen as avg, observations as n
    from price_daily_rollups order by day, egg_type, region`;

describe('price observations queue the rollup', () => {
  it('a write marks its day dirty and queues one prices__rollup job', async () => {
    await runDueJobs();
    await db.sql`delete from graphile_worker._private_jobs`;
    const [entry] = await db.sql<
      { product_id: number; location_id: number }[]
    >`select product_id, location_id from price_entries limit 1`;
    for (const price of [2.5, 2.6]) {
      await db.sql`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        values (${entry!.product_id}, ${entry!.location_id}, ${price}, now(), utc_day(now()), 'sample')
        on conflict (product_id, location_id, observed_on) do update set price = excluded.price`;
    }
    const jobs = await db.sql`select task_identifier, key from graphile_worker.jobs`;
    expect(jobs).toEqual([{ task_identifier: 'prices__rollup', key: 'prices__rollup' }]);
    const dirty = await db.sql<{ day: string }[]>`select day::text from rollup_dirty_days`;
    expect(dirty.map((d) => d.day)).toContain(new Date().toISOString().slice(0, 10));
  });
});

describe('prices__rollup', () => {
  it('aggregates the dirty days per day, egg type and region, normalised to a dozen', async () => {
    await runDueJobs();
    expect(await db.sql`select * from rollup_dirty_days`).toHaveLength(0);
    const rows = await rollupRows();
    const [expected] = await db.sql<{ avg: number; n: number }[]>`
      select avg(o.price / p.count * 12) as avg, count(*)::int as n
      from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
      where o.observed_on = current_date - 3 and p.egg_type = 'organic' and l.region = 'west'`;
    const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const row = rows.find((r) => r.day === day && r.egg_type === 'organic' && r.region === 'west')!;
    expect(row.n).toBe(expected!.n);
    expect(row.avg).toBeCloseTo(expected!.avg, 4);
    // 120 days, 4 egg types, 4 regions.
    expect(new Set(rows.map((r) => r.day)).size).toBe(120);
  });

  it('recomputes only the days that changed and is idempotent', async () => {
    const before = await rollupRows();
    const [entry] = await db.sql<
      { product_id: number; location_id: number }[]
    >`select product_id, location_id from price_entries limit 1`;
    await db.sql`
      update price_observations set price = price + 1
      where product_id = ${entry!.product_id} and location_id = ${entry!.location_id} and observed_on = current_date - 10`;
    await runDueJobs();
    const after = await rollupRows();
    const changedDays = new Set(after.filter((r, i) => r.avg !== before[i]!.avg).map((r) => r.day));
    expect([...changedDays]).toEqual([new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)]);
    await runDueJobs();
    expect(await rollupRows()).toEqual(after);
  });
});

describe('a rollup that runs while a writer still holds its day', () => {
  it('skips that day, queues itself again, and includes the writer’s rows once it has committed', async () => {
    await runDueJobs();
    const day = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    const [entry] = await db.sql<{ product_id: number; location_id: number; region: string; egg_type: string }[]>`
      select e.product_id, e.location_id, l.region, p.egg_type from price_entries e
      join store_locations l on l.id = e.location_id join products p on p.id = e.product_id limit 1`;
    const rollupOf = async () =>
      (
        await db.sql<{ avg: number }[]>`
        select avg_per_dozen as avg from price_daily_rollups where day = ${day} and region = ${entry!.region} and egg_type = ${entry!.egg_type}`
      )[0]!.avg;
    const before = await rollupOf();

    // Another day is dirty and free; the writer's day is marked dirty too (by an earlier write).
    await db.sql`insert into rollup_dirty_days (day) values (current_date - 6), (${day}) on conflict do nothing`;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const writer = db.sql.begin(async (tx) => {
      await tx`
        update price_observations set price = price + 5
        where product_id = ${entry!.product_id} and location_id = ${entry!.location_id} and observed_on = ${day}`;
      wrote();
      await gate;
    });
    await written;
    await db.sql`delete from graphile_worker._private_jobs`;
    const { days } = await refreshRollups(db.sql);
    expect(days).toBe(1); // only the free day
    const jobs = await db.sql`select task_identifier from graphile_worker.jobs`;
    expect(jobs.map((j) => j.task_identifier)).toEqual(['prices__rollup']);
    release();
    await writer;
    await runDueJobs();
    expect(await db.sql`select day from rollup_dirty_days`).toEqual([]);
    expect(await rollupOf()).toBeGreaterThan(before);
  });
});

describe('prices__nightly', () => {
  it('tops up the sample history and rebuilds the rollup; running twice changes nothing', async () => {
    await db.sql`delete from price_observations where observed_on = current_date and source = 'sample'`;
    await db.sql`delete from price_daily_rollups`;
    await db.sql`select graphile_worker.add_job('prices__nightly', '{}'::json)`;
    await runDueJobs();
    const [row] = await db.sql<
      { today: number }[]
    >`select count(*)::int as today from price_observations where observed_on = current_date`;
    expect(row!.today).toBeGreaterThan(0);
    const rows = await rollupRows();
    expect(rows.length).toBeGreaterThan(0);
    await db.sql`select graphile_worker.add_job('prices__nightly', '{}'::json)`;
    await runDueJobs();
    expect(await rollupRows()).toEqual(rows);
  });
});
