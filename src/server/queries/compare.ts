// The compare page (SPEC §2 "Compare"): every current entry of one egg type, cheapest first with
// its recent history, the summary figures and a per-region daily price series. Entries are the
// visible ones (visibleEntries); the per-dozen series reads the daily rollup, which applies the
// same sample-versus-scraped rule, and each region's line starts on its first comparable day
// (docs/decisions/008).
import { REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { PriceEntry } from '#shared/types.ts';
import { sortEntries } from '#shared/sort.ts';
import type { Db } from '../db.ts';
import { listPriceEntries, recentHistory, visibleEntries } from './prices.ts';
import { dayWindow, seriesStart } from './insights.ts';

/** Days in the compare page's chart. */
export const COMPARE_SERIES_DAYS = 30;

export interface CompareFilters {
  eggType: EggType;
  region?: Region | undefined;
  count?: number | undefined;
}

export interface StorePrice {
  price: number;
  count: number;
  region: Region;
  store_id: string;
  store_name: string;
}

export interface CompareSummary {
  /** Entries (a product at a store location) behind the figures. */
  products: number;
  stores: number;
  lowest: StorePrice | null;
  highest: StorePrice | null;
  /** highest - lowest shelf price. */
  difference: number | null;
  average_price: number | null;
  some_decreasing: boolean;
  some_increasing: boolean;
  /** Lowest and highest price per egg. */
  unit_price: { min: number; max: number } | null;
}

export interface RegionSeries {
  /** 'dozen': average price per dozen eggs (any pack); 'pack': average shelf price of the chosen pack size. */
  unit: 'dozen' | 'pack';
  count: number | null;
  /** UTC days, oldest first, consecutive. */
  days: string[];
  /** One line per region with data; null on a day without a price (a gap) or before the line's history. */
  lines: Array<{ region: Region; values: Array<number | null> }>;
}

export interface CompareByType {
  egg_type: EggType;
  entries: Array<PriceEntry & { history: number[] }>;
  summary: CompareSummary;
  /** Pack sizes of this egg type present in the data (for the count filter). */
  counts: number[];
  chart: RegionSeries;
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

function storePrice(entry: PriceEntry): StorePrice {
  return { price: entry.price, count: entry.count, region: entry.region, store_id: entry.store_id, store_name: entry.store_name };
}

type DayValue = { day: string; region: Region; value: number; since: string | null };

function toLines(rows: DayValue[], days: string[]): RegionSeries['lines'] {
  const byKey = new Map(rows.map((r) => [`${r.region}:${r.day}`, r.value]));
  return REGIONS.filter((region) => rows.some((r) => r.region === region)).map((region) => {
    const start = seriesStart(rows.filter((r) => r.region === region))!;
    return { region, values: days.map((day) => (day >= start ? (byKey.get(`${region}:${day}`) ?? null) : null)) };
  });
}

/**
 * The daily average per region over the last `days` days. Without a pack size: the average
 * price per dozen, from the daily rollup. With one: the average shelf price of that pack size,
 * from the observation history under visibleEntries' rule (the rollup does not keep pack sizes).
 */
export async function regionSeries(sql: Db, filters: CompareFilters, days = COMPARE_SERIES_DAYS): Promise<RegionSeries> {
  const { eggType, region, count } = filters;
  if (!count) {
    const [latest] = await sql<{ day: string | null }[]>`
      select max(day)::text as day from price_daily_rollups where egg_type = ${eggType}`;
    if (!latest?.day) return { unit: 'dozen', count: null, days: [], lines: [] };
    const rows = await sql<DayValue[]>`
      select day::text as day, region, round(avg_per_dozen, 2) as value, series_since::text as since
      from price_daily_rollups
      where egg_type = ${eggType}
        and day > ${latest.day}::date - ${days}::int
        ${region ? sql`and region = ${region}` : sql``}`;
    const window = dayWindow(latest.day, days);
    return { unit: 'dozen', count: null, days: window, lines: toLines(rows, window) };
  }
  const [latest] = await sql<{ day: string | null }[]>`
    select max((e.observed_at at time zone 'UTC')::date)::text as day
    ${visibleEntries(sql, { eggType, count })}`;
  if (!latest?.day) return { unit: 'pack', count, days: [], lines: [] };
  const rows = await sql<DayValue[]>`
    select o.observed_on::text as day, l.region, round(avg(o.price), 2) as value, max(sw.switched_on)::text as since
    from price_observations o
    join products p on p.id = o.product_id
    join store_locations l on l.id = o.location_id
    join stores s on s.id = l.store_id and s.active
    left join store_region_switches sw on sw.store_id = l.store_id and sw.region = l.region
    where p.egg_type = ${eggType} and p.count = ${count}
      and o.observed_on > ${latest.day}::date - ${days}::int
      and o.observed_on <= ${latest.day}::date
      and (o.source <> 'sample' or sw.store_id is null)
      ${region ? sql`and l.region = ${region}` : sql``}
    group by o.observed_on, l.region`;
  const window = dayWindow(latest.day, days);
  return { unit: 'pack', count, days: window, lines: toLines(rows, window) };
}

async function summaryOf(sql: Db, filters: CompareFilters, sorted: PriceEntry[]): Promise<CompareSummary> {
  const [row] = await sql<Array<{
    products: number; stores: number; average_price: number | null; some_decreasing: boolean | null;
    some_increasing: boolean | null; min_unit: number | null; max_unit: number | null;
  }>>`
    select count(*)::int as products,
           count(distinct l.store_id)::int as stores,
           round(avg(e.price), 2) as average_price,
           bool_or(e.trend_direction = 'down') as some_decreasing,
           bool_or(e.trend_direction = 'up') as some_increasing,
           round(min(e.price / p.count), 4) as min_unit,
           round(max(e.price / p.count), 4) as max_unit
    ${visibleEntries(sql, filters)}`;
  const lowest = sorted[0];
  const highest = sorted.at(-1);
  return {
    products: row!.products,
    stores: row!.stores,
    lowest: lowest ? storePrice(lowest) : null,
    highest: highest ? storePrice(highest) : null,
    difference: lowest && highest ? round(highest.price - lowest.price) : null,
    average_price: row!.average_price,
    some_decreasing: row!.some_decreasing ?? false,
    some_increasing: row!.some_increasing ?? false,
    unit_price: row!.min_unit === null || row!.max_unit === null ? null : { min: row!.min_unit, max: row!.max_unit },
  };
}

async function availableCounts(sql: Db, eggType: EggType): Promise<number[]> {
  const rows = await sql<{ count: number }[]>`
    select distinct p.count
    ${visibleEntries(sql, { eggType })}
    order by p.count`;
  return rows.map((r) => r.count);
}

export async function compareByType(sql: Db, filters: CompareFilters): Promise<CompareByType> {
  const entries = sortEntries(await listPriceEntries(sql, filters), 'price');
  const [history, summary, counts, chart] = await Promise.all([
    recentHistory(sql, entries.map((e) => e.id)),
    summaryOf(sql, filters, entries),
    availableCounts(sql, filters.eggType),
    regionSeries(sql, filters),
  ]);
  return {
    egg_type: filters.eggType,
    entries: entries.map((entry) => ({ ...entry, history: history.get(entry.id) ?? [entry.price] })),
    summary,
    counts,
    chart,
  };
}
