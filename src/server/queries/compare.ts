// The compare page: the summary figures of one egg type's current entries (by
// price per dozen, over the regions shown and within each region), one page of those entries,
// cheapest per dozen first, with their recent history, and a per-region daily price series.
// Entries are the visible ones (visibleEntries). The figures are summed from the precomputed
// per store, region, egg type and pack size figures (price_store_entry_figures, kept by
// refreshRollups), and the page of ids read from each product's cheapest entries in the
// price_entries (product_id, price, id) index, so neither reads every entry of the type (tens of
// thousands nationwide; measured in docs/decisions/004). The figures follow the entries as of the
// latest rollup refresh, as the chart does. test/compare-reference.ts computes the same answer from
// the entries in TypeScript, by the documented rules, for the tests to check this one against. The
// per-dozen series reads the daily rollup, which applies the same sample-versus-scraped rule, and
// each region's line starts on its first comparable day (docs/decisions/008).
import { REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { PriceEntry } from '#shared/types.ts';
import { entryPricePerDozen } from '#shared/sort.ts';
import { clampPage, pageCount, PAGE_SIZES } from '#shared/pagination.ts';
import { roundCents } from '#shared/format.ts';
import type { Db } from '../db.ts';
import { listPriceEntries, recentHistory, shownSource, visibleEntries } from './prices.ts';
import { dayWindow, seriesStart } from './insights.ts';

/** Days in the compare page's chart. */
export const COMPARE_SERIES_DAYS = 30;

/** Entries per page when none is asked: the dashboard's page on a large screen. */
export const DEFAULT_COMPARE_PAGE_SIZE = PAGE_SIZES.desktop;

export interface CompareFilters {
  eggType: EggType;
  region?: Region | undefined;
  count?: number | undefined;
}

/** Which page of the entries, cheapest per dozen first: 1-based, clamped to the last page. */
export interface ComparePaging {
  page: number;
  pageSize: number;
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
  /** One page of the entries, cheapest per dozen first (then the cheaper pack, then by id), each with its last 7 days. */
  entries: Array<PriceEntry & { history: number[] }>;
  /** Entries matching the filters (summary.products). */
  total: number;
  /** The page given (clamped between 1 and pageCount), its size and the number of pages (0 without entries). */
  page: number;
  pageSize: number;
  pageCount: number;
  summary: CompareSummary;
  /** Pack sizes of this egg type present in the data (for the count filter). */
  counts: number[];
  chart: RegionSeries;
}

/** A figure's entry as the summary query sends it. */
export interface FigureEntry {
  price: number;
  count: number;
  region: Region;
  store_id: string;
  store_name: string;
}

function storePrice(entry: FigureEntry): StorePrice {
  return {
    price: entry.price,
    count: entry.count,
    price_per_dozen: roundCents(entryPricePerDozen(entry)),
    region: entry.region,
    store_id: entry.store_id,
    store_name: entry.store_name,
  };
}

/** One row of the summary query: the figures within a region, or over all of them (region null). */
export interface FigureRow {
  region: Region | null;
  products: number | null;
  stores: number;
  average_per_dozen: number | null;
  average_price: number | null;
  down: boolean | null;
  up: boolean | null;
  lowest: (FigureEntry & { unit_price: number }) | null;
  highest: (FigureEntry & { unit_price: number }) | null;
  /** On the row over all regions: the ids of the page asked for, in the listing's order. */
  page_ids: number[] | null;
}

function figuresOf(row: FigureRow | undefined): PriceFigures {
  const products = row?.products ?? 0;
  const lowest = products && row?.lowest ? storePrice(row.lowest) : null;
  const highest = products && row?.highest ? storePrice(row.highest) : null;
  return {
    products,
    stores: products ? row!.stores : 0,
    lowest,
    highest,
    // The difference of the two figures as shown (in cents), so it checks by hand.
    difference_per_dozen: lowest && highest ? roundCents(highest.price_per_dozen - lowest.price_per_dozen) : null,
    average_per_dozen: products && row!.average_per_dozen !== null ? roundCents(row!.average_per_dozen) : null,
    // The lowest price per egg is the lowest entry's, the highest the highest entry's.
    unit_price: lowest && highest ? { min: row!.lowest!.unit_price, max: row!.highest!.unit_price } : null,
  };
}

/** The page's summary from the figure rows. */
function summaryOf(rows: FigureRow[]): CompareSummary {
  const all = rows.find((row) => row.region === null);
  const byRegion = new Map(rows.filter((row) => row.region !== null && row.products).map((row) => [row.region!, row]));
  const regions = REGIONS.filter((region) => byRegion.has(region));
  const products = all?.products ?? 0;
  return {
    ...figuresOf(all),
    regions,
    average_price: products && all!.average_price !== null ? roundCents(all!.average_price) : null,
    some_decreasing: Boolean(products && all!.down),
    some_increasing: Boolean(products && all!.up),
    by_region: regions.map((region) => ({ region, ...figuresOf(byRegion.get(region)) })),
  };
}

/**
 * The summary figures, over every region shown and within each, from the precomputed figures
 * (price_store_entry_figures, migration 017: per store, region, egg type and pack size, the sums
 * of the visible entries, kept by refreshRollups), a few hundred rows instead of every entry. The
 * averages are the sums over the numbers of entries. Within one pack size the price per dozen
 * follows the price, so each row's cheapest and dearest entry are its lowest and highest per
 * dozen; lowest and highest are picked among those rows in the listing's order (per dozen as
 * (price / count) * 12 in double precision, then price, then id), as the first and last entries of
 * that order. Per egg, the lowest and highest are those same entries' (round(price / count, 4)).
 */
async function summaryRows(sql: Db, filters: CompareFilters): Promise<FigureRow[]> {
  const figureEntry = (order: 'asc' | 'desc') => sql`
    (select json_build_object('price', e.price, 'count', p.count, 'region', l.region, 'store_id', l.store_id,
                              'store_name', s.store_name, 'unit_price', round(e.price / p.count, 4))
     from (select ${order === 'asc' ? sql`lowest_entry_id` : sql`highest_entry_id`} as id from shown
           where f.region is null or region = f.region
           ${
             order === 'asc'
               ? sql`order by lowest_price::float8 / count * 12, lowest_price, lowest_entry_id`
               : sql`order by highest_price::float8 / count * 12 desc, highest_price desc, highest_entry_id desc`
           }
           limit 1) picked
     join price_entries e on e.id = picked.id
     join products p on p.id = e.product_id
     join store_locations l on l.id = e.location_id
     join stores s on s.id = l.store_id)`;
  return sql<FigureRow[]>`
    with shown as materialized (
      select f.*
      from price_store_entry_figures f
      join stores s on s.id = f.store_id
      where s.active and f.egg_type = ${filters.eggType}
        ${filters.region ? sql`and f.region = ${filters.region}` : sql``}
        ${filters.count ? sql`and f.count = ${filters.count}` : sql``}
    ), f as (
      select region, sum(entries)::int as products, count(distinct store_id)::int as stores,
             (sum(sum_per_dozen) / sum(entries))::float8 as average_per_dozen,
             (sum(sum_price) / sum(entries))::float8 as average_price,
             sum(down) > 0 as down, sum(up) > 0 as up
      from shown
      group by grouping sets ((region), ())
    )
    select f.region, f.products, f.stores, f.average_per_dozen, f.average_price, f.down, f.up,
           ${figureEntry('asc')} as lowest,
           ${figureEntry('desc')} as highest,
           null::int[] as page_ids
    from f`;
}

/** The summary cards' figures (compareByType's, without a page of entries). */
export async function compareSummary(sql: Db, filters: CompareFilters): Promise<CompareSummary> {
  return summaryOf(await summaryRows(sql, filters));
}

/**
 * The ids of one page of the visible entries, in the listing's order: cheapest per dozen first,
 * then the cheaper pack, then the lower id. Within one product (one pack size) that order is the
 * order of the price, then the id, which the price_entries (product_id, price, id) index gives
 * (migration 017): the page's entries are among the first `offset + limit` of each product of
 * the egg type, read from that index and stopping there, then put in the listing's order across
 * products (as the store page's entries page, insights.ts storeEntriesPage).
 */
async function pageIds(sql: Db, filters: CompareFilters, limit: number, offset: number): Promise<number[]> {
  if (limit <= 0) return [];
  const rows = await sql<{ id: number }[]>`
    select e.id
    from products p
    join stores s on s.id = p.store_id
    cross join lateral (
      select e.id, e.price
      from price_entries e
      -- Each entry's location by its key (a nested loop of index lookups).
      cross join lateral (select sl.store_id, sl.region from store_locations sl where sl.id = e.location_id offset 0) l
      join stores ls on ls.id = l.store_id
      where e.product_id = p.id and ls.active
        and ${shownSource(sql)}
        ${filters.region ? sql`and l.region = ${filters.region}` : sql``}
      order by e.price, e.id
      limit ${offset + limit}) e
    where s.active and p.egg_type = ${filters.eggType}
      ${filters.count ? sql`and p.count = ${filters.count}` : sql``}
    order by e.price::float8 / p.count * 12, e.price, e.id
    limit ${limit} offset ${offset}`;
  return rows.map((row) => row.id);
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
export async function regionSeries(
  sql: Db,
  filters: CompareFilters,
  days = COMPARE_SERIES_DAYS,
): Promise<RegionSeries> {
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

/**
 * The pack sizes of the egg type that have a visible entry at an active store: the combinations
 * of the precomputed figures (price_store_entry_figures, one row per store, region, egg type and
 * pack size with visible entries), instead of probing the entries.
 */
async function availableCounts(sql: Db, eggType: EggType): Promise<number[]> {
  const rows = await sql<{ count: number }[]>`
    select distinct f.count
    from price_store_entry_figures f
    join stores s on s.id = f.store_id
    where s.active and f.egg_type = ${eggType}
    order by f.count`;
  return rows.map((r) => r.count);
}

/**
 * The compare page: the summary figures, the page of entries asked for with their history, the
 * pack sizes and the chart. The page's entries are read beside the figures; a page past the end
 * (the entries changed, or a hand-made URL) is read again as the last page.
 */
export async function compareByType(
  sql: Db,
  filters: CompareFilters,
  paging: ComparePaging = { page: 1, pageSize: DEFAULT_COMPARE_PAGE_SIZE },
): Promise<CompareByType> {
  const { pageSize } = paging;
  const asked = Math.max(1, Math.floor(paging.page));
  const [rows, askedIds, counts, chart] = await Promise.all([
    summaryRows(sql, filters),
    pageIds(sql, filters, pageSize, (asked - 1) * pageSize),
    availableCounts(sql, filters.eggType),
    regionSeries(sql, filters),
  ]);
  const summary = summaryOf(rows);
  const total = summary.products;
  const pages = pageCount(total, pageSize);
  const page = clampPage(asked, pages);
  const ids = page === asked ? askedIds : await pageIds(sql, filters, pageSize, (page - 1) * pageSize);
  const [listed, history] = await Promise.all([
    ids.length ? listPriceEntries(sql, { ids }) : Promise.resolve([]),
    recentHistory(sql, ids),
  ]);
  const byId = new Map(listed.map((entry) => [entry.id, entry]));
  return {
    egg_type: filters.eggType,
    entries: ids.flatMap((id) => {
      const entry = byId.get(id);
      return entry ? [{ ...entry, history: history.get(id) ?? [entry.price] }] : [];
    }),
    total,
    page,
    pageSize,
    pageCount: pages,
    summary,
    counts,
    chart,
  };
}
