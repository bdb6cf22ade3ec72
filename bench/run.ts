// `npm run bench`: builds (or reuses) a large database, then measures the public read paths of
// the real web process against a static file of the same byte size served by the same Fastify
// instance in the same run, and each path's uncached query time.
//
//   Database: BENCH_DATABASE_URL's or TEST_DATABASE_URL's server when set, else an embedded
//   cluster at .data/bench-postgres; database eggwatch_bench (bench/database.ts).
//   Load: autocannon in a child process (bench/load.mjs), 64 connections on 127.0.0.1. Per
//   endpoint: BENCH_WARMUP seconds (3) of warm-up on it and on its static copy, then
//   BENCH_DURATION seconds (10) measured on each, interleaved endpoint/static/static/endpoint.
//   Targets: every endpoint >= 0.8x its static file's requests/s; uncached query median under
//   100 ms for the full list and under 20 ms for a filtered page.
//   Results: printed, and written to bench/results/latest.json.
//   Coverage visit days: each retailer's visit day through the real tasks against the stand-in
//   at zero delay, and from it a nationwide day at the default delay (bench/coverage-visits.ts).
//   Front end: last, the main-thread trace of / and /compare/organic beside a baseline page
//   (bench/frontend.ts, results in bench/results/frontend.json). `npm run bench -- frontend`
//   runs that part alone, without the large database.
//   Egress: `npm run bench -- egress` runs only the transports' comparison (bench/egress.ts).
//   Discovery: each retailer's nationwide store discovery at zero delay on two store networks
//   (the stand-in's and the metro network), beside a reference sweep not told where the stores are
//   and a set-cover lower bound told where they are (bench/coverage-discovery.ts);
//   `npm run bench -- discovery` runs that part alone.
//   Nationwide: `npm run bench -- nationwide` runs only the nationwide section (its own database
//   of about 110 million observations, bench/nationwide.ts); `npm run bench` never does.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createServer } from '../src/server/app.ts';
import { openSql, type Sql } from '../src/server/db.ts';
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
import { FIRST_PAINT_BUDGET_BYTES, routeBundleSizes } from './bundle.ts';
import { measureIngest, measureParsing, type IngestResult, type ParseResult } from './scrape.ts';
import { DIGEST_TARGET_S, IMMEDIATE_TARGET_S, measureAlerts, type AlertBenchResult } from './alerts.ts';
import { measureFrontend, type FrontendResult } from './frontend.ts';
import { discoveryTable, measureDiscovery, type DiscoveryBenchRow } from './coverage-discovery.ts';
import { measureCsvStreaming } from './csv-stream.ts';
import { DAY_HOURS, measureVisitDays, visitBenchTable, type VisitBenchResult } from './coverage-visits.ts';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');
const CONNECTIONS = 64;
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 20);
const THROUGHPUT_TARGET = 0.8;
const STATIC_PREFIX = '/__bench_static/';

export const DASHBOARD_INPUT: DashboardInput = {
  filters: { eggType: 'all', store: 'all', region: 'all', sortBy: 'price', countRange: null, showRegion: true },
  page: 1,
  pageSize: 9,
};
export const FILTERED_PATH = '/api/egg-prices?store=walmart&region=west&egg_type=standard&limit=20';

const log = (line: string) => console.log(`[bench] ${line}`);
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

// ---------------------------------------------------------------------------------------------
// Uncached query time: the query functions called directly (the tRPC path through a caller whose
// context has the cache disabled), QUERY_RUNS times after two warm-up calls.

export interface QueryTiming {
  name: string;
  rows: number;
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  targetMs: number | null;
  met: boolean | null;
}

export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** fn's time over `runs` calls after two warm-up calls; fn answers its row count. */
export async function timeQuery(
  name: string,
  targetMs: number | null,
  fn: () => Promise<number>,
  runs = QUERY_RUNS,
): Promise<QueryTiming> {
  let rows = 0;
  for (let i = 0; i < 2; i++) rows = await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const medianMs = percentile(samples, 50);
  return {
    name,
    rows,
    runs,
    medianMs,
    p95Ms: percentile(samples, 95),
    minMs: samples[0]!,
    targetMs,
    met: targetMs === null ? null : medianMs < targetMs,
  };
}

