// A real worker process killed with SIGKILL in the middle of a scrape run, then a new one started:
// the run is resumed (not left "running"), every ZIP has exactly one outcome, no observation is
// written twice, and the new worker says in its log what it recovered. And SIGTERM releases the
// current ZIP cleanly.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueRun, SCRAPE_JOB_KEY_PREFIX } from '#server/queries/scrape.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { startStandIn, type StandInServer } from '../test/retailers/server.ts';
import { until } from '../test/until.ts';
import { exited, killWorkerProcesses, startWorkerProcess, type WorkerProcess } from '../test/worker-process.ts';

const ZIPS = ['10001', '60611', '90210', '30301', '77001', '02108', '19103', '48201', '55401', '98101'];

let db: TestDatabase;
let standIn: StandInServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  standIn = await startStandIn();
});
afterAll(async () => {
  killWorkerProcesses(children);
  await standIn.close();
  await db.drop();
});

function startWorker(): WorkerProcess {
  return startWorkerProcess(
    db.url,
    {
      WALMART_ORIGIN: standIn.url,
      // Slow enough that the kill lands mid-run; quick heartbeats so recovery is quick.
      SCRAPE_DELAY_MS: '250',
      SCRAPE_HEARTBEAT_MS: '300',
      SCRAPE_STALE_MS: '1000',
      WORKER_CONCURRENCY: '2',
    },
    children,
  );
}

/** graphile-worker ends a graceful shutdown by re-raising the signal, so SIGTERM is a clean end too. */
const cleanExit = ({ code, signal }: { code: number | null; signal: NodeJS.Signals | null }) =>
  code === 0 || signal === 'SIGTERM';

const doneZips = async (runId: number) =>
  (await db.sql<{ n: number }[]>`select count(*)::int as n from scrape_run_zips where run_id = ${runId}`)[0]!.n;
const statusOf = async (runId: number) =>
  (await db.sql<{ status: string }[]>`select status from scrape_runs where id = ${runId}`)[0]!.status;

describe('a worker killed mid-run', () => {
  it('SIGKILL, then a new worker: the run resumes and finishes with one outcome per ZIP and no duplicate prices', async () => {
    const runId = (await db.sql.begin((tx) =>
      queueRun(tx, { store: 'walmart', zipCodes: ZIPS, requestedBy: null, trigger: 'manual' }),
    ))!;
    const first = startWorker();
    await until(async () => (await doneZips(runId)) >= 2, 60_000, 'two ZIPs written');
    first.child.kill('SIGKILL');
    expect((await exited(first.child)).signal).toBe('SIGKILL');
    const writtenBeforeKill = await doneZips(runId);
    expect(writtenBeforeKill).toBeLessThan(ZIPS.length);
    expect(await statusOf(runId)).toBe('running');

    const second = startWorker();
    await until(async () => !['queued', 'running'].includes(await statusOf(runId)), 90_000, 'the run to finish');
    expect(await statusOf(runId)).toBe('succeeded');
    // Each remaining ZIP code was read once: the recovery did not hand the run to two workers.
    for (const zip of ZIPS)
      expect(second.log().split(`scrape run ${runId} (Walmart) ${zip}:`).length - 1, zip).toBeLessThanOrEqual(1);
    const zips = await db.sql<
      { zip: string; n: number }[]
    >`select zip, count(*)::int as n from scrape_run_zips where run_id = ${runId} group by zip order by zip`;
    expect(zips.map((z) => z.zip)).toEqual([...ZIPS].sort());
    expect(zips.every((z) => z.n === 1)).toBe(true);
    const [counts] = await db.sql<{ written: number; rows: number; distinct_rows: number }[]>`
      select (select sum(observations_written)::int from scrape_run_zips where run_id = ${runId}) as written,
             (select count(*)::int from price_observations where scrape_run_id = ${runId}) as rows,
             (select count(distinct (product_id, location_id, observed_on))::int from price_observations where scrape_run_id = ${runId}) as distinct_rows`;
    expect(counts!.rows).toBe(counts!.written);
    expect(counts!.distinct_rows).toBe(counts!.rows);
    const [run] = await db.sql<{ recovered: number }[]>`select recovered from scrape_runs where id = ${runId}`;
    expect(run!.recovered).toBe(1);
    expect(second.log()).toMatch(
      new RegExp(
        `recovered scrape run ${runId} \\(Walmart\\): worker \\S+ stopped responding; the run resumes after \\d+ of 10 ZIP codes written`,
      ),
    );
    expect(second.log()).toMatch(new RegExp(`scrape run ${runId} \\(Walmart\\): resuming after \\d+ of 10 ZIP codes`));

    second.child.kill('SIGTERM');
    expect(cleanExit(await exited(second.child))).toBe(true);
  }, 180_000);

  it('SIGTERM mid-run releases the current ZIP and exits; the next worker finishes the run', async () => {
    const runId = (await db.sql.begin((tx) =>
      queueRun(tx, { store: 'walmart', zipCodes: ZIPS.slice(0, 6), requestedBy: null, trigger: 'manual' }),
    ))!;
    const first = startWorker();
    await until(async () => (await doneZips(runId)) >= 1, 60_000, 'one ZIP written');
    const stoppedAt = Date.now();
    first.child.kill('SIGTERM');
    const exit = await exited(first.child);
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);
    expect(cleanExit(exit)).toBe(true);
    expect(first.log()).toMatch(new RegExp(`scrape run ${runId} \\(Walmart\\): released at shutdown`));
    const [released] = await db.sql<
      { status: string; worker_id: string | null }[]
    >`select status, worker_id from scrape_runs where id = ${runId}`;
    expect(released).toEqual({ status: 'running', worker_id: null });
    // The job is handed back, not left locked for recovery to find.
    const [job] = await db.sql<
      { locked_by: string | null }[]
    >`select locked_by from graphile_worker._private_jobs where key = ${SCRAPE_JOB_KEY_PREFIX + runId}`;
    expect(job).toEqual({ locked_by: null });

    const second = startWorker();
    await until(async () => !['queued', 'running'].includes(await statusOf(runId)), 90_000, 'the run to finish');
    expect(await statusOf(runId)).toBe('succeeded');
    expect(second.log()).not.toMatch(/recovered \d+ job|recovered scrape run/);
    const zips = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from scrape_run_zips where run_id = ${runId} group by zip`;
    expect(zips).toHaveLength(6);
    expect(zips.every((z) => z.n === 1)).toBe(true);
    second.child.kill('SIGTERM');
    await exited(second.child);
  }, 180_000);
});
