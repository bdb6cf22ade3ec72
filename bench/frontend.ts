// Front-end main-thread cost of / and /compare/organic on a slow phone, measured so that it does
// not move with the host: each route beside a baseline page built and measured in the same run
// (bench/frontend-baseline: the same React, Chakra provider and theme, rendering one heading).
//
//   npm run bench:frontend              builds the client, serves it with a seeded database
//   npm run bench -- frontend           (e2e/serve.ts on FRONTEND_PORT, 4440) and measures
//   tsx bench/frontend.ts [baseUrl]     measures a server that is already running (the baseline
//                                       is built and served by this script in any case)
//
// Each page is loaded FRONTEND_RUNS times (5), interleaved baseline, /, /compare/organic, each in
// a fresh browser context (empty cache) of headless Chromium (CHROME_PATH, else /usr/bin/chromium)
// with a phone viewport and the CPU slowed 4x (Emulation.setCPUThrottlingRate, as Lighthouse's
// mobile preset). A load is recorded from navigation until the network has been quiet and then
// FRONTEND_SETTLE_MS (3000) more, with the DevTools protocol's Tracing (devtools.timeline,
// v8.execute) and its sampling Profiler at the same time:
//   - TBT: the part beyond 50 ms of every main-thread task after the first contentful paint;
//   - scripting: main-thread self time of script evaluation, parse and compile, and V8's tier-up;
//   - the breakdown: main-thread self time by kind of work (trace events), the script evaluation
//     part split by where the running JavaScript comes from (the profiler's samples, mapped
//     through the build's source maps to source files, then to packages / app folders).
// Medians over the runs are printed (ms and % of the main-thread total) and written to
// bench/results/frontend.json with the load average. Targets: TBT of each route at most 2x the
// baseline's. Exit code 0 whenever the measurement itself succeeded.
//
// FRONTEND_DEBUG=1 also prints each load's long tasks (with the trace events inside them), the
// hottest functions by source position, and writes each load's CPU profile to .data/*.cpuprofile
// (DevTools opens them). FRONTEND_OTHER=<url>,<distDir> measures a second build's routes in the
// same runs, for an A/B of a change.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type CDPSession } from '@playwright/test';
import { SourceMapper, analyse, type CpuProfile, type LoadMeasure, type TraceEvent } from './trace-analysis.ts';
import { startAppProcess } from './app-process.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASELINE_SRC = path.join(ROOT, 'bench/frontend-baseline');
const BASELINE_OUT = path.join(ROOT, '.data/bench-frontend-baseline');
const RUNS = Math.max(1, Number(process.env.FRONTEND_RUNS ?? 5));
const SETTLE_MS = Number(process.env.FRONTEND_SETTLE_MS ?? 3000);
const PORT = Number(process.env.FRONTEND_PORT ?? 4440);
const BASELINE_PORT = PORT + 2; // e2e/serve.ts takes PORT and PORT + 1 (the retailer stand-in)
const CPU_SLOWDOWN = 4;
export const TBT_RATIO_TARGET = 2;
export const ROUTES = ['/', '/compare/organic'] as const;
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'v8.execute',
  'disabled-by-default-devtools.timeline',
  'loading',
  'blink.user_timing',
];

// ---------------------------------------------------------------------------------------------
// One load: trace + CPU profile (analysed in bench/trace-analysis.ts).

/** Starts tracing; the function it returns ends it and resolves to every event collected. */
async function startTrace(cdp: CDPSession): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  const onData = (payload: { value: object[] }) => {
    events.push(...(payload.value as TraceEvent[]));
  };
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES.join(','), transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', onData);
    return events;
  };
}

async function measureLoad(browser: Browser, url: string, mapper: SourceMapper): Promise<LoadMeasure> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    const endTrace = await startTrace(cdp);
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => undefined);
    await page.waitForTimeout(SETTLE_MS);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const events = await endTrace();
    if (process.env.FRONTEND_DEBUG) {
      fs.mkdirSync(path.join(ROOT, '.data'), { recursive: true });
      fs.writeFileSync(
        path.join(
          ROOT,
          `.data/frontend-profile-${new URL(url).port}${new URL(url).pathname.replace(/\W/g, '_')}.cpuprofile`,
        ),
        JSON.stringify(profile),
      );
    }
    return analyse(events, profile, url, mapper);
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The baseline page: built with Vite and served by a plain static server in this process.

