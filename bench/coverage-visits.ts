// Coverage visit days, part of `npm run bench`: each retailer's
// visit day of BENCH_VISIT_STORES directory stores (200 by default) through the real tasks
// (coverage__visit_day, then coverage__visit chunks in the retailer's queue, one graphile-worker
// runner with a slot per retailer so the six run side by side) against the in-process stand-in at
// zero delay. Per retailer: stores visited per hour at zero delay, the measured requests per visit,
// and from them the hours a nationwide day takes at the default politeness delay, each beside its
// bound: the zero-delay rate must beat the rate the delay allows (so the delay, not the app, sets
// the pace), a nationwide day must fit in 24 hours, and its requests in the default daily budget
// (Kroger's stays under its API's 10,000 calls a day).
//
//   `tsx bench/coverage-visits.ts` runs this part alone (BENCH_DATABASE_URL or TEST_DATABASE_URL).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { run } from 'graphile-worker';
import { defaultDailyBudget, ESTIMATED_REQUESTS_PER_VISIT, US_STORE_COUNTS } from '../src/shared/coverage.ts';
import { DEFAULT_SCRAPE_CONFIG, SCRAPER_NAMES } from '../src/shared/scrape.ts';
import { STORE_IDS, type StoreId } from '../src/shared/vocabulary.ts';
import { openSql, type Sql } from '../src/server/db.ts';
import { migrate, quietLogger } from '../src/server/migrate.ts';
import { seedStores } from '../src/server/seed.ts';
import { startVisitDay } from '../src/server/queries/coverage.ts';
import { insertDirectoryStores, ordinaryZips } from '../test/directory-stores.ts';
import { startStandIn } from '../test/retailers/server.ts';
import { taskList } from '../worker/tasks.ts';
import { databaseUrl } from './database.ts';

const VISITS_DATABASE = 'eggwatch_bench_visits';
export const VISIT_BENCH_STORES = Number(process.env.BENCH_VISIT_STORES ?? 200);
/** The default politeness delay between two requests to a retailer (ms). */
export const DEFAULT_DELAY_MS = DEFAULT_SCRAPE_CONFIG.http.delayMs;
/** A nationwide day must fit in one. */
export const DAY_HOURS = 24;

/**
 * US stores per chain (public company figures, 2024-2025; docs/features/scraping.md): what a nationwide
 * visit day visits. (The stand-in network places about as many; once discovery has filled the
 * directory, its open stores are the count.)
 */
export const NATIONWIDE_STORES: Readonly<Record<StoreId, number>> = US_STORE_COUNTS;

export interface VisitBenchRow {
  store: StoreId;
  stores: number;
  visited: number;
  failed: number;
  seconds: number;
  storesPerHour: number;
  /** The rate the default delay allows at the measured requests per visit (the bound to beat). */
  storesPerHourAtDelay: number;
  requestsPerVisit: number;
  estimatedRequestsPerVisit: number;
  nationwideStores: number;
  /** A nationwide day at the default delay: requests x delay, plus the zero-delay time per visit. */
  nationwideHours: number;
  nationwideRequests: number;
  dailyBudget: number;
  met: { rate: boolean; day: boolean; budget: boolean };
}

export interface VisitBenchResult {
  storesPerRetailer: number;
  delayMs: number;
  rows: VisitBenchRow[];
  missed: string[];
}

async function freshDatabase(adminUrl: string): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${VISITS_DATABASE}" with (force)`);
    await admin.unsafe(`create database "${VISITS_DATABASE}"`);
  } finally {
    await admin.end();
  }
  return databaseUrl(adminUrl, VISITS_DATABASE);
}

