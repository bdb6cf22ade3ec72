// `npm run bench -- nationwide`: the app at nationwide scale, on its
// own database (eggwatch_bench_nationwide, bench/nationwide-database.ts: 15,000 locations x 20
// products x 365 days, about 110 million observations; built once and kept).
// - The database: its build time, its size on disk (tables and indexes apart, per table, summed
//   over partitions) and its growth per year (the observations' bytes per day x 365).
// - Reads, uncached: each public read path through the tRPC caller with the cache off, median and
//   p95 of NATIONWIDE_READ_RUNS (100) runs after two warm-up calls, beside two baselines of the
//   same run: a primary-key lookup of one observation, and the same number of bytes answered from
//   the database server's memory (`select repeat('x', n)`, as many bytes as the read's answer).
// - Reads, cached: the real web process under 256 connections on each read's GET URL (its cache
//   on) against a static file of the same bytes on the same server, interleaved endpoint/static/
//   static/endpoint; target at least 0.9x the static file's requests/s.
// - Writes, on a fresh copy of the database (the kept one never changes): a day's prices (every
//   product at every location, 300,000) written through the coverage visit path (commitVisits,
//   what the worker's coverage__visit task calls) by the six retailers side by side, beside COPY
//   of the same rows into an unlogged table; that day's rollup refresh (refreshRollups) beside a
//   plain read of the day's rows; immediate alert matching for the day (immediateMatches of each
//   retailer's visit run) beside a plain scan of the subscriptions and the day's observations; the
//   daily digest for NATIONWIDE_SUBSCRIPTIONS (1,000,000) subscriptions beside a plain scan of the
//   subscriptions and current listings.
// Results are printed and written to bench/results/nationwide.json. Nothing in `npm test` runs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { createServer } from '../src/server/app.ts';
import { openSql, type Sql } from '../src/server/db.ts';
import { createContextInner } from '../src/server/context.ts';
import { appRouter } from '../src/server/routers/_app.ts';
import { createCallerFactory } from '../src/server/trpc.ts';
import { refreshRollups } from '../src/server/queries/rollups.ts';
import { immediateMatches } from '../src/server/queries/alerts.ts';
import { PriceChangeNotifier } from '../src/server/queries/price-writes.ts';
import { transformer } from '../src/shared/transformer.ts';
import { PAGE_SIZES } from '../src/shared/pagination.ts';
import { STORE_IDS, type EggType, type Region, type StoreId } from '../src/shared/vocabulary.ts';
import { commitVisits, type AcceptedListing, type VisitOutcome } from '../worker/scrapers/pipeline.ts';
import { DEFAULT_SCRAPE_CONFIG } from '../src/shared/scrape.ts';
import { insertSubscriptions, timed, timeDigest } from './alerts.ts';
import { copyBenchDatabase, dropBenchCopy, ensureCachedDatabase, type BuildInfo } from './database.ts';
import { NATIONWIDE_CONFIG, NATIONWIDE_DATABASE, NATIONWIDE_SPEC } from './nationwide-database.ts';
import {
  benchAppConfig,
  combine,
  DASHBOARD_INPUT,
  LoadRunner,
  percentile,
  printTable,
  trpcGetPath,
  type LoadResult,
} from './run.ts';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const READ_RUNS = Number(process.env.NATIONWIDE_READ_RUNS ?? 100);
const CONNECTIONS = 256;
const LOAD_WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const LOAD_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CACHED_TARGET = 0.9;
export const NATIONWIDE_SUBSCRIPTIONS = Number(process.env.NATIONWIDE_SUBSCRIPTIONS ?? 1_000_000);
const WRITE_TARGETS_S = { day: 60, rollup: 30, immediate: 10, digest: 300 } as const;
// Per scale, so that runs of the writes at two scales at once do not drop each other's copy.
const WRITES_DATABASE = `${NATIONWIDE_DATABASE}_writes`;
const STATIC_PREFIX = '/__bench_static/';

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const mb = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`);

// ---------------------------------------------------------------------------------------------
// Size on disk.

export interface TableSize {
  table: string;
  rows: number;
  tableBytes: number;
  indexBytes: number;
}

export interface SizeReport {
  databaseBytes: number;
  tables: TableSize[];
  observationBytesPerDay: number;
  growthPerYearBytes: number;
}

async function measureSizes(sql: Sql, days: number): Promise<SizeReport> {
  // A partitioned table (by month, say) is summed over its partitions (pg_partition_tree's
  // leaves); a plain table is its own only part.
  const tables = await sql<TableSize[]>`
    select t.relname as table,
           sum(c.reltuples) filter (where c.reltuples > 0)::float8 as rows,
           sum(pg_table_size(p.relid))::float8 as "tableBytes",
           sum(pg_indexes_size(p.relid))::float8 as "indexBytes"
    from pg_class t
    cross join lateral (
      select tree.relid from pg_partition_tree(t.oid) tree where tree.isleaf and t.relkind = 'p'
      union all
      select t.oid where t.relkind = 'r') p
    join pg_class c on c.oid = p.relid
    where t.relnamespace = 'public'::regnamespace and t.relkind in ('r', 'p') and not t.relispartition
    group by t.relname
    order by sum(pg_total_relation_size(p.relid)) desc`;
  const [db] = await sql<{ bytes: number }[]>`select pg_database_size(current_database())::float8 as bytes`;
  const observations = tables.find((t) => t.table === 'price_observations')!;
  const perDay = (observations.tableBytes + observations.indexBytes) / days;
  return {
    databaseBytes: db!.bytes,
    tables: tables.map((t) => ({ ...t, rows: t.rows ?? 0 })),
    observationBytesPerDay: perDay,
    growthPerYearBytes: perDay * 365,
  };
}

// ---------------------------------------------------------------------------------------------
// Reads.

interface Samples {
  medianMs: number;
  p95Ms: number;
  runs: number;
}

/** A read whose first call takes longer than this is measured SLOW_RUNS times, not READ_RUNS (it misses its target by far anyway). */
const SLOW_READ_MS = 1000;
const SLOW_RUNS = 5;

async function sample(fn: () => Promise<unknown>, wanted = READ_RUNS): Promise<Samples> {
  const first = performance.now();
  await fn();
  const runs = performance.now() - first > SLOW_READ_MS ? Math.min(SLOW_RUNS, wanted) : wanted;
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { medianMs: percentile(times, 50), p95Ms: percentile(times, 95), runs };
}

const callerOf = createCallerFactory(appRouter);
type Caller = ReturnType<typeof callerOf>;
type Client = Parameters<Parameters<typeof trpcGetPath>[1]>[0];

interface ReadTarget {
  name: string;
  targetMs: number;
  /** The read as the server answers it, with the cache off. */
  uncached: (caller: Caller) => Promise<unknown>;
  /** The same read as the browser's client asks it (one GET, batched when it is several calls). */
  client: (client: Client) => Promise<unknown>;
}

export interface ReadResult extends Samples {
  name: string;
  bytes: number;
  targetMs: number;
  met: boolean;
  memory: Samples;
}

export interface ReadReport {
  primaryKey: Samples;
  reads: ReadResult[];
}

interface Picks {
  zip: string;
  store: StoreId;
  region: Region;
  eggType: EggType;
  productId: number;
  locationId: number;
}

/** The store page's insights as a desktop browser asks them: no filters, page 1 of 9 cards (PAGE_SIZES.desktop). */
const STORE_PAGE_INPUT = (storeId: StoreId) => ({ storeId, page: 1, pageSize: PAGE_SIZES.desktop });

function readTargets(p: Picks): ReadTarget[] {
  const listFilters = { store: p.store, region: p.region, egg_type: p.eggType, limit: 20 } as const;
  return [
    {
      name: `Near you (prices.near, ZIP ${p.zip}, 10 miles)`,
      targetMs: 20,
      uncached: (c) => c.prices.near({ zip: p.zip, radius: 10 }),
      client: (c) => c.prices.near.query({ zip: p.zip, radius: 10 }),
    },
    {
      name: `filtered list page (prices.list ${p.store}, ${p.region}, ${p.eggType}, 20)`,
      targetMs: 20,
      uncached: (c) => c.prices.list(listFilters),
      client: (c) => c.prices.list.query(listFilters),
    },
    {
      // What the store page asks (StorePage.tsx): the store's filter options, then its insights
      // with the first page of its cards at the desktop page size.
      name: `store page (stores.filterOptions + stores.insights page 1 of 9, ${p.store})`,
      targetMs: 50,
      uncached: (c) =>
        Promise.all([c.stores.filterOptions({ storeId: p.store }), c.stores.insights(STORE_PAGE_INPUT(p.store))]),
      client: (c) =>
        Promise.all([
          c.stores.filterOptions.query({ storeId: p.store }),
          c.stores.insights.query(STORE_PAGE_INPUT(p.store)),
        ]),
    },
    {
      name: 'dashboard statistics (stats.get)',
      targetMs: 50,
      uncached: (c) => c.stats.get(),
      client: (c) => c.stats.get.query(),
    },
    {
      // The dashboard's first batch (its sections' queries; Near you and the ticker are measured apart).
      name: "dashboard's tRPC batch (stores.list + stats.get + prices.dashboard + prices.map)",
      targetMs: 50,
      uncached: (c) =>
        Promise.all([
          c.stores.list(),
          c.stats.get(),
          c.prices.dashboard(DASHBOARD_INPUT),
          c.prices.map({ egg_type: 'standard' }),
        ]),
      client: (c) =>
        Promise.all([
          c.stores.list.query(),
          c.stats.get.query(),
          c.prices.dashboard.query(DASHBOARD_INPUT),
          c.prices.map.query({ egg_type: 'standard' }),
        ]),
    },
    {
      name: 'ticker (news.ticker)',
      targetMs: 50,
      uncached: (c) => c.news.ticker(),
      client: (c) => c.news.ticker.query(),
    },
    {
      name: "a product's 365-day history (prices.history)",
      targetMs: 10,
      uncached: (c) => c.prices.history({ id: p.productId, location: p.locationId, days: 365 }),
      client: (c) => c.prices.history.query({ id: p.productId, location: p.locationId, days: 365 }),
    },
    {
      // What the compare page asks on a large screen (ComparePage.tsx): the figures and the first page of 9 entries.
      name: 'compare page (compare.byType organic, page 1 of 9)',
      targetMs: 50,
      uncached: (c) => c.compare.byType({ eggType: 'organic', page: 1, pageSize: 9 }),
      client: (c) => c.compare.byType.query({ eggType: 'organic', page: 1, pageSize: 9 }),
    },
  ];
}

async function pick(sql: Sql): Promise<Picks> {
  // A product at a location of a busy ZIP: Chicago's Near North Side has stores of every chain nearby.
  const [row] = await sql<{ product_id: number; location_id: number }[]>`
    select e.product_id, e.location_id from price_entries e
    join store_locations l on l.id = e.location_id
    where l.store_id = 'walmart' order by e.location_id, e.product_id limit 1 offset 137`;
  return {
    zip: '60611',
    store: 'walmart',
    region: 'west',
    eggType: 'standard',
    productId: row!.product_id,
    locationId: row!.location_id,
  };
}

async function measureReads(sql: Sql, targets: ReadTarget[], log: (line: string) => void): Promise<ReadReport> {
  const caller = callerOf(createContextInner({ sql, config: benchAppConfig(sql) })); // no cache given: disabled
  const [range] = await sql<
    { low: number; high: number }[]
  >`select min(id)::float8 as low, max(id)::float8 as high from price_observations`;
  let n = 0;
  const primaryKey = await sample(async () => {
    // A different observation each run, spread over the whole table.
    const id = range!.low + ((n++ * 2_654_435_761) % (range!.high - range!.low + 1));
    const rows = await sql`select * from price_observations where id = ${id}`;
    if (rows.length !== 1) throw new Error(`no observation ${id}`);
  });
  log(
    `Uncached reads: a primary-key lookup of one observation, median ${ms(primaryKey.medianMs)} ms, p95 ${ms(primaryKey.p95Ms)} ms`,
  );
  const reads: ReadResult[] = [];
  for (const target of targets) {
    const answer = await target.uncached(caller);
    const bytes = Buffer.byteLength(JSON.stringify(transformer.serialize(answer)));
    const timing = await sample(() => target.uncached(caller));
    const memory = await sample(() => sql`select repeat('x', ${bytes}::int) as bytes`, timing.runs);
    reads.push({
      name: target.name,
      bytes,
      ...timing,
      targetMs: target.targetMs,
      met: timing.medianMs < target.targetMs,
      memory,
    });
    log(
      `  ${target.name}: ${bytes.toLocaleString('en-US')} bytes, median ${ms(timing.medianMs)} ms, p95 ${ms(timing.p95Ms)} ms (${timing.runs} runs)`,
    );
  }
  return { primaryKey, reads };
}

// ---------------------------------------------------------------------------------------------
// Cached reads under load.

export interface CachedResult {
  name: string;
  path: string;
  bytes: number;
  endpoint: LoadResult;
  static: LoadResult;
  ratio: number | null;
  met: boolean;
}

async function measureCachedReads(
  sql: Sql,
  targets: ReadTarget[],
  log: (line: string) => void,
): Promise<CachedResult[]> {
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-nationwide-'));
  const server = createServer({
    sql,
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    publicApiRateLimit: 1_000_000_000,
  });
  let load: LoadRunner | null = null;
  try {
    void server.app.register(fastifyStatic, { root: staticDir, prefix: STATIC_PREFIX, decorateReply: false });
    await server.start();
    const address = server.app.server.address();
    if (!address || typeof address === 'string') throw new Error('The server has no TCP address');
    const base = `http://127.0.0.1:${address.port}`;
    load = await LoadRunner.start();
    const results: CachedResult[] = [];
    for (const [i, target] of targets.entries()) {
      const urlPath = await trpcGetPath(base, target.client);
      const response = await fetch(`${base}${urlPath}`);
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200)
        throw new Error(`${target.name}: ${response.status} ${body.toString('utf8', 0, 200)}`);
      // The same bytes as a static file (a .json name, so the same content type).
      fs.writeFileSync(path.join(staticDir, `t${i}.json`), body);
      const staticUrl = `${base}${STATIC_PREFIX}t${i}.json`;
      const endpointUrl = `${base}${urlPath}`;
      log(
        `Cached, ${CONNECTIONS} connections: ${target.name} (${body.length.toLocaleString('en-US')} bytes) and its static copy, ${LOAD_WARMUP_S} s warm-up, ${LOAD_SECONDS} s each`,
      );
      const run = (url: string, seconds: number) => load!.run(url, seconds, { connections: CONNECTIONS });
      if (LOAD_WARMUP_S > 0) {
        await run(endpointUrl, LOAD_WARMUP_S);
        await run(staticUrl, LOAD_WARMUP_S);
      }
      const half = LOAD_SECONDS / 2;
      const e1 = await run(endpointUrl, half);
      const s1 = await run(staticUrl, half);
      const s2 = await run(staticUrl, half);
      const e2 = await run(endpointUrl, half);
      const endpoint = combine(e1, e2);
      const staticResult = combine(s1, s2);
      const ratio =
        endpoint.requestsTotal > 0 && staticResult.requestsTotal > 0
          ? endpoint.requestsPerSec / staticResult.requestsPerSec
          : null;
      results.push({
        name: target.name,
        path: urlPath,
        bytes: body.length,
        endpoint,
        static: staticResult,
        ratio,
        met: ratio !== null && ratio >= CACHED_TARGET,
      });
    }
    return results;
  } finally {
    load?.stop();
    await server.stop().catch(() => {});
    fs.rmSync(staticDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Writes, on a copy of the database.

export interface WriteResult {
  name: string;
  seconds: number;
  baseline: string;
  baselineSeconds: number;
  result: string;
  targetS: number;
  met: boolean;
}

interface StoreDay {
  store: StoreId;
  runId: number;
  visits: Array<{
    locationId: number;
    retailerLocationId: string;
    zip: string;
    region: Region;
    listings: AcceptedListing[];
  }>;
}

/**
 * The day's visits of every store: each location's products at its current price, one in five
 * moved by 10 to 40 cents (so the day has price events for the immediate alerts).
 */
export async function plannedDay(sql: Sql): Promise<StoreDay[]> {
  const rows = await sql<
    Array<{
      store_id: StoreId;
      location_id: number;
      retailer_location_id: string;
      zip: string;
      region: Region;
      retailer_product_id: string;
      title: string;
      brand: string | null;
      egg_type: EggType;
      count: number;
      size_grade: string | null;
      url: string | null;
      price: number;
    }>
  >`
    select l.store_id, l.id as location_id, l.retailer_location_id, l.zip, l.region,
           p.retailer_product_id, p.title, p.brand, p.egg_type, p.count, p.size_grade, p.url,
           greatest(0.49, e.price + case when (e.location_id * 7 + e.product_id) % 5 = 0
                                         then ((e.location_id + e.product_id) % 7 - 3) * 0.1 + 0.1 else 0 end)::float8 as price
    from price_entries e
    join store_locations l on l.id = e.location_id
    join products p on p.id = e.product_id
    order by l.store_id, l.id, p.id`;
  const days = new Map<StoreId, StoreDay>();
  for (const r of rows) {
    let day = days.get(r.store_id);
    if (!day) days.set(r.store_id, (day = { store: r.store_id, runId: 0, visits: [] }));
    let visit = day.visits.at(-1);
    if (!visit || visit.locationId !== r.location_id) {
      visit = {
        locationId: r.location_id,
        retailerLocationId: r.retailer_location_id,
        zip: r.zip,
        region: r.region,
        listings: [],
      };
      day.visits.push(visit);
    }
    visit.listings.push({
      retailerProductId: r.retailer_product_id,
      title: r.title,
      brand: r.brand,
      eggType: r.egg_type,
      count: r.count,
      sizeGrade: r.size_grade,
      price: Math.round(r.price * 100) / 100,
      regularPrice: null,
      inStock: true,
      url: r.url,
    });
  }
  return STORE_IDS.map((id) => days.get(id)!).filter(Boolean);
}

/**
 * One retailer's visit day through the worker's write path: its visits one after another, as its
 * queue runs them, written in batches as coverage__visit writes visits that come fast (commitVisits,
 * DEFAULT_SCRAPE_CONFIG.visitBatch.stores stores a statement, within a chunk).
 */
export async function writeStoreDay(sql: Sql, day: StoreDay, workerId: string): Promise<number> {
  const notifier = new PriceChangeNotifier(sql);
  const { visitChunkSize, visitBatch } = DEFAULT_SCRAPE_CONFIG;
  const batches: Array<{ chunk: number; visits: StoreDay['visits'] }> = [];
  for (let c = 0; c * visitChunkSize < day.visits.length; c++) {
    const chunk = day.visits.slice(c * visitChunkSize, (c + 1) * visitChunkSize);
    for (let i = 0; i < chunk.length; i += visitBatch.stores)
      batches.push({ chunk: c, visits: chunk.slice(i, i + visitBatch.stores) });
  }
  let written = 0;
  for (const batch of batches) {
    const outcomes: VisitOutcome[] = batch.visits.map((visit) => ({
      store: {
        id: visit.locationId,
        retailerLocationId: visit.retailerLocationId,
        zip: visit.zip,
        region: visit.region,
        name: null,
        city: null,
        state: null,
        address: null,
        latitude: null,
        longitude: null,
      },
      status: 'succeeded',
      kind: null,
      message: null,
      pages: 1,
      listingsSeen: visit.listings.length,
      nonProductTiles: 0,
      accepted: visit.listings,
      skipped: {},
      rejected: {},
      rejectedExamples: [],
      requests: 2,
      retries: 0,
      rateLimitWaits: 0,
      rateLimitWaitMs: 0,
      egressTier: null,
      startedAt: new Date(),
    }));
    const counts = await commitVisits(sql, {
      runId: day.runId,
      workerId,
      store: day.store,
      chunk: batch.chunk,
      demo: false,
      notifier,
      outcomes,
    });
    for (const n of counts.values()) written += n;
  }
  await notifier.flush();
  return written;
}

/** COPY of the day's rows (the columns an observation has) into an unlogged table without indexes. */
async function copyDay(sql: Sql, days: StoreDay[]): Promise<number> {
  await sql`
    create unlogged table copy_baseline (product_id integer, location_id integer, price numeric(8,2), regular_price numeric(8,2),
      in_stock boolean, observed_at timestamptz, source text)`;
  const now = new Date().toISOString();
  const lines: string[] = [];
  for (const day of days)
    for (const v of day.visits)
      v.listings.forEach((l, i) => lines.push(`${i + 1}\t${v.locationId}\t${l.price}\t\\N\tt\t${now}\tscrape\n`));
  const started = performance.now();
  const stream = await sql`copy copy_baseline from stdin`.writable();
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.write(lines.join(''));
    stream.end();
  });
  const seconds = (performance.now() - started) / 1000;
  const [check] = await sql<{ n: number }[]>`select count(*)::int as n from copy_baseline`;
  if (check!.n !== lines.length) throw new Error('COPY baseline row count mismatch');
  await sql`drop table copy_baseline`;
  return seconds;
}

