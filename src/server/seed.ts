// Seed data for an empty database: the six stores, the BLS benchmark series from data/, and a
// deterministic sample catalogue (source 'sample') so a fresh install has prices to show before
// any scraper has run. Every function is idempotent: running it twice changes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { EGG_TYPE_LABELS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { Db, Sql } from './db.ts';
import { zipFacts } from './geo.ts';
import { addPricePartitionsBetween } from './queries/price-history.ts';

const DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data');

interface StoreSeed {
  id: string;
  store_name: string;
  domain: string;
  regions_served: Region[];
  /** Sample-catalogue brands: [everyday, organic]. */
  brands: [string, string];
  /** Sample-catalogue price level against the regional average (an assumption, sample only). */
  level: number;
}

export const STORE_SEEDS: StoreSeed[] = [
  {
    id: 'walmart',
    store_name: 'Walmart',
    domain: 'walmart.com',
    regions_served: ['northeast', 'midwest', 'south', 'west'],
    brands: ['Great Value', 'Great Value Organic'],
    level: 0.95,
  },
  {
    id: 'target',
    store_name: 'Target',
    domain: 'target.com',
    regions_served: ['northeast', 'midwest', 'south', 'west'],
    brands: ['Good & Gather', 'Good & Gather Organic'],
    level: 1.02,
  },
  {
    id: 'kroger',
    store_name: 'Kroger',
    domain: 'kroger.com',
    regions_served: ['midwest', 'south', 'west'],
    brands: ['Kroger', 'Simple Truth Organic'],
    level: 0.99,
  },
  {
    id: 'albertsons',
    store_name: 'Albertsons',
    domain: 'albertsons.com',
    regions_served: ['northeast', 'midwest', 'south', 'west'],
    brands: ['Lucerne', 'O Organics'],
    level: 1.06,
  },
  {
    id: 'whole-foods',
    store_name: 'Whole Foods',
    domain: 'wholefoodsmarket.com',
    regions_served: ['northeast', 'midwest', 'south', 'west'],
    brands: ['365 by Whole Foods Market', '365 by Whole Foods Market Organic'],
    level: 1.12,
  },
  {
    id: 'aldi',
    store_name: 'Aldi',
    domain: 'aldi.us',
    regions_served: ['northeast', 'midwest', 'south', 'west'],
    brands: ['Goldhen', 'Simply Nature'],
    level: 0.92,
  },
];

/**
 * One representative ZIP per region for the sample locations (the scrapers' default ZIPs); each
 * location takes its ZIP's centroid, city and state from the geodata (geo.ts).
 */
export const SAMPLE_ZIPS: Record<Region, string> = {
  northeast: '10001',
  midwest: '60611',
  south: '30301',
  west: '90210',
};

/** Sample packs per egg type. */
const SAMPLE_PACKS: Array<{ egg_type: EggType; count: number }> = [
  { egg_type: 'standard', count: 12 },
  { egg_type: 'standard', count: 18 },
  { egg_type: 'standard', count: 6 },
  { egg_type: 'cage_free', count: 12 },
  { egg_type: 'cage_free', count: 18 },
  { egg_type: 'organic', count: 12 },
  { egg_type: 'pasture_raised', count: 12 },
];

/** Premium of each egg type over standard eggs. */
const TYPE_PREMIUM: Record<EggType, number> = { standard: 1, cage_free: 1.3, organic: 1.5, pasture_raised: 1.7 };
/** Per-egg price of a pack against a dozen: small packs cost more per egg (1.05 / 0.97). */
const packFactor = (count: number) => (count < 12 ? 1.05 : count > 12 ? 0.97 : 1);

export const SAMPLE_DAYS = 120;

interface CsvRow {
  series_id: string;
  region: string;
  item?: string;
  year: string;
  month: string;
  price_usd_per_dozen: string;
}

interface MarketRow {
  series_id: string;
  region: string;
  item: string;
  grade: 'A' | 'AA';
  period: string;
  price: number;
}

export function readMarketCsv(): MarketRow[] {
  const read = (file: string) =>
    parse(fs.readFileSync(path.join(DATA_DIR, file)), { columns: true, skip_empty_lines: true }) as CsvRow[];
  const rows = [
    ...read('bls_egg_prices.csv').map((r) => ({ ...r, item: 'Eggs, grade A, large, per doz.' })),
    ...read('bls_egg_prices_other_series.csv'),
  ];
  return rows.map((r) => {
    const item = r.item ?? '';
    return {
      series_id: r.series_id,
      region: r.region,
      item,
      grade: /grade AA/.test(item) ? 'AA' : 'A',
      period: `${r.year}-${r.month.padStart(2, '0')}-01`,
      price: Number(r.price_usd_per_dozen),
    };
  });
}

