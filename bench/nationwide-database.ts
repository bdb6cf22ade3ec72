// The nationwide benchmark database (`npm run bench -- nationwide`), eggwatch_bench_nationwide:
// 15,000 store locations over the six chains in proportion to their US store counts
// (US_STORE_COUNTS, docs/features/scraping.md), each on a real ZIP code centroid (the geodata of
// src/server/geo.ts) in a state its chain serves, every state and DC covered; 20 products per
// store and 365 days of daily prices for every product at every location of its store (about
// 110 million observations), with price_entries and the rollup derived by the app's own code.
//
// Built set-based and kept between runs like today's benchmark database (ensureCachedDatabase in
// bench/database.ts: rebuilt only when missing, its migrations or build parameters changed or its
// counts are wrong). The load writes the days before the last with the observation indexes
// dropped and triggers off (session_replication_role = replica, so neither the statement triggers
// nor the foreign-key checks run per row), one INSERT ... SELECT per day in day order, as a real
// year of daily visits would lay the rows out; then it recreates the indexes exactly as they were
// defined (read back from the catalog, so whatever the migrations define is what it ends with),
// records each store and region's first scraped day as migration 009 does, and writes the last
// day with the triggers on, so the app's trigger derives price_entries (latest price and 7-day
// trend) for every product at every location. Then the real refreshRollups({ all: true }) (the
// region and per-store rollups and the current prices' sums, set-based) and `vacuum analyze`.
//
//   NATIONWIDE_LOCATIONS (15,000) and NATIONWIDE_DAYS (365) scale it down for development; a
//   scaled-down database has its own name (eggwatch_bench_nationwide_<locations>x<days>).
import type postgres from 'postgres';
import { allZipFacts, type ZipFacts } from '../src/server/geo.ts';
import type { Sql } from '../src/server/db.ts';
import { readMarketCsv, sampleAnchors, seedMarketPrices, seedStores, STORE_SEEDS } from '../src/server/seed.ts';
import { refreshRollups } from '../src/server/queries/rollups.ts';
import { addPricePartitionsBetween } from '../src/server/queries/price-history.ts';
import { storeShares } from '../src/shared/coverage.ts';
import { STORE_IDS, type EggType, type StoreId } from '../src/shared/vocabulary.ts';
import { ALBERTSONS_BANNERS, CHAIN_STATES, KROGER_BANNERS, type Banner } from '../test/retailers/network.ts';
import { utcDayBefore, type CachedDatabaseSpec } from './database.ts';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
};

/** The 20 packs every store sells: brand 0 is the store's own brand, brand 1 its second (organic) one. */
export const NATIONWIDE_PACKS: ReadonlyArray<{ eggType: EggType; count: number; brand: 0 | 1 }> = [
  { eggType: 'standard', count: 6, brand: 0 },
  { eggType: 'standard', count: 12, brand: 0 },
  { eggType: 'standard', count: 18, brand: 0 },
  { eggType: 'standard', count: 24, brand: 0 },
  { eggType: 'standard', count: 36, brand: 0 },
  { eggType: 'standard', count: 60, brand: 0 },
  { eggType: 'standard', count: 12, brand: 1 },
  { eggType: 'cage_free', count: 6, brand: 0 },
  { eggType: 'cage_free', count: 12, brand: 0 },
  { eggType: 'cage_free', count: 18, brand: 0 },
  { eggType: 'cage_free', count: 24, brand: 0 },
  { eggType: 'cage_free', count: 12, brand: 1 },
  { eggType: 'organic', count: 6, brand: 1 },
  { eggType: 'organic', count: 12, brand: 1 },
  { eggType: 'organic', count: 18, brand: 1 },
  { eggType: 'organic', count: 12, brand: 0 },
  { eggType: 'pasture_raised', count: 6, brand: 0 },
  { eggType: 'pasture_raised', count: 12, brand: 0 },
  { eggType: 'pasture_raised', count: 18, brand: 0 },
  { eggType: 'pasture_raised', count: 12, brand: 1 },
];