/** The deployment settings the context carries; the benchmark's requests are anonymous. */
export function benchAppConfig(sql: Sql): AppConfig {
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
    await timeQuery('listPriceEntries(sql)', 100, async () => (await listPriceEntries(sql)).length),
    await timeQuery(
      "listPriceEntries(sql, { store: 'walmart', region: 'west', eggType: 'standard' }, { limit: 20 })",
      20,
      async () =>
        (await listPriceEntries(sql, { store: 'walmart', region: 'west', eggType: 'standard' }, { limit: 20 })).length,
    ),
    await timeQuery('readStats(sql)', null, async () => (await readStats(sql)).trends['30d'].days.length),
    await timeQuery(
      'caller.prices.dashboard(input), context without cache (listPriceEntries + selectListing + recentHistory)',
      null,
      async () => (await caller.prices.dashboard(DASHBOARD_INPUT)).items.length,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Load generation in a child process.

export interface LoadResult {
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

/** Two measured segments as one: requests over total time; latency percentiles of the worse segment. */
export function combine(a: LoadResult, b: LoadResult): LoadResult {
  const duration = a.duration + b.duration;
  const worse = a.latency.p99 >= b.latency.p99 ? a : b;
  return {
    requestsPerSec: (a.requestsTotal + b.requestsTotal) / duration,
    requestsTotal: a.requestsTotal + b.requestsTotal,
    latency: {
      ...worse.latency,
      average:
        (a.latency.average * a.requestsTotal + b.latency.average * b.requestsTotal) /
        Math.max(1, a.requestsTotal + b.requestsTotal),
      max: Math.max(a.latency.max, b.latency.max),
    },
    bytesPerSec: (a.bytesPerSec * a.duration + b.bytesPerSec * b.duration) / duration,
    ok: a.ok + b.ok,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    timeouts: a.timeouts + b.timeouts,
    duration,
  };
}

export class LoadRunner {
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
    const child = fork(path.join(BENCH_DIR, 'load.mjs'), [], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('message', () => resolve(new LoadRunner(child)));
    });
  }

  /** autocannon on url for `seconds`; connections, the per-request timeout (s) and headers may be given. */
  run(
    url: string,
    seconds: number,
    options: { connections?: number; timeoutSeconds?: number; headers?: Record<string, string> } = {},
  ): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({
        id,
        url,
        connections: options.connections ?? CONNECTIONS,
        warmup: 0,
        duration: seconds,
        timeout: options.timeoutSeconds ?? 30,
        headers: options.headers ?? {},
      });
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
  /** Web-server CPU milliseconds per completed request, endpoint and static file. */
  cpuMsPerRequest: { endpoint: number; static: number };
}

export async function fetchBody(url: string): Promise<Buffer> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200)
    throw new Error(`GET ${url} answered ${response.status}: ${body.toString('utf8', 0, 300)}`);
  return body;
}

/**
 * The GET path (with its query) the client's httpBatchLink sends for one call, captured from a
 * real client against the server at `base`; the call must answer something (`check`).
 */
export async function trpcGetPath<T>(
  base: string,
  call: (client: ReturnType<typeof createTRPCClient<AppRouter>>) => Promise<T>,
  check: (result: T) => boolean = () => true,
): Promise<string> {
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
  const result = await call(client);
  if (!captured || !check(result)) throw new Error('The tRPC query returned nothing');
  const url = new URL(captured);
  return `${url.pathname}${url.search}`;
}

/** The GET URL the client's httpBatchLink sends for prices.dashboard, captured from a real client. */
export function dashboardPath(base: string): Promise<string> {
  return trpcGetPath(
    base,
    (client) => client.prices.dashboard.query(DASHBOARD_INPUT),
    (result) => result.items.length > 0,
  );
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

export function printTable(headers: string[], rows: string[][], rightFrom = 1): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!, i >= rightFrom)).join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/**
 * The benchmark's database server: BENCH_DATABASE_URL's or TEST_DATABASE_URL's server when set,
 * else an embedded cluster at .data/bench-postgres (started here; the caller stops it).
 */
export async function benchDatabaseServer(
  log: (line: string) => void,
): Promise<{ adminUrl: string; embedded: EmbeddedDatabase | null }> {
  let adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    if (new URL(adminUrl).pathname === `/${BENCH_DATABASE}`) adminUrl = databaseUrl(adminUrl, 'postgres');
    log(
      `Database server: ${new URL(adminUrl).host} (${process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL' : 'TEST_DATABASE_URL'})`,
    );
    return { adminUrl, embedded: null };
  }
  const embedded = await startEmbeddedPostgres({ dir: path.join(ROOT, '.data/bench-postgres'), log });
  log('Database server: embedded PostgreSQL in .data/bench-postgres');
  return { adminUrl: embedded.adminUrl, embedded };
}

