// `npm run bench -- csv`: the web process's memory while it streams a nationwide price list as
// CSV to a slow client. A database of its own (eggwatch_bench_csv: 15,000 store locations x 20
// products, one price each, 300,000 current entries; built once and kept) serves a real web
// process (server.ts) in a child process, whose resident memory is sampled from /proc every 20 ms.
// Baseline, same process, same run: the peak growth over idle while it streams a tenth of the
// rows (the last 30,000, from offset 270,000: a limit is at most 5,000) the same way. Constant memory means a ratio near 1 for ten times the rows.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { openSql } from '../src/server/db.ts';
import { migrate } from '../src/server/migrate.ts';
import { seed } from '../src/server/seed.ts';
import { ensureDatabase } from '../src/server/embedded-db.ts';
import { storeShares } from '../src/shared/coverage.ts';
import { STORE_IDS } from '../src/shared/vocabulary.ts';
import { databaseUrl } from './database.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CSV_BENCH_DATABASE = 'eggwatch_bench_csv';
const LOCATIONS = 15_000;
const PRODUCTS_PER_STORE = 20;
/** The slow client: reads 64 kB, then waits this long (about 1 MB/s, slower than the server writes). */
const SLOW_READ_PAUSE_MS = Number(process.env.CSV_BENCH_PAUSE_MS ?? 60);

/**
 * The web process's V8 heap is capped (old space) well below what 300,000 entries take as objects
 * (about 150 MB) plus their CSV (42 MB): a download that held its rows would end the process.
 */
const HEAP_CAP_MB = Number(process.env.CSV_BENCH_HEAP_MB ?? 96);

const log = (line: string) => console.log(`[bench csv] ${line}`);

async function ensureCsvDatabase(adminUrl: string): Promise<string> {
  const url = databaseUrl(adminUrl, CSV_BENCH_DATABASE);
  await ensureDatabase(adminUrl, CSV_BENCH_DATABASE);
  const sql = await openSql(url, { max: 2 });
  try {
    await migrate(sql, url);
    const [stores] = await sql<{ n: number }[]>`select count(*)::int as n from stores`;
    if (stores!.n === 0) await seed(sql);
    const [counted] = await sql<{ entries: number }[]>`select count(*)::int as entries from price_entries`;
    if (counted!.entries >= LOCATIONS * PRODUCTS_PER_STORE) return url;
    log(
      `Building ${CSV_BENCH_DATABASE}: ${LOCATIONS.toLocaleString('en-US')} locations x ${PRODUCTS_PER_STORE} products`,
    );
    const started = performance.now();
    // The six chains in proportion to their US store counts (US_STORE_COUNTS).
    const shares = storeShares(LOCATIONS);
    await sql.begin(async (tx) => {
      await tx`truncate price_observations, price_entries, products, store_locations restart identity cascade`;
      let from = 0;
      for (const store of STORE_IDS) {
        const count = shares[store];
        await tx`
          insert into store_locations (store_id, zip, region, retailer_location_id, name)
          select ${store}, lpad((10000 + n * 5)::text, 5, '0'), (array['northeast','midwest','south','west'])[1 + n % 4], ${store} || '-' || n, ${store} || ' #' || n
          from generate_series(${from}::int, ${from + count - 1}::int) n`;
        await tx`
          insert into products (store_id, retailer_product_id, title, egg_type, count)
          select ${store}, 'csv-' || n, 'Grade A Large Eggs, ' || (array[12, 18, 24])[1 + n % 3] || ' ct',
                 (array['standard','cage_free','organic','pasture_raised'])[1 + n % 4], (array[12, 18, 24])[1 + n % 3]
          from generate_series(1, ${PRODUCTS_PER_STORE}::int) n`;
        from += count;
      }
      await tx`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        select p.id, l.id, round((2 + (l.id * 7 + p.id) % 500 / 100.0)::numeric, 2), now(), utc_day(now()), 'scrape'
        from store_locations l join products p on p.store_id = l.store_id`;
    });
    await sql`vacuum analyze price_entries, store_locations, products`;
    log(`  built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return url;
  } finally {
    await sql.end();
  }
}

/** The resident set size of a process, in MB. */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Downloads a URL like a slow client; answers the bytes and rows read and the peak RSS meanwhile. */
async function slowDownload(
  url: string,
  pid: number,
): Promise<{ bytes: number; rows: number; peakMb: number; seconds: number }> {
  let peakMb = rssMb(pid);
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 20);
  const started = performance.now();
  try {
    const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
    const reader = response.body.getReader();
    let bytes = 0;
    let rows = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (const byte of value) if (byte === 10) rows++;
      if (SLOW_READ_PAUSE_MS > 0 && bytes % (64 * 1024) < value.length)
        await new Promise((resolve) => setTimeout(resolve, SLOW_READ_PAUSE_MS));
    }
    return {
      bytes,
      rows: rows - 1,
      peakMb: Math.max(peakMb, rssMb(pid)),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    clearInterval(sampler);
  }
}

export async function measureCsvStreaming(adminUrl: string): Promise<void> {
  const url = await ensureCsvDatabase(adminUrl);
  const port = 4390 + Math.floor(Math.random() * 50);
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_CAP_MB}`, '--import', 'tsx', 'server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUBLIC_API_RATE_LIMIT: '0',
      ADMIN_SETUP_KEY: 'bench-csv-setup-key-0123456789',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (
      let waited = 0;
      !(await fetch(`${base}/api/stores`).then(
        (r) => r.ok,
        () => false,
      ));
      waited += 250
    ) {
      if (waited > 120_000 || child.exitCode !== null) throw new Error('the web process did not start');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Warm up (code paths, the connection pool), then let the heap settle.
    await slowDownload(`${base}/api/egg-prices.csv?limit=2000`, child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleMb = rssMb(child.pid!);
    const results: Array<{ name: string; rows: number; mb: number; growthMb: number; seconds: number }> = [];
    for (const [name, query] of [
      ['a tenth (baseline)', 'offset=270000'],
      ['every entry', ''],
      ['a tenth again (baseline)', 'offset=270000'],
      ['every entry again', ''],
    ] as const) {
      const result = await slowDownload(`${base}/api/egg-prices.csv${query ? `?${query}` : ''}`, child.pid!);
      results.push({
        name,
        rows: result.rows,
        mb: result.bytes / 1e6,
        growthMb: result.peakMb - idleMb,
        seconds: result.seconds,
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    log(
      `Web process (old space capped at ${HEAP_CAP_MB} MB) idle: ${idleMb.toFixed(1)} MB resident; it served every download below without running out of heap`,
    );
    for (const r of results) {
      log(
        `  ${r.name.padEnd(28)} ${r.rows.toLocaleString('en-US').padStart(8)} rows, ${r.mb.toFixed(1).padStart(6)} MB in ${r.seconds.toFixed(1)} s: peak ${r.growthMb.toFixed(1)} MB over idle`,
      );
    }
    const baseline = Math.max(results[0]!.growthMb, results[2]!.growthMb, 1);
    for (const r of [results[1]!, results[3]!]) {
      log(
        `  ${r.name}: ${(r.growthMb / baseline).toFixed(2)}x the baseline's growth for 10x its rows (target: about 1x, constant memory)`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function dropCsvDatabase(adminUrl: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${CSV_BENCH_DATABASE}" with (force)`);
  } finally {
    await admin.end();
  }
}