/** The series each region's benchmark uses: grade A, except the West, which BLS only has as AA. */
export const BENCHMARK_SERIES: Record<'national' | Region, string> = {
  national: 'APU0000708111',
  northeast: 'APU0100708111',
  midwest: 'APU0200708111',
  south: 'APU0300708111',
  west: 'APU0400708112',
};

/**
 * The anchors of the sample catalogue, from the real series: the latest national price per dozen,
 * and each region's average ratio to the national series over its last 24 published months.
 */
export function sampleAnchors(rows: MarketRow[]): { national: number; regionRatio: Record<Region, number> } {
  const bySeries = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (!bySeries.has(row.series_id)) bySeries.set(row.series_id, new Map());
    bySeries.get(row.series_id)!.set(row.period, row.price);
  }
  const national = bySeries.get(BENCHMARK_SERIES.national)!;
  const latestPeriod = [...national.keys()].sort().at(-1)!;
  const regionRatio = {} as Record<Region, number>;
  for (const region of ['northeast', 'midwest', 'south', 'west'] as const) {
    const series = bySeries.get(BENCHMARK_SERIES[region])!;
    const ratios = [...series.entries()]
      .filter(([period]) => national.has(period))
      .sort(([a], [b]) => a.localeCompare(b))
      .slice(-24)
      .map(([period, price]) => price / national.get(period)!);
    regionRatio[region] = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  }
  return { national: national.get(latestPeriod)!, regionRatio };
}

/** FNV-1a: a stable hash so the sample catalogue is the same on every machine. */
function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 0xffffffff;
}

/** Deterministic daily shelf price: smooth weekly and monthly swings plus small noise. */
export function samplePrice(base: number, key: string, dayNumber: number): number {
  const phase = unitHash(key) * 60;
  const swing =
    0.035 * Math.sin((2 * Math.PI * (dayNumber + phase)) / 30) +
    0.015 * Math.sin((2 * Math.PI * (dayNumber + phase * 0.7)) / 9) +
    0.01 * (unitHash(`${key}:${dayNumber}`) - 0.5);
  const price = base * (1 + swing);
  // Shelf prices end in 9 cents.
  return Math.max(0.49, Math.floor(price * 10) / 10 + 0.09);
}

/**
 * The sample catalogue's mean shelf price per dozen for a region and egg type on a day (UTC day
 * number), as its rollup averages it: every sample pack of the type at every store serving the
 * region. The demo's official stand-in draws USDA's figures from it, so they move with the shelf.
 */
export function sampleShelfPerDozen(
  region: Region,
  eggType: EggType,
  dayNumber: number,
  anchors: ReturnType<typeof sampleAnchors> = sampleAnchors(readMarketCsv()),
): number {
  let sum = 0;
  let n = 0;
  for (const store of STORE_SEEDS) {
    if (!store.regions_served.includes(region)) continue;
    for (const pack of SAMPLE_PACKS) {
      if (pack.egg_type !== eggType) continue;
      const perDozen = anchors.national * anchors.regionRatio[region] * TYPE_PREMIUM[pack.egg_type] * store.level;
      const base = (perDozen / 12) * pack.count * packFactor(pack.count);
      sum += (samplePrice(base, `${store.id}:${region}:${pack.egg_type}:${pack.count}`, dayNumber) / pack.count) * 12;
      n += 1;
    }
  }
  return sum / n;
}

/** A store's logo, served by the app itself from public/logos/ (never a third party's). */
const storeLogoPath = (storeId: string) => `/logos/${storeId}.svg`;

export async function seedStores(sql: Db): Promise<void> {
  for (const s of STORE_SEEDS) {
    await sql`
      insert into stores (id, store_name, store_logo_url, regions_served, store_type, active)
      values (${s.id}, ${s.store_name}, ${storeLogoPath(s.id)},
              ${s.regions_served}, 'national', true)
      on conflict (id) do nothing`;
  }
}

export async function seedMarketPrices(sql: Db, rows: MarketRow[] = readMarketCsv()): Promise<void> {
  await sql`
    insert into market_prices (series_id, region, item, grade, period, price)
    select * from unnest(
      ${sql.array(rows.map((r) => r.series_id))}::text[],
      ${sql.array(rows.map((r) => r.region))}::text[],
      ${sql.array(rows.map((r) => r.item))}::text[],
      ${sql.array(rows.map((r) => r.grade))}::text[],
      ${sql.array(rows.map((r) => r.period))}::date[],
      ${sql.array(rows.map((r) => r.price))}::numeric[])
    on conflict (series_id, period) do nothing`;
}

const DAY_MS = 86_400_000;
const dayNumberOf = (date: Date) => Math.floor(date.getTime() / DAY_MS);
const dayOf = (dayNumber: number) => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);