/** Build parameters; any change makes the next run rebuild. */
export const NATIONWIDE_CONFIG = {
  format: 1,
  locations: envInt('NATIONWIDE_LOCATIONS', 15_000),
  productsPerStore: NATIONWIDE_PACKS.length,
  days: envInt('NATIONWIDE_DAYS', 365),
} as const;

export const NATIONWIDE_DATABASE =
  NATIONWIDE_CONFIG.locations === 15_000 && NATIONWIDE_CONFIG.days === 365
    ? 'eggwatch_bench_nationwide'
    : `eggwatch_bench_nationwide_${NATIONWIDE_CONFIG.locations}x${NATIONWIDE_CONFIG.days}`;

export const NATIONWIDE_OBSERVATIONS =
  NATIONWIDE_CONFIG.locations * NATIONWIDE_CONFIG.productsPerStore * NATIONWIDE_CONFIG.days;

const TYPE_PREMIUM: Record<EggType, number> = { standard: 1, cage_free: 1.3, organic: 1.5, pasture_raised: 1.7 };
/** A pack of the store's second brand costs 4% more than its own brand's. */
const BRAND_FACTOR = Object.fromEntries(
  NATIONWIDE_PACKS.map((pack, i) => [`nw-${i + 1}`, pack.brand === 1 ? 1.04 : 1]),
);

export interface NationwideLocation {
  storeId: StoreId;
  zip: string;
  state: string;
  city: string;
  region: ZipFacts['region'];
  latitude: number;
  longitude: number;
  banner: string | null;
  name: string;
  retailerLocationId: string;
}

/** The banner of a Kroger or Albertsons store in a state: one of the chain's banners there, by turns. */
function bannerIn(chain: StoreId, state: string, n: number): Banner | null {
  const banners = chain === 'kroger' ? KROGER_BANNERS : chain === 'albertsons' ? ALBERTSONS_BANNERS : null;
  if (!banners) return null;
  const here = banners.filter((b) => b.states.includes(state as Banner['states'][number]));
  return here.length ? here[n % here.length]! : banners[0]!;
}

/**
 * `total` store locations: each chain's share (storeShares) spread evenly over the ZIP codes, in
 * ZIP order, of the states it serves (so a state gets stores in proportion to its ZIP codes), each
 * at its ZIP's centroid. Deterministic; no two stores of a chain share a ZIP.
 */
export function nationwideLocations(total: number): NationwideLocation[] {
  const zips = allZipFacts();
  const shares = storeShares(total);
  const locations: NationwideLocation[] = [];
  for (const chain of STORE_IDS) {
    const seed = STORE_SEEDS.find((s) => s.id === chain)!;
    const states = new Set(CHAIN_STATES[chain]);
    const candidates = zips.filter((z) => states.has(z.state));
    const n = shares[chain];
    if (n > candidates.length)
      throw new Error(`${chain}: ${n} stores but only ${candidates.length} ZIP codes in its states`);
    for (let i = 0; i < n; i++) {
      const at = candidates[Math.floor(((i + 0.5) * candidates.length) / n)]!;
      const banner = bannerIn(chain, at.state, i);
      // Whole Foods ids are 5-digit 10xxx numbers, as the real ones; the others plain numbers.
      const id = chain === 'whole-foods' ? String(10_000 + i) : String(1000 + i);
      locations.push({
        storeId: chain,
        zip: at.zip,
        state: at.state,
        city: at.city,
        region: at.region,
        latitude: at.latitude,
        longitude: at.longitude,
        banner: banner?.name ?? null,
        name: `${banner?.name ?? seed.store_name} ${at.city}`,
        retailerLocationId: id,
      });
    }
  }
  return locations;
}

type Run = postgres.ReservedSql<Record<string, never>> | Sql;

