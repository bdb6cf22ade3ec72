// Real worker processes on one database, each retailer's requests passing through a counting
// proxy in front of the stand-in: two workers send at most one request at a time per retailer,
// each the politeness delay after the previous one's answer (every job that sends requests is in
// the retailer's queue: visit chunks and manual ZIP runs), while the retailers progress side by
// side; and a worker killed with SIGKILL mid-chunk loses at
// most that chunk's progress: the next worker finishes the day, every store visited once, no
// price written twice.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StoreId } from '#shared/vocabulary.ts';
import { startVisitDay } from '#server/queries/coverage.ts';
import { queueRun } from '#server/queries/scrape.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { insertDirectoryStores, ordinaryZips, standInStoreId } from '../test/directory-stores.ts';
import { startStandIn, type StandInServer } from '../test/retailers/server.ts';
import { until } from '../test/until.ts';
import { exited, killWorkerProcesses, startWorkerProcess, type WorkerProcess } from '../test/worker-process.ts';

const ORIGIN_ENV: Partial<Record<StoreId, string>> = {
  walmart: 'WALMART_ORIGIN',
  target: 'TARGET_ORIGIN',
  aldi: 'ALDI_ORIGIN',
};

let db: TestDatabase;
let standIn: StandInServer;
const children: ChildProcess[] = [];

interface Flight {
  store: StoreId;
  url: string;
  start: number;
  end: number;
}

/** A proxy per retailer in front of the stand-in: holds each request a little and records it. */
class CountingProxies {
  readonly flights: Flight[] = [];
  readonly inFlight = new Map<StoreId, number>();
  readonly most = new Map<StoreId, number>();
  readonly urls: Partial<Record<StoreId, string>> = {};
  private servers: http.Server[] = [];

  constructor(private readonly holdMs: number) {}

