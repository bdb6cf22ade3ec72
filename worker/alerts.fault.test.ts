// A real worker process killed with SIGKILL in the middle of a daily digest run, then a new one:
// its locked job is released (worker__recover), the digest resumes, and every due email is written
// and sent exactly once.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZipOutcome } from '#server/queries/scrape-writes.ts';
import { DELIVERY_BATCH } from './alerts.ts';
import { createTestDatabase, type TestDatabase } from '../test/db.ts';
import { until } from '../test/until.ts';
import { exited, killWorkerProcesses, startWorkerProcess, type WorkerProcess } from '../test/worker-process.ts';

// Six delivery batches (DELIVERY_BATCH): the worker is killed after the first has committed, with
// batches still to write and emails still to send.
const SUBSCRIPTIONS = 6 * DELIVERY_BATCH;

let db: TestDatabase;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  killWorkerProcesses(children);
  await db.drop();
});

function startWorker(): WorkerProcess {
  return startWorkerProcess(
    db.url,
    { SCRAPE_HEARTBEAT_MS: '300', SCRAPE_STALE_MS: '1000', WORKER_CONCURRENCY: '2' },
    children,
  );
}

const count = async (query: Promise<Array<{ n: number }>>) => (await query)[0]!.n;

describe('a worker killed mid-digest', () => {
  it('SIGKILL, then a new worker: every due digest is written and sent exactly once', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const [run] = await db.sql<{ id: number }[]>`
      insert into scrape_runs (store_id, zip_codes, total, status, started_at, finished_at) values ('aldi', '{60611}', 1, 'succeeded', now(), now()) returning id`;
    await writeZipOutcome(db.sql, {
      runId: run!.id,
      storeId: 'aldi',
      zip: '60611',
      status: 'succeeded',
      message: null,
      startedAt: new Date(),
      pages: 1,
      listingsSeen: 2,
      skipped: {},
      rejected: {},
      requests: 1,
      source: 'scrape',
      location: {
        zip: '60611',
        region: 'midwest',
        retailerLocationId: 'x',
        name: 'Aldi Chicago',
        city: null,
        state: null,
        address: null,
        latitude: null,
        longitude: null,
      },
      listings: [
        {
          retailerProductId: 'a12',
          title: 'Goldhen Large Eggs, 12 ct',
          brand: 'Goldhen',
          eggType: 'standard',
          count: 12,
          sizeGrade: 'Large',
          price: 2.19,
          regularPrice: null,
          inStock: true,
          url: null,
        },
        {
          retailerProductId: 'a18',
          title: 'Goldhen Large Eggs, 18 ct',
          brand: 'Goldhen',
          eggType: 'standard',
          count: 18,
          sizeGrade: 'Large',
          price: 3.09,
          regularPrice: null,
          inStock: true,
          url: null,
        },
      ],
    });
    await db.sql`
      insert into subscriptions (email, region, price_threshold, notification_frequency, confirmed_at)
      select 'digest' || g || '@example.test', 'midwest', 5, 'daily', now() from generate_series(1, ${SUBSCRIPTIONS}) g`;
    await db.sql`select graphile_worker.add_job('alerts__digest', json_build_object('kind', 'daily', 'period', ${day}::text), job_key := 'digest-under-test')`;

    const first = startWorker();
    // Killed once some batches have committed, before the last one.
    await until(
      async () => (await count(db.sql`select count(*)::int as n from email_outbox`)) >= 500,
      120_000,
      'a first batch of digests',
    );
    first.child.kill('SIGKILL');
    await exited(first.child);
    const before = await count(db.sql`select count(*)::int as n from email_outbox`);
    expect(before).toBeLessThan(SUBSCRIPTIONS);
    // The digest job stays locked by the dead worker.
    expect(
      await count(
        db.sql`select count(*)::int as n from graphile_worker.jobs where key = 'digest-under-test' and locked_by is not null`,
      ),
    ).toBe(1);

    // Once the dead worker's heartbeat is stale, a new worker releases its job and finishes it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = startWorker();
    await until(
      async () =>
        (await count(
          db.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier in ('alerts__digest', 'send_email')`,
        )) === 0,
      150_000,
      'the digest and its emails',
    );

    const [totals] = await db.sql<{ emails: number; addresses: number; logged: number; deliveries: number }[]>`
      select (select count(*)::int from email_outbox) as emails,
             (select count(distinct to_address)::int from email_outbox) as addresses,
             (select count(*)::int from email_outbox where status = 'logged') as logged,
             (select count(*)::int from alert_deliveries where period_key = ${`daily:${day}`}) as deliveries`;
    expect(totals).toEqual({
      emails: SUBSCRIPTIONS,
      addresses: SUBSCRIPTIONS,
      logged: SUBSCRIPTIONS,
      deliveries: SUBSCRIPTIONS,
    });
    expect(second.log()).toMatch(
      /recovered \d+ job\(s\) \([^)]*alerts__digest[^)]*\) locked by worker \S+, which stopped responding/,
    );
    second.child.kill('SIGTERM');
    await exited(second.child);
  }, 300_000);
});