/**
 * THE one statement that writes generated observations: every product at every location of its
 * store (the session's nationwide_pairs) priced on day `d` of the build (0 is the first day).
 * Every observation the builder writes goes through here, so a column every writer must set is
 * one line (as `observed_on`, the day the history is partitioned by).
 *
 * The price: the pair's base (BLS national price x the region's ratio x the type's premium x the
 * store's level x a per-location factor, per dozen times the pack's dozens) moved by a national
 * yearly wave (+-8%, so medians trend), a 30-day and a 9-day wave with a per-pair phase, and a
 * little deterministic noise; shelf prices end in 9 cents. About one week in 13 a pair is on sale
 * (15% off, its regular price kept), which the ticker's sale events read.
 */
function insertObservations(sql: Run, d: number) {
  return sql`
    insert into price_observations (product_id, location_id, price, regular_price, in_stock, source, observed_at, observed_on)
    select product_id, location_id,
           case when on_sale then greatest(0.49, floor(shelf * 0.85 * 10) / 10 + 0.09) else shelf end::numeric(8,2),
           case when on_sale then shelf end::numeric(8,2),
           true,
           'scrape',
           observed_at,
           utc_day(observed_at)
    from (
      select pr.product_id, pr.location_id,
             (current_date - ${NATIONWIDE_CONFIG.days}::int + ${d}::int)::timestamp at time zone 'UTC'
               + interval '6 hours' + (pr.location_id % 600) * interval '1 minute' as observed_at,
             greatest(0.49, floor(pr.base * (1
               + 0.08 * sin(2 * pi() * (${d}::int + pr.region_phase) / 365)
               + 0.035 * sin(2 * pi() * (${d}::int + pr.phase) / 30)
               + 0.015 * sin(2 * pi() * (${d}::int + pr.phase * 0.7) / 9)
               + 0.01 * (((pr.location_id::bigint * 7919 + pr.product_id::bigint * 104729 + ${d}::bigint * 31337) % 1000) / 1000.0 - 0.5)
             ) * 10) / 10 + 0.09) as shelf,
             ((pr.location_id::bigint * 31 + pr.product_id::bigint * 17 + (${d}::int + pr.week_shift) / 7) % 13) = 0 as on_sale
      from nationwide_pairs pr
    ) priced
    order by location_id, product_id`;
}