/**
 * Writes the sample catalogue's products and locations, and daily sample prices for the
 * `days` days ending on `today` (UTC). Existing days are left as they are, so this both seeds
 * and tops up the history. Store and region pairs that already have scraped prices get none.
 */
export async function seedSampleCatalogue(
  sql: Db,
  options: { today?: Date; days?: number; now?: Date } = {},
): Promise<{ observations: number }> {
  const now = options.now ?? new Date();
  const today = options.today ?? now;
  const days = options.days ?? SAMPLE_DAYS;
  const anchors = sampleAnchors(readMarketCsv());

  const productIds: number[] = [];
  const locationIds: number[] = [];
  const prices: number[] = [];
  const times: string[] = [];
  const lastDay = dayNumberOf(today);

  for (const store of STORE_SEEDS) {
    const products = new Map<string, number>();
    for (const pack of SAMPLE_PACKS) {
      const brand = pack.egg_type === 'organic' ? store.brands[1] : store.brands[0];
      const retailerId = `sample-${pack.egg_type}-${pack.count}`;
      const title = `${brand} ${EGG_TYPE_LABELS[pack.egg_type]} Large Grade A Eggs, ${pack.count} ct`;
      await sql`
        insert into products (store_id, retailer_product_id, title, brand, egg_type, count, size_grade)
        values (${store.id}, ${retailerId}, ${title}, ${brand}, ${pack.egg_type}, ${pack.count}, 'Large, Grade A')
        on conflict (store_id, retailer_product_id) do nothing`;
      const [row] = await sql<{ id: number }[]>`
        select id from products where store_id = ${store.id} and retailer_product_id = ${retailerId}`;
      products.set(retailerId, row!.id);
    }
    for (const region of store.regions_served) {
      const zip = SAMPLE_ZIPS[region];
      const place = zipFacts(zip);
      await sql`
        insert into store_locations (store_id, zip, region, name, city, state, latitude, longitude, coordinates_source)
        select ${store.id}, ${zip}, ${region}, ${`${store.store_name} (sample location)`}, ${place?.city ?? null},
                ${place?.state ?? null}, ${place?.latitude ?? null}, ${place?.longitude ?? null}, ${place ? 'zip' : null}
        -- (a scrape that located a store at the sample ZIP took the sample row over: no second one)
        where not exists (select 1 from store_locations where store_id = ${store.id} and zip = ${zip})
        on conflict (store_id, zip) where retailer_location_id is null do nothing`;
      const [location] = await sql<{ id: number; scraped: boolean }[]>`
        select l.id, exists (
          select 1 from price_entries e join store_locations l2 on l2.id = e.location_id
          where l2.store_id = l.store_id and l2.region = l.region and e.source <> 'sample'
        ) as scraped
        from store_locations l where l.store_id = ${store.id} and l.zip = ${zip}
        order by l.retailer_location_id is null desc, l.id limit 1`;
      if (!location || location.scraped) continue;

      for (const pack of SAMPLE_PACKS) {
        const productId = products.get(`sample-${pack.egg_type}-${pack.count}`)!;
        const perDozen = anchors.national * anchors.regionRatio[region] * TYPE_PREMIUM[pack.egg_type] * store.level;
        const base = (perDozen / 12) * pack.count * packFactor(pack.count);
        for (let d = lastDay - days + 1; d <= lastDay; d++) {
          const at = Math.min(d * DAY_MS + 6 * 3_600_000, now.getTime());
          productIds.push(productId);
          locationIds.push(location.id);
          prices.push(samplePrice(base, `${store.id}:${region}:${pack.egg_type}:${pack.count}`, d));
          times.push(new Date(at).toISOString());
        }
      }
    }
  }
  if (productIds.length === 0) return { observations: 0 };
  await addPricePartitionsBetween(sql, dayOf(lastDay - days + 1), dayOf(lastDay));
  const inserted = await sql`
    insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
    select product_id, location_id, price, observed_at, utc_day(observed_at), 'sample'
    from unnest(${sql.array(productIds)}::int[], ${sql.array(locationIds)}::int[],
                ${sql.array(prices)}::numeric[], ${sql.array(times)}::timestamptz[])
         as t(product_id, location_id, price, observed_at)
    on conflict (product_id, location_id, observed_on) do nothing`;
  return { observations: inserted.count };
}

export async function isEmpty(sql: Db): Promise<boolean> {
  const [row] = await sql<{ stores: number }[]>`select count(*)::int as stores from stores`;
  return row!.stores === 0;
}

/** Everything an empty database needs, in one transaction. */
export async function seed(sql: Sql, options: { today?: Date; now?: Date } = {}): Promise<{ observations: number }> {
  return sql.begin(async (tx) => {
    await seedStores(tx);
    await seedMarketPrices(tx);
    return seedSampleCatalogue(tx, options);
  }) as Promise<{ observations: number }>;
}
