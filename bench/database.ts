// The benchmark's own large database, eggwatch_bench: 2,000 store locations over the six stores
// and four regions, 12 products per store and 100 days of daily scraped prices for every product
// at every location of its store (2.4 million observations), with the rollup refreshed. Built
// set-based (one INSERT ... SELECT from generate_series, so the statement-level trigger derives
// price_entries in one pass) and kept between runs: it is rebuilt only when it is missing or its
// schema version, build parameters or row counts no longer match.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { openSql, type Sql } from '../src/server/db.ts';
import { migrate } from '../src/server/migrate.ts';
import { ensureDatabase } from '../src/server/embedded-db.ts';
import { readMarketCsv, sampleAnchors, seedMarketPrices, seedStores, STORE_SEEDS } from '../src/server/seed.ts';
import { refreshRollups } from '../src/server/queries/rollups.ts';
import { addPricePartitionsBetween } from '../src/server/queries/price-history.ts';
import { utcDay } from '../src/shared/format.ts';
import { zipToRegion } from '../src/shared/zip.ts';
import { REGIONS, type EggType, type Region } from '../src/shared/vocabulary.ts';

/** The UTC day `days` days before today, as YYYY-MM-DD (the builds' days end yesterday). */
export const utcDayBefore = (days: number) => utcDay(Date.now() - days * 86_400_000);

export const BENCH_DATABASE = 'eggwatch_bench';
const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

/** The 12 packs every store sells in the benchmark. */
export const BENCH_PACKS: Array<{ egg_type: EggType; count: number }> = [
  { egg_type: 'standard', count: 6 },
  { egg_type: 'standard', count: 12 },
  { egg_type: 'standard', count: 18 },
  { egg_type: 'standard', count: 24 },
  { egg_type: 'cage_free', count: 6 },
  { egg_type: 'cage_free', count: 12 },
  { egg_type: 'cage_free', count: 18 },
  { egg_type: 'cage_free', count: 24 },
  { egg_type: 'organic', count: 12 },
  { egg_type: 'organic', count: 18 },
  { egg_type: 'pasture_raised', count: 12 },
  { egg_type: 'pasture_raised', count: 24 },
];

/** Build parameters; any change here makes the next run rebuild. */
export const BENCH_CONFIG = {
  format: 2,
  locations: 2000,
  productsPerStore: BENCH_PACKS.length,
  days: 100,
} as const;

export const EXPECTED_OBSERVATIONS = BENCH_CONFIG.locations * BENCH_CONFIG.productsPerStore * BENCH_CONFIG.days;

const TYPE_PREMIUM: Record<EggType, number> = { standard: 1, cage_free: 1.3, organic: 1.5, pasture_raised: 1.7 };

/** The URL of another database on the same server. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Migration files as postgrator numbers them: version and name. */
function migrationFiles(): Array<{ version: number; name: string }> {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .map((file) => /^(\d+)\.do\.(.+)\.sql$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ version: Number(m[1]), name: m[2]! }))
    .sort((a, b) => a.version - b.version);
}

export interface BuildInfo {
  rebuilt: boolean;
  /** Why it was rebuilt (or 'up to date'). */
  reason: string;
  /** Milliseconds the build took (this run's, or the cached build's). */
  buildMs: number;
  builtAt: string;
  counts: { locations: number; products: number; observations: number; entries: number; rollupDays: number };
  /** The migrations this run applied to a kept database (spec.migrateForward), each with its time. */
  migrated: Array<{ version: number; name: string; seconds: number }>;
  /** What the spec ran after those migrations (afterMigrations), with its time. */
  settled: { what: string; seconds: number } | null;
}

/**
 * A benchmark database kept between runs: its name, the build parameters recorded in its marker
 * (any change rebuilds it), the row counts a complete build has, and how to fill a freshly
 * migrated database.
 */
export interface CachedDatabaseSpec {
  name: string;
  config: Readonly<Record<string, string | number | boolean>>;
  expected: BuildInfo['counts'];
  /**
   * Trust the marker for the observation count instead of counting them each run (a count over
   * 110 million rows takes many seconds): the build checks every count before it writes the marker.
   */
  trustObservationCount?: boolean;
  /**
   * A kept database whose applied migrations are the first of the project's is migrated to the
   * rest, each timed, instead of rebuilt: for a database whose build takes many minutes, and what
   * a production database of that size goes through.
   */
  migrateForward?: boolean;
  /**
   * What the app does after new migrations before the database is as it would be in use (say,
   * derived tables a migration leaves to the worker's next refresh); timed as part of them.
   */
  afterMigrations?: { what: string; run(sql: Sql): Promise<unknown> };
  build(sql: Sql, log: (line: string) => void): Promise<void>;
}