/** price_observations' constraints (primary key, unique) and other indexes, as the catalog defines them. */
async function observationIndexes(
  sql: Run,
): Promise<{ constraints: Array<{ name: string; def: string }>; indexes: Array<{ name: string; def: string }> }> {
  const constraints = await sql<Array<{ name: string; def: string }>>`
    select conname as name, pg_get_constraintdef(oid) as def
    from pg_constraint
    where conrelid = 'public.price_observations'::regclass and contype in ('p', 'u')
    order by contype, conname`;
  const indexes = await sql<Array<{ name: string; def: string }>>`
    select i.relname as name, pg_get_indexdef(i.oid) as def
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    where x.indrelid = 'public.price_observations'::regclass
      and not exists (select 1 from pg_constraint c where c.conindid = i.oid)
    order by i.relname`;
  return { constraints, indexes };
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function build(sql: Sql, log: (line: string) => void): Promise<void> {
  const step = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await fn();
    log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };
  const { locations: total, days } = NATIONWIDE_CONFIG;
  const anchors = sampleAnchors(readMarketCsv());
  const storeLevel = Object.fromEntries(STORE_SEEDS.map((s) => [s.id, s.level]));

  await step('seed stores and BLS series', async () => {
    await seedStores(sql);
    await seedMarketPrices(sql);
  });

  await step(
    `${STORE_IDS.length * NATIONWIDE_PACKS.length} products and ${total.toLocaleString('en-US')} locations`,
    async () => {
      const rows = STORE_SEEDS.flatMap((store) => NATIONWIDE_PACKS.map((pack, i) => ({ store, pack, i })));
      const brand = (r: (typeof rows)[number]) => r.store.brands[r.pack.brand]!;
      await sql`
      insert into products (store_id, retailer_product_id, title, brand, egg_type, count, size_grade, url)
      select * from unnest(
        ${sql.array(rows.map((r) => r.store.id))}::text[],
        ${sql.array(rows.map((r) => `nw-${r.i + 1}`))}::text[],
        ${sql.array(rows.map((r) => `${brand(r)} ${r.pack.eggType.replace('_', '-')} Large Grade A Eggs, ${r.pack.count} ct`))}::text[],
        ${sql.array(rows.map(brand))}::text[],
        ${sql.array(rows.map((r) => r.pack.eggType))}::text[],
        ${sql.array(rows.map((r) => r.pack.count))}::int[],
        ${sql.array(rows.map(() => 'Large, Grade A'))}::text[],
        ${sql.array(rows.map((r) => `https://www.${r.store.domain}/product/nw-${r.i + 1}`))}::text[])`;
      const locations = nationwideLocations(total);
      await sql`
      insert into store_locations (store_id, zip, region, retailer_location_id, name, city, state, latitude, longitude, coordinates_source, banner, last_seen_at)
      select s, z, r, id, n, c, st, lat, lon, 'zip', b, now() from unnest(
        ${sql.array(locations.map((l) => l.storeId))}::text[],
        ${sql.array(locations.map((l) => l.zip))}::text[],
        ${sql.array(locations.map((l) => l.region))}::text[],
        ${sql.array(locations.map((l) => l.retailerLocationId))}::text[],
        ${sql.array(locations.map((l) => l.name))}::text[],
        ${sql.array(locations.map((l) => l.city))}::text[],
        ${sql.array(locations.map((l) => l.state))}::text[],
        ${sql.array(locations.map((l) => l.latitude))}::float8[],
        ${sql.array(locations.map((l) => l.longitude))}::float8[],
        ${sql.array(locations.map((l) => l.banner ?? ''))}::text[]) as u(s, z, r, id, n, c, st, lat, lon, b0)
      cross join lateral (select nullif(b0, '') as b) banner`;
      await sql`analyze products, store_locations`;
    },
  );

  // One connection for the load: the pairs table is temporary and the trigger switch per session.
  const run = await sql.reserve();
  try {
    await run`set work_mem = '256MB'`;
    await run`set maintenance_work_mem = '1GB'`;
    await run`set synchronous_commit = off`;
    await run`
      create temp table nationwide_pairs as
      select p.id as product_id, l.id as location_id,
             ${anchors.national}::float8
               * (${run.json(anchors.regionRatio)}::jsonb ->> l.region)::float8
               * (${run.json(TYPE_PREMIUM)}::jsonb ->> p.egg_type)::float8
               * (${run.json(storeLevel)}::jsonb ->> l.store_id)::float8
               * (0.92 + ((l.id::bigint * 2654435761) % 1000) / 1000.0 * 0.16)
               * (${run.json(BRAND_FACTOR)}::jsonb ->> p.retailer_product_id)::float8
               / 12 * p.count
               * case when p.count < 12 then 1.05 when p.count > 12 then 0.97 else 1 end as base,
             ((l.id::bigint * 40503 + p.id::bigint * 9973) % 600) / 10.0 as phase,
             case l.region when 'northeast' then 0 when 'midwest' then 20 when 'south' then 45 else 70 end as region_phase,
             ((l.id * 3 + p.id) % 7) as week_shift
      from products p
      join store_locations l on l.store_id = p.store_id`;

    // Every month's partition first, so the load goes straight to its month (not the default partition).
    await addPricePartitionsBetween(run, utcDayBefore(days), utcDayBefore(1));
    const { constraints, indexes } = await observationIndexes(run);
    if (days > 1) {
      await step(`drop price_observations' ${constraints.length + indexes.length} indexes for the load`, async () => {
        for (const index of indexes) await run.unsafe(`drop index ${ident(index.name)}`);
        for (const constraint of constraints)
          await run.unsafe(`alter table price_observations drop constraint ${ident(constraint.name)}`);
      });
      await step(
        `days 1 to ${days - 1}: ${((days - 1) * total * NATIONWIDE_PACKS.length).toLocaleString('en-US')} observations, one INSERT ... SELECT a day, triggers off`,
        async () => {
          await run`set session_replication_role = replica`;
          const started = performance.now();
          for (let d = 0; d < days - 1; d++) {
            await insertObservations(run, d);
            if ((d + 1) % 30 === 0) log(`    ${d + 1} days in ${((performance.now() - started) / 1000).toFixed(0)} s`);
          }
          await run`set session_replication_role = origin`;
        },
      );
      await step('recreate the indexes', async () => {
        await run`set max_parallel_maintenance_workers = 2`;
        for (const constraint of constraints)
          await run.unsafe(`alter table price_observations add constraint ${ident(constraint.name)} ${constraint.def}`);
        // A partitioned index reads "ON ONLY" (the parent alone): built on every partition here.
        for (const index of indexes) await run.unsafe(index.def.replace(/ ON ONLY /, ' ON '));
      });
      const after = await observationIndexes(run);
      if (JSON.stringify(after) !== JSON.stringify({ constraints, indexes })) {
        throw new Error(`price_observations' indexes differ after the load: ${JSON.stringify(after)}`);
      }
      // What the switch trigger would have recorded: each store and region's first scraped day
      // (the statement of migration 009).
      await step(
        'store_region_switches',
        () => run`
        insert into store_region_switches (store_id, region, switched_on)
        select l.store_id, l.region, min(o.observed_on)
        from price_observations o
        join store_locations l on l.id = o.location_id
        where o.source <> 'sample'
        group by l.store_id, l.region`,
      );
      await run`analyze price_observations`;
    }
    await step(`day ${days} with the triggers on (they derive price_entries)`, () => insertObservations(run, days - 1));
  } finally {
    run.release();
  }

  // A factor that came out null would make every price the 0.49 floor: check the spread.
  const [spread] = await sql<{ prices: number; low: number; high: number }[]>`
    select count(distinct price)::int as prices, min(price) as low, max(price) as high from price_entries`;
  if (!spread || spread.prices < 100 || spread.low <= 0.49)
    throw new Error(`Implausible generated prices: ${JSON.stringify(spread)}`);
  log(`  current prices: ${spread.prices} distinct, $${spread.low} to $${spread.high}`);

  await step('refreshRollups({ all: true })', () => refreshRollups(sql, { all: true }));
  await step('vacuum analyze', () => sql`vacuum analyze`);
}

export const NATIONWIDE_SPEC: CachedDatabaseSpec = {
  name: NATIONWIDE_DATABASE,
  config: NATIONWIDE_CONFIG,
  expected: {
    locations: NATIONWIDE_CONFIG.locations,
    products: STORE_IDS.length * NATIONWIDE_PACKS.length,
    observations: NATIONWIDE_OBSERVATIONS,
    entries: NATIONWIDE_CONFIG.locations * NATIONWIDE_PACKS.length,
    rollupDays: NATIONWIDE_CONFIG.days,
  },
  trustObservationCount: true,
  // Its build takes many minutes at full size: a new migration is applied to it (and timed on
  // nationwide data) rather than the whole database built again.
  migrateForward: true,
  // A migration that adds figures leaves some to the refresh (migration 020's finished map
  // figures): the worker's nightly full refresh, as after the first night in use.
  afterMigrations: {
    what: "the worker's nightly full rollup refresh (refreshRollups({ all: true }))",
    run: (sql) => refreshRollups(sql, { all: true }),
  },
  build,
};
