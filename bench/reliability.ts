// `npm run bench:reliability [-- section ...]`: the reliability campaign on the benchmark database
// (2.4 million observations), one named section at a time; with no names, every section in order.
//
//   Database: as `npm run bench` (BENCH_DATABASE_URL's or TEST_DATABASE_URL's server, else the
//   embedded cluster at .data/bench-postgres); eggwatch_bench is built when missing or stale.
//   Each section prints its tables, then a FAIL line per failed assertion. Results go to
//   bench/results/reliability-latest.json (sections run before and not this time are kept).
//   Exit status 1 when any section failed or could not run.
//
// Adding a section: a module exporting `run(ctx: SectionContext): Promise<SectionResult>`
// (bench/reliability/types.ts) and one line in SECTIONS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabaseServer, printTable } from './run.ts';
import { BENCH_DATABASE, ensureBenchDatabase, type BuildInfo } from './database.ts';
import type { SectionContext, SectionResult } from './reliability/types.ts';

type Section = { run: (ctx: SectionContext) => Promise<SectionResult> };

/**
 * Each section, and what it needs: the 2.4-million-observation database ('bench'), only the
 * benchmark's database server to make databases of its own on ('server'), or neither.
 */
const SECTIONS: Record<string, { needs: 'bench' | 'server' | 'none'; load: () => Promise<Section> }> = {
  load: { needs: 'bench', load: () => import('./reliability/load.ts') },
  outage: { needs: 'none', load: () => import('./reliability/outage.ts') },
  faults: { needs: 'server', load: () => import('./reliability/faults.ts') },
  hostile: { needs: 'none', load: () => import('./reliability/hostile.ts') },
};

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');
const RESULTS_FILE = path.join(BENCH_DIR, 'results', 'reliability-latest.json');

const log = (line: string) => console.log(`[reliability] ${line}`);

interface SectionReport extends SectionResult {
  at: string;
  seconds: number;
  loadAverage: { before: number[]; after: number[] };
}

async function main(): Promise<number> {
  const asked = process.argv.slice(2).filter((arg) => arg !== '--');
  const unknown = asked.filter((name) => !(name in SECTIONS));
  if (unknown.length) {
    console.error(`Unknown section ${unknown.join(', ')}; sections: ${Object.keys(SECTIONS).join(', ')}`);
    return 2;
  }
  const names = asked.length ? asked : Object.keys(SECTIONS);
  const reports: Record<string, SectionReport> = {};
  let failed = false;
  // The database server, and eggwatch_bench, only when a section asked for needs them.
  const needs = new Set(names.map((name) => SECTIONS[name]!.needs));
  const server = needs.has('bench') || needs.has('server') ? await benchDatabaseServer(log) : null;
  try {
    let benchDb: { url: string; info: BuildInfo } | null = null;
    if (server && needs.has('bench')) {
      benchDb = await ensureBenchDatabase(server.adminUrl, log);
      const { info } = benchDb;
      log(
        `${BENCH_DATABASE}: ${info.counts.observations.toLocaleString('en-US')} observations, ${info.counts.entries.toLocaleString('en-US')} price entries (${info.rebuilt ? `built now: ${info.reason}` : `built ${info.builtAt}`})`,
      );
    }
    for (const name of names) {
      const section = await SECTIONS[name]!.load();
      const adminUrl = SECTIONS[name]!.needs === 'none' ? process.env.TEST_DATABASE_URL : server!.adminUrl;
      const ctx: SectionContext = {
        root: ROOT,
        adminUrl,
        benchUrl: benchDb?.url,
        bench: benchDb?.info,
        env: process.env,
        log: (line) => console.log(`[${name}] ${line}`),
      };
      const before = os.loadavg();
      const started = performance.now();
      let result: SectionResult;
      try {
        result = await section.run(ctx);
      } catch (error) {
        result = {
          failures: [
            `the section could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          ],
          tables: [],
          notes: [],
          data: {},
        };
      }
      const report: SectionReport = {
        ...result,
        at: new Date().toISOString(),
        seconds: Math.round((performance.now() - started) / 1000),
        loadAverage: { before, after: os.loadavg() },
      };
      reports[name] = report;
      printSection(name, report);
      if (result.failures.length) failed = true;
    }
  } finally {
    await server?.embedded
      ?.stop()
      .catch((error: unknown) => log(`Could not stop the embedded database: ${String(error)}`));
  }

  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  const previous = fs.existsSync(RESULTS_FILE)
    ? (JSON.parse(fs.readFileSync(RESULTS_FILE, 'utf8')) as { sections?: Record<string, SectionReport> })
    : {};
  const sections = { ...(previous.sections ?? {}), ...reports };
  fs.writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify({ node: process.version, cpus: os.cpus().length, sections }, null, 2)}\n`,
  );
  log(`Results written to ${path.relative(ROOT, RESULTS_FILE)}`);
  console.log(
    failed ? `FAILED: ${names.filter((n) => reports[n]?.failures.length).join(', ')}` : `Passed: ${names.join(', ')}`,
  );
  return failed ? 1 : 0;
}

function printSection(name: string, report: SectionReport): void {
  console.log('');
  console.log(
    `== ${name} (${report.seconds} s; load average ${report.loadAverage.before[0]!.toFixed(1)} before, ${report.loadAverage.after[0]!.toFixed(1)} after, ${os.cpus().length} CPUs)`,
  );
  for (const table of report.tables) {
    console.log('');
    console.log(table.title);
    printTable(table.headers, table.rows);
  }
  if (report.notes.length) console.log('');
  for (const note of report.notes) console.log(note);
  for (const failure of report.failures) console.log(`FAIL ${name}: ${failure}`);
  if (!report.failures.length) console.log(`PASS ${name}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[reliability] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
