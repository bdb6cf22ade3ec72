// Lighthouse (bench/README.md): the mobile performance, accessibility and
// best-practices scores and LCP / TBT / CLS of / and /compare/organic against the production
// build served by `npm start`. Target: performance at least 90 on both.
//
//   tsx bench/lighthouse.ts               starts `npm start`'s launcher on LIGHTHOUSE_PORT (3800)
//                                         with its own embedded database (.data/pg-lh), measures,
//                                         and stops it again
//   tsx bench/lighthouse.ts <baseUrl>     measures a server that is already running
//
// Lighthouse's default configuration: a mid-range phone with simulated slow 4G and 4x CPU
// slowdown. Each route is measured LIGHTHOUSE_RUNS times (3) in a fresh headless Chromium
// (CHROME_PATH, else /usr/bin/chromium) and the run with the median performance score is
// reported, with Lighthouse's benchmarkIndex of this host beside the scores (the simulated
// slowdown scales the host's own CPU time, so a score moves with the host: bench/frontend.ts
// measures the main thread against a baseline page instead). Results are printed and written to bench/results/lighthouse.json; the exit code is 0
// whenever the measurement itself succeeded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { startAppProcess } from './app-process.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUTES = ['/', '/compare/organic'] as const;
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3800);
const PERFORMANCE_TARGET = 90;
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RouteScores {
  route: string;
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Milliseconds. */
  lcp: number;
  fcp: number;
  tbt: number;
  speedIndex: number;
  cls: number;
  /**
   * Lighthouse's benchmarkIndex of the reported run: how fast this host ran its reference loop
   * (higher is faster). Its simulated 4x slowdown scales the host's own CPU time, so scores of
   * hosts with different indexes are not comparable.
   */
  benchmarkIndex: number;
  /** Performance audits that did not pass in the reported run, with their display values. */
  flagged: string[];
  runs: number[];
}

const score = (result: Result, category: string) => Math.round((result.categories[category]?.score ?? 0) * 100);
const metric = (result: Result, audit: string) => result.audits[audit]?.numericValue ?? Number.NaN;

async function runOnce(url: string): Promise<Result> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    const runner = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!runner) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (runner.lhr.runtimeError)
      throw new Error(`Lighthouse could not load ${url}: ${runner.lhr.runtimeError.message}`);
    return runner.lhr;
  } finally {
    chrome.kill();
  }
}

/**
 * One run, tried again (up to twice more) when Lighthouse could not use the page load it recorded:
 * now and then Chromium's trace lacks the navigation's start (NO_NAVSTART, seen about once in
 * twenty loads with Chromium 156), which says nothing about the page. Other failures end the run.
 */
async function runWithRetry(url: string): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(url);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 3 || !/NO_NAVSTART|NO_TRACING_STARTED|run Lighthouse again/.test(message)) throw error;
      console.error(`[lighthouse] ${message}: measuring ${url} again`);
    }
  }
}

/** Audits of the performance category that Lighthouse scored below 0.9 (opportunities, diagnostics). */
function flaggedAudits(result: Result): string[] {
  const refs = result.categories.performance?.auditRefs ?? [];
  return refs
    .map((ref) => result.audits[ref.id])
    .filter(
      (audit): audit is NonNullable<typeof audit> =>
        audit !== undefined && audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative',
    )
    .map((audit) => `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
}

export async function measureRoutes(baseUrl: string, runs = RUNS): Promise<RouteScores[]> {
  const results: RouteScores[] = [];
  for (const route of ROUTES) {
    const url = new URL(route, baseUrl).href;
    // One plain request first, so the server's caches are warm as they are for real visitors.
    await fetch(url).then((response) => response.text());
    const reports: Result[] = [];
    for (let run = 0; run < runs; run++) reports.push(await runWithRetry(url));
    const sorted = [...reports].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    results.push({
      route,
      url,
      performance: score(median, 'performance'),
      accessibility: score(median, 'accessibility'),
      bestPractices: score(median, 'best-practices'),
      lcp: metric(median, 'largest-contentful-paint'),
      fcp: metric(median, 'first-contentful-paint'),
      tbt: metric(median, 'total-blocking-time'),
      speedIndex: metric(median, 'speed-index'),
      cls: metric(median, 'cumulative-layout-shift'),
      benchmarkIndex: Math.round(median.environment?.benchmarkIndex ?? Number.NaN),
      flagged: flaggedAudits(median),
      runs: reports.map((report) => score(report, 'performance')),
    });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// The server: `npm start`'s launcher (database, migrations, seed, client build, web + worker).

const startServer = () =>
  startAppProcess(ROOT, 'scripts/start.ts', PORT, {
    PORT: String(PORT),
    HOST: '127.0.0.1',
    EMBEDDED_PG_DIR: process.env.EMBEDDED_PG_DIR ?? '.data/pg-lh',
    NODE_ENV: 'production',
  });

// ---------------------------------------------------------------------------------------------
// CLI

const ms = (value: number) => `${Math.round(value)} ms`;

function print(results: RouteScores[]): void {
  const header = ['route', 'perf', 'a11y', 'best-pr.', 'LCP', 'TBT', 'CLS', 'FCP', 'SI', 'benchmarkIndex', 'runs'];
  const rows = results.map((r) => [
    r.route,
    String(r.performance),
    String(r.accessibility),
    String(r.bestPractices),
    ms(r.lcp),
    ms(r.tbt),
    r.cls.toFixed(3),
    ms(r.fcp),
    ms(r.speedIndex),
    String(r.benchmarkIndex),
    r.runs.join('/'),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  console.log(
    `Lighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ''}mobile, ${results[0]?.url ? new URL(results[0].url).origin : ''}; load average ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const r of results) {
    if (r.performance < PERFORMANCE_TARGET)
      console.log(`\nBELOW TARGET: ${r.route} performance ${r.performance} < ${PERFORMANCE_TARGET}`);
    if (r.flagged.length) console.log(`\n${r.route}: audits to improve\n  - ${r.flagged.join('\n  - ')}`);
  }
}

async function main(): Promise<void> {
  const given = process.argv[2] ?? process.env.LIGHTHOUSE_URL;
  const server = given ? null : await startServer();
  try {
    const results = await measureRoutes(given ?? server!.baseUrl);
    print(results);
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, 'bench/results/lighthouse.json'),
      `${JSON.stringify({ at: new Date().toISOString(), loadAverage: os.loadavg(), results }, null, 2)}\n`,
    );
  } finally {
    await server?.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
