// Reliability section "load": the public GETs under LOAD_CONNECTIONS (256) concurrent connections
// for LOAD_DURATION seconds (60) each, on a copy of the 2.4-million-observation database, while
// logins (argon2 verify), subscription writes and scrape runs against the retailer stand-in go on.
//
//   Web process: server.ts's in a process of its own (the load generator, bench/load.mjs, is
//   another), as deployed plus the baselines of every path (web.ts, serving BENCH_BASELINE_DIR):
//   the same bytes as a static file (/__bench/static/), the same body from memory
//   (/__bench/memory/), and the same response from memory (/__bench/response/: the body with the
//   path's own headers, CORS, rate limit, ETag and cache, recorded from the path's answer: the
//   process's own limit for that response). The public API's rate limit stays on with room for
//   one address.
//   Worker process: worker/index.ts, its scrapers pointed at the stand-in (test/retailers).
//   Per path: LOAD_WARMUP s (3) of warm-up on the path and each baseline, then the measured time
//   in halves, path, static, body, response, response, body, static, path, so drifting machine
//   load weighs alike.
//   Asserted: no error, timeout (LOAD_TIMEOUT s, 10) or non-2xx answer on any path or baseline
//   (a static-file baseline's timeouts are reported, not asserted: it is the machine's
//   reference), nor in the mixed share; cached reads reach 0.9x the requests/s of the same
//   response from memory (their ratio to the body alone is printed beside it).
//   LOAD_ONLY: measure only the paths whose name contains it (e.g. "full list"), for quick runs.
//   Requests accept LOAD_ENCODING (br; gzip, or identity for none), as browsers accept br: the
//   baselines then send the path's own compressed bytes (the static file's .br/.gz sibling).
//   Uncached full list: listPriceEntries on the copy, LOAD_QUERY_RUNS times (100) before the
//   load; median and p95 under 100 ms asserted.
//   Mixed share: LOAD_LOGINS_PER_S (2) logins and LOAD_SUBSCRIBES_PER_S (2) subscriptions a
//   second, each from its own client address (X-Forwarded-For through TRUST_PROXY=1, as behind a
//   load balancer), and one scrape run after another (six stores in turn, LOAD_SCRAPE_ZIPS ZIP
//   codes each, LOAD_SCRAPE_DELAY_MS between a retailer's requests: 1500, the production default;
//   100 makes the runs notify new prices, and so drop the cache, about every second).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openSql } from '../../src/server/db.ts';
import { WEB_NODE_FLAGS } from '../../src/server/launcher.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { BENCH_MEMORY_PREFIX, BENCH_RESPONSE_PREFIX, BENCH_STATIC_PREFIX } from './baselines.ts';
import { STORE_IDS } from '../../src/shared/vocabulary.ts';
import { startStandIn } from '../../test/retailers/server.ts';
import { copyBenchDatabase, dropBenchCopy } from '../database.ts';
import { listPriceEntries } from '../../src/server/queries/prices.ts';
import {
  combine,
  dashboardPath,
  fetchBody,
  FILTERED_PATH,
  LoadRunner,
  percentile,
  timeQuery,
  type LoadResult,
  type QueryTiming,
} from '../run.ts';
import type { ResultTable, SectionContext, SectionResult } from './types.ts';

const LOAD_DATABASE = 'eggwatch_bench_load';
const CACHED_TARGET = 0.9;
const FULL_LIST_TARGET_MS = 100;
const ACCOUNTS = 2000;
const PASSWORD = 'load-bench-Passw0rd!';

interface Settings {
  connections: number;
  durationS: number;
  warmupS: number;
  timeoutS: number;
  loginsPerS: number;
  subscribesPerS: number;
  scrapeZips: string[];
  scrapeDelayMs: number;
  encoding: 'br' | 'gzip' | 'identity';
  queryRuns: number;
}

