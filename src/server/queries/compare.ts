// The compare page (SPEC §2 "Compare"): every current entry of one egg type, cheapest per dozen
// first with its recent history, the summary figures (by price per dozen, over the regions shown
// and within each region) and a per-region daily price series. Entries are the visible ones
// (visibleEntries); the per-dozen series reads the daily rollup, which applies the same
// sample-versus-scraped rule, and each region's line starts on its first comparable day
// (docs/decisions/008).
import { REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { PriceEntry } from '#shared/types.ts';
import { entryPricePerDozen, sortEntries } from '#shared/sort.ts';
import { roundCents } from '#shared/format.ts';
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
  /** The price of 12 eggs at this pack's price per egg: what lowest and highest are chosen by. */
  price_per_dozen: number;
  region: Region;
  store_id: string;
  store_name: string;
}

/** The figures over a set of entries, each compared by its price per dozen. */
export interface PriceFigures {
  /** Entries (a product at a store location) behind the figures. */
  products: number;
  stores: number;
  /** The entries with the lowest and highest price per dozen. */
  lowest: StorePrice | null;
  highest: StorePrice | null;
  /** highest - lowest price per dozen. */
  difference_per_dozen: number | null;
  /** Mean of the entries' prices per dozen. */
  average_per_dozen: number | null;
  /** Lowest and highest price per egg. */
  unit_price: { min: number; max: number } | null;
}

export interface CompareSummary extends PriceFigures {
  /** The regions the figures span: more than one means they compare across regions (see by_region). */
  regions: Region[];
  /** Mean shelf price whatever the pack size (not comparable across sizes; average_per_dozen is). */
  average_price: number | null;
  some_decreasing: boolean;
  some_increasing: boolean;
  /** The same figures within each region that has entries, in REGIONS order. */
  by_region: Array<PriceFigures & { region: Region }>;
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

function storePrice(entry: PriceEntry): StorePrice {
  return {
    price: entry.price,
    count: entry.count,
    price_per_dozen: roundCents(entryPricePerDozen(entry)),
    region: entry.region,
    store_id: entry.store_id,
    store_name: entry.store_name,
  };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The figures of entries sorted cheapest per dozen first. */
function figuresOf(sorted: PriceEntry[]): PriceFigures {
  const lowest = sorted[0];
  const highest = sorted.at(-1);
  // unit_price: the price per egg to 4 places, as PostgreSQL rounds it.
  const perEgg = sorted.map((entry) => entry.unit_price);
  return {
    products: sorted.length,
    stores: new Set(sorted.map((entry) => entry.store_id)).size,
    lowest: lowest ? storePrice(lowest) : null,
    highest: highest ? storePrice(highest) : null,
    // The difference of the two figures as shown (in cents), so it checks by hand.
    difference_per_dozen: lowest && highest ? roundCents(storePrice(highest).price_per_dozen - storePrice(lowest).price_per_dozen) : null,
    average_per_dozen: sorted.length ? roundCents(mean(sorted.map(entryPricePerDozen))) : null,
    unit_price: sorted.length ? { min: Math.min(...perEgg), max: Math.max(...perEgg) } : null,
  };
}

/** The summary cards' figures, over every region shown and within each (entries cheapest per dozen first). */
export function summarise(sorted: PriceEntry[]): CompareSummary {
  const regions = REGIONS.filter((region) => sorted.some((entry) => entry.region === region));
  return {
    ...figuresOf(sorted),
    regions,
    average_price: sorted.length ? roundCents(mean(sorted.map((entry) => entry.price))) : null,
    some_decreasing: sorted.some((entry) => entry.trend_direction === 'down'),
    some_increasing: sorted.some((entry) => entry.trend_direction === 'up'),
    by_region: regions.map((region) => ({ region, ...figuresOf(sorted.filter((entry) => entry.region === region)) })),
  };
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

async function availableCounts(sql: Db, eggType: EggType): Promise<number[]> {
  const rows = await sql<{ count: number }[]>`
    select distinct p.count
    ${visibleEntries(sql, { eggType })}
    order by p.count`;
  return rows.map((r) => r.count);
}

export async function compareByType(sql: Db, filters: CompareFilters): Promise<CompareByType> {
  const entries = sortEntries(await listPriceEntries(sql, filters), 'price');
  const [history, counts, chart] = await Promise.all([
    recentHistory(sql, entries.map((e) => e.id)),
    availableCounts(sql, filters.eggType),
    regionSeries(sql, filters),
  ]);
  return {
    egg_type: filters.eggType,
    entries: entries.map((entry) => ({ ...entry, history: history.get(entry.id) ?? [entry.price] })),
    summary: summarise(entries),
    counts,
    chart,
  };
}
