// `npm run bench`: builds (or reuses) a large database, then measures the public read paths of
// the real web process against a static file of the same byte size served by the same Fastify
// instance in the same run, and each path's uncached query time.
//
//   Database: BENCH_DATABASE_URL's or TEST_DATABASE_URL's server when set, else an embedded
//   cluster at .data/bench-postgres; database eggwatch_bench (bench/database.ts).
//   Load: autocannon in a child process (bench/load.mjs), 64 connections on 127.0.0.1,
//   BENCH_WARMUP seconds of warm-up (3) then BENCH_DURATION measured seconds (10) per target.
//   Targets: every endpoint >= 0.8x its static file's requests/s; uncached query median under
//   100 ms for the full list and under 20 ms for a filtered page.
//   Results: printed, and written to bench/results/latest.json.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createServer } from '../src/server/app.ts';
import { createSql, type Sql } from '../src/server/db.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/server/embedded-db.ts';
import { listPriceEntries } from '../src/server/queries/prices.ts';
import { readStats } from '../src/server/queries/stats.ts';
import { appRouter, type AppRouter } from '../src/server/routers/_app.ts';
import { createCallerFactory } from '../src/server/trpc.ts';
import { createContextInner, type AppConfig } from '../src/server/context.ts';
import { createSessions } from '../src/server/auth/lucia.ts';
import { transformer } from '../src/shared/transformer.ts';
import type { DashboardInput } from '../src/shared/inputs.ts';
import { BENCH_CONFIG, BENCH_DATABASE, databaseUrl, ensureBenchDatabase, type BuildInfo } from './database.ts';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');
const CONNECTIONS = 64;
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 20);
const THROUGHPUT_TARGET = 0.8;
const STATIC_PREFIX = '/__bench_static/';

const DASHBOARD_INPUT: DashboardInput = {
  filters: { eggType: 'all', store: 'all', region: 'all', sortBy: 'price', countRange: null, showRegion: true },
  page: 1,
  pageSize: 9,
};
const FILTERED_PATH = '/api/egg-prices?store=walmart&region=west&egg_type=standard&limit=20';

const log = (line: string) => console.log(`[bench] ${line}`);
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

// ---------------------------------------------------------------------------------------------
// Uncached query time: the query functions called directly (the tRPC path through a caller whose
// context has the cache disabled), QUERY_RUNS times after two warm-up calls.

interface QueryTiming {
  name: string;
  rows: number;
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  targetMs: number | null;
  met: boolean | null;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

async function timeQuery(name: string, targetMs: number | null, fn: () => Promise<number>): Promise<QueryTiming> {
  let rows = 0;
  for (let i = 0; i < 2; i++) rows = await fn();
  const samples: number[] = [];
  for (let i = 0; i < QUERY_RUNS; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const medianMs = percentile(samples, 50);
  return {
    name,
    rows,
    runs: QUERY_RUNS,
    medianMs,
    p95Ms: percentile(samples, 95),
    minMs: samples[0]!,
    targetMs,
    met: targetMs === null ? null : medianMs < targetMs,
  };
}

/** The deployment settings the context carries; the benchmark's requests are anonymous. */
function benchAppConfig(sql: Sql): AppConfig {
  return {
    sessions: createSessions(sql, { secure: false }),
    publicUrl: 'http://127.0.0.1',
    exposeResetToken: false,
    adminSetupKey: crypto.randomBytes(18).toString('base64url'),
  };
}

async function measureQueries(sql: Sql, config: AppConfig): Promise<QueryTiming[]> {
  const caller = createCallerFactory(appRouter)(createContextInner({ sql, config })); // no cache given: disabled
  return [
    await timeQuery('listPriceEntries (full list)', 100, async () => (await listPriceEntries(sql)).length),
    await timeQuery('listPriceEntries (walmart/west/standard, limit 20)', 20, async () =>
      (await listPriceEntries(sql, { store: 'walmart', region: 'west', eggType: 'standard' }, { limit: 20 })).length),
    await timeQuery('readStats', null, async () => (await readStats(sql)).trends['30d'].days.length),
    await timeQuery('prices.dashboard (caller, cache disabled)', null, async () => (await caller.prices.dashboard(DASHBOARD_INPUT)).items.length),
  ];
}

// ---------------------------------------------------------------------------------------------
// Load generation in a child process.

interface LoadResult {
  requestsPerSec: number;
  requestsTotal: number;
  latency: { p50: number; p90: number; p99: number; average: number; max: number };
  bytesPerSec: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}

class LoadRunner {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  maxRssKb = 0;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: { id?: number; result?: LoadResult; error?: string; maxRssKb?: number }) => {
      if (message.id === undefined) return;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.maxRssKb) this.maxRssKb = Math.max(this.maxRssKb, message.maxRssKb);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.result!);
    });
    child.on('exit', (code) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`load generator exited (${code})`));
      this.waiting.clear();
    });
  }

  static start(): Promise<LoadRunner> {
    const child = fork(path.join(BENCH_DIR, 'load.mjs'), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('message', () => resolve(new LoadRunner(child)));
    });
  }

  run(url: string): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, url, connections: CONNECTIONS, warmup: WARMUP_S, duration: DURATION_S });
    });
  }

  stop(): void {
    if (this.child.connected) this.child.send({ type: 'exit' });
  }
}