export async function measureVisitDays(adminUrl: string, log: (line: string) => void): Promise<VisitBenchResult> {
  const count = VISIT_BENCH_STORES;
  log(`Coverage visit days: ${count} directory stores per retailer, the six days side by side, stand-in at zero delay`);
  const url = await freshDatabase(adminUrl);
  let sql: Sql | null = null;
  const standIn = await startStandIn();
  try {
    sql = await openSql(url, { max: 10 });
    await migrate(sql, url);
    await sql.begin((tx) => seedStores(tx));
    // Each retailer's stores at ZIP codes of their own stretch of the range.
    for (const [i, store] of STORE_IDS.entries()) {
      await insertDirectoryStores(sql, store, ordinaryZips(count, 1001 + i * 15_000));
      await sql`insert into coverage_plans (store_id, scope, revisit_days, daily_request_budget) values (${store}, '{"kind":"nationwide"}', 1, 1000000)`;
    }
    const runs = new Map<StoreId, number>();
    for (const store of STORE_IDS)
      runs.set(store, (await startVisitDay(sql, { store, userId: null, trigger: 'manual' })).runId);

    const tasks = taskList({
      sql,
      email: { from: 'bench@eggwatch.local' },
      scrape: {
        origins: Object.fromEntries(STORE_IDS.map((store) => [store, standIn.url])),
        credentials: { krogerClientId: 'bench', krogerClientSecret: 'bench' },
        http: { ...DEFAULT_SCRAPE_CONFIG.http, delayMs: 0 },
      },
    });
    const runner = await run({
      connectionString: url,
      concurrency: STORE_IDS.length,
      taskList: tasks,
      logger: quietLogger,
      pollInterval: 200,
    });
    try {
      const ids = [...runs.values()];
      for (;;) {
        const [open] = await sql<
          { n: number }[]
        >`select count(*)::int as n from coverage_runs where id = any(${sql.array(ids)}::int[]) and status in ('queued', 'running')`;
        if (open!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await runner.stop();
    }

    const rows: VisitBenchRow[] = [];
    for (const store of STORE_IDS) {
      const runId = runs.get(store)!;
      const [r] = await sql<
        { status: string; visited: number; failed: number; seconds: number; requests_per_visit: number }[]
      >`
        select r.status, r.stores_visited as visited, r.stores_failed as failed,
               extract(epoch from (r.finished_at - r.started_at))::float8 as seconds,
               (select avg(requests)::float8 from coverage_visits where run_id = r.id) as requests_per_visit
        from coverage_runs r where r.id = ${runId}`;
      if (!r || r.visited !== count)
        throw new Error(
          `${store}: the visit day visited ${r?.visited ?? 0} of ${count} stores (${r?.status ?? 'no run'})`,
        );
      const secondsPerVisit = r.seconds / r.visited;
      const storesPerHour = 3600 / secondsPerVisit;
      const storesPerHourAtDelay = 3600 / ((r.requests_per_visit * DEFAULT_DELAY_MS) / 1000);
      const nationwideStores = NATIONWIDE_STORES[store];
      const nationwideRequests = Math.ceil(nationwideStores * r.requests_per_visit);
      const nationwideHours =
        (nationwideStores * ((r.requests_per_visit * DEFAULT_DELAY_MS) / 1000 + secondsPerVisit)) / 3600;
      const dailyBudget = defaultDailyBudget(store, DEFAULT_DELAY_MS);
      rows.push({
        store,
        stores: count,
        visited: r.visited,
        failed: r.failed,
        seconds: r.seconds,
        storesPerHour,
        storesPerHourAtDelay,
        requestsPerVisit: r.requests_per_visit,
        estimatedRequestsPerVisit: ESTIMATED_REQUESTS_PER_VISIT[store],
        nationwideStores,
        nationwideHours,
        nationwideRequests,
        dailyBudget,
        met: {
          rate: storesPerHour >= storesPerHourAtDelay,
          day: nationwideHours <= DAY_HOURS,
          budget: nationwideRequests <= dailyBudget,
        },
      });
    }
    const missed = rows.flatMap((row) => [
      ...(row.met.rate
        ? []
        : [
            `${row.store} visits at zero delay ${Math.round(row.storesPerHour)}/h < ${Math.round(row.storesPerHourAtDelay)}/h the delay allows`,
          ]),
      ...(row.met.day
        ? []
        : [`${row.store} nationwide visit day ${row.nationwideHours.toFixed(1)} h > ${DAY_HOURS} h`]),
      ...(row.met.budget
        ? []
        : [`${row.store} nationwide visit day ${row.nationwideRequests} requests > daily budget ${row.dailyBudget}`]),
    ]);
    return { storesPerRetailer: count, delayMs: DEFAULT_DELAY_MS, rows, missed };
  } finally {
    await sql?.end({ timeout: 5 }).catch(() => {});
    await standIn.close();
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${VISITS_DATABASE}" with (force)`).catch(() => {});
    await admin.end();
  }
}

/** The result as table rows (printTable in bench/run.ts): each figure beside its bound. */
export function visitBenchTable(result: VisitBenchResult): { headers: string[]; rows: string[][] } {
  const n = (value: number, digits = 0) =>
    value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const mark = (met: boolean) => (met ? 'met' : 'MISSED');
  return {
    headers: [
      'retailer (visit day)',
      'stores',
      'stores/h at 0 delay',
      `bound (rate at ${result.delayMs / 1000} s)`,
      'requests/visit',
      'bound (floor 1; estimate)',
      'nationwide stores',
      `nationwide day at ${result.delayMs / 1000} s`,
      'bound',
      'requests/day',
      'bound (daily budget)',
    ],
    rows: result.rows.map((row) => [
      SCRAPER_NAMES[row.store],
      `${row.visited}${row.failed ? ` (${row.failed} failed)` : ''}`,
      n(row.storesPerHour),
      `>= ${n(row.storesPerHourAtDelay)} ${mark(row.met.rate)}`,
      n(row.requestsPerVisit, 2),
      `>= 1; ${row.estimatedRequestsPerVisit}`,
      n(row.nationwideStores),
      `${n(row.nationwideHours, 2)} h`,
      `<= ${DAY_HOURS} h ${mark(row.met.day)}`,
      n(row.nationwideRequests),
      `<= ${n(row.dailyBudget)} ${mark(row.met.budget)}`,
    ]),
  };
}

// `tsx bench/coverage-visits.ts`: this part alone.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.error(
      'Set BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server the bench may create a database on).',
    );
    process.exit(1);
  }
  const log = (line: string) => console.log(`[bench] ${line}`);
  measureVisitDays(adminUrl, log).then(
    (result) => {
      const { headers, rows } = visitBenchTable(result);
      console.log([headers, ...rows].map((r) => r.join(' | ')).join('\n'));
      console.log(
        result.missed.length
          ? `MISSED (${result.missed.length}): ${result.missed.join('; ')}`
          : 'All visit-day bounds met.',
      );
      process.exit(0);
    },
    (error: unknown) => {
      console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}