  async start(stores: StoreId[]): Promise<void> {
    for (const store of stores) {
      const server = http.createServer((req, res) => {
        const body: Buffer[] = [];
        req.on('data', (chunk: Buffer) => body.push(chunk));
        req.on('end', () => {
          const now = (this.inFlight.get(store) ?? 0) + 1;
          this.inFlight.set(store, now);
          this.most.set(store, Math.max(this.most.get(store) ?? 0, now));
          const start = Date.now();
          setTimeout(() => {
            const upstream = http.request(
              `${standIn.url}${req.url ?? '/'}`,
              { method: req.method, headers: req.headers },
              (answer) => {
                const parts: Buffer[] = [];
                answer.on('data', (chunk: Buffer) => parts.push(chunk));
                answer.on('end', () => {
                  // Counted out before the answer leaves, so a worker's next request is never
                  // mistaken for an overlap.
                  this.inFlight.set(store, (this.inFlight.get(store) ?? 1) - 1);
                  this.flights.push({ store, url: req.url ?? '', start, end: Date.now() });
                  res.writeHead(answer.statusCode ?? 502, answer.headers);
                  res.end(Buffer.concat(parts));
                });
              },
            );
            upstream.on('error', (error) => {
              this.inFlight.set(store, (this.inFlight.get(store) ?? 1) - 1);
              res.writeHead(502);
              res.end(String(error));
            });
            upstream.end(Buffer.concat(body));
          }, this.holdMs);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.urls[store] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      this.servers.push(server);
    }
  }

  /** Whether two retailers' requests were ever in flight at the same time. */
  overlapping(a: StoreId, b: StoreId): boolean {
    const first = this.flights.filter((f) => f.store === a);
    return this.flights.some((g) => g.store === b && first.some((f) => f.start < g.end && g.start < f.end));
  }

  async close(): Promise<void> {
    for (const server of this.servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  standIn = await startStandIn();
});
afterAll(async () => {
  killWorkerProcesses(children);
  await standIn.close();
  await db.drop();
});
beforeEach(async () => {
  await db.sql`update store_locations set status = 'closed', closed_at = now() where retailer_location_id is not null`;
});

function startWorker(proxies: CountingProxies, env: Record<string, string>): WorkerProcess {
  const origins = Object.fromEntries(
    Object.entries(proxies.urls).map(([store, url]) => [ORIGIN_ENV[store as StoreId]!, url]),
  );
  return startWorkerProcess(
    db.url,
    { ...origins, SCRAPE_HEARTBEAT_MS: '300', SCRAPE_STALE_MS: '1000', ...env },
    children,
  );
}

async function plan(store: StoreId) {
  await db.sql`
    insert into coverage_plans (store_id, scope, revisit_days, daily_request_budget) values (${store}, '{"kind":"nationwide"}', 1, 100000)
    on conflict (store_id) do update set paused_at = null, paused_reason = null`;
}

const runStatus = async (table: 'coverage_runs' | 'scrape_runs', id: number) =>
  (await db.sql<{ status: string }[]>`select status from ${db.sql(table)} where id = ${id}`)[0]!.status;
const over = (status: string) => !['queued', 'running'].includes(status);

describe('two worker processes on one database', () => {
  it('send at most one request at a time per retailer, the retailers side by side', async () => {
    const proxies = new CountingProxies(25);
    await proxies.start(['walmart', 'target', 'aldi']);
    try {
      await insertDirectoryStores(db.sql, 'walmart', ordinaryZips(9, 20001));
      await insertDirectoryStores(db.sql, 'aldi', ordinaryZips(9, 30001));
      await insertDirectoryStores(db.sql, 'target', ordinaryZips(6, 40001));
      for (const store of ['walmart', 'aldi', 'target'] as const) await plan(store);
      const DELAY_MS = 300;
      const env = { SCRAPE_DELAY_MS: String(DELAY_MS), COVERAGE_CHUNK_SIZE: '3', WORKER_CONCURRENCY: '2' };
      const workers = [startWorker(proxies, env), startWorker(proxies, env)];
      // Both are up (a pool each beats), then the work arrives: three visit days and a manual ZIP
      // run of Target, which shares Target's queue with its visit day.
      await until(async () => (await db.sql`select 1 from worker_heartbeats`).length >= 2, 60_000, 'two workers');
      const days: number[] = [];
      for (const store of ['walmart', 'aldi', 'target'] as const)
        days.push((await startVisitDay(db.sql, { store, userId: null, trigger: 'manual' })).runId);
      const manual = (await db.sql.begin((tx) =>
        queueRun(tx, { store: 'target', zipCodes: ['10001', '60611'], requestedBy: null, trigger: 'manual' }),
      ))!;
      await until(
        async () =>
          (await Promise.all(days.map((id) => runStatus('coverage_runs', id)))).every(over) &&
          over(await runStatus('scrape_runs', manual)),
        120_000,
        'the visit days and the manual run',
      );
      for (const id of days) expect(await runStatus('coverage_runs', id)).toBe('succeeded');
      expect(await runStatus('scrape_runs', manual)).toBe('succeeded');
      // Never two requests of a retailer at once, across both processes...
      expect(Object.fromEntries(proxies.most)).toEqual({ walmart: 1, target: 1, aldi: 1 });
      // ...and each one the delay after the previous one's answer, even when the next job of the
      // queue ran on the other process...
      for (const store of ['walmart', 'target', 'aldi'] as const) {
        const flights = proxies.flights.filter((f) => f.store === store).sort((a, b) => a.start - b.start);
        const gaps = flights.slice(1).map((f, i) => f.start - flights[i]!.end);
        expect(Math.min(...gaps), store).toBeGreaterThanOrEqual(DELAY_MS - 2);
      }
      // ...while different retailers' requests were in flight together.
      expect(
        proxies.overlapping('walmart', 'aldi') ||
          proxies.overlapping('walmart', 'target') ||
          proxies.overlapping('aldi', 'target'),
      ).toBe(true);
      // Both processes ran the retailers' jobs.
      const chunkLines = workers.map(
        (w) => (w.log().match(/coverage run \d+ \(\w[\w ]*\) chunk \d+ store/g) ?? []).length,
      );
      expect(
        chunkLines.every((n) => n > 0),
        workers.map((w) => w.log().slice(-2000)).join('\n----\n'),
      ).toBe(true);
      for (const worker of workers) worker.child.kill('SIGTERM');
      await Promise.all(workers.map((w) => exited(w.child)));
    } finally {
      await proxies.close();
    }
  }, 180_000);
});

describe('a worker killed mid-chunk', () => {
  it('SIGKILL, then a new worker: the day finishes, every store visited once, no duplicate prices, at most one chunk redone', async () => {
    const proxies = new CountingProxies(0);
    await proxies.start(['aldi']);
    const SIZE = 4;
    try {
      const zips = ordinaryZips(16, 50001);
      const ids = await insertDirectoryStores(db.sql, 'aldi', zips);
      await plan('aldi');
      // Visits written two at a time (fast visits are batched): a chunk can be half written.
      const env = {
        SCRAPE_DELAY_MS: '150',
        COVERAGE_CHUNK_SIZE: String(SIZE),
        COVERAGE_VISIT_BATCH: '2',
        WORKER_CONCURRENCY: '2',
      };
      const { runId } = await startVisitDay(db.sql, { store: 'aldi', userId: null, trigger: 'manual' });
      const first = startWorker(proxies, env);
      // Killed while a chunk is half written.
      await until(
        async () =>
          (
            await db.sql`
              select 1 from coverage_chunks c
              where c.run_id = ${runId} and c.status = 'running' and c.chunk >= 1
                and (select count(*) from coverage_visits v where v.run_id = c.run_id and v.chunk = c.chunk) between 1 and ${SIZE - 2}`
          ).length > 0,
        60_000,
        'a chunk half written',
        10,
      );
      first.child.kill('SIGKILL');
      expect((await exited(first.child)).signal).toBe('SIGKILL');
      const [before] = await db.sql<{ visited: number; status: string }[]>`
        select (select count(*)::int from coverage_visits where run_id = ${runId}) as visited, status from coverage_runs where id = ${runId}`;
      expect(before!.status).toBe('running');
      expect(before!.visited).toBeLessThan(zips.length);
      const requestsBefore = proxies.flights.length;

      const second = startWorker(proxies, env);
      await until(async () => over(await runStatus('coverage_runs', runId)), 90_000, 'the day to finish');
      expect(await runStatus('coverage_runs', runId)).toBe('succeeded');
      // Every store once.
      const written = await db.sql<{ location_id: number; n: number }[]>`
        select location_id, count(*)::int as n from coverage_visits where run_id = ${runId} group by location_id`;
      expect(written.map((w) => w.location_id).sort()).toEqual([...ids].sort());
      const [run] = await db.sql<
        { stores_visited: number; chunks_done: number }[]
      >`select stores_visited, chunks_done from coverage_runs where id = ${runId}`;
      expect(run).toEqual({ stores_visited: 16, chunks_done: 4 });
      // No price twice: one observation per product, store and day, as many as the visits wrote.
      const [counts] = await db.sql<{ written: number; rows: number; distinct_rows: number }[]>`
        select (select sum(observations_written)::int from coverage_visits where run_id = ${runId}) as written,
               (select count(*)::int from price_observations where location_id = any(${db.sql.array(ids)}::int[])) as rows,
               (select count(distinct (product_id, location_id, observed_on))::int from price_observations where location_id = any(${db.sql.array(ids)}::int[])) as distinct_rows`;
      expect(counts!.rows).toBe(counts!.written);
      expect(counts!.distinct_rows).toBe(counts!.rows);
      // At most one chunk's progress lost: the stores asked for before the kill and again after
      // are at most a chunk's, and the new worker asked for each store once.
      const storeOf = (url: string) =>
        zips.find(
          (zip) =>
            url.includes(encodeURIComponent(standInStoreId('aldi', zip))) || url.includes(standInStoreId('aldi', zip)),
        );
      const askedBefore = new Set(
        proxies.flights
          .slice(0, requestsBefore)
          .map((f) => storeOf(f.url))
          .filter(Boolean),
      );
      const after = proxies.flights
        .slice(requestsBefore)
        .map((f) => storeOf(f.url))
        .filter(Boolean);
      expect([...new Set(after)].filter((zip) => askedBefore.has(zip)).length).toBeLessThanOrEqual(SIZE);
      for (const zip of zips)
        expect(second.log().split(`store ${standInStoreId('aldi', zip)}:`).length - 1, zip).toBeLessThanOrEqual(1);
      expect(second.log()).toMatch(
        new RegExp(
          `recovered coverage run ${runId} \\(Aldi\\): worker \\S+ stopped responding; the visit day resumes after \\d+ of 16 stores visited`,
        ),
      );
      expect(second.log()).toMatch(
        new RegExp(
          `coverage run ${runId} \\(Aldi\\) chunk \\d+: resuming after \\d+ of ${SIZE} stores written or closed`,
        ),
      );
      second.child.kill('SIGTERM');
      await exited(second.child);
    } finally {
      await proxies.close();
    }
  }, 180_000);
});