async function measureWrites(
  adminUrl: string,
  log: (line: string) => void,
  parts: Set<string>,
): Promise<WriteResult[]> {
  log(`Writes: on a fresh copy of ${NATIONWIDE_DATABASE} (${WRITES_DATABASE})`);
  const copyStarted = performance.now();
  const url = await copyBenchDatabase(adminUrl, WRITES_DATABASE, NATIONWIDE_DATABASE);
  log(`  copied in ${((performance.now() - copyStarted) / 1000).toFixed(1)} s`);
  const sql = await openSql(url, { max: STORE_IDS.length + 2 });
  try {
    const [dates] = await sql<{ today: string; last: string }[]>`
      select current_date::text as today, (select max(observed_on)::text from price_observations) as last`;
    const { today, last } = dates!;
    if (last >= today) throw new Error(`The database already has prices for ${last}: the day's write needs a new day`);

    log(`  ${NATIONWIDE_SUBSCRIPTIONS.toLocaleString('en-US')} subscriptions`);
    await insertSubscriptions(sql, NATIONWIDE_SUBSCRIPTIONS);
    await sql`analyze subscriptions`;

    const days = await plannedDay(sql);
    const prices = days.reduce((n, d) => n + d.visits.reduce((m, v) => m + v.listings.length, 0), 0);
    const workerId = 'bench-nationwide';
    for (const day of days) {
      const [run] = await sql<{ id: number }[]>`
        insert into coverage_runs (store_id, kind, scope, status, day, started_at, heartbeat_at, worker_id, stores_planned)
        values (${day.store}, 'visit', ${sql.json({ kind: 'nationwide' })}, 'running', current_date, now(), now(), ${workerId}, ${day.visits.length})
        returning id`;
      day.runId = run!.id;
    }

    const copySeconds = await copyDay(sql, days);
    log(`  the day's ${prices.toLocaleString('en-US')} prices: six retailers side by side through commitVisits...`);
    const write = await timed(() => Promise.all(days.map((day) => writeStoreDay(sql, day, workerId))));
    const written = write.value.reduce((a, b) => a + b, 0);
    if (written !== prices) throw new Error(`The day's write wrote ${written} observations, not ${prices}`);
    log(`    ${write.seconds.toFixed(1)} s (COPY of the same rows: ${copySeconds.toFixed(2)} s)`);
    await sql`update coverage_runs set status = 'succeeded', finished_at = now() where id = any(${sql.array(days.map((d) => d.runId))}::int[])`;

    const scanDay = await timed(
      () => sql`
      select o.price, p.count, p.egg_type, l.region
      from price_observations o join products p on p.id = o.product_id join store_locations l on l.id = o.location_id
      where o.observed_on = ${today}::date`,
    );
    log('  the rollup refresh of the day...');
    const rollup = await timed(() => refreshRollups(sql));
    log(`    ${rollup.seconds.toFixed(1)} s (a plain read of the day's rows: ${scanDay.seconds.toFixed(2)} s)`);

    const scanImmediate = await timed(
      () => sql`
      select s.id, s.email, s.region, s.egg_type, s.preferred_stores, s.price_threshold
      from subscriptions s where s.notification_frequency = 'immediately' and s.active and s.confirmed_at is not null
      union all
      select o.product_id, l.store_id, l.region, p.egg_type, null, o.price
      from price_observations o join store_locations l on l.id = o.location_id join products p on p.id = o.product_id
      where o.observed_on = ${today}::date`,
    );
    let matches = 0;
    const immediate = parts.has('immediate')
      ? await timed(async () => {
          log("  immediate alert matching of the day (each retailer's visit run)...");
          for (const day of days) {
            const started = performance.now();
            // The whole day's visits of the retailer in one batch (a window as long as its run).
            const locationIds = day.visits.map((v) => v.locationId);
            matches += (await immediateMatches(sql, { coverageRunId: day.runId, locationIds })).reduce(
              (n, m) => n + m.listings.length,
              0,
            );
            log(`    ${day.store}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
          }
        })
      : null;

    const digest = parts.has('digest')
      ? (log(`  the daily digest for ${NATIONWIDE_SUBSCRIPTIONS.toLocaleString('en-US')} subscriptions...`),
        await timeDigest(sql, today))
      : null;

    const results: Array<WriteResult | null> = [
      {
        name: `a day's ${prices.toLocaleString('en-US')} prices, six retailers side by side (commitVisits)`,
        seconds: write.seconds,
        baseline: 'COPY into an unlogged table',
        baselineSeconds: copySeconds,
        result: `${written.toLocaleString('en-US')} observations`,
        targetS: WRITE_TARGETS_S.day,
        met: write.seconds < WRITE_TARGETS_S.day,
      },
      {
        name: "that day's rollup refresh (refreshRollups)",
        seconds: rollup.seconds,
        baseline: "plain read of the day's rows",
        baselineSeconds: scanDay.seconds,
        result: `${rollup.value.days} day(s)`,
        targetS: WRITE_TARGETS_S.rollup,
        met: rollup.seconds < WRITE_TARGETS_S.rollup,
      },
      immediate && {
        name: 'immediate alert matching after that day (immediateMatches x 6 runs)',
        seconds: immediate.seconds,
        baseline: "plain scan of subscriptions + the day's rows",
        baselineSeconds: scanImmediate.seconds,
        result: `${matches.toLocaleString('en-US')} matches`,
        targetS: WRITE_TARGETS_S.immediate,
        met: immediate.seconds < WRITE_TARGETS_S.immediate,
      },
      digest && {
        name: `daily digest, ${NATIONWIDE_SUBSCRIPTIONS.toLocaleString('en-US')} subscriptions (deliverDaily)`,
        seconds: digest.seconds,
        baseline: 'plain scan of subscriptions + current listings',
        baselineSeconds: digest.scanSeconds,
        result: `${digest.emails.toLocaleString('en-US')} emails`,
        targetS: WRITE_TARGETS_S.digest,
        met: digest.seconds < WRITE_TARGETS_S.digest,
      },
    ];
    return results.filter((r): r is WriteResult => r !== null);
  } finally {
    await sql.end();
    await dropBenchCopy(adminUrl, WRITES_DATABASE).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------

export async function measureNationwide(adminUrl: string, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const { url, info } = await ensureCachedDatabase(adminUrl, NATIONWIDE_SPEC, log);
  // Parts to run (all by default): reads, cached, writes (the day's write and its rollup refresh),
  // immediate and digest (the alert parts of the writes).
  const sections = new Set(
    process.env.NATIONWIDE_PARTS?.split(',') ?? ['reads', 'cached', 'writes', 'immediate', 'digest'],
  );
  const sql = await openSql(url, { max: 10 });
  let sizes: SizeReport;
  let reads: ReadReport | null = null;
  let cached: CachedResult[] | null = null;
  try {
    sizes = await measureSizes(sql, NATIONWIDE_CONFIG.days);
    const targets = readTargets(await pick(sql));
    if (sections.has('reads')) reads = await measureReads(sql, targets, log);
    if (sections.has('cached')) cached = await measureCachedReads(sql, targets, log);
  } finally {
    await sql.end();
  }
  const writes = sections.has('writes') ? await measureWrites(adminUrl, log, sections) : null;

  const { locations, productsPerStore, days } = NATIONWIDE_CONFIG;
  console.log('');
  console.log(
    `EggWatch nationwide benchmark: ${locations.toLocaleString('en-US')} locations x ${productsPerStore} products x ${days} days = ` +
      `${info.counts.observations.toLocaleString('en-US')} observations (${NATIONWIDE_DATABASE}); Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    info.rebuilt
      ? `Database build: ${(info.buildMs / 1000).toFixed(1)} s (this run; ${info.reason})`
      : `Database build: reused (built ${info.builtAt} in ${(info.buildMs / 1000).toFixed(1)} s)`,
  );
  if (info.migrated.length > 0) {
    console.log(
      `Migrated forward on this data in this run: ${info.migrated.map((m) => `${m.version} ${m.name} ${m.seconds.toFixed(1)} s`).join('; ')}.`,
    );
  }
  if (info.settled) console.log(`Then ${info.settled.what}: ${info.settled.seconds.toFixed(1)} s.`);
  console.log('');
  printTable(
    ['table', 'rows (estimate)', 'table', 'indexes', 'total'],
    sizes.tables
      .filter((t) => t.tableBytes + t.indexBytes >= 1e6)
      .map((t) => [
        t.table,
        Math.round(t.rows).toLocaleString('en-US'),
        mb(t.tableBytes),
        mb(t.indexBytes),
        mb(t.tableBytes + t.indexBytes),
      ]),
    1,
  );
  const small = sizes.tables.filter((t) => t.tableBytes + t.indexBytes < 1e6);
  console.log(
    `(${small.length} tables under 1 MB each, ${mb(small.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0))} in all.) Database on disk: ${mb(sizes.databaseBytes)}.`,
  );
  console.log(
    `Growth: ${mb(sizes.observationBytesPerDay)} of observations (table and indexes) a day, ${mb(sizes.growthPerYearBytes)} a year.`,
  );

  if (reads) {
    console.log('');
    console.log(
      `Uncached reads (tRPC caller, cache off), ${READ_RUNS} runs each (${SLOW_RUNS} for a read whose first call takes over ${SLOW_READ_MS / 1000} s); baselines of the same run: a primary-key lookup (median ${ms(reads.primaryKey.medianMs)} ms, p95 ${ms(reads.primaryKey.p95Ms)} ms) and the same bytes from the database's memory.`,
    );
    printTable(
      ['read', 'bytes', 'runs', 'median', 'p95', 'target', 'met', 'x PK lookup', 'same bytes median', 'x same bytes'],
      reads.reads.map((r) => [
        r.name,
        r.bytes.toLocaleString('en-US'),
        String(r.runs),
        `${ms(r.medianMs)} ms`,
        `${ms(r.p95Ms)} ms`,
        `< ${r.targetMs} ms`,
        r.met ? 'met' : 'MISSED',
        `${(r.medianMs / reads!.primaryKey.medianMs).toFixed(1)}x`,
        `${ms(r.memory.medianMs)} ms`,
        `${(r.medianMs / r.memory.medianMs).toFixed(1)}x`,
      ]),
    );
  }
  if (cached) {
    console.log('');
    console.log(
      `Cached reads: ${CONNECTIONS} connections, the real web process against a static file of the same bytes on the same server; target >= ${CACHED_TARGET}x its requests/s.`,
    );
    printTable(
      ['read', 'bytes', 'req/s', 'p99 ms', 'static req/s', 'static p99', 'ratio', `>= ${CACHED_TARGET}`],
      cached.map((r) => [
        r.name,
        r.bytes.toLocaleString('en-US'),
        r.endpoint.requestsPerSec.toFixed(0),
        String(r.endpoint.latency.p99),
        r.static.requestsPerSec.toFixed(0),
        String(r.static.latency.p99),
        r.ratio === null ? 'n/a' : `${r.ratio.toFixed(2)}x`,
        r.met ? 'met' : r.ratio === null ? 'NO DATA' : 'MISSED',
      ]),
    );
  }
  if (writes) {
    console.log('');
    printTable(
      ['write', 'seconds', 'baseline', 'baseline s', 'vs baseline', 'result', 'target'],
      writes.map((w) => [
        w.name,
        w.seconds.toFixed(2),
        w.baseline,
        w.baselineSeconds.toFixed(3),
        `${(w.seconds / w.baselineSeconds).toFixed(1)}x`,
        w.result,
        `< ${w.targetS} s ${w.met ? 'met' : 'MISSED'}`,
      ]),
      1,
    );
  }
  const missed = [
    ...(reads?.reads.filter((r) => !r.met).map((r) => `${r.name} ${ms(r.medianMs)} ms >= ${r.targetMs} ms`) ?? []),
    ...(cached
      ?.filter((r) => !r.met)
      .map(
        (r) => `${r.name} cached ${r.ratio === null ? 'not measured' : `${r.ratio.toFixed(2)}x < ${CACHED_TARGET}x`}`,
      ) ?? []),
    ...(writes?.filter((w) => !w.met).map((w) => `${w.name} ${w.seconds.toFixed(1)} s >= ${w.targetS} s`) ?? []),
  ];
  console.log('');
  console.log(missed.length ? `MISSED (${missed.length}): ${missed.join('; ')}` : 'All targets met.');

  const resultsDir = path.join(BENCH_DIR, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const report = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    config: {
      ...NATIONWIDE_CONFIG,
      readRuns: READ_RUNS,
      connections: CONNECTIONS,
      warmupSeconds: LOAD_WARMUP_S,
      durationSeconds: LOAD_SECONDS,
      subscriptions: NATIONWIDE_SUBSCRIPTIONS,
    },
    database: { name: NATIONWIDE_DATABASE, ...info } satisfies Record<string, unknown> & BuildInfo,
    sizes,
    reads,
    cached,
    writes,
    missed,
    totalSeconds: Math.round((performance.now() - started) / 1000),
  };
  fs.writeFileSync(path.join(resultsDir, 'nationwide.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Results written to bench/results/nationwide.json (${report.totalSeconds} s in all)`);
}