// ---------------------------------------------------------------------------------------------

interface Target {
  name: string;
  path: string;
  bytes: number;
  staticPath: string;
}

interface EndpointResult extends Target {
  endpoint: LoadResult;
  static: LoadResult;
  ratio: number;
  met: boolean;
}

async function fetchBody(url: string): Promise<Buffer> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body.toString('utf8', 0, 300)}`);
  return body;
}

/** The GET URL the client's httpBatchLink sends for prices.dashboard, captured from a real client. */
async function dashboardPath(base: string): Promise<string> {
  let captured: string | null = null;
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${base}/trpc`,
        transformer,
        fetch: async (url, options) => {
          captured = String(url);
          return fetch(url, options as RequestInit);
        },
      }),
    ],
  });
  const result = await client.prices.dashboard.query(DASHBOARD_INPUT);
  if (!captured || result.items.length === 0) throw new Error('The tRPC dashboard query returned nothing');
  const url = new URL(captured);
  return `${url.pathname}${url.search}`;
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function printTable(headers: string[], rows: string[][], rightFrom = 1): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!, i >= rightFrom)).join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  const runStarted = performance.now();
  // Database server.
  let embedded: EmbeddedDatabase | null = null;
  let adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    if (new URL(adminUrl).pathname === `/${BENCH_DATABASE}`) adminUrl = databaseUrl(adminUrl, 'postgres');
    log(`Database server: ${new URL(adminUrl).host} (${process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL' : 'TEST_DATABASE_URL'})`);
  } else {
    embedded = await startEmbeddedPostgres({ dir: path.join(ROOT, '.data/bench-postgres'), log });
    adminUrl = embedded.adminUrl;
    log('Database server: embedded PostgreSQL in .data/bench-postgres');
  }

  let sql: Sql | null = null;
  let server: ReturnType<typeof createServer> | null = null;
  let load: LoadRunner | null = null;
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-bench-'));
  try {
    const { url, info } = await ensureBenchDatabase(adminUrl, log);
    if (!info.rebuilt) {
      log(`Reusing ${BENCH_DATABASE} (built ${info.builtAt}; that build took ${(info.buildMs / 1000).toFixed(1)} s)`);
    }
    log(
      `Data: ${info.counts.locations} locations, ${info.counts.products} products, ` +
        `${info.counts.observations.toLocaleString('en-US')} observations, ${info.counts.entries} price entries, ${info.counts.rollupDays} rollup days`,
    );

    sql = createSql(url);

    log(`Uncached query times (${QUERY_RUNS} runs each after 2 warm-up calls)...`);
    const config = benchAppConfig(sql);
    const queries = await measureQueries(sql, config);

    // The real web process, plus the benchmark's static files on the same Fastify instance.
    const serverOptions = { sql, port: 0, host: '127.0.0.1', logLevel: 'silent' };
    server = createServer(serverOptions);
    void server.app.register(fastifyStatic, { root: staticDir, prefix: STATIC_PREFIX, decorateReply: false });
    await server.start();
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('The server has no TCP address');
    const base = `http://127.0.0.1:${address.port}`;
    log(`Web process listening on ${base}`);

    const trpcPath = await dashboardPath(base);
    const targets: Target[] = [];
    for (const [name, urlPath] of [
      ['GET /api/egg-prices (full list)', '/api/egg-prices'],
      ['GET /api/egg-prices (filtered page)', FILTERED_PATH],
      ['GET /api/stats', '/api/stats'],
      ['tRPC prices.dashboard (GET, batch)', trpcPath],
    ] as const) {
      const body = await fetchBody(`${base}${urlPath}`);
      const file = `${crypto.createHash('sha1').update(name).digest('hex').slice(0, 10)}.json`;
      // Same bytes, so the same size (and the same content type) as the endpoint's answer.
      fs.writeFileSync(path.join(staticDir, file), body);
      const staticPath = `${STATIC_PREFIX}${file}`;
      const staticBody = await fetchBody(`${base}${staticPath}`);
      if (staticBody.length !== body.length) throw new Error(`Static copy of ${name} is ${staticBody.length} bytes, not ${body.length}`);
      targets.push({ name, path: urlPath, bytes: body.length, staticPath });
    }
    log(`tRPC dashboard URL (httpBatchLink): ${trpcPath.slice(0, 110)}...`);

    load = await LoadRunner.start();
    const results: EndpointResult[] = [];
    for (const target of targets) {
      log(`Load: ${target.name} (${target.bytes.toLocaleString('en-US')} bytes), ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s`);
      const endpoint = await load.run(`${base}${target.path}`);
      log(`Load: static file of the same size`);
      const staticResult = await load.run(`${base}${target.staticPath}`);
      for (const [label, r] of [['endpoint', endpoint], ['static', staticResult]] as const) {
        if (r.non2xx || r.errors || r.timeouts) {
          log(`WARNING ${target.name} (${label}): ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
        }
      }
      const ratio = staticResult.requestsPerSec > 0 ? endpoint.requestsPerSec / staticResult.requestsPerSec : 0;
      results.push({ ...target, endpoint, static: staticResult, ratio, met: ratio >= THROUGHPUT_TARGET });
    }

    const peakRssMb = (process.resourceUsage().maxRSS * 1024) / 2 ** 20;
    const loadRssMb = (load.maxRssKb * 1024) / 2 ** 20;

    // Report.
    console.log('');
    console.log(
      `EggWatch benchmark: ${BENCH_CONFIG.locations} locations x ${BENCH_CONFIG.productsPerStore} products x ${BENCH_CONFIG.days} days = ` +
        `${info.counts.observations.toLocaleString('en-US')} observations; ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per target; ` +
        `Node ${process.version}, ${os.cpus().length} CPUs`,
    );
    console.log(
      info.rebuilt
        ? `Database build: ${(info.buildMs / 1000).toFixed(1)} s (this run; ${info.reason})`
        : `Database build: reused (built ${info.builtAt} in ${(info.buildMs / 1000).toFixed(1)} s)`,
    );
    console.log('');
    console.log(`Throughput against a static file of the same size from the same server (target: ratio >= ${THROUGHPUT_TARGET})`);
    printTable(
      ['endpoint', 'bytes', 'req/s', 'p99 ms', 'static req/s', 'static p99 ms', 'ratio', 'target'],
      results.map((r) => [
        r.name,
        r.bytes.toLocaleString('en-US'),
        r.endpoint.requestsPerSec.toFixed(0),
        String(r.endpoint.latency.p99),
        r.static.requestsPerSec.toFixed(0),
        String(r.static.latency.p99),
        `${r.ratio.toFixed(2)}x`,
        r.met ? 'met' : 'MISSED',
      ]),
    );
    console.log('');
    console.log(`Uncached query time (${QUERY_RUNS} runs; target judged on the median)`);
    printTable(
      ['query', 'rows', 'median ms', 'p95 ms', 'min ms', 'target', 'result'],
      queries.map((q) => [
        q.name,
        String(q.rows),
        ms(q.medianMs),
        ms(q.p95Ms),
        ms(q.minMs),
        q.targetMs === null ? '-' : `< ${q.targetMs} ms`,
        q.met === null ? '-' : q.met ? 'met' : 'MISSED',
      ]),
    );
    console.log('');
    console.log(`Peak RSS: ${peakRssMb.toFixed(0)} MB (benchmark process: web server, queries, database client); load generator ${loadRssMb.toFixed(0)} MB`);
    const missed = [...results.filter((r) => !r.met).map((r) => r.name), ...queries.filter((q) => q.met === false).map((q) => q.name)];
    console.log(missed.length ? `MISSED: ${missed.join('; ')}` : 'All targets met.');

    const resultsDir = path.join(BENCH_DIR, 'results');
    fs.mkdirSync(resultsDir, { recursive: true });
    const report = {
      at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      config: { ...BENCH_CONFIG, connections: CONNECTIONS, warmupSeconds: WARMUP_S, durationSeconds: DURATION_S, queryRuns: QUERY_RUNS },
      database: { name: BENCH_DATABASE, embedded: embedded !== null, ...info } satisfies Record<string, unknown> & BuildInfo,
      endpoints: results.map((r) => ({
        name: r.name,
        path: r.path,
        staticPath: r.staticPath,
        bytes: r.bytes,
        endpoint: r.endpoint,
        static: r.static,
        ratio: r.ratio,
        target: THROUGHPUT_TARGET,
        met: r.met,
      })),
      queries,
      peakRssMb: Math.round(peakRssMb),
      loadGeneratorPeakRssMb: Math.round(loadRssMb),
      missed,
      totalSeconds: Math.round((performance.now() - runStarted) / 1000),
    };
    fs.writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Results written to ${path.relative(ROOT, path.join(resultsDir, 'latest.json'))} (${report.totalSeconds} s in all)`);
  } finally {
    load?.stop();
    await server?.stop().catch(() => {});
    await sql?.end({ timeout: 5 }).catch(() => {});
    fs.rmSync(staticDir, { recursive: true, force: true });
    await embedded?.stop().catch((error: unknown) => log(`Could not stop the embedded database: ${String(error)}`));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