async function main(): Promise<void> {
  if (process.argv.slice(2).includes('frontend')) {
    await measureFrontend(process.env.FRONTEND_URL);
    return;
  }
  if (process.argv.slice(2).includes('egress')) {
    const { egressTable, measureEgress } = await import('./egress.ts');
    const rows = await measureEgress(log);
    const table = egressTable(rows);
    printTable(table.headers, table.rows);
    if (rows.some((r) => !r.sameListings)) process.exitCode = 1;
    return;
  }
  if (process.argv.slice(2).includes('discovery')) {
    const table = discoveryTable(await measureDiscovery(log));
    printTable(table.headers, table.rows);
    return;
  }
  const runStarted = performance.now();
  const { adminUrl, embedded } = await benchDatabaseServer(log);
  if (process.argv.slice(2).includes('nationwide')) {
    try {
      // Imported when asked for: the nationwide section imports this module's pieces.
      const { measureNationwide } = await import('./nationwide.ts');
      await measureNationwide(adminUrl, (line) => console.log(`[bench nationwide] ${line}`));
    } finally {
      await embedded?.stop().catch(() => {});
    }
    return;
  }
  if (process.argv.slice(2).includes('csv')) {
    try {
      await measureCsvStreaming(adminUrl);
    } finally {
      await embedded?.stop().catch(() => {});
    }
    return;
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

    sql = await openSql(url);

    log(`Uncached query times (${QUERY_RUNS} runs each after 2 warm-up calls)...`);
    const config = benchAppConfig(sql);
    const queries = await measureQueries(sql, config);

    // The real web process, plus the benchmark's static files on the same Fastify instance.
    // The public API's rate limit stays on (its cost is part of what is measured), with room for
    // the load generator: 64 connections from one address.
    const serverOptions = { sql, port: 0, host: '127.0.0.1', logLevel: 'silent', publicApiRateLimit: 1_000_000_000 };
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
      ['GET /api/egg-prices (a page of 5,000, the most)', '/api/egg-prices?limit=5000'],
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
      if (staticBody.length !== body.length)
        throw new Error(`Static copy of ${name} is ${staticBody.length} bytes, not ${body.length}`);
      targets.push({ name, path: urlPath, bytes: body.length, staticPath });
    }
    log(`tRPC dashboard URL (httpBatchLink): ${trpcPath.slice(0, 110)}...`);

    load = await LoadRunner.start();
    const loadBefore = os.loadavg();
    const results: EndpointResult[] = [];
    for (const target of targets) {
      log(
        `Load: ${target.name} (${target.bytes.toLocaleString('en-US')} bytes) and its static copy: ${CONNECTIONS} connections, ${WARMUP_S} s warm-up each, then ${DURATION_S} s each`,
      );
      // Warm both up, then measure in the order endpoint, static, static, endpoint (half the
      // time each), so drifting background load weighs on both alike.
      const endpointUrl = `${base}${target.path}`;
      const staticUrl = `${base}${target.staticPath}`;
      if (WARMUP_S > 0) {
        await load.run(endpointUrl, WARMUP_S);
        await load.run(staticUrl, WARMUP_S);
      }
      const half = DURATION_S / 2;
      // The web server runs in this process, so its CPU time per request is measurable too: a
      // figure that, unlike req/s, hardly depends on what else the machine is doing.
      const cpu = { endpoint: 0, static: 0 };
      const segment = async (side: 'endpoint' | 'static') => {
        const before = process.cpuUsage();
        const result = await load!.run(side === 'endpoint' ? endpointUrl : staticUrl, half);
        const used = process.cpuUsage(before);
        cpu[side] += (used.user + used.system) / 1000;
        return result;
      };
      const e1 = await segment('endpoint');
      const s1 = await segment('static');
      const s2 = await segment('static');
      const e2 = await segment('endpoint');
      const endpoint = combine(e1, e2);
      const staticResult = combine(s1, s2);
      const cpuMsPerRequest = {
        endpoint: endpoint.requestsTotal ? cpu.endpoint / endpoint.requestsTotal : Number.NaN,
        static: staticResult.requestsTotal ? cpu.static / staticResult.requestsTotal : Number.NaN,
      };
      for (const [label, r] of [
        ['endpoint', endpoint],
        ['static', staticResult],
      ] as const) {
        if (r.non2xx || r.errors || r.timeouts) {
          log(`WARNING ${target.name} (${label}): ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
        }
      }
      // No completed request on either side (a run too short for the body size) gives no ratio.
      const ratio =
        staticResult.requestsTotal > 0 && endpoint.requestsTotal > 0
          ? endpoint.requestsPerSec / staticResult.requestsPerSec
          : Number.NaN;
      results.push({
        ...target,
        endpoint,
        static: staticResult,
        ratio,
        met: ratio >= THROUGHPUT_TARGET,
        cpuMsPerRequest,
      });
    }

    const peakRssMb = (process.resourceUsage().maxRSS * 1024) / 2 ** 20;
    const loadRssMb = (load.maxRssKb * 1024) / 2 ** 20;

    // Report: one row per endpoint, its static twin, and the uncached time of the query behind it.
    const loadAfter = os.loadavg();
    console.log('');
    console.log(
      `EggWatch benchmark: ${BENCH_CONFIG.locations} locations x ${BENCH_CONFIG.productsPerStore} products x ${BENCH_CONFIG.days} days = ` +
        `${info.counts.observations.toLocaleString('en-US')} observations; ${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s per target; ` +
        `Node ${process.version}, ${os.cpus().length} CPUs; load average ${loadBefore[0]!.toFixed(1)} before, ${loadAfter[0]!.toFixed(1)} after the load runs`,
    );
    console.log(
      info.rebuilt
        ? `Database build: ${(info.buildMs / 1000).toFixed(1)} s (this run; ${info.reason})`
        : `Database build: reused (built ${info.builtAt} in ${(info.buildMs / 1000).toFixed(1)} s)`,
    );
    console.log(
      `Throughput target: endpoint req/s >= ${THROUGHPUT_TARGET}x the static file's (same bytes, same server); p99 is the worse of the two measured halves.`,
    );
    console.log(
      `cpu ms/req: web-server CPU time per request (endpoint, static file), a check that does not depend on machine load.`,
    );
    console.log(`Query target: uncached median (${QUERY_RUNS} runs) under the limit; "-" means none was set.`);
    console.log('');
    printTable(
      [
        'endpoint',
        'bytes',
        'req/s',
        'p99 ms',
        'static req/s',
        'static p99',
        'ratio',
        '>= 0.8',
        'cpu ms/req',
        'static cpu',
        'query median',
        'query p95',
        'query target',
        'query',
      ],
      results.map((r, i) => {
        const q = queries[i]!;
        return [
          r.name,
          r.bytes.toLocaleString('en-US'),
          r.endpoint.requestsPerSec.toFixed(0),
          String(r.endpoint.latency.p99),
          r.static.requestsPerSec.toFixed(0),
          String(r.static.latency.p99),
          Number.isNaN(r.ratio) ? 'n/a' : `${r.ratio.toFixed(2)}x`,
          r.met ? 'met' : Number.isNaN(r.ratio) ? 'NO DATA' : 'MISSED',
          r.cpuMsPerRequest.endpoint.toFixed(2),
          r.cpuMsPerRequest.static.toFixed(2),
          `${ms(q.medianMs)} ms`,
          `${ms(q.p95Ms)} ms`,
          q.targetMs === null ? '-' : `< ${q.targetMs} ms`,
          q.met === null ? '-' : q.met ? 'met' : 'MISSED',
        ];
      }),
    );
    console.log('');
    for (const [i, q] of queries.entries())
      console.log(`  query of ${results[i]!.name}: ${q.name}, ${q.rows} rows, min ${ms(q.minMs)} ms`);
    console.log('');
    console.log(
      `Peak RSS: ${peakRssMb.toFixed(0)} MB (benchmark process: web server, queries, database client); load generator ${loadRssMb.toFixed(0)} MB`,
    );
    // The client's initial JavaScript per route (gzip), from the production build when present.
    const distDir = path.join(ROOT, 'dist');
    let bundles: Awaited<ReturnType<typeof routeBundleSizes>> = [];
    if (fs.existsSync(path.join(distDir, '.vite', 'manifest.json'))) {
      bundles = await routeBundleSizes(distDir);
      console.log('');
      printTable(
        ['route', 'initial JS (gzip)', 'files'],
        bundles.map((b) => [b.route, `${(b.gzipBytes / 1000).toFixed(1)} kB`, String(b.files.length)]),
      );
    } else {
      console.log('\nInitial JS per route: no production build with a manifest in dist/ (run `npm run build` first).');
    }
    const firstPaint = bundles.find((b) => b.route === '/');

    // Scrapers: parse time per listing page, and the write path against COPY.
    const parsing: ParseResult[] = await measureParsing();
    console.log('');
    printTable(
      ['retailer (stand-in page)', 'pages', 'bytes/page', 'listings/page', 'parse ms/page', 'classify ms/page'],
      parsing.map((p) => [
        p.store,
        String(p.pages),
        p.bytesPerPage.toLocaleString('en-US'),
        String(p.listingsPerPage),
        p.parseMsPerPage.toFixed(3),
        p.classifyMsPerPage.toFixed(3),
      ]),
    );
    const ingest: IngestResult = await measureIngest(adminUrl, log);
    console.log('');
    printTable(
      ['ingest of 24,000 listings', 'seconds', 'listings/s', 'vs COPY'],
      [
        [
          'one run (one store, one ZIP at a time)',
          ingest.oneRunSeconds.toFixed(2),
          Math.round(ingest.oneRunPerS).toLocaleString('en-US'),
          `${(ingest.oneRunPerS / ingest.copyPerS).toFixed(3)}x`,
        ],
        [
          'six runs at once (the six stores)',
          ingest.sixRunsSeconds.toFixed(2),
          Math.round(ingest.sixRunsPerS).toLocaleString('en-US'),
          `${(ingest.sixRunsPerS / ingest.copyPerS).toFixed(3)}x`,
        ],
        [
          'COPY into an unindexed table (baseline)',
          ingest.copySeconds.toFixed(2),
          Math.round(ingest.copyPerS).toLocaleString('en-US'),
          '1x',
        ],
      ],
    );
    console.log(
      `Ingest samples (listings/s): one run ${ingest.samples.oneRun.join(', ')}; six runs ${ingest.samples.sixRuns.join(', ')}; COPY ${ingest.samples.copy.join(', ')}`,
    );
    console.log(
      `Ingest target: ${ingest.target.toLocaleString('en-US')} listings/s or more through the write path (six runs at once, median of three).`,
    );

    // Coverage: each retailer's visit day through the real tasks against the stand-in at zero delay.
    const visits: VisitBenchResult = await measureVisitDays(adminUrl, log);
    console.log('');
    const visitTable = visitBenchTable(visits);
    printTable(visitTable.headers, visitTable.rows);
    console.log(
      `Visit days: ${visits.storesPerRetailer} stores per retailer, the six side by side in one runner. A nationwide day at the ${visits.delayMs / 1000} s delay: ` +
        `stores x (requests per visit x delay + the zero-delay time per visit); bounds: the zero-delay rate beats the delay's, the day fits ${DAY_HOURS} h, its requests the default daily budget.`,
    );

    // Price alerts on 100,000 subscriptions (a copy of the benchmark database).
    const alerts: AlertBenchResult = await measureAlerts(adminUrl, log);
    console.log('');
    printTable(
      ['price alerts (100,000 subscriptions)', 'seconds', 'plain scan s', 'vs scan', 'result', 'target'],
      [
        [
          'daily digest run (match, render, write outbox)',
          alerts.digest.seconds.toFixed(2),
          alerts.digest.scanSeconds.toFixed(3),
          `${(alerts.digest.seconds / alerts.digest.scanSeconds).toFixed(1)}x`,
          `${alerts.digest.emails.toLocaleString('en-US')} emails`,
          `<= ${DIGEST_TARGET_S} s ${alerts.met.digest ? 'met' : 'MISSED'}`,
        ],
        [
          `immediate matching, ${alerts.immediate.listings.toLocaleString('en-US')}-listing run`,
          alerts.immediate.matchSeconds.toFixed(2),
          alerts.immediate.scanSeconds.toFixed(3),
          `${(alerts.immediate.matchSeconds / alerts.immediate.scanSeconds).toFixed(1)}x`,
          `${alerts.immediate.matches.toLocaleString('en-US')} matches`,
          `<= ${IMMEDIATE_TARGET_S} s ${alerts.met.immediate ? 'met' : 'MISSED'}`,
        ],
        [
          'immediate delivery (match, render, write outbox)',
          alerts.immediate.deliverSeconds.toFixed(2),
          '-',
          '-',
          `${alerts.immediate.emails.toLocaleString('en-US')} emails`,
          '-',
        ],
      ],
    );

    // Nationwide store discovery per retailer on both store networks, beside the reference sweep and the lower bound (no database).
    const discovery: DiscoveryBenchRow[] = await measureDiscovery(log);
    console.log('');
    const discoveryRows = discoveryTable(discovery);
    printTable(discoveryRows.headers, discoveryRows.rows);

    // The front end's main thread on a slow phone (its own server and seeded database).
    console.log('');
    const frontend: FrontendResult = await measureFrontend(process.env.FRONTEND_URL);

    const missed = [
      ...frontend.missed,
      ...(ingest.met ? [] : [`scraper ingest ${Math.round(ingest.sixRunsPerS)} listings/s < ${ingest.target}`]),
      ...visits.missed,
      ...(alerts.met.digest ? [] : [`daily digest ${alerts.digest.seconds.toFixed(1)} s > ${DIGEST_TARGET_S} s`]),
      ...(alerts.met.immediate
        ? []
        : [`immediate matching ${alerts.immediate.matchSeconds.toFixed(1)} s > ${IMMEDIATE_TARGET_S} s`]),
      ...discovery
        .filter((d) => !d.met)
        .map(
          (d) =>
            `${d.store} discovery on the ${d.network} network found ${d.found} of ${d.present} stores with ${d.callsPerStore.toFixed(2)} calls per store (reference sweep ${d.referencePerStore.toFixed(2)}, lower bound ${d.boundPerStore.toFixed(2)})`,
        ),
      ...results
        .filter((r) => !r.met)
        .map(
          (r) =>
            `${r.name} throughput ${Number.isNaN(r.ratio) ? 'not measured (no completed request)' : `${r.ratio.toFixed(2)}x < ${THROUGHPUT_TARGET}x`}`,
        ),
      ...queries.flatMap((q, i) =>
        q.met === false ? [`${results[i]!.name} uncached query ${ms(q.medianMs)} ms >= ${q.targetMs} ms`] : [],
      ),
      ...(firstPaint && firstPaint.gzipBytes > FIRST_PAINT_BUDGET_BYTES
        ? [`first-paint JS of / ${(firstPaint.gzipBytes / 1000).toFixed(1)} kB > ${FIRST_PAINT_BUDGET_BYTES / 1000} kB`]
        : []),
    ];
    console.log(missed.length ? `MISSED (${missed.length}): ${missed.join('; ')}` : 'All targets met.');

    const resultsDir = path.join(BENCH_DIR, 'results');
    fs.mkdirSync(resultsDir, { recursive: true });
    const report = {
      at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      config: {
        ...BENCH_CONFIG,
        connections: CONNECTIONS,
        warmupSeconds: WARMUP_S,
        durationSeconds: DURATION_S,
        queryRuns: QUERY_RUNS,
      },
      database: { name: BENCH_DATABASE, embedded: embedded !== null, ...info } satisfies Record<string, unknown> &
        BuildInfo,
      bundles,
      endpoints: results.map((r) => ({
        name: r.name,
        path: r.path,
        staticPath: r.staticPath,
        bytes: r.bytes,
        endpoint: r.endpoint,
        static: r.static,
        ratio: Number.isNaN(r.ratio) ? null : r.ratio,
        target: THROUGHPUT_TARGET,
        met: r.met,
        cpuMsPerRequest: r.cpuMsPerRequest,
      })),
      queries,
      scrapers: { parsing, ingest },
      coverage: { visits },
      alerts,
      discovery,
      frontend: {
        file: 'bench/results/frontend.json',
        routes: frontend.routes.map((r) => ({
          page: r.page,
          tbt: r.tbt,
          blockingMs: r.blockingMs,
          blockingRatio: r.blockingRatio,
          scriptingMs: r.scriptingMs,
          scriptingRatio: r.scriptingRatio,
          met: r.met,
        })),
        baseline: {
          tbt: frontend.baseline.tbt,
          blockingMs: frontend.baseline.blockingMs,
          scriptingMs: frontend.baseline.scriptingMs,
        },
      },
      loadAverage: { before: loadBefore, after: loadAfter },
      peakRssMb: Math.round(peakRssMb),
      loadGeneratorPeakRssMb: Math.round(loadRssMb),
      missed,
      totalSeconds: Math.round((performance.now() - runStarted) / 1000),
    };
    fs.writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(
      `Results written to ${path.relative(ROOT, path.join(resultsDir, 'latest.json'))} (${report.totalSeconds} s in all)`,
    );
  } finally {
    load?.stop();
    await server?.stop().catch(() => {});
    await sql?.end({ timeout: 5 }).catch(() => {});
    fs.rmSync(staticDir, { recursive: true, force: true });
    await embedded?.stop().catch((error: unknown) => log(`Could not stop the embedded database: ${String(error)}`));
  }
}

// Run as a script (`npm run bench`); imported (bench/reliability), it only lends its pieces.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}
