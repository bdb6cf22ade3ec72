// The store page's figures: the price insights, a 30-day daily series per
// egg type, the competitive analysis against the other stores and the per-region breakdown.
// Everything follows the visible price entries (visibleEntries' rule: a store and region's sample
// prices are hidden once scraped prices exist there): the page of entries reads them; the figures,
// the market position, the regional analysis and the filter options read their sums per store,
// region, egg type and pack size (price_store_entry_figures, kept by the rollup refresh:
// store-figures.ts); the series reads the history behind them (price_store_daily_rollups).
import { EGG_TYPES, REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import type { PriceEntry } from '#shared/types.ts';
import { entryPricePerDozen } from '#shared/sort.ts';
import { clampPage, pageCount, PAGE_SIZES } from '#shared/pagination.ts';
import { roundCents } from '#shared/format.ts';
import type { Db } from '../db.ts';
import { cheapestOrder } from './cheapest.ts';
import { listPriceEntries, recentHistory, shownSource, type EntryFilters } from './prices.ts';
import { combinationKey, type LocationFigures } from '#shared/location-figures.ts';
import { storeLocationFigures } from './location-figures.ts';

/** Days in the store page's trend chart. */
export const STORE_SERIES_DAYS = 30;

export type StoreFilters = Omit<EntryFilters, 'store'>;

export interface PricePoint {
  price: number;
  count: number;
  /** The price of 12 eggs at this pack's price per egg: what lowest and highest are chosen by. */
  price_per_dozen: number;
  egg_type: EggType;
  region: Region;
}

export interface PriceInsights {
  /** Entries behind the figures. */
  entries: number;
  /** The regions the figures span (more than one: they compare across regions, and say so). */
  regions: Region[];
  /** Mean shelf price of the entries, whatever their pack sizes (average_per_dozen compares). */
  average_price: number | null;
  /** Mean price per dozen eggs of the entries, so packs of different sizes compare. */
  average_per_dozen: number | null;
  /** The entries with the lowest and highest price per dozen. */
  lowest: PricePoint | null;
  highest: PricePoint | null;
  /**
   * Mean change in dollars of each entry's shelf price against its price at least 7 days
   * earlier (the trend reference); null when no entry has a week of history.
   */
  weekly_change: number | null;
  /** The same change per dozen eggs, so a 60-pack's change weighs as much as a 6-pack's. */
  weekly_change_per_dozen: number | null;
  /** Entries that have a week-old reference price. */
  weekly_compared: number;
  /** Some entry behind the figures is a sample or demo price (not scraped). */
  sample: boolean;
}

export interface MarketPosition {
  egg_type: EggType;
  /** The region of the comparison: the store is ranked against the stores of this region only. */
  region: Region;
  /** The store's representative entry for the type in the region: see marketPositions. */
  price: number;
  count: number;
  price_per_dozen: number;
  /** 1 is the cheapest store; stores at the same price per dozen share a rank. */
  rank: number;
  /** Stores offering the type in the region (under the same filters). */
  of: number;
  /** The cheapest other store of the same region. */
  cheapest_competitor: {
    store_id: string;
    store_name: string;
    price: number;
    count: number;
    region: Region;
    price_per_dozen: number;
    /** How much dearer (+) or cheaper (-) this store is than that competitor per dozen, in percent. */
    difference_pct: number;
  } | null;
}

export interface RegionalAnalysis {
  region: Region;
  /** Mean shelf price, whatever the pack sizes (average_per_dozen compares). */
  average_price: number;
  average_per_dozen: number;
  product_count: number;
  egg_types: EggType[];
}

export interface DailySeries {
  /** UTC days, oldest first, consecutive, ending on the latest day with a price. */
  days: string[];
  /**
   * Average price per dozen per day; null on a day without a price (a gap, not a zero) and before
   * the line's history: its first comparable day, the latest switch from sample to retailers'
   * prices among the store's regions behind it (docs/decisions/008).
   */
  lines: Array<{
    egg_type: EggType;
    values: Array<number | null>;
    /** Days with a price in the line's history, within the chart's days. */
    history_days: number;
    /** Some price drawn is a sample or demo price. */
    sample: boolean;
  }>;
}

export interface StoreInsights {
  /**
   * One page of the store's current entries under the filters, cheapest per dozen first (the
   * 'price' sort), with 7 days of history each and what the store's locations charge for the
   * entry's combination today (null: none does).
   */
  entries: Array<PriceEntry & { history: number[]; locations: LocationFigures | null }>;
  /** The entries under the filters on every page (insights.entries). */
  total: number;
  /** The page given, within 1 and pageCount (1 without entries). */
  page: number;
  pageSize: number;
  pageCount: number;
  /** What the store's locations charge today, per region, egg type and pack size under the filters. */
  location_figures: LocationFigures[];
  insights: PriceInsights;
  series: DailySeries;
  competitive: {
    /** True when more than half of the entries are trending down. */
    downwardTrend: boolean;
    down: number;
    up: number;
    market_position: MarketPosition[];
    regional: RegionalAnalysis[];
  };
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
const typeOrder = (type: EggType) => EGG_TYPES.indexOf(type);

export function addDays(day: string, delta: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + delta);
  return date.toISOString().slice(0, 10);
}

/** `length` consecutive UTC days ending on `last`, oldest first. */
export function dayWindow(last: string, length: number): string[] {
  return Array.from({ length }, (_, i) => addDays(last, i - length + 1));
}

/**
 * A series' first comparable day (docs/decisions/008): its first day with a price, or the latest
 * switch from sample to scraped prices behind its rows when that is later; null without rows.
 * Days are 'YYYY-MM-DD', so they compare as strings.
 */
export function seriesStart(rows: ReadonlyArray<{ day: string; since: string | null }>): string | null {
  let start: string | null = null;
  for (const row of rows) if (start === null || row.day < start) start = row.day;
  for (const row of rows) if (start !== null && row.since !== null && row.since > start) start = row.since;
  return start;
}

function pointOf(entry: Pick<PriceEntry, 'price' | 'count' | 'egg_type' | 'region'>): PricePoint {
  return {
    price: entry.price,
    count: entry.count,
    price_per_dozen: roundCents(entryPricePerDozen({ ...entry, store_id: '' })),
    egg_type: entry.egg_type,
    region: entry.region,
  };
}

/**
 * The 'price' sort (src/shared/sort.ts, sortEntries) in SQL: cheapest per dozen first, then the
 * cheaper pack, then the id (the input order listPriceEntries gives, which the stable sort keeps).
 * The price per dozen is worked out in float8 exactly as JavaScript does (price / count * 12 in
 * doubles), so entries tie and order as they did when sorted in JavaScript.
 */
function perDozenOrder(sql: Db, direction: 'asc' | 'desc' = 'asc') {
  return direction === 'asc'
    ? sql`order by e.price::float8 / p.count * 12, e.price, e.id`
    : sql`order by e.price::float8 / p.count * 12 desc, e.price desc, e.id desc`;
}

/**
 * The store's precomputed figures (price_store_entry_figures, migration 017: one row per region,
 * egg type and pack size, the sums of its visible entries) under the filters, its store active.
 */
function storeFigureRows(sql: Db, storeId: string, filters: StoreFilters) {
  return sql`
    from price_store_entry_figures f
    join stores s on s.id = f.store_id
    where s.active and f.store_id = ${storeId}
      ${filters.region ? sql`and f.region = ${filters.region}` : sql``}
      ${filters.eggType ? sql`and f.egg_type = ${filters.eggType}` : sql``}
      ${filters.count ? sql`and f.count = ${filters.count}` : sql``}`;
}

/**
 * The insights' lowest or highest entry: the first or last in the 'price' order, among each
 * combination's cheapest or dearest (within a pack size the price per dozen follows the price).
 */
async function extremePoint(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
  direction: 'asc' | 'desc',
): Promise<PricePoint | null> {
  const [row] = await sql<Array<{ price: number; count: number; egg_type: EggType; region: Region }>>`
    ${
      direction === 'asc'
        ? sql`select f.lowest_price as price, f.count, f.egg_type, f.region`
        : sql`select f.highest_price as price, f.count, f.egg_type, f.region`
    }
    ${storeFigureRows(sql, storeId, filters)}
    ${
      direction === 'asc'
        ? sql`order by f.lowest_price::float8 / f.count * 12, f.lowest_price, f.lowest_entry_id`
        : sql`order by f.highest_price::float8 / f.count * 12 desc, f.highest_price desc, f.highest_entry_id desc`
    }
    limit 1`;
  return row ? pointOf(row) : null;
}

/**
 * The price insights of the store's entries under the filters, from the precomputed sums of its
 * combinations (the averages are the sums over the numbers of entries: what avg() over the
 * entries gives). They follow the entries as of the latest rollup refresh, a second or so after a
 * price change, as the series does.
 *
 * A mean per dozen is rounded to 12 decimals before the cent: each entry's price / count * 12 is
 * summed as kept to 20 decimals (2.59 / 12 * 12 is 2.5899...96), so a mean of a half cent exactly
 * fell a hair below it (dozens at $2.19, $2.59, $3.09 and $3.39 averaged $2.81 a dozen beside an
 * average price of $2.82); no true mean of cents over fewer than millions of entries is that close
 * to a half cent without being one.
 */
export async function priceInsights(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
): Promise<PriceInsights & { down: number; up: number }> {
  const [[row], lowest, highest] = await Promise.all([
    sql<
      Array<{
        entries: number;
        regions: Region[] | null;
        sample: boolean | null;
        average_price: number | null;
        average_per_dozen: number | null;
        weekly_change: number | null;
        weekly_change_per_dozen: number | null;
        weekly_compared: number;
        down: number;
        up: number;
      }>
    >`
      select coalesce(sum(f.entries), 0)::int as entries,
             array_agg(distinct f.region) as regions,
             bool_or(f.sample) as sample,
             round(sum(f.sum_price) / sum(f.entries), 2) as average_price,
             round(round(sum(f.sum_per_dozen) / sum(f.entries), 12), 2) as average_per_dozen,
             round(sum(f.sum_change) / nullif(sum(f.compared), 0), 2) as weekly_change,
             round(round(sum(f.sum_change_per_dozen) / nullif(sum(f.compared), 0), 12), 2) as weekly_change_per_dozen,
             coalesce(sum(f.compared), 0)::int as weekly_compared,
             coalesce(sum(f.down), 0)::int as down,
             coalesce(sum(f.up), 0)::int as up
      ${storeFigureRows(sql, storeId, filters)}`,
    extremePoint(sql, storeId, filters, 'asc'),
    extremePoint(sql, storeId, filters, 'desc'),
  ]);
  const regions = row!.regions ?? [];
  return {
    entries: row!.entries,
    regions: REGIONS.filter((region) => regions.includes(region)),
    sample: row!.sample ?? false,
    average_price: row!.average_price,
    average_per_dozen: row!.average_per_dozen,
    lowest,
    highest,
    weekly_change: row!.weekly_change,
    weekly_change_per_dozen: row!.weekly_change_per_dozen,
    weekly_compared: row!.weekly_compared,
    down: row!.down,
    up: row!.up,
  };
}

/**
 * The store's average price per dozen for each egg type and day over the `days` days ending on
 * the latest day of its visible prices, from the observation history (its per-store daily rollup,
 * price_store_daily_rollups: the sums over the numbers of its rows are the exact averages of the
 * observations, and its latest day under the filters is its visible entries' latest day, as each
 * visible entry is its pair's latest observation; until the refresh that follows a price change,
 * a second or so, the series ends on the day before). A store and region that has switched to
 * scraped prices contributes only those, on every day, and each line starts on the latest switch
 * behind it: before that day the line was made of other prices.
 */
export async function storeDailySeries(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
  days = STORE_SERIES_DAYS,
): Promise<DailySeries> {
  const filtered = sql`
    r.store_id = ${storeId}
    ${filters.region ? sql`and r.region = ${filters.region}` : sql``}
    ${filters.eggType ? sql`and r.egg_type = ${filters.eggType}` : sql``}
    ${filters.count ? sql`and r.count = ${filters.count}` : sql``}`;
  const [latest] = await sql<{ day: string | null }[]>`
    select max(r.day)::text as day from price_store_daily_rollups r
    where ${filtered} and exists (select 1 from stores s where s.id = r.store_id and s.active)`;
  if (!latest?.day) return { days: [], lines: [] };
  const rows = await sql<
    Array<{ day: string; egg_type: EggType; per_dozen: number; since: string | null; sample: boolean }>
  >`
    select r.day::text as day, r.egg_type, round(round(sum(r.sum_per_dozen) / sum(r.observations), 12), 2) as per_dozen,
           max(r.series_since)::text as since, bool_or(r.sample) as sample
    from price_store_daily_rollups r
    where ${filtered}
      and r.day > ${latest.day}::date - ${days}::int
      and r.day <= ${latest.day}::date
    group by r.day, r.egg_type`;
  const window = dayWindow(latest.day, days);
  const types = [...new Set(rows.map((r) => r.egg_type))].sort((a, b) => typeOrder(a) - typeOrder(b));
  return {
    days: window,
    lines: types.map((type) => {
      const ofType = rows.filter((r) => r.egg_type === type);
      const start = seriesStart(ofType)!;
      const drawn = new Map(ofType.filter((r) => r.day >= start).map((r) => [r.day, r]));
      return {
        egg_type: type,
        values: window.map((day) => drawn.get(day)?.per_dozen ?? null),
        history_days: drawn.size,
        sample: [...drawn.values()].some((r) => r.sample),
      };
    }),
  };
}

/**
 * Competitive Analysis, "Market Position": for each egg type and region where the store sells it
 * (under the page's region, type and count filters), the store's representative price is its
 * cheapest pack per dozen of that type there, over every pack size and location (the rule every
 * screen uses: cheapestOrder, src/server/queries/cheapest.ts). Every store
 * offering the type in that region is represented the same way and ranked by price per dozen,
 * cheapest first; the cheapest other store of the region is the cheapest competitor. A price is
 * never compared with another region's.
 */
export async function marketPositions(sql: Db, storeId: string, filters: StoreFilters): Promise<MarketPosition[]> {
  const rows = await sql<
    Array<{
      egg_type: EggType;
      region: Region;
      store_id: string;
      store_name: string;
      count: number;
      price: number;
      per_dozen: number;
      rank: number;
      offered_by: number;
    }>
  >`
    with candidates as (
      -- Each store's cheapest entry per egg type, region and pack size (precomputed:
      -- price_store_entry_figures): the representative is chosen among these as among the entries
      -- (within a pack size the cheapest per dozen is the cheapest, ties to the lowest id), but
      -- from a few hundred rows instead of every entry of the catalogue.
      select f.store_id, s.store_name, f.egg_type, f.count, f.lowest_price as price, f.region, f.lowest_entry_id as id,
             f.lowest_price / f.count * 12 as per_dozen
      from price_store_entry_figures f
      join stores s on s.id = f.store_id
      where s.active
        ${filters.region ? sql`and f.region = ${filters.region}` : sql``}
        ${filters.eggType ? sql`and f.egg_type = ${filters.eggType}` : sql``}
        ${filters.count ? sql`and f.count = ${filters.count}` : sql``}
    ), representative as (
      select distinct on (store_id, egg_type, region) *
      from candidates
      order by store_id, egg_type, region, ${cheapestOrder(sql, 'price', 'count', 'egg_type', 'id')}
    ), ranked as (
      select egg_type, region, store_id, store_name, count, price, per_dozen,
             rank() over (partition by egg_type, region order by round(per_dozen, 2))::int as rank,
             count(*) over (partition by egg_type, region)::int as offered_by
      from representative
    )
    select egg_type, region, store_id, store_name, count, price, round(per_dozen, 4) as per_dozen, rank, offered_by
    from ranked
    where (egg_type, region) in (select egg_type, region from representative where store_id = ${storeId})
    order by egg_type, region, per_dozen, store_id`;
  const positions: MarketPosition[] = [];
  for (const type of EGG_TYPES) {
    for (const region of REGIONS) {
      const here = rows.filter((r) => r.egg_type === type && r.region === region);
      const own = here.find((r) => r.store_id === storeId);
      if (!own) continue;
      const competitor = here.find((r) => r.store_id !== storeId);
      // The percentage is of the two prices per dozen as shown, so it checks by hand.
      const ownPerDozen = roundCents(own.per_dozen);
      const competitorPerDozen = competitor ? roundCents(competitor.per_dozen) : 0;
      positions.push({
        egg_type: type,
        region,
        price: own.price,
        count: own.count,
        price_per_dozen: ownPerDozen,
        rank: own.rank,
        of: own.offered_by,
        cheapest_competitor: competitor
          ? {
              store_id: competitor.store_id,
              store_name: competitor.store_name,
              price: competitor.price,
              count: competitor.count,
              region: competitor.region,
              price_per_dozen: competitorPerDozen,
              difference_pct: round(((ownPerDozen - competitorPerDozen) / competitorPerDozen) * 100, 1),
            }
          : null,
      });
    }
  }
  return positions;
}

/**
 * Competitive Analysis, "Regional Analysis": per region the store serves, its average price per
 * dozen (and shelf price), product count and egg types; the means are rounded as priceInsights'.
 */
export async function regionalAnalysis(sql: Db, storeId: string, filters: StoreFilters): Promise<RegionalAnalysis[]> {
  const rows = await sql<
    Array<{
      region: Region;
      average_price: number;
      average_per_dozen: number;
      product_count: number;
      egg_types: EggType[];
    }>
  >`
    select f.region,
           round(sum(f.sum_price) / sum(f.entries), 2) as average_price,
           round(round(sum(f.sum_per_dozen) / sum(f.entries), 12), 2) as average_per_dozen,
           sum(f.entries)::int as product_count,
           array_agg(distinct f.egg_type) as egg_types
    ${storeFigureRows(sql, storeId, filters)}
    group by f.region`;
  return rows
    .sort((a, b) => REGIONS.indexOf(a.region) - REGIONS.indexOf(b.region))
    .map((r) => ({ ...r, egg_types: [...r.egg_types].sort((a, b) => typeOrder(a) - typeOrder(b)) }));
}

export interface StorePage {
  /** 1-based page of the entries, cheapest per dozen first; a page past the end is the last. */
  page: number;
  pageSize: number;
}

/** The store page's default page of entries: the dashboard's desktop page size. */
export const DEFAULT_STORE_PAGE: StorePage = { page: 1, pageSize: PAGE_SIZES.desktop };

/**
 * One page of the store's visible entries in the 'price' order (sortEntries(entries, 'price')).
 * Within one product (one pack size) that order is the order of the price, then the id, which the
 * price_entries (product_id, price, id) index gives (migration 017): the page's entries are among
 * the first `offset + pageSize` of each of the store's products, read from that index and stopping
 * there, then put in the 'price' order across products. (Sorting every entry of the store, 92,000
 * of Walmart's nationwide, was most of the store page's time.)
 */
export async function storeEntriesPage(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
  page: number,
  pageSize: number,
): Promise<PriceEntry[]> {
  const wanted = page * pageSize;
  const ids = await sql<{ id: number }[]>`
    select e.id
    from products p
    join stores s on s.id = p.store_id
    cross join lateral (
      select e.id, e.price
      from price_entries e
      -- Each entry's location by its key (a nested loop of index lookups: the planner otherwise
      -- scans the store's every location once per product).
      cross join lateral (select sl.store_id, sl.region from store_locations sl where sl.id = e.location_id offset 0) l
      where e.product_id = p.id
        and ${shownSource(sql)}
        ${filters.region ? sql`and l.region = ${filters.region}` : sql``}
      order by e.price, e.id
      limit ${wanted}) e
    where p.store_id = ${storeId} and s.active
      ${filters.eggType ? sql`and p.egg_type = ${filters.eggType}` : sql``}
      ${filters.count ? sql`and p.count = ${filters.count}` : sql``}
    ${perDozenOrder(sql)}
    limit ${pageSize} offset ${(page - 1) * pageSize}`;
  if (ids.length === 0) return [];
  const position = new Map(ids.map((row, index) => [row.id, index]));
  const entries = await listPriceEntries(sql, { ids: ids.map((row) => row.id) });
  return entries.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

export interface StoreFilterOptions {
  /** In the vocabulary's order. */
  regions: Region[];
  egg_types: EggType[];
  /** Ascending. */
  counts: number[];
}

/**
 * The values present in the store's visible entries, for its page's filters: the
 * combinations of its precomputed figures (price_store_entry_figures, one row per region, egg type
 * and pack size with visible entries, kept by the rollup refresh a second or so after a price
 * change), instead of probing its entries.
 */
export async function storeFilterOptions(sql: Db, storeId: string): Promise<StoreFilterOptions> {
  const rows = await sql<Array<{ region: Region; egg_type: EggType; count: number }>>`
    select f.region, f.egg_type, f.count
    ${storeFigureRows(sql, storeId, {})}`;
  return {
    regions: REGIONS.filter((region) => rows.some((row) => row.region === region)),
    egg_types: EGG_TYPES.filter((type) => rows.some((row) => row.egg_type === type)),
    counts: [...new Set(rows.map((row) => row.count))].sort((a, b) => a - b),
  };
}

export async function storeInsights(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
  paging: StorePage = DEFAULT_STORE_PAGE,
): Promise<StoreInsights> {
  // The asked page is read beside the figures; only a page past the end is read again, as the last.
  const pageOf = async (page: number) => {
    const entries = await storeEntriesPage(sql, storeId, filters, page, paging.pageSize);
    return {
      entries,
      history: await recentHistory(
        sql,
        entries.map((e) => e.id),
      ),
    };
  };
  const [{ down, up, ...insights }, asked, series, marketPosition, regional, figures] = await Promise.all([
    priceInsights(sql, storeId, filters),
    pageOf(Math.max(1, paging.page)),
    storeDailySeries(sql, storeId, filters),
    marketPositions(sql, storeId, filters),
    regionalAnalysis(sql, storeId, filters),
    storeLocationFigures(sql, storeId, filters),
  ]);
  const pages = pageCount(insights.entries, paging.pageSize);
  const page = clampPage(paging.page, pages);
  const { entries, history } = page === Math.max(1, paging.page) ? asked : await pageOf(page);
  const byCombination = new Map(figures.map((f) => [combinationKey(f), f]));
  return {
    entries: entries.map((entry) => ({
      ...entry,
      history: history.get(entry.id) ?? [entry.price],
      locations: byCombination.get(combinationKey(entry)) ?? null,
    })),
    total: insights.entries,
    page,
    pageSize: paging.pageSize,
    pageCount: pages,
    location_figures: figures,
    insights,
    series,
    competitive: {
      downwardTrend: down > insights.entries / 2,
      down,
      up,
      market_position: marketPosition,
      regional,
    },
  };
}
