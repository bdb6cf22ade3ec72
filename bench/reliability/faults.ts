// Reliability section "faults": the worker process (worker/index.ts) killed with SIGKILL in the
// middle of a scrape run, of a digest run and of an email send, then started again; and SIGTERM
// while it is busy. On a small migrated and seeded database on the benchmark's server.
//   Scrape: a run of 8 ZIP codes against the retailer stand-in (250 ms between requests), killed
//   once 2 ZIP codes are written.
//   Email send: the stand-in Resend API (bench/reliability/outage.ts) holds the request it
//   received (delivered on receipt, as Resend does) and the worker is killed before the answer.
//   Digest: FAULTS_SUBSCRIPTIONS (1500) daily subscribers due a digest, killed once 300 digests
//   are in the outbox.
//   After each restart: the run ends 'succeeded' with one outcome per ZIP and no duplicate price;
//   every due email is in the outbox once and reaches the stand-in under one idempotency key each
//   (distinct keys == due emails; a key sent again is a retry that the key absorbed); the new
//   worker's log says what it recovered.
//   SIGTERM: a worker busy with a scrape run and 100 sends exits within 30 s; its work is finished
//   by the next worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { openSql, type Sql } from '../../src/server/db.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { queueEmail } from '../../src/server/email/outbox.ts';
import { queueRun } from '../../src/server/queries/scrape.ts';
import { writeZipOutcome } from '../../src/server/queries/scrape-writes.ts';
import { startStandIn } from '../../test/retailers/server.ts';
import { startChild, type Child } from './load.ts';
import { startResendStandIn, type ResendStandIn } from './outage.ts';
import type { ResultTable, SectionContext, SectionResult } from './types.ts';
import { until } from '../../test/until.ts';

const DATABASE = 'eggwatch_faults';
const ZIPS = ['10001', '60611', '90210', '30301', '77001', '02108', '19103', '48201'];
const DRAIN_S = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const exited = (child: Child) =>
  new Promise<void>((resolve) =>
    child.process.exitCode !== null || child.process.signalCode !== null
      ? resolve()
      : child.process.once('exit', () => resolve()),
  );

const n = async (query: Promise<Array<{ n: number }>>) => (await query)[0]!.n;

interface Case {
  name: string;
  killedAt: string;
  finalState: string;
  expected: string;
  ok: boolean;
  recoveredLog: string;
}