/** A setting of a section read from the environment: a number of at least 0, or the fallback. */
export function envNumber(env: SectionContext['env'], name: string, fallback: number): number {
  const value = env[name] === undefined || env[name] === '' ? fallback : Number(env[name]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of at least 0, not ${env[name]}`);
  return value;
}

function settings(env: SectionContext['env']): Settings {
  const number = (name: string, fallback: number) => envNumber(env, name, fallback);
  return {
    connections: number('LOAD_CONNECTIONS', 256),
    durationS: number('LOAD_DURATION', 60),
    warmupS: number('LOAD_WARMUP', 3),
    timeoutS: number('LOAD_TIMEOUT', 10),
    loginsPerS: number('LOAD_LOGINS_PER_S', 2),
    subscribesPerS: number('LOAD_SUBSCRIBES_PER_S', 2),
    scrapeZips: (env.LOAD_SCRAPE_ZIPS ?? '10001,60601,30301,94105,98101,02108,75201,80202')
      .split(',')
      .map((z) => z.trim())
      .filter(Boolean),
    // SCRAPE_DELAY_MS's default: a run's price notifications come as often as in production.
    scrapeDelayMs: number('LOAD_SCRAPE_DELAY_MS', 1500),
    encoding: encodingOf(env.LOAD_ENCODING || 'br'),
    queryRuns: number('LOAD_QUERY_RUNS', 100),
  };
}

function encodingOf(value: string): Settings['encoding'] {
  if (value === 'br' || value === 'gzip' || value === 'identity') return value;
  throw new Error(`LOAD_ENCODING must be br, gzip or identity, not ${value}`);
}

/** A GET's status and body as sent (not decompressed). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Buffer; encoding: string | undefined; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            encoding: res.headers['content-encoding'],
            headers: res.headers,
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// Child processes.

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  process: ChildProcess;
  logFile: string;
  /** The last lines it wrote (for a failure's message). */
  tail(): string;
  stop(): Promise<void>;
}

/** The web process's entry points: server.ts, and this benchmark's (server.ts's process with the baselines). */
const WEB_ENTRIES = new Set(['server.ts', 'bench/reliability/web.ts']);

/** A tsx script in a process of its own; a web process gets the flags it runs with in production. */
export function startChild(root: string, script: string, env: Record<string, string>, logFile: string): Child {
  const out = fs.openSync(logFile, 'w');
  const child = spawn(
    process.execPath,
    [...(WEB_ENTRIES.has(script) ? WEB_NODE_FLAGS : []), '--import', 'tsx', script],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', out, out] },
  );
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    logFile,
    tail: () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function waitUntilUp(base: string, child: Child): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null)
      throw new Error(`The web process exited (${child.process.exitCode}):\n${child.tail()}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The web process did not become ready within 60 s:\n${child.tail()}`);
}

/** CPU milliseconds a process has used (user + system), from /proc; NaN where there is none. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------------------------------------
// The mixed share: logins, subscription writes and scrape runs, while the GETs are under load.

interface CallStats {
  calls: number;
  ok: number;
  errors: number;
  timeouts: number;
  latencies: number[];
  /** The first few failures, as "status: message". */
  examples: string[];
}

const newStats = (): CallStats => ({ calls: 0, ok: 0, errors: 0, timeouts: 0, latencies: [], examples: [] });

async function timedCall(
  stats: CallStats,
  timeoutS: number,
  call: (signal: AbortSignal) => Promise<string | null>,
): Promise<void> {
  stats.calls++;
  const started = performance.now();
  try {
    const problem = await call(AbortSignal.timeout(timeoutS * 1000));
    stats.latencies.push(performance.now() - started);
    if (problem === null) stats.ok++;
    else {
      stats.errors++;
      if (stats.examples.length < 5) stats.examples.push(problem);
    }
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    if (timedOut) stats.timeouts++;
    else stats.errors++;
    if (stats.examples.length < 5) stats.examples.push(timedOut ? `timed out after ${timeoutS} s` : String(error));
  }
}

async function problemOf(response: Response, expected: number): Promise<string | null> {
  const text = await response.text();
  return response.status === expected ? null : `${response.status}: ${text.slice(0, 200)}`;
}

interface ScrapeRunRecord {
  store: string;
  runId: number;
  status: string;
  seconds: number;
  zipsFailed: number;
  message: string | null;
}

interface Mixed {
  logins: CallStats;
  subscriptions: CallStats;
  scrapeCalls: CallStats;
  runs: ScrapeRunRecord[];
  stop(): Promise<void>;
}

function startMixed(base: string, s: Settings, adminToken: string, log: (line: string) => void): Mixed {
  const logins = newStats();
  const subscriptions = newStats();
  const scrapeCalls = newStats();
  const runs: ScrapeRunRecord[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let client = 0;
  // A distinct client address per call: many users, as behind a load balancer (TRUST_PROXY=1).
  const address = () => {
    client++;
    return `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
  };
  const track = (promise: Promise<void>) => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };
  const json = (ip: string, extra: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    'x-forwarded-for': ip,
    ...extra,
  });

  const timers: NodeJS.Timeout[] = [];
  if (s.loginsPerS > 0) {
    let n = 0;
    timers.push(
      setInterval(() => {
        const email = `load-user-${n++ % ACCOUNTS}@example.test`;
        track(
          timedCall(logins, s.timeoutS, async (signal) => {
            const response = await fetch(`${base}/api/auth/login`, {
              method: 'POST',
              headers: json(address()),
              body: JSON.stringify({ email, password: PASSWORD }),
              signal,
            });
            return problemOf(response, 200);
          }),
        );
      }, 1000 / s.loginsPerS),
    );
  }
  if (s.subscribesPerS > 0) {
    let n = 0;
    const run = crypto.randomBytes(3).toString('hex');
    timers.push(
      setInterval(() => {
        const i = n++;
        const body = {
          email: `load-sub-${run}-${i}@example.test`,
          region: (['northeast', 'midwest', 'south', 'west'] as const)[i % 4],
          egg_type: 'organic',
          price_threshold: 6.5,
          notification_frequency: (['immediately', 'daily', 'weekly'] as const)[i % 3],
        };
        track(
          timedCall(subscriptions, s.timeoutS, async (signal) => {
            const response = await fetch(`${base}/api/subscribers`, {
              method: 'POST',
              headers: json(address()),
              body: JSON.stringify(body),
              signal,
            });
            return problemOf(response, 201);
          }),
        );
      }, 1000 / s.subscribesPerS),
    );
  }

  // One scrape run after another, the six stores in turn: started, then polled until it ends.
  const admin = { authorization: `Bearer ${adminToken}` };
  const scraping = (async () => {
    for (let i = 0; !stopped && s.scrapeZips.length > 0; i++) {
      const store = STORE_IDS[i % STORE_IDS.length]!;
      let runId: number | null = null;
      await timedCall(scrapeCalls, s.timeoutS, async (signal) => {
        const response = await fetch(`${base}/api/scrape/${store}`, {
          method: 'POST',
          headers: json(address(), admin),
          body: JSON.stringify({ zipCodes: s.scrapeZips }),
          signal,
        });
        if (response.status === 202) runId = ((await response.json()) as { runId: number }).runId;
        else return problemOf(response, 202);
        return null;
      });
      if (runId === null) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        continue;
      }
      const started = performance.now();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        let run: { status: string; message: string | null; zips: Array<{ status: string }> } | null = null;
        await timedCall(scrapeCalls, s.timeoutS, async (signal) => {
          const response = await fetch(`${base}/api/scrape/runs/${runId}`, { headers: admin, signal });
          if (response.status === 200) run = (await response.json()) as typeof run;
          else return problemOf(response, 200);
          return null;
        });
        const current = run as { status: string; message: string | null; zips: Array<{ status: string }> } | null;
        if (current && !['queued', 'running'].includes(current.status)) {
          const record = {
            store,
            runId,
            status: current.status,
            seconds: (performance.now() - started) / 1000,
            zipsFailed: current.zips.filter((z) => z.status !== 'succeeded').length,
            message: current.message,
          };
          runs.push(record);
          log(
            `scrape run ${runId} (${store}, ${s.scrapeZips.length} ZIP codes): ${record.status} in ${record.seconds.toFixed(1)} s`,
          );
          break;
        }
        if (performance.now() - started > 300_000) {
          runs.push({ store, runId, status: 'still running after 300 s', seconds: 300, zipsFailed: 0, message: null });
          break;
        }
      }
    }
  })();

  return {
    logins,
    subscriptions,
    scrapeCalls,
    runs,
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(inFlight);
      await scraping; // the run under way ends first
    },
  };
}