async function buildBaseline(): Promise<void> {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  await build({
    root: BASELINE_SRC,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: BASELINE_OUT, emptyOutDir: true, sourcemap: true },
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
};

function serveDir(dir: string, port: number): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

// ---------------------------------------------------------------------------------------------
// The app: e2e/serve.ts (fresh seeded database, production build, web process and worker).

const startApp = () => startAppProcess(ROOT, 'e2e/serve.ts', PORT, { E2E_PORT: String(PORT) });

// ---------------------------------------------------------------------------------------------
// Campaign and report.

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface PageSummary {
  page: string;
  url: string;
  runs: LoadMeasure[];
  fcp: number;
  tbt: number;
  blockingMs: number;
  longTaskMs: number;
  mainThreadMs: number;
  scriptingMs: number;
  breakdown: Record<string, number>;
}

function summarise(page: string, url: string, runs: LoadMeasure[]): PageSummary {
  const keys = new Set(runs.flatMap((run) => Object.keys(run.breakdown)));
  const breakdown = Object.fromEntries(
    [...keys].map((key) => [key, median(runs.map((run) => run.breakdown[key] ?? 0))]),
  );
  return {
    page,
    url,
    runs,
    fcp: median(runs.map((r) => r.fcp)),
    tbt: median(runs.map((r) => r.tbt)),
    blockingMs: median(runs.map((r) => r.blockingMs)),
    longTaskMs: median(runs.map((r) => r.longTaskMs)),
    mainThreadMs: median(runs.map((r) => r.mainThreadMs)),
    scriptingMs: median(runs.map((r) => r.scriptingMs)),
    breakdown,
  };
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

const fmt = (value: number) => `${Math.round(value)}`;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

export interface FrontendResult {
  at: string;
  cpuSlowdown: number;
  runs: number;
  loadAverage: { before: string; after: string };
  baseline: PageSummary;
  routes: Array<PageSummary & { tbtRatio: number; blockingRatio: number; scriptingRatio: number; met: boolean }>;
  missed: string[];
}

export async function measureFrontend(given?: string): Promise<FrontendResult> {
  const before = loadAverage();
  console.log(`[frontend] building the baseline page; load average ${before}`);
  await buildBaseline();
  const baselineServer = await serveDir(BASELINE_OUT, BASELINE_PORT);
  const app = given ? null : await startApp();
  const baseUrl = given ?? app!.baseUrl;
  const baselineUrl = `http://127.0.0.1:${BASELINE_PORT}/`;
  // FRONTEND_OTHER=<url>,<distDir>: also measure another build's routes in the same runs (an A/B
  // of a change on a busy machine, where only figures from one run compare).
  const [otherUrl, otherDist] = (process.env.FRONTEND_OTHER ?? '').split(',');
  const mapper = new SourceMapper({
    [new URL(baseUrl).origin]: path.join(ROOT, 'dist'),
    [new URL(baselineUrl).origin]: BASELINE_OUT,
    ...(otherUrl && otherDist ? { [new URL(otherUrl).origin]: path.resolve(otherDist) } : {}),
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const pages = [
      { page: 'baseline (provider + heading)', url: baselineUrl },
      ...ROUTES.map((route) => ({ page: route, url: new URL(route, baseUrl).href })),
      ...(otherUrl ? ROUTES.map((route) => ({ page: `other ${route}`, url: new URL(route, otherUrl).href })) : []),
    ];
    // Warm the server's caches once, as they are for real visitors.
    for (const { url } of pages) await fetch(url).then((response) => response.text());
    const measures = pages.map(() => [] as LoadMeasure[]);
    for (let run = 0; run < RUNS; run++) {
      for (const [index, { url }] of pages.entries()) {
        const measure = await measureLoad(browser, url, mapper);
        measures[index]!.push(measure);
        console.log(
          `[frontend] run ${run + 1}/${RUNS} ${pages[index]!.page}: TBT ${fmt(measure.tbt)} ms, blocking ${fmt(measure.blockingMs)} ms, scripting ${fmt(measure.scriptingMs)} ms, main thread ${fmt(measure.mainThreadMs)} ms; load ${loadAverage()}`,
        );
      }
    }
    const [baseline, ...routes] = pages.map(({ page, url }, index) => summarise(page, url, measures[index]!));
    const ratio = (value: number, base: number) => (base > 0 ? value / base : Number.NaN);
    const result: FrontendResult = {
      at: new Date().toISOString(),
      cpuSlowdown: CPU_SLOWDOWN,
      runs: RUNS,
      loadAverage: { before, after: loadAverage() },
      baseline: baseline!,
      routes: routes.map((route) => {
        const tbtRatio = ratio(route.tbt, baseline!.tbt);
        const blockingRatio = ratio(route.blockingMs, baseline!.blockingMs);
        // The baseline paints once its only render is done, so its TBT (counted from the first
        // contentful paint) is normally 0 and a ratio to it means nothing: the target is checked
        // on the blocking time of the whole load, from navigation start, which both pages have.
        const met =
          baseline!.tbt > 0
            ? tbtRatio <= TBT_RATIO_TARGET && blockingRatio <= TBT_RATIO_TARGET
            : blockingRatio <= TBT_RATIO_TARGET;
        return {
          ...route,
          tbtRatio,
          blockingRatio,
          scriptingRatio: ratio(route.scriptingMs, baseline!.scriptingMs),
          met,
        };
      }),
      missed: [],
    };
    result.missed = result.routes
      .filter((r) => !r.met)
      .map(
        (r) =>
          `${r.page} blocking time ${fmt(r.blockingMs)} ms = ${r.blockingRatio.toFixed(2)}x the baseline's, TBT ${fmt(r.tbt)} ms (target <= ${TBT_RATIO_TARGET}x)`,
      );
    report(result);
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench/results/frontend.json'), `${JSON.stringify(result, null, 2)}\n`);
    return result;
  } finally {
    await browser.close();
    baselineServer.close();
    await app?.stop();
  }
}

function report(result: FrontendResult): void {
  const all = [result.baseline, ...result.routes];
  console.log(
    `\nFront end under ${result.cpuSlowdown}x CPU slowdown, phone viewport, median of ${result.runs} loads (load average ${result.loadAverage.before} before, ${result.loadAverage.after} after)`,
  );
  printTable(
    [
      'page',
      'TBT ms',
      'TBT vs base',
      'blocking ms',
      'blocking vs base',
      'scripting ms',
      'scripting vs base',
      'long tasks ms',
      'main thread ms',
      'FCP ms',
      `<= ${TBT_RATIO_TARGET}x`,
    ],
    all.map((p) => {
      const route = result.routes.find((r) => r === p);
      return [
        p.page,
        fmt(p.tbt),
        route ? (Number.isFinite(route.tbtRatio) ? `${route.tbtRatio.toFixed(2)}x` : 'n/a') : '1x',
        fmt(p.blockingMs),
        route ? `${route.blockingRatio.toFixed(2)}x` : '1x',
        fmt(p.scriptingMs),
        route ? `${route.scriptingRatio.toFixed(2)}x` : '1x',
        fmt(p.longTaskMs),
        fmt(p.mainThreadMs),
        fmt(p.fcp),
        route ? (route.met ? 'met' : 'MISSED') : '-',
      ];
    }),
  );
  const keys = [...new Set(all.flatMap((p) => Object.keys(p.breakdown)))].sort(
    (a, b) => Math.max(...all.map((p) => p.breakdown[b] ?? 0)) - Math.max(...all.map((p) => p.breakdown[a] ?? 0)),
  );
  console.log(
    "\nMain-thread self time by kind of work (ms and % of the page's main-thread total; script evaluation split by source via source maps)",
  );
  printTable(
    ['work', ...all.flatMap((p) => [`${p.page} ms`, '%'])],
    keys
      .filter((key) => all.some((p) => (p.breakdown[key] ?? 0) >= 1))
      .map((key) => [
        key,
        ...all.flatMap((p) => {
          const total = Object.values(p.breakdown).reduce((a, b) => a + b, 0);
          const value = p.breakdown[key] ?? 0;
          return [fmt(value), total > 0 ? `${((value / total) * 100).toFixed(1)}` : '-'];
        }),
      ]),
  );
  console.log(
    'TBT: the part beyond 50 ms of each main-thread task after the first contentful paint (as Lighthouse). Blocking: the same from navigation start.\n' +
      'Scripting: script evaluation + parse/compile + tier-up self time. "vs base": the route divided by the baseline page measured in the same run.',
  );
  console.log(
    result.missed.length
      ? `\nMISSED: ${result.missed.join('; ')}`
      : `\nFront-end target met: blocking time of each route <= ${TBT_RATIO_TARGET}x the baseline's.`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  measureFrontend(process.argv[2] ?? process.env.FRONTEND_URL).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    },
  );
}
