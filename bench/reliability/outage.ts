// Reliability section "outage": PostgreSQL stopped for OUTAGE_SECONDS (10) and started again while
// the web and worker processes are under load and have work in flight, on two servers in turn:
//   embedded  the embedded cluster (src/server/embedded-db.ts) in a temporary folder, stopped with
//             its pg_ctl (embedded.stop()) and started again on the same port;
//   external  a cluster of our own (/usr/lib/postgresql/15/bin initdb + pg_ctl, port
//             OUTAGE_PG_PORT, 5471), reached through DATABASE_URL as any external server.
// Each gets a small migrated and seeded database (not the 2.4-million-observation one).
//   Processes: server.ts and worker/index.ts, each in a process of its own; the worker's scrapers
//   point at the retailer stand-in (test/retailers) and its Resend at a stand-in Resend API
//   (RESEND_BASE_URL) that answers after OUTAGE_RESEND_DELAY_MS (400) and, like Resend, delivers
//   a given idempotency key once.
//   Load: OUTAGE_CONNECTIONS (32) concurrent clients, each sending one GET after another, in turn
//   over cached public GETs, an uncached one (a new offset each time), /readyz and a tRPC query,
//   timeout 10 s.
//   Work in flight when the database stops: a scrape run (8 ZIP codes, 300 ms between requests)
//   and OUTAGE_EMAILS (60) outbox emails queued a second before the stop.
//   Asserted: neither process exits; every answer while the database is down is a 503 JSON with
//   a message (or, on a cached path, a 200 from the cache), within 2 s; no 500 at any time; each path answers 200 within 5 s of the database
//   being back; /readyz 503 during, 200 after; after the queue drains, no graphile-worker job
//   failed for good, no scrape run left queued or running, every email sent once (distinct
//   idempotency keys at the stand-in == emails queued, none delivered twice), no alert delivery
//   doubled.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { openSql } from '../../src/server/db.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/server/embedded-db.ts';
import { migrate } from '../../src/server/migrate.ts';
import { seed } from '../../src/server/seed.ts';
import { queueEmail } from '../../src/server/email/outbox.ts';
import { queueRun } from '../../src/server/queries/scrape.ts';
import { startStandIn } from '../../test/retailers/server.ts';
import { dashboardPath, FILTERED_PATH, percentile } from '../run.ts';
import { envNumber, startChild, waitUntilUp, type Child } from './load.ts';
import type { ResultTable, SectionContext, SectionResult } from './types.ts';

const exec = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';
const DATABASE = 'eggwatch_outage';
const OUTAGE_ANSWER_MS = 2000;
const RECOVERY_S = 5;
const SCRAPE_ZIPS = ['10001', '60601', '30301', '94105', '98101', '02108', '75201', '80202'];

interface Settings {
  connections: number;
  outageS: number;
  emails: number;
  resendDelayMs: number;
  pgPort: number;
  webPort: number;
}

function settings(env: SectionContext['env']): Settings {
  const number = (name: string, fallback: number) => envNumber(env, name, fallback);
  return {
    connections: number('OUTAGE_CONNECTIONS', 32),
    outageS: number('OUTAGE_SECONDS', 10),
    emails: number('OUTAGE_EMAILS', 60),
    resendDelayMs: number('OUTAGE_RESEND_DELAY_MS', 400),
    pgPort: number('OUTAGE_PG_PORT', 5471),
    webPort: number('OUTAGE_WEB_PORT', 4460),
  };
}

// ---------------------------------------------------------------------------------------------
// The database servers: started, stopped and started again.

interface Server {
  kind: 'embedded' | 'external';
  adminUrl: string;
  urlFor(database: string): string;
  port(): number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  destroy(): Promise<void>;
}