// ---------------------------------------------------------------------------------------------

interface Target {
  name: string;
  path: string;
  /** The answer's size, and as sent with LOAD_ENCODING. */
  bytes: number;
  sentBytes: number;
  file: string;
}

interface Measured {
  target: Target;
  endpoint: LoadResult;
  static: LoadResult;
  memory: LoadResult;
  response: LoadResult;
  cpuMsPerRequest: { endpoint: number; static: number; memory: number; response: number };
  /** Path req/s over the same response's from memory (the target). */
  ratio: number;
  /** Path req/s over the same body's from memory (without the path's headers). */
  bodyRatio: number;
}

/** Headers of the transport or of every answer (set again by the process itself), not the path's own. */
const NOT_REPLAYED = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'content-encoding',
  'transfer-encoding',
]);

/**
 * The headers the path answers beyond those any answer of the process carries (what the memory
 * baseline answers too: the security headers, content-type), for the response baseline to send.
 * Vary keeps its own values but Accept-Encoding, which compression adds on the way out.
 */
export function pathOwnHeaders(
  path: http.IncomingHttpHeaders,
  memory: http.IncomingHttpHeaders,
): Record<string, string> {
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(path)) {
    if (value === undefined || NOT_REPLAYED.has(name)) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (name === 'vary') {
      const kept = text
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v && v.toLowerCase() !== 'accept-encoding');
      if (kept.length) own.vary = kept.join(', ');
    } else if (name === 'content-type' || memory[name] === undefined) {
      own[name] = text;
    }
  }
  return own;
}