export async function run(ctx: SectionContext): Promise<SectionResult> {
  const { log, adminUrl } = ctx;
  if (!adminUrl) throw new Error("the faults section needs a database server (needs: 'server' in SECTIONS)");
  const subscriptions = Number(ctx.env.FAULTS_SUBSCRIPTIONS) || 1500;
  const logDir = path.join(ctx.root, 'bench', 'results');
  fs.mkdirSync(logDir, { recursive: true });
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${DATABASE} with (force)`);
  await admin.unsafe(`create database ${DATABASE}`);
  const url = new URL(adminUrl);
  url.pathname = `/${DATABASE}`;
  const dbUrl = url.toString();
  let sql: Sql | null = null;
  const retailers = await startStandIn({ port: 0 });
  const resend: ResendStandIn = await startResendStandIn(0);
  const children: Child[] = [];
  const failures: string[] = [];
  const cases: Case[] = [];
  let starts = 0;
  const startWorker = (extra: Record<string, string> = {}) => {
    starts++;
    const origins = Object.fromEntries(
      ['WALMART', 'TARGET', 'KROGER', 'ALBERTSONS', 'WHOLE_FOODS', 'ALDI'].map((r) => [`${r}_ORIGIN`, retailers.url]),
    );
    const child = startChild(
      ctx.root,
      'worker/index.ts',
      {
        DATABASE_URL: dbUrl,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        ...origins,
        SCRAPER_ORIGINS_ARE_RETAILERS: '0',
        KROGER_CLIENT_ID: 'faults-client',
        KROGER_CLIENT_SECRET: 'faults-secret',
        SCRAPE_DELAY_MS: '250',
        SCRAPE_HEARTBEAT_MS: '300',
        SCRAPE_STALE_MS: '1000',
        WORKER_CONCURRENCY: '2',
        RESEND_API_KEY: 're_faults_standin',
        RESEND_BASE_URL: resend.url,
        ...extra,
      },
      path.join(logDir, `reliability-faults-worker-${starts}.log`),
    );
    children.push(child);
    return child;
  };
  const logLines = (child: Child, pattern: RegExp) =>
    fs
      .readFileSync(child.logFile, 'utf8')
      .split('\n')
      .filter((line) => pattern.test(line))
      .map((line) => line.replace(/^\[[^\]]*\] /, '').slice(0, 160));
  const recoveredLines = (child: Child) => logLines(child, /recovered/i);
  const kill = async (child: Child) => {
    child.process.kill('SIGKILL');
    await exited(child);
    // The dead worker's heartbeat goes stale (SCRAPE_STALE_MS) before a new one can take its jobs.
    await sleep(1500);
  };
  let sigtermSeconds = Number.NaN;
  try {
    sql = await openSql(dbUrl, { max: 3 });
    await migrate(sql, dbUrl);
    await seed(sql);
    const db = sql;

    // 1. Scrape run.
    {
      log('SIGKILL during a scrape run');
      const runId = (await db.begin((tx) =>
        queueRun(tx, { store: 'walmart', zipCodes: ZIPS, requestedBy: null, trigger: 'manual' }),
      ))!;
      const zips = () => n(db`select count(*)::int as n from scrape_run_zips where run_id = ${runId}`);
      const first = startWorker();
      await until(async () => (await zips()) >= 2, 90_000, 'two ZIP codes of the run');
      const killedAt = await zips();
      await kill(first);
      const second = startWorker();
      await until(
        async () =>
          (await db`select 1 from scrape_runs where id = ${runId} and status not in ('queued', 'running')`).length > 0,
        120_000,
        'the scrape run to end',
      );
      const [row] = await db<{ status: string }[]>`select status from scrape_runs where id = ${runId}`;
      const done = await zips();
      const duplicates = await n(db`
        select count(*)::int as n from (select 1 from scrape_run_zips where run_id = ${runId} group by zip having count(*) > 1) d`);
      const lines = recoveredLines(second);
      const ok = row!.status === 'succeeded' && done === ZIPS.length && duplicates === 0 && lines.length > 0;
      cases.push({
        name: 'scrape run (walmart, 8 ZIP codes)',
        killedAt: `${killedAt} of ${ZIPS.length} ZIPs written`,
        finalState: `${row!.status}, ${done} ZIP outcomes, ${duplicates} ZIPs twice`,
        expected: `succeeded, ${ZIPS.length} outcomes, 0 twice`,
        ok,
        recoveredLog: lines.join(' | ') || 'none',
      });
      if (!ok)
        failures.push(
          `scrape run: ended ${row!.status} with ${done}/${ZIPS.length} outcomes, ${duplicates} ZIPs twice; recovery logged: ${lines.length ? 'yes' : 'no'}`,
        );
      second.process.kill('SIGTERM');
      await exited(second);
    }

    // 2. Email send: killed while the stand-in holds the request it received.
    {
      log('SIGKILL during an email send (the stand-in Resend holds the request)');
      const arrived = resend.holdNext();
      const id = await queueEmail(db, { to: 'held@example.test', subject: 'Held send', html: '<p>x</p>', text: 'x' });
      const first = startWorker();
      await Promise.race([
        arrived,
        sleep(60_000).then(() => Promise.reject(new Error('the send did not reach the stand-in within 60 s'))),
      ]);
      await kill(first);
      resend.release();
      const second = startWorker();
      await until(
        async () => (await db`select 1 from email_outbox where id = ${id} and status <> 'pending'`).length > 0,
        90_000,
        'the held email to be sent',
      );
      const [row] = await db<
        { status: string; key: string | null }[]
      >`select status, idempotency_key as key from email_outbox where id = ${id}`;
      const sends = resend.requests.filter((r) => r.to === 'held@example.test');
      const keys = new Set(sends.map((r) => r.key));
      const lines = recoveredLines(second);
      const ok = row!.status === 'sent' && sends.length >= 2 && keys.size === 1 && lines.length > 0;
      cases.push({
        name: 'email send (request received, not answered)',
        killedAt: 'the stand-in holding the request',
        finalState: `${row!.status}; ${sends.length} requests, ${keys.size} idempotency key(s), delivered once`,
        expected: 'sent; 2 requests, 1 key',
        ok,
        recoveredLog: lines.join(' | ') || 'none',
      });
      if (!ok)
        failures.push(
          `email send: ${row!.status}, ${sends.length} requests under ${keys.size} keys; recovery logged: ${lines.length ? 'yes' : 'no'}`,
        );
      second.process.kill('SIGTERM');
      await exited(second);
    }

    // 3. Digest run.
    {
      log(`SIGKILL during a digest run (${subscriptions} daily subscribers)`);
      const day = new Date().toISOString().slice(0, 10);
      const [scrape] = await db<{ id: number }[]>`
        insert into scrape_runs (store_id, zip_codes, total, status, started_at, finished_at) values ('aldi', '{60611}', 1, 'succeeded', now(), now()) returning id`;
      await writeZipOutcome(db, {
        runId: scrape!.id,
        storeId: 'aldi',
        zip: '60611',
        status: 'succeeded',
        message: null,
        startedAt: new Date(),
        pages: 1,
        listingsSeen: 1,
        skipped: {},
        rejected: {},
        requests: 1,
        source: 'scrape',
        location: {
          zip: '60611',
          region: 'midwest',
          retailerLocationId: 'faults',
          name: 'Aldi Chicago',
          city: null,
          state: null,
          address: null,
          latitude: null,
          longitude: null,
        },
        listings: [
          {
            retailerProductId: 'f12',
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
        ],
      });
      await db`
        insert into subscriptions (email, region, price_threshold, notification_frequency, confirmed_at)
        select 'digest' || g || '@example.test', 'midwest', 5, 'daily', now() from generate_series(1, ${subscriptions}) g`;
      await db`select graphile_worker.add_job('alerts__digest', json_build_object('kind', 'daily', 'period', ${day}::text), job_key := 'faults-digest')`;
      const digests = () =>
        n(db`select count(*)::int as n from email_outbox where to_address like 'digest%@example.test'`);
      const first = startWorker();
      await until(
        async () => (await digests()) >= Math.min(300, subscriptions / 5),
        120_000,
        'a first batch of digests',
      );
      const killedAt = await digests();
      await kill(first);
      const second = startWorker();
      await until(
        async () =>
          (await n(
            db`select count(*)::int as n from graphile_worker.jobs where task_identifier in ('alerts__digest', 'send_email')`,
          )) === 0,
        240_000,
        'the digest and its emails',
      );
      const [t] = await db<{ emails: number; addresses: number; sent: number; deliveries: number }[]>`
        select count(*)::int as emails, count(distinct to_address)::int as addresses, count(*) filter (where status = 'sent')::int as sent,
               (select count(*)::int from alert_deliveries where period_key = ${`daily:${day}`}) as deliveries
        from email_outbox where to_address like 'digest%@example.test'`;
      const sends = resend.requests.filter((r) => r.to.startsWith('digest'));
      const keys = new Set(sends.map((r) => r.key));
      const addressesAtStandIn = new Set(sends.map((r) => r.to));
      const lines = recoveredLines(second);
      const ok =
        t!.emails === subscriptions &&
        t!.addresses === subscriptions &&
        t!.sent === subscriptions &&
        t!.deliveries === subscriptions &&
        keys.size === subscriptions &&
        addressesAtStandIn.size === subscriptions &&
        !keys.has(undefined) &&
        lines.length > 0;
      cases.push({
        name: `digest run (${subscriptions} subscribers)`,
        killedAt: `${killedAt} digests in the outbox`,
        finalState: `${t!.emails} emails, ${t!.addresses} addresses, ${t!.sent} sent, ${t!.deliveries} deliveries; stand-in: ${sends.length} requests, ${keys.size} keys, ${addressesAtStandIn.size} addresses`,
        expected: `${subscriptions} of each`,
        ok,
        recoveredLog: lines.join(' | ') || 'none',
      });
      if (!ok)
        failures.push(
          `digest: ${JSON.stringify(t)}, ${sends.length} requests, ${keys.size} keys at the stand-in; recovery logged: ${lines.length ? 'yes' : 'no'}`,
        );
      second.process.kill('SIGTERM');
      await exited(second);
    }

    // 4. SIGTERM while busy: a scrape run and 100 sends (each answered after 200 ms).
    {
      log('SIGTERM during a busy worker');
      const slow = await startResendStandIn(200);
      try {
        const runId = (await db.begin((tx) =>
          queueRun(tx, { store: 'target', zipCodes: ZIPS, requestedBy: null, trigger: 'manual' }),
        ))!;
        const ids: number[] = [];
        for (let i = 0; i < 100; i++)
          ids.push(
            await queueEmail(db, { to: `drain-${i}@example.test`, subject: `Drain ${i}`, html: '<p>x</p>', text: 'x' }),
          );
        const busy = startWorker({ RESEND_BASE_URL: slow.url });
        await until(
          async () =>
            (await n(db`select count(*)::int as n from scrape_run_zips where run_id = ${runId}`)) >= 1 &&
            slow.requests.length >= 5,
          90_000,
          'the worker to be busy',
        );
        const started = performance.now();
        busy.process.kill('SIGTERM');
        const timer = setTimeout(() => busy.process.kill('SIGKILL'), 60_000);
        await exited(busy);
        clearTimeout(timer);
        sigtermSeconds = (performance.now() - started) / 1000;
        const signal = busy.process.signalCode;
        const code = busy.process.exitCode;
        const after = startWorker({ RESEND_BASE_URL: slow.url });
        await until(
          async () =>
            (await n(db`select count(*)::int as n from email_outbox where id = any(${ids}) and status = 'pending'`)) ===
              0 &&
            (await db`select 1 from scrape_runs where id = ${runId} and status not in ('queued', 'running')`).length >
              0,
          120_000,
          'the drained work to finish',
        );
        const [row] = await db<{ status: string }[]>`select status from scrape_runs where id = ${runId}`;
        const keys = new Set(slow.requests.filter((r) => r.to.startsWith('drain-')).map((r) => r.key));
        // A drained worker hands back what it held: the next one has nothing to recover.
        const recovered = recoveredLines(after);
        const ok =
          sigtermSeconds <= DRAIN_S &&
          row!.status === 'succeeded' &&
          keys.size === 100 &&
          signal !== 'SIGKILL' &&
          recovered.length === 0;
        cases.push({
          name: 'SIGTERM, busy (scrape run + 100 sends)',
          killedAt: 'SIGTERM',
          finalState: `exited in ${sigtermSeconds.toFixed(1)} s (${signal ?? `code ${code}`}); run ${row!.status}; ${keys.size} keys`,
          expected: `<= ${DRAIN_S} s; succeeded; 100 keys; nothing left to recover`,
          ok,
          recoveredLog:
            [...logLines(busy, /handed back/), ...recovered.map((line) => `next worker: ${line}`)].join(' | ') ||
            'none',
        });
        if (!ok)
          failures.push(
            `SIGTERM: exited in ${sigtermSeconds.toFixed(1)} s (${signal ?? code}), run ${row!.status}, ${keys.size} keys of 100, the next worker recovered ${recovered.length ? recovered.join(' | ') : 'nothing'}`,
          );
        after.process.kill('SIGTERM');
        await exited(after);
      } finally {
        await slow.close();
      }
    }
  } catch (error) {
    failures.push(`the section stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    for (const child of children)
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await sql?.end().catch(() => {});
    await retailers.close();
    await resend.close();
    await admin.unsafe(`drop database if exists ${DATABASE} with (force)`).catch(() => {});
    await admin.end();
  }
  const tables: ResultTable[] = [
    {
      title: 'Worker killed (SIGKILL) and started again; SIGTERM while busy',
      headers: ['case', 'killed at', 'final state', 'expected', 'result', 'recovery the new worker logged'],
      rows: cases.map((c) => [
        c.name,
        c.killedAt,
        c.finalState,
        c.expected,
        c.ok ? 'ok' : 'FAILED',
        c.recoveredLog.slice(0, 200),
      ]),
    },
  ];
  return {
    failures,
    tables,
    notes: [
      `Worker output: bench/results/reliability-faults-worker-<n>.log. Load average ${os
        .loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')} at the end (${os.cpus().length} CPUs, shared with other work).`,
    ],
    data: { cases, sigtermSeconds, subscriptions },
  };
}