type Migration = ReturnType<typeof migrationFiles>[number];

/**
 * What is wrong with the existing database (it is rebuilt), the migrations it lacks (it is migrated
 * forward), or null when it is complete and current.
 */
async function staleReason(
  adminUrl: string,
  url: string,
  spec: CachedDatabaseSpec,
): Promise<string | { pending: Migration[] } | null> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 as present from pg_database where datname = ${spec.name}`;
    if (!exists) return 'missing';
  } finally {
    await admin.end();
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [tables] = await sql<{ marker: string | null; versions: string | null }[]>`
      select to_regclass('public.bench_build')::text as marker, to_regclass('public.schemaversion')::text as versions`;
    if (!tables?.marker || !tables.versions) return 'incomplete (no build marker)';
    const applied = await sql<{ version: string; name: string }[]>`
      select version::text as version, name from schemaversion where version > 0 order by schemaversion.version`;
    const wanted = migrationFiles();
    const prefix =
      applied.length <= wanted.length &&
      applied.every((row, i) => Number(row.version) === wanted[i]!.version && row.name === wanted[i]!.name);
    if (!prefix || (applied.length < wanted.length && !spec.migrateForward)) {
      return `schema version differs (database ${applied.map((r) => r.version).join(',') || 'none'}, migrations ${wanted.map((m) => m.version).join(',')})`;
    }
    const [marker] = await sql<{ config: unknown }[]>`select config from bench_build order by built_at desc limit 1`;
    const config = (marker?.config ?? {}) as Record<string, unknown>;
    const sameConfig =
      Object.keys(config).length === Object.keys(spec.config).length &&
      Object.entries(spec.config).every(([key, value]) => config[key] === value);
    if (!sameConfig) return 'build parameters changed';
    const wrong = countsDiffer(await readCounts(sql as unknown as Sql, spec), spec.expected);
    return wrong ?? (applied.length < wanted.length ? { pending: wanted.slice(applied.length) } : null);
  } finally {
    await sql.end();
  }
}

/** Which count is not the expected one, or null when all are. */
function countsDiffer(counts: BuildInfo['counts'], expected: BuildInfo['counts']): string | null {
  const names: Record<keyof BuildInfo['counts'], string> = {
    locations: 'store_locations count',
    products: 'products count',
    observations: 'price_observations count',
    entries: 'price_entries count',
    rollupDays: 'rollup days',
  };
  for (const key of Object.keys(names) as Array<keyof BuildInfo['counts']>) {
    if (counts[key] !== expected[key]) return `${names[key]} ${counts[key]} (expected ${expected[key]})`;
  }
  return null;
}

async function readCounts(sql: Sql, spec?: CachedDatabaseSpec): Promise<BuildInfo['counts']> {
  const observations = spec?.trustObservationCount
    ? sql`${spec.expected.observations}::bigint`
    : sql`(select count(*) from price_observations)`;
  const [row] = await sql<BuildInfo['counts'][]>`
    select (select count(*)::int from store_locations) as locations,
           (select count(*)::int from products) as products,
           ${observations}::float8 as observations,
           (select count(*)::int from price_entries) as entries,
           (select count(distinct day)::int from price_daily_rollups) as "rollupDays"`;
  return row!;
}

/** Distinct real-looking ZIPs per region: 3-digit USPS prefixes of that region, suffixes 01..99. */
function zipsByRegion(): Record<Region, string[]> {
  const prefixes = {} as Record<Region, string[]>;
  for (const region of REGIONS) prefixes[region] = [];
  for (let p = 5; p <= 999; p++) {
    const prefix = String(p).padStart(3, '0');
    const region = zipToRegion(`${prefix}01`);
    if (region) prefixes[region].push(prefix);
  }
  const zips = {} as Record<Region, string[]>;
  for (const region of REGIONS) {
    zips[region] = [];
    // Spread over the region's prefixes first, then more ZIPs within each.
    for (let suffix = 1; suffix <= 99; suffix++) {
      for (const prefix of prefixes[region]) {
        const zip = `${prefix}${String(suffix).padStart(2, '0')}`;
        if (zipToRegion(zip) === region) zips[region].push(zip);
      }
    }
  }
  return zips;
}

interface LocationSeed {
  store_id: string;
  zip: string;
  region: Region;
  name: string;
  retailer_location_id: string;
}

function benchLocations(): LocationSeed[] {
  const zips = zipsByRegion();
  const used: Record<Region, number> = { northeast: 0, midwest: 0, south: 0, west: 0 };
  const perStore = new Map<string, number>();
  const locations: LocationSeed[] = [];
  for (let i = 0; i < BENCH_CONFIG.locations; i++) {
    const store = STORE_SEEDS[i % STORE_SEEDS.length]!;
    const n = perStore.get(store.id) ?? 0;
    perStore.set(store.id, n + 1);
    const region = store.regions_served[n % store.regions_served.length]!;
    const zip = zips[region][used[region]++];
    if (!zip) throw new Error(`Ran out of ZIPs for ${region}`);
    locations.push({
      store_id: store.id,
      zip,
      region,
      name: `${store.store_name} #${1000 + n}`,
      retailer_location_id: `${store.id}-${1000 + n}`,
    });
  }
  return locations;
}