const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : value < 10 ? value.toFixed(2) : value.toFixed(1));
// autocannon counts a timeout among its errors too.
const problems = (r: LoadResult) => r.errors + r.non2xx;

export async function run(ctx: SectionContext): Promise<SectionResult> {
  const { adminUrl, bench } = ctx;
  if (!adminUrl || !bench)
    throw new Error("the load section needs the benchmark database (needs: 'bench' in SECTIONS)");
  const s = settings(ctx.env);
  const { log } = ctx;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-load-'));
  const baselineDir = path.join(work, 'baselines');
  fs.mkdirSync(baselineDir);
  // The web and worker processes' output, kept for a look after a failure.
  const logDir = path.join(ctx.root, 'bench', 'results');
  fs.mkdirSync(logDir, { recursive: true });
  let web: Child | null = null;
  let worker: Child | null = null;
  let load: LoadRunner | null = null;
  let mixed: Mixed | null = null;
  let standIn: Awaited<ReturnType<typeof startStandIn>> | null = null;
  try {
    log(`Copying the benchmark database to ${LOAD_DATABASE} (the mixed share writes to it)`);
    const url = await copyBenchDatabase(adminUrl, LOAD_DATABASE);
    const sql = await openSql(url, { max: 2 });
    let fullList: QueryTiming;
    try {
      log(`Uncached full list: listPriceEntries(sql), ${s.queryRuns} runs after 2 warm-up calls`);
      const queryLoad = os.loadavg()[0]!;
      fullList = await timeQuery(
        'listPriceEntries(sql)',
        FULL_LIST_TARGET_MS,
        async () => (await listPriceEntries(sql)).length,
        s.queryRuns,
      );
      fullList = { ...fullList, met: fullList.medianMs < FULL_LIST_TARGET_MS && fullList.p95Ms < FULL_LIST_TARGET_MS };
      log(`  median ${ms(fullList.medianMs)} ms, p95 ${ms(fullList.p95Ms)} ms (load average ${queryLoad.toFixed(1)})`);
      // ACCOUNTS accounts sharing one password hash (each login still verifies it), and an administrator.
      const hash = await hashPassword(PASSWORD);
      await sql`
        insert into users (id, username, email, password_hash, role, email_verified)
        select 'load' || g, 'load_user_' || g, 'load-user-' || g || '@example.test', ${hash}, 'user', true
        from generate_series(0, ${ACCOUNTS - 1}) g`;
      await sql`
        insert into users (id, username, email, password_hash, role, email_verified)
        values ('loadadmin', 'load_admin', 'load-admin@example.test', ${hash}, 'admin', true)`;
    } finally {
      await sql.end();
    }

    standIn = await startStandIn({ port: 0 });
    const port = Number(ctx.env.LOAD_WEB_PORT) || (await freePort());
    const base = `http://127.0.0.1:${port}`;
    const common = { DATABASE_URL: url, LOG_LEVEL: 'warn', NODE_ENV: 'test', PUBLIC_URL: base };
    web = startChild(
      ctx.root,
      'bench/reliability/web.ts',
      {
        ...common,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_API_RATE_LIMIT: '10000000',
        TRUST_PROXY: '1',
        BENCH_BASELINE_DIR: baselineDir,
      },
      path.join(logDir, 'reliability-load-web.log'),
    );
    const origins = Object.fromEntries(
      ['WALMART', 'TARGET', 'KROGER', 'ALBERTSONS', 'WHOLE_FOODS', 'ALDI'].map((r) => [`${r}_ORIGIN`, standIn!.url]),
    );
    worker = startChild(
      ctx.root,
      'worker/index.ts',
      {
        ...common,
        ...origins,
        SCRAPER_ORIGINS_ARE_RETAILERS: '0',
        KROGER_CLIENT_ID: 'load-client',
        KROGER_CLIENT_SECRET: 'load-secret',
        SCRAPE_DELAY_MS: String(s.scrapeDelayMs),
      },
      path.join(logDir, 'reliability-load-worker.log'),
    );
    await waitUntilUp(base, web);
    log(
      `Web process ${web.process.pid} at ${base}; worker process ${worker.process.pid}; retailer stand-in at ${standIn.url}`,
    );

    // The paths, each answer's bytes written as its baselines' file (and its compressed form as
    // the file's .br or .gz sibling, which the static baseline sends as it is).
    const headers: Record<string, string> = s.encoding === 'identity' ? {} : { 'accept-encoding': s.encoding };
    const targets: Target[] = [];
    for (const [name, urlPath] of [
      ['GET /api/egg-prices (a page of 5,000, the most)', '/api/egg-prices?limit=5000'],
      ['GET /api/egg-prices (filtered page)', FILTERED_PATH],
      ['GET /api/stats', '/api/stats'],
      ['GET /api/market-prices', '/api/market-prices'],
      ['tRPC prices.dashboard (GET, batch)', await dashboardPath(base)],
    ] as const) {
      if (ctx.env.LOAD_ONLY && !name.includes(ctx.env.LOAD_ONLY)) continue;
      const body = await fetchBody(`${base}${urlPath}`);
      const file = `${crypto.createHash('sha1').update(name).digest('hex').slice(0, 10)}.json`;
      fs.writeFileSync(path.join(baselineDir, file), body);
      const sent = await rawGet(`${base}${urlPath}`, headers);
      if (s.encoding !== 'identity') {
        if (sent.encoding !== s.encoding)
          throw new Error(`${name} answered ${sent.encoding ?? 'uncompressed'}, not ${s.encoding}`);
        fs.writeFileSync(path.join(baselineDir, `${file}.${s.encoding === 'br' ? 'br' : 'gz'}`), sent.body);
      }
      const memoryCopy = await rawGet(`${base}${BENCH_MEMORY_PREFIX}${file}`, headers);
      fs.writeFileSync(
        path.join(baselineDir, `${file}.headers.json`),
        JSON.stringify(pathOwnHeaders(sent.headers, memoryCopy.headers)),
      );
      for (const prefix of [BENCH_STATIC_PREFIX, BENCH_MEMORY_PREFIX, BENCH_RESPONSE_PREFIX]) {
        const copy = await rawGet(`${base}${prefix}${file}`, headers);
        if (copy.status !== 200 || !copy.body.equals(sent.body))
          throw new Error(
            `${prefix}${file} does not answer the bytes of ${name} (${copy.status}, ${copy.body.length} bytes)`,
          );
      }
      targets.push({ name, path: urlPath, bytes: body.length, sentBytes: sent.body.length, file });
    }

    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.255.254' },
      body: JSON.stringify({ email: 'load-admin@example.test', password: PASSWORD }),
    });
    if (login.status !== 200)
      throw new Error(`The administrator's login answered ${login.status}: ${await login.text()}`);
    const adminToken = ((await login.json()) as { token: string }).token;

    load = await LoadRunner.start();
    const loadBefore = os.loadavg();
    mixed = startMixed(base, s, adminToken, log);
    const measured: Measured[] = [];
    const options = { connections: s.connections, timeoutSeconds: s.timeoutS, headers };
    for (const target of targets) {
      const urls = {
        endpoint: `${base}${target.path}`,
        static: `${base}${BENCH_STATIC_PREFIX}${target.file}`,
        memory: `${base}${BENCH_MEMORY_PREFIX}${target.file}`,
        response: `${base}${BENCH_RESPONSE_PREFIX}${target.file}`,
      };
      log(
        `${target.name} (${target.bytes.toLocaleString('en-US')} bytes, ${target.sentBytes.toLocaleString('en-US')} sent), its static file and its in-memory copies (body; whole response): ${s.connections} connections, ${s.warmupS} s warm-up each, ${s.durationS} s each`,
      );
      if (s.warmupS > 0)
        for (const side of ['endpoint', 'static', 'memory', 'response'] as const)
          await load.run(urls[side], s.warmupS, options);
      const cpu = { endpoint: 0, static: 0, memory: 0, response: 0 };
      const segments: Record<keyof typeof cpu, LoadResult[]> = { endpoint: [], static: [], memory: [], response: [] };
      for (const side of [
        'endpoint',
        'static',
        'memory',
        'response',
        'response',
        'memory',
        'static',
        'endpoint',
      ] as const) {
        const before = cpuMs(web.process.pid);
        segments[side].push(await load.run(urls[side], s.durationS / 2, options));
        cpu[side] += cpuMs(web.process.pid) - before;
      }
      const [endpoint, staticResult, memory, response] = (['endpoint', 'static', 'memory', 'response'] as const).map(
        (side) => combine(segments[side][0]!, segments[side][1]!),
      ) as [LoadResult, LoadResult, LoadResult, LoadResult];
      const over = (baseline: LoadResult) =>
        endpoint.requestsTotal && baseline.requestsTotal
          ? endpoint.requestsPerSec / baseline.requestsPerSec
          : Number.NaN;
      const perRequest = (side: keyof typeof cpu, r: LoadResult) =>
        r.requestsTotal ? cpu[side] / r.requestsTotal : Number.NaN;
      measured.push({
        target,
        endpoint,
        static: staticResult,
        memory,
        response,
        cpuMsPerRequest: {
          endpoint: perRequest('endpoint', endpoint),
          static: perRequest('static', staticResult),
          memory: perRequest('memory', memory),
          response: perRequest('response', response),
        },
        ratio: over(response),
        bodyRatio: over(memory),
      });
      log(
        `  ${endpoint.requestsPerSec.toFixed(0)} req/s (response from memory ${response.requestsPerSec.toFixed(0)}, body from memory ${memory.requestsPerSec.toFixed(0)}, static ${staticResult.requestsPerSec.toFixed(0)}); ${problems(endpoint)} failed requests`,
      );
    }
    log('Load done; waiting for the scrape run under way and the last mixed calls');
    await mixed.stop();
    const loadAfter = os.loadavg();
    const webExit = web.process.exitCode;

    // Report.
    const failures: string[] = [];
    const baselineNotes: string[] = [];
    if (webExit !== null) failures.push(`the web process exited (${webExit}) during the run`);
    for (const m of measured) {
      for (const [label, r] of [
        ['path', m.endpoint],
        ['static baseline', m.static],
        ['memory baseline', m.memory],
        ['response baseline', m.response],
      ] as const) {
        // The static file is the machine's reference, streamed from disk by @fastify/static: at
        // 256 connections on the 543 kB full list its slowest streams can pass the timeout on a
        // 2-core machine. Its timeouts are reported; its errors and non-2xx answers still fail.
        if (label === 'static baseline' && r.timeouts && r.errors === r.timeouts && !r.non2xx) {
          baselineNotes.push(
            `${m.target.name}: the static-file baseline had ${r.timeouts} timeout(s) in ${r.requestsTotal.toLocaleString('en-US')} requests (reported, not asserted: it is the reference, not a path of the app).`,
          );
        } else if (problems(r))
          failures.push(
            `${m.target.name} (${label}): ${r.errors - r.timeouts} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers`,
          );
        if (!r.requestsTotal) failures.push(`${m.target.name} (${label}): no request completed`);
      }
      if (!(m.ratio >= CACHED_TARGET))
        failures.push(
          `${m.target.name}: ${ms(m.ratio)}x the requests/s of the same response from memory, under the ${CACHED_TARGET}x target`,
        );
    }
    const mixedRows: Array<[string, CallStats]> = [
      [`logins (argon2 verify), ${s.loginsPerS}/s`, mixed.logins],
      [`subscription writes, ${s.subscribesPerS}/s`, mixed.subscriptions],
      ['scrape API calls (start, progress)', mixed.scrapeCalls],
    ];
    for (const [label, stats] of mixedRows) {
      if (stats.errors || stats.timeouts)
        failures.push(`${label}: ${stats.errors} errors, ${stats.timeouts} timeouts (${stats.examples.join('; ')})`);
    }
    if (!fullList.met)
      failures.push(
        `uncached full list: median ${ms(fullList.medianMs)} ms, p95 ${ms(fullList.p95Ms)} ms, not both under ${FULL_LIST_TARGET_MS} ms`,
      );
    if (s.scrapeZips.length && mixed.runs.length === 0) failures.push('no scrape run ended during the load');
    for (const r of mixed.runs) {
      if (r.status !== 'succeeded')
        failures.push(
          `scrape run ${r.runId} (${r.store}) ended ${r.status}: ${r.message ?? ''} (${r.zipsFailed} ZIP codes failed)`,
        );
    }

    const tables: ResultTable[] = [
      {
        title: `Public GETs: ${s.connections} connections, ${s.durationS} s per path and per baseline, accept-encoding ${s.encoding} (latencies in ms; ratio = path req/s / req/s of the same response from memory, target >= ${CACHED_TARGET}x; body ratio: over the same body from memory, without the path's own headers)`,
        headers: [
          'path',
          'bytes',
          'sent',
          'req/s',
          'p50',
          'p99',
          'failed',
          'static req/s',
          'p50',
          'p99',
          'body req/s',
          'p99',
          'response req/s',
          'p50',
          'p99',
          'ratio',
          'target',
          'body ratio',
          'cpu ms/req',
          'response cpu',
        ],
        rows: measured.map((m) => [
          m.target.name,
          m.target.bytes.toLocaleString('en-US'),
          m.target.sentBytes.toLocaleString('en-US'),
          m.endpoint.requestsPerSec.toFixed(0),
          String(m.endpoint.latency.p50),
          String(m.endpoint.latency.p99),
          String(problems(m.endpoint)),
          m.static.requestsPerSec.toFixed(0),
          String(m.static.latency.p50),
          String(m.static.latency.p99),
          m.memory.requestsPerSec.toFixed(0),
          String(m.memory.latency.p99),
          m.response.requestsPerSec.toFixed(0),
          String(m.response.latency.p50),
          String(m.response.latency.p99),
          `${ms(m.ratio)}x`,
          m.ratio >= CACHED_TARGET ? 'met' : 'MISSED',
          `${ms(m.bodyRatio)}x`,
          ms(m.cpuMsPerRequest.endpoint),
          ms(m.cpuMsPerRequest.response),
        ]),
      },
      {
        title: `Uncached full list (${fullList.rows.toLocaleString('en-US')} entries), before the load; target: median and p95 under ${FULL_LIST_TARGET_MS} ms`,
        headers: ['query', 'runs', 'median ms', 'p95 ms', 'min ms', 'target'],
        rows: [
          [
            fullList.name,
            String(fullList.runs),
            ms(fullList.medianMs),
            ms(fullList.p95Ms),
            ms(fullList.minMs),
            fullList.met ? 'met' : 'MISSED',
          ],
        ],
      },
      {
        title: 'Mixed share during the load (latencies in ms)',
        headers: ['calls', 'count', 'ok', 'errors', 'timeouts', 'p50', 'p99'],
        rows: mixedRows.map(([label, stats]) => {
          const sorted = [...stats.latencies].sort((a, b) => a - b);
          return [
            label,
            String(stats.calls),
            String(stats.ok),
            String(stats.errors),
            String(stats.timeouts),
            sorted.length ? ms(percentile(sorted, 50)) : '-',
            sorted.length ? ms(percentile(sorted, 99)) : '-',
          ];
        }),
      },
      {
        title: `Scrape runs during the load (retailer stand-in, ${s.scrapeZips.length} ZIP codes each, ${s.scrapeDelayMs} ms between a retailer's requests)`,
        headers: ['run', 'store', 'status', 'seconds', 'ZIPs failed'],
        rows: mixed.runs.map((r) => [String(r.runId), r.store, r.status, r.seconds.toFixed(1), String(r.zipsFailed)]),
      },
    ];
    const notes = [
      `Database: a copy of ${bench.counts.observations.toLocaleString('en-US')} observations, ${bench.counts.entries.toLocaleString('en-US')} price entries (scrape runs add the stand-in's demo prices, and each price change drops the web process's cache as in production).`,
      `Web process: server.ts's with the baselines, bench/reliability/web.ts (pid ${web.process.pid}, its own process; database pool ${ctx.env.DATABASE_POOL_MAX || 10}; output in bench/results/reliability-load-web.log, worker's in reliability-load-worker.log); load generator: autocannon in another process; timeout ${s.timeoutS} s per request.`,
      `cpu ms/req: the web process's CPU time per answered request (path; the same response from memory), a figure that depends little on the machine's other load.`,
      `Load average ${loadBefore[0]!.toFixed(1)} before, ${loadAfter[0]!.toFixed(1)} after (${os.cpus().length} CPUs).`,
      ...baselineNotes,
    ];
    return {
      failures,
      tables,
      notes,
      data: {
        settings: s,
        fullListQuery: fullList,
        loadAverage: { before: loadBefore, after: loadAfter },
        paths: measured.map((m) => ({
          name: m.target.name,
          path: m.target.path,
          bytes: m.target.bytes,
          sentBytes: m.target.sentBytes,
          endpoint: m.endpoint,
          static: m.static,
          memory: m.memory,
          response: m.response,
          ratio: Number.isNaN(m.ratio) ? null : m.ratio,
          bodyRatio: Number.isNaN(m.bodyRatio) ? null : m.bodyRatio,
          target: CACHED_TARGET,
          cpuMsPerRequest: m.cpuMsPerRequest,
        })),
        mixed: Object.fromEntries(
          mixedRows.map(([label, stats]) => [
            label,
            {
              ...stats,
              latencies: undefined,
              p50: stats.latencies.length
                ? percentile(
                    [...stats.latencies].sort((a, b) => a - b),
                    50,
                  )
                : null,
              p99: stats.latencies.length
                ? percentile(
                    [...stats.latencies].sort((a, b) => a - b),
                    99,
                  )
                : null,
            },
          ]),
        ),
        scrapeRuns: mixed.runs,
      },
    };
  } finally {
    await mixed?.stop().catch(() => {});
    load?.stop();
    await web?.stop();
    await worker?.stop();
    await standIn?.close();
    await dropBenchCopy(adminUrl, LOAD_DATABASE).catch((error: unknown) =>
      log(`Could not drop ${LOAD_DATABASE}: ${String(error)}`),
    );
    fs.rmSync(work, { recursive: true, force: true });
  }
}