async function embeddedServer(work: string): Promise<Server> {
  const dir = path.join(work, 'embedded');
  let db: EmbeddedDatabase = await startEmbeddedPostgres({ dir });
  const portOf = (url: string) => Number(new URL(url).port);
  let adminUrl = db.adminUrl;
  return {
    kind: 'embedded',
    get adminUrl() {
      return adminUrl;
    },
    urlFor: (name) => db.urlFor(name),
    port: () => portOf(adminUrl),
    stop: () => db.stop(),
    async start() {
      db = await startEmbeddedPostgres({ dir });
      adminUrl = db.adminUrl;
    },
    async destroy() {
      await db.stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A cluster of our own on a fixed port, as an external server: as root, run as `postgres`. */
async function externalServer(work: string, port: number): Promise<Server> {
  const dataDir = path.join(work, 'external');
  const asRoot = os.userInfo().uid === 0;
  const pg = (binary: string, args: string[]) =>
    asRoot
      ? exec('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, binary), ...args])
      : exec(path.join(PG_BIN, binary), args);
  fs.mkdirSync(dataDir, { mode: 0o700 });
  if (asRoot) {
    fs.chmodSync(work, 0o755);
    await exec('chown', ['postgres:postgres', dataDir]);
  }
  await pg('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C']);
  const logFile = path.join(dataDir, 'server.log');
  const start = () =>
    pg('pg_ctl', [
      'start',
      '-D',
      dataDir,
      '-w',
      '-t',
      '60',
      '-l',
      logFile,
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200`,
    ]).then(() => {});
  const stop = () => pg('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '60']).then(() => {});
  await start();
  const base = `postgres://postgres@127.0.0.1:${port}`;
  return {
    kind: 'external',
    adminUrl: `${base}/postgres`,
    urlFor: (name) => `${base}/${name}`,
    port: () => port,
    stop,
    start,
    async destroy() {
      await stop().catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A stand-in for the Resend API: records each send with its idempotency key and, like Resend,
// delivers a key once (a repeated key gets the first answer back and delivers nothing).

export interface ResendStandIn {
  url: string;
  /** Every request received, in order. */
  requests: Array<{ key: string | undefined; to: string; at: number }>;
  /** Deliveries per idempotency key (1 each when nothing was sent twice). */
  delivered: Map<string, number>;
  /** Requests without a key (each one delivered). */
  unkeyed: number;
  /** Holds the next request with a key until release() (the worker may be killed meanwhile). */
  holdNext(): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

export async function startResendStandIn(delayMs: number): Promise<ResendStandIn> {
  const requests: ResendStandIn['requests'] = [];
  const delivered = new Map<string, number>();
  const answers = new Map<string, string>();
  let unkeyed = 0;
  let holding: { arrived: () => void; released: Promise<void>; release: () => void } | null = null;
  let held: (() => void) | null = null;
  let counter = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        const key = req.headers['idempotency-key'] as string | undefined;
        let body: { to?: string | string[] } = {};
        try {
          body = JSON.parse(raw) as typeof body;
        } catch {
          /* answered below */
        }
        requests.push({ key, to: String(body.to), at: Date.now() });
        // Delivered on receipt, as Resend does; a repeated key delivers nothing and gets the first answer.
        let answer = key ? answers.get(key) : undefined;
        if (!answer) {
          answer = JSON.stringify({ id: `standin-${++counter}` });
          if (key) {
            answers.set(key, answer);
            delivered.set(key, (delivered.get(key) ?? 0) + 1);
          } else unkeyed++;
        }
        const hold = holding;
        if (hold && key) {
          holding = null;
          held = hold.release;
          hold.arrived();
          await hold.released;
        } else if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        if (res.destroyed) return;
        res.setHeader('content-type', 'application/json');
        res.end(answer);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    delivered,
    get unkeyed() {
      return unkeyed;
    },
    holdNext() {
      return new Promise<void>((arrived) => {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        holding = { arrived, released, release };
      });
    },
    release() {
      held?.();
      held = null;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The load: clients each sending one GET after another, every answer recorded.

interface Sample {
  path: string;
  start: number;
  end: number;
  status: number; // 0: no answer (error or timeout)
  json: boolean;
  message: string | null;
  error: string | null;
}

function startLoad(
  base: string,
  paths: Array<{ name: string; path: string; vary?: boolean }>,
  connections: number,
): { samples: Sample[]; stop(): Promise<void> } {
  const samples: Sample[] = [];
  let stopped = false;
  let unique = 0;
  const client = async (index: number) => {
    for (let i = index; !stopped; i++) {
      const target = paths[i % paths.length]!;
      const start = Date.now();
      const sample: Sample = {
        path: target.name,
        start,
        end: start,
        status: 0,
        json: false,
        message: null,
        error: null,
      };
      try {
        // A path that varies gets an offset of its own each time: never in the web process's cache.
        const url = target.vary ? `${base}${target.path}&offset=${++unique}` : `${base}${target.path}`;
        const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        sample.status = response.status;
        const text = await response.text();
        try {
          const body = JSON.parse(text) as unknown;
          sample.json = true;
          const message = Array.isArray(body)
            ? (body[0] as { error?: { message?: string } })?.error?.message
            : ((body as { message?: string; error?: { message?: string } }).message ??
              (body as { error?: { message?: string } }).error?.message);
          sample.message = typeof message === 'string' ? message : null;
        } catch {
          sample.message = text.slice(0, 120);
        }
      } catch (error) {
        sample.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      sample.end = Date.now();
      samples.push(sample);
    }
  };
  const running = Array.from({ length: connections }, (_, i) => client(i));
  return {
    samples,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs: number,
): Promise<{ value: T; met: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if (value !== undefined && ok(value)) return { value, met: true };
    if (Date.now() > deadline) return { value, met: false };
    await sleep(500);
  }
}

interface VariantResult {
  kind: string;
  portKept: boolean;
  webAlive: boolean;
  workerAlive: boolean;
  statusCounts: Record<string, Record<string, number>>;
  duringByPath: Record<string, Record<string, number>>;
  outageMaxMs: number;
  outageP99Ms: number;
  outageBad: string[];
  recovery: Record<string, number | null>;
  readyDuring: string;
  readyAfter: number;
  drained: boolean;
  jobsFailed: Array<{ task: string; attempts: number; error: string | null }>;
  scrapeRun: { status: string; zips: number };
  emails: {
    queued: number;
    sent: number;
    pending: number;
    keys: number;
    requests: number;
    doubled: number;
    unkeyed: number;
  };
  alertDoubles: number;
  any500: number;
  workerLogLines: string[];
}

async function runVariant(ctx: SectionContext, s: Settings, server: Server): Promise<VariantResult> {
  const { log } = ctx;
  const logDir = path.join(ctx.root, 'bench', 'results');
  fs.mkdirSync(logDir, { recursive: true });
  const admin = postgres(server.adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${DATABASE}`);
  await admin.end();
  const url = server.urlFor(DATABASE);
  {
    const sql = await openSql(url, { max: 2 });
    try {
      await migrate(sql, url);
      await seed(sql);
    } finally {
      await sql.end();
    }
  }
  const retailers = await startStandIn({ port: 0 });
  const resend = await startResendStandIn(s.resendDelayMs);
  const port = s.webPort + (server.kind === 'embedded' ? 0 : 1);
  const base = `http://127.0.0.1:${port}`;
  const common = { DATABASE_URL: url, LOG_LEVEL: 'warn', NODE_ENV: 'test', PUBLIC_URL: base };
  const origins = Object.fromEntries(
    ['WALMART', 'TARGET', 'KROGER', 'ALBERTSONS', 'WHOLE_FOODS', 'ALDI'].map((r) => [`${r}_ORIGIN`, retailers.url]),
  );
  const workerLog = path.join(logDir, `reliability-outage-${server.kind}-worker.log`);
  let web: Child | null = null;
  let worker: Child | null = null;
  let sql: Awaited<ReturnType<typeof openSql>> | null = null;
  try {
    web = startChild(
      ctx.root,
      'server.ts',
      { ...common, PORT: String(port), HOST: '127.0.0.1', PUBLIC_API_RATE_LIMIT: '10000000' },
      path.join(logDir, `reliability-outage-${server.kind}-web.log`),
    );
    worker = startChild(
      ctx.root,
      'worker/index.ts',
      {
        ...common,
        LOG_LEVEL: 'info',
        ...origins,
        SCRAPER_ORIGINS_ARE_RETAILERS: '0',
        KROGER_CLIENT_ID: 'outage-client',
        KROGER_CLIENT_SECRET: 'outage-secret',
        SCRAPE_DELAY_MS: '300',
        SCRAPE_HEARTBEAT_MS: '1000',
        SCRAPE_STALE_MS: '5000',
        RESEND_API_KEY: 're_outage_standin',
        RESEND_BASE_URL: resend.url,
      },
      workerLog,
    );
    await waitUntilUp(base, web);
    log(
      `${server.kind}: PostgreSQL on port ${server.port()}; web ${web.process.pid} at ${base}; worker ${worker.process.pid}`,
    );
    const paths = [
      { name: 'GET /api/stats (cached)', path: '/api/stats' },
      { name: 'GET /api/market-prices (cached)', path: '/api/market-prices' },
      { name: 'GET /api/egg-prices filtered (cached)', path: FILTERED_PATH },
      { name: 'GET /api/egg-prices, a new offset each time (uncached)', path: FILTERED_PATH, vary: true },
      { name: 'GET /readyz', path: '/readyz' },
      { name: 'tRPC prices.dashboard', path: await dashboardPath(base) },
    ];

    sql = await openSql(url, { max: 2 });
    // Work in flight: a scrape run and pending emails.
    const runId = (await sql.begin((tx) =>
      queueRun(tx, { store: 'walmart', zipCodes: SCRAPE_ZIPS, requestedBy: null, trigger: 'manual' }),
    ))!;
    const portBefore = server.port();
    const load = startLoad(base, paths, s.connections);
    await sleep(2000);
    // The emails just before the stop, so that sends are under way when it comes.
    const emailIds: number[] = [];
    for (let i = 0; i < s.emails; i++)
      emailIds.push(
        await queueEmail(sql, { to: `outage-${i}@example.test`, subject: `Outage ${i}`, html: '<p>x</p>', text: 'x' }),
      );
    await sql.end();
    sql = null;
    await sleep(1000);
    log(
      `${server.kind}: stopping PostgreSQL for ${s.outageS} s under ${s.connections} connections (${resend.requests.length} of ${s.emails} emails sent so far)`,
    );
    await server.stop();
    const down = Date.now();
    await sleep(s.outageS * 1000);
    const restartAsked = Date.now();
    await server.start();
    const up = Date.now();
    log(
      `${server.kind}: PostgreSQL back after ${((up - down) / 1000).toFixed(1)} s (start took ${((up - restartAsked) / 1000).toFixed(1)} s)`,
    );
    await sleep(8000);
    await load.stop();
    const samples = load.samples;

    // During: answers to requests sent after the stop completed and answered before the start.
    const during = samples.filter((x) => x.start >= down + 200 && x.end <= restartAsked);
    const statusCounts: VariantResult['statusCounts'] = {};
    for (const x of samples) {
      const phase =
        x.end < down
          ? 'before'
          : x.start >= down + 200 && x.end <= restartAsked
            ? 'during'
            : x.start < up
              ? 'edges'
              : 'after';
      const key = x.status ? String(x.status) : 'no answer';
      statusCounts[phase] ??= {};
      statusCounts[phase]![key] = (statusCounts[phase]![key] ?? 0) + 1;
    }
    const outageBad: string[] = [];
    // A 503 JSON with a message, or a 200 from the web process's cache (a cached path's).
    const acceptable = (x: Sample) =>
      (x.status === 503 && x.json && !!x.message) ||
      (x.status === 200 && !x.path.includes('uncached') && x.path !== 'GET /readyz');
    for (const x of during) {
      if (!acceptable(x) && outageBad.length < 5)
        outageBad.push(`${x.path}: ${x.status || x.error} ${x.message ?? ''}`.trim());
    }
    const badCount = during.filter((x) => !acceptable(x)).length;
    const duringByPath: Record<string, Record<string, number>> = {};
    for (const x of during) {
      duringByPath[x.path] ??= {};
      duringByPath[x.path]![x.status || 'no answer'] = (duringByPath[x.path]![x.status || 'no answer'] ?? 0) + 1;
    }
    if (badCount > outageBad.length) outageBad.push(`... ${badCount} such answers in all`);
    const duringMs = during.map((x) => x.end - x.start).sort((a, b) => a - b);
    const recovery: VariantResult['recovery'] = {};
    for (const p of paths) {
      const first = samples
        .filter((x) => x.path === p.name && x.status === 200 && x.start >= up)
        .sort((a, b) => a.end - b.end)[0];
      recovery[p.name] = first ? (first.end - up) / 1000 : null;
    }
    const readyDuringStatuses = [...new Set(during.filter((x) => x.path === 'GET /readyz').map((x) => x.status))];
    const readyAfter = await fetch(`${base}/readyz`).then(
      (r) => r.status,
      () => 0,
    );

    // Drain: the scrape run ends, no email pending, no job left.
    sql = await openSql(url, { max: 2 });
    const db = sql;
    log(`${server.kind}: waiting for the queue to drain`);
    const drain = await until(
      async () => {
        const [row] = await db<{ jobs: number; pending: number; runs: number }[]>`
          select (select count(*)::int from graphile_worker.jobs where task_identifier in ('send_email', 'stores__scrape') and attempts < max_attempts) as jobs,
                 (select count(*)::int from email_outbox where status = 'pending') as pending,
                 (select count(*)::int from scrape_runs where status in ('queued', 'running')) as runs`;
        return row!;
      },
      (row) => row.jobs === 0 && row.pending === 0 && row.runs === 0,
      120_000,
    );
    const jobsFailed = (
      await db<{ task: string; attempts: number; error: string | null }[]>`
      select task_identifier as task, attempts, last_error as error from graphile_worker.jobs where attempts >= max_attempts and last_error is not null`
    ).map((j) => ({ ...j, error: j.error?.split('\n')[0]?.slice(0, 160) ?? null }));
    const [run] = await db<
      { status: string; zips: number }[]
    >`select status, (select count(*)::int from scrape_run_zips z where z.run_id = r.id) as zips from scrape_runs r where id = ${runId}`;
    const [outbox] = await db<{ sent: number; pending: number }[]>`
      select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'pending')::int as pending from email_outbox where id = any(${emailIds})`;
    const [alerts] = await db<{ doubles: number }[]>`
      select count(*)::int as doubles from (select subscription_id, period_key from alert_deliveries group by 1, 2 having count(*) > 1) d`;
    const webAlive = web.process.exitCode === null && web.process.signalCode === null;
    const workerAlive = worker.process.exitCode === null && worker.process.signalCode === null;
    const workerLogLines = fs
      .readFileSync(workerLog, 'utf8')
      .split('\n')
      .filter((line) => /recover|reconnect|lost|error/i.test(line))
      .slice(0, 6)
      .map((line) => line.slice(0, 200));
    return {
      kind: server.kind,
      portKept: server.port() === portBefore,
      webAlive,
      workerAlive,
      statusCounts,
      duringByPath,
      outageMaxMs: duringMs.length ? duringMs.at(-1)! : Number.NaN,
      outageP99Ms: duringMs.length ? percentile(duringMs, 99) : Number.NaN,
      outageBad,
      recovery,
      readyDuring: readyDuringStatuses.join(', ') || 'none',
      readyAfter,
      drained: drain.met,
      jobsFailed,
      scrapeRun: run ?? { status: 'missing', zips: 0 },
      emails: {
        queued: emailIds.length,
        sent: outbox!.sent,
        pending: outbox!.pending,
        keys: resend.delivered.size,
        requests: resend.requests.length,
        doubled: [...resend.delivered.values()].filter((n) => n > 1).length,
        unkeyed: resend.unkeyed,
      },
      alertDoubles: alerts!.doubles,
      any500: samples.filter((x) => x.status === 500).length,
      workerLogLines,
    };
  } finally {
    await sql?.end().catch(() => {});
    await web?.stop();
    await worker?.stop();
    await retailers.close();
    await resend.close();
  }
}

export async function run(ctx: SectionContext): Promise<SectionResult> {
  const s = settings(ctx.env);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-outage-'));
  fs.chmodSync(work, 0o755); // as root, the clusters run as 'postgres', which must enter it
  const results: VariantResult[] = [];
  const failures: string[] = [];
  const only = ctx.env.OUTAGE_ONLY;
  try {
    for (const kind of ['embedded', 'external'] as const) {
      if (only && only !== kind) continue;
      const server = kind === 'embedded' ? await embeddedServer(work) : await externalServer(work, s.pgPort);
      try {
        results.push(await runVariant(ctx, s, server));
      } catch (error) {
        failures.push(
          `${kind}: the run could not complete: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      } finally {
        await server.destroy();
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }

  for (const r of results) {
    const f = (text: string) => failures.push(`${r.kind}: ${text}`);
    if (!r.portKept) f('the database came back on another port');
    if (!r.webAlive) f('the web process exited');
    if (!r.workerAlive) f('the worker process exited');
    if (r.outageBad.length)
      f(
        `answers during the outage that were neither a 503 JSON with a message nor a cached 200: ${r.outageBad.join('; ')}`,
      );
    if (!(r.outageMaxMs <= OUTAGE_ANSWER_MS))
      f(`slowest answer during the outage ${r.outageMaxMs} ms, over ${OUTAGE_ANSWER_MS} ms`);
    if (r.any500) f(`${r.any500} answers were 500`);
    for (const [name, seconds] of Object.entries(r.recovery))
      if (seconds === null || seconds > RECOVERY_S)
        f(
          `${name}: ${seconds === null ? 'no 200' : `first 200 after ${seconds.toFixed(1)} s`} once the database was back (target ${RECOVERY_S} s)`,
        );
    if (r.readyDuring !== '503') f(`/readyz answered ${r.readyDuring} during the outage, not only 503`);
    if (r.readyAfter !== 200) f(`/readyz answered ${r.readyAfter} after the outage`);
    if (!r.drained) f('the queue did not drain within 120 s of the load');
    if (r.jobsFailed.length)
      f(
        `${r.jobsFailed.length} jobs failed for good: ${r.jobsFailed
          .slice(0, 3)
          .map((j) => `${j.task} (${j.error})`)
          .join('; ')}`,
      );
    if (r.scrapeRun.status !== 'succeeded')
      f(`the scrape run ended ${r.scrapeRun.status} with ${r.scrapeRun.zips} of ${SCRAPE_ZIPS.length} ZIP outcomes`);
    if (r.emails.sent !== r.emails.queued || r.emails.keys !== r.emails.queued)
      f(
        `${r.emails.queued} emails queued, ${r.emails.sent} marked sent, ${r.emails.keys} distinct idempotency keys at the stand-in`,
      );
    if (r.emails.doubled || r.emails.unkeyed)
      f(`${r.emails.doubled} keys delivered twice, ${r.emails.unkeyed} sends without a key`);
    if (r.alertDoubles) f(`${r.alertDoubles} alert deliveries doubled`);
  }

  const pathNames = results[0] ? Object.keys(results[0].recovery) : [];
  const tables: ResultTable[] = [
    {
      title: `PostgreSQL stopped ${s.outageS} s under ${s.connections} connections (targets: 503 JSON within ${OUTAGE_ANSWER_MS} ms during; first 200 within ${RECOVERY_S} s of the database)`,
      headers: [
        'server',
        'port kept',
        'web alive',
        'worker alive',
        'answers before',
        'during',
        'edges',
        'after',
        'max ms during',
        'p99 ms during',
        '/readyz during',
        'after',
      ],
      rows: results.map((r) => {
        const counts = (phase: string) =>
          Object.entries(r.statusCounts[phase] ?? {})
            .map(([k, v]) => `${k}:${v}`)
            .join(' ') || '-';
        return [
          r.kind,
          String(r.portKept),
          String(r.webAlive),
          String(r.workerAlive),
          counts('before'),
          counts('during'),
          counts('edges'),
          counts('after'),
          String(r.outageMaxMs),
          String(r.outageP99Ms),
          r.readyDuring,
          String(r.readyAfter),
        ];
      }),
    },
    {
      title: 'Answers during the outage by path (200: served from the cache; 503: JSON with a message)',
      headers: ['server', ...pathNames],
      rows: results.map((r) => [
        r.kind,
        ...pathNames.map(
          (p) =>
            Object.entries(r.duringByPath[p] ?? {})
              .map(([k, v]) => `${k}:${v}`)
              .join(' ') || '-',
        ),
      ]),
    },
    {
      title: 'Seconds from the database back to the first 200 (target <= 5 s)',
      headers: ['server', ...pathNames],
      rows: results.map((r) => [
        r.kind,
        ...pathNames.map((p) => (r.recovery[p] === null ? 'none' : r.recovery[p]!.toFixed(1))),
      ]),
    },
    {
      title: 'Work in flight, after the queue drained',
      headers: [
        'server',
        'drained',
        'jobs failed for good',
        'scrape run',
        'ZIP outcomes',
        'emails queued',
        'sent',
        'keys at stand-in',
        'requests',
        'keys delivered twice',
        'alert deliveries doubled',
      ],
      rows: results.map((r) => [
        r.kind,
        String(r.drained),
        String(r.jobsFailed.length),
        r.scrapeRun.status,
        `${r.scrapeRun.zips}/${SCRAPE_ZIPS.length}`,
        String(r.emails.queued),
        String(r.emails.sent),
        String(r.emails.keys),
        String(r.emails.requests),
        String(r.emails.doubled),
        String(r.alertDoubles),
      ]),
    },
  ];
  const notes = [
    'Phases: before = answered before the stop completed; during = sent 200 ms or more after the stop and answered before the restart was asked; edges = the rest of the outage and the restart; after = sent once the database was back.',
    `Worker log lines about the outage: ${results.map((r) => `${r.kind}: ${r.workerLogLines.length ? r.workerLogLines.join(' | ') : 'none'}`).join(' / ')}`,
    `Load average ${os
      .loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')} at the end (${os.cpus().length} CPUs, shared with other work).`,
  ];
  return { failures, tables, notes, data: { settings: s, results } };
}