async function build(sql: Sql, log: (line: string) => void): Promise<void> {
  const step = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await fn();
    log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };
  const anchors = sampleAnchors(readMarketCsv());
  const storeLevel = Object.fromEntries(STORE_SEEDS.map((s) => [s.id, s.level]));

  await step('seed stores and BLS series', async () => {
    await seedStores(sql);
    await seedMarketPrices(sql);
  });

  await step(`products and ${BENCH_CONFIG.locations} locations`, async () => {
    const stores = STORE_SEEDS.flatMap((s) => BENCH_PACKS.map(() => s));
    const packs = STORE_SEEDS.flatMap(() => BENCH_PACKS);
    await sql`
      insert into products (store_id, retailer_product_id, title, brand, egg_type, count, size_grade, url)
      select * from unnest(
        ${sql.array(stores.map((s) => s.id))}::text[],
        ${sql.array(packs.map((p) => `bench-${p.egg_type}-${p.count}`))}::text[],
        ${sql.array(packs.map((p, i) => `${p.egg_type === 'organic' ? stores[i]!.brands[1] : stores[i]!.brands[0]} ${p.egg_type.replace('_', '-')} Large Grade A Eggs, ${p.count} ct`))}::text[],
        ${sql.array(packs.map((p, i) => (p.egg_type === 'organic' ? stores[i]!.brands[1] : stores[i]!.brands[0])))}::text[],
        ${sql.array(packs.map((p) => p.egg_type))}::text[],
        ${sql.array(packs.map((p) => p.count))}::int[],
        ${sql.array(packs.map(() => 'Large, Grade A'))}::text[],
        ${sql.array(packs.map((p, i) => `https://www.${stores[i]!.domain}/product/bench-${p.egg_type}-${p.count}`))}::text[])
      on conflict (store_id, retailer_product_id) do nothing`;
    const locations = benchLocations();
    await sql`
      insert into store_locations (store_id, zip, region, name, retailer_location_id)
      select * from unnest(
        ${sql.array(locations.map((l) => l.store_id))}::text[],
        ${sql.array(locations.map((l) => l.zip))}::text[],
        ${sql.array(locations.map((l) => l.region))}::text[],
        ${sql.array(locations.map((l) => l.name))}::text[],
        ${sql.array(locations.map((l) => l.retailer_location_id))}::text[])`;
  });

  // Every location prices every product of its store every day. Base price per pack from the
  // BLS anchor, the region's ratio, the type premium, the store's level and a per-location
  // factor; daily swings (30- and 9-day waves with a per-pair phase) plus deterministic noise;
  // shelf prices end in 9 cents. Ordered by the unique index's key so its B-tree fills in order.
  await step(
    `${EXPECTED_OBSERVATIONS.toLocaleString('en-US')} observations (one INSERT ... SELECT; trigger derives price_entries)`,
    () =>
      sql.begin(async (tx) => {
        await tx`set local work_mem = '256MB'`;
        await tx`set local maintenance_work_mem = '512MB'`;
        await addPricePartitionsBetween(tx, utcDayBefore(BENCH_CONFIG.days), utcDayBefore(1));
        await tx`set local synchronous_commit = off`;
        await tx`
        with params as (
          select ${tx.json(anchors.regionRatio)}::jsonb as region_ratio,
                 ${tx.json(TYPE_PREMIUM)}::jsonb as type_premium,
                 ${tx.json(storeLevel)}::jsonb as store_level,
                 ${anchors.national}::float8 as national
        ),
        pairs as (
          select p.id as product_id, l.id as location_id,
                 params.national
                   * (params.region_ratio ->> l.region)::float8
                   * (params.type_premium ->> p.egg_type)::float8
                   * (params.store_level ->> l.store_id)::float8
                   * (0.92 + ((l.id::bigint * 2654435761) % 1000) / 1000.0 * 0.16)
                   / 12 * p.count
                   * case when p.count < 12 then 1.05 when p.count > 12 then 0.97 else 1 end as base,
                 ((l.id::bigint * 40503 + p.id::bigint * 9973) % 600) / 10.0 as phase
          from products p
          join store_locations l on l.store_id = p.store_id
          cross join params
        )
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        select pr.product_id, pr.location_id,
               greatest(0.49, floor(pr.base * (1
                 + 0.035 * sin(2 * pi() * (d + pr.phase) / 30)
                 + 0.015 * sin(2 * pi() * (d + pr.phase * 0.7) / 9)
                 + 0.01 * (((pr.location_id::bigint * 7919 + pr.product_id::bigint * 104729 + d::bigint * 31337) % 1000) / 1000.0 - 0.5)
               ) * 10) / 10 + 0.09)::numeric(8,2),
               t.observed_at, utc_day(t.observed_at),
               'scrape'
        from pairs pr
        cross join generate_series(0, ${BENCH_CONFIG.days - 1}::int) as d
        cross join lateral (
          select (current_date - ${BENCH_CONFIG.days}::int + d)::timestamp at time zone 'UTC'
                   + interval '6 hours' + (pr.location_id % 240) * interval '1 minute' as observed_at
        ) t
        order by pr.product_id, pr.location_id, d`;
      }),
  );

  // A factor that came out null would make every price the 0.49 floor: check the spread.
  const [spread] = await sql<{ prices: number; low: number; high: number }[]>`
    select count(distinct price)::int as prices, min(price) as low, max(price) as high from price_entries`;
  if (!spread || spread.prices < 100 || spread.low <= 0.49) {
    throw new Error(`Implausible generated prices: ${JSON.stringify(spread)}`);
  }
  log(`  current prices: ${spread.prices} distinct, $${spread.low} to $${spread.high}`);

  await step('vacuum analyze', async () => {
    await sql`vacuum analyze price_observations, price_entries, store_locations, products, stores`;
  });
  // Fills the region rollup, the per-store rollup and the current prices' sums (migration 016).
  await step('refreshRollups({ all: true })', () => refreshRollups(sql, { all: true }));
  await sql`vacuum analyze price_daily_rollups, price_store_daily_rollups, price_store_current_rollups`;
}

/** Today's benchmark database (the quick figures of `npm run bench`). */
export const BENCH_SPEC: CachedDatabaseSpec = {
  name: BENCH_DATABASE,
  config: BENCH_CONFIG,
  expected: {
    locations: BENCH_CONFIG.locations,
    products: STORE_SEEDS.length * BENCH_CONFIG.productsPerStore,
    observations: EXPECTED_OBSERVATIONS,
    entries: BENCH_CONFIG.locations * BENCH_CONFIG.productsPerStore,
    rollupDays: BENCH_CONFIG.days,
  },
  build,
};

/**
 * Makes sure eggwatch_bench on the server at adminUrl is complete and current, building it when
 * not; returns its URL and what happened.
 */
export function ensureBenchDatabase(
  adminUrl: string,
  log: (line: string) => void,
): Promise<{ url: string; info: BuildInfo }> {
  return ensureCachedDatabase(adminUrl, BENCH_SPEC, log);
}

/**
 * Makes sure the database of `spec` on the server at adminUrl is complete and current: rebuilt
 * (dropped, migrated, filled by spec.build, its counts checked, then marked) when it is missing,
 * its schema version or build parameters changed, or its row counts are not the expected ones.
 */
export async function ensureCachedDatabase(
  adminUrl: string,
  spec: CachedDatabaseSpec,
  log: (line: string) => void,
): Promise<{ url: string; info: BuildInfo }> {
  const url = databaseUrl(adminUrl, spec.name);
  const reason = await staleReason(adminUrl, url, spec);
  if (reason === null || typeof reason === 'object') {
    const sql = await openSql(url, { max: 2 });
    try {
      const migrated: BuildInfo['migrated'] = [];
      for (const migration of reason?.pending ?? []) {
        log(`Migrating ${spec.name} forward: ${migration.version} ${migration.name}...`);
        const started = performance.now();
        await migrate(sql, url, { to: migration.version });
        migrated.push({ ...migration, seconds: (performance.now() - started) / 1000 });
        log(`  ${migrated.at(-1)!.seconds.toFixed(1)} s`);
      }
      let settled: BuildInfo['settled'] = null;
      if (migrated.length > 0 && spec.afterMigrations) {
        log(`Then ${spec.afterMigrations.what}...`);
        const started = performance.now();
        await spec.afterMigrations.run(sql);
        settled = { what: spec.afterMigrations.what, seconds: (performance.now() - started) / 1000 };
        log(`  ${settled.seconds.toFixed(1)} s`);
      }
      const counts = await readCounts(sql, spec);
      const wrong = countsDiffer(counts, spec.expected);
      if (wrong) throw new Error(`${spec.name} after its migrations: ${wrong}`);
      const [marker] = await sql<{ build_ms: number; built_at: string }[]>`
        select build_ms, built_at::text as built_at from bench_build order by built_at desc limit 1`;
      const why =
        migrated.length > 0 ? `migrated forward (${migrated.map((m) => m.version).join(', ')})` : 'up to date';
      return {
        url,
        info: {
          rebuilt: false,
          reason: why,
          buildMs: marker!.build_ms,
          builtAt: marker!.built_at,
          counts,
          migrated,
          settled,
        },
      };
    } finally {
      await sql.end();
    }
  }

  log(`Building ${spec.name} (${reason})`);
  const started = performance.now();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${spec.name}" with (force)`);
  } finally {
    await admin.end();
  }
  await ensureDatabase(adminUrl, spec.name);
  const sql = await openSql(url, { max: 2 });
  try {
    const migrateStarted = performance.now();
    await migrate(sql, url);
    log(`  migrate: ${((performance.now() - migrateStarted) / 1000).toFixed(1)} s`);
    await spec.build(sql, log);
    const counts = await readCounts(sql);
    const wrong = countsDiffer(counts, spec.expected);
    if (wrong) throw new Error(`The build of ${spec.name} is incomplete: ${wrong}`);
    const buildMs = Math.round(performance.now() - started);
    // The marker goes last: a build interrupted before this point is rebuilt next time.
    await sql`create table bench_build (config jsonb not null, build_ms integer not null, built_at timestamptz not null default now())`;
    await sql`insert into bench_build (config, build_ms) values (${sql.json(spec.config as never)}, ${buildMs})`;
    const [marker] = await sql<{ built_at: string }[]>`select built_at::text as built_at from bench_build`;
    log(`Built ${spec.name} in ${(buildMs / 1000).toFixed(1)} s`);
    return {
      url,
      info: { rebuilt: true, reason, buildMs, builtAt: marker!.built_at, counts, migrated: [], settled: null },
    };
  } finally {
    await sql.end();
  }
}

/**
 * A fresh copy of eggwatch_bench (or of `template`) named `name` on the same server (for benchmarks that write),
 * replacing any older one; returns its URL. A template database must have no connections: the
 * benchmark's own are closed first (their pools reconnect when used).
 */
export async function copyBenchDatabase(
  adminUrl: string,
  name: string,
  template: string = BENCH_DATABASE,
): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${template} and pid <> pg_backend_pid()`;
    // FILE_COPY copies the files as they are: for a database of many gigabytes far faster than
    // WAL_LOG (PostgreSQL 15's default), which writes every block through the WAL.
    await admin.unsafe(`create database "${name}" template "${template}" strategy = file_copy`);
  } finally {
    await admin.end();
  }
  return databaseUrl(adminUrl, name);
}

/** Drops a copy made by copyBenchDatabase (its remaining connections are closed). */
export async function dropBenchCopy(adminUrl: string, name: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}
