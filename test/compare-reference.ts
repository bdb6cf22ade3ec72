// The compare page as computed before its figures were precomputed (every visible entry of the
// egg type read per call): kept to check compareByType against, in tests and on the bench database.
// The compare page: the summary figures of one egg type's current entries (by
// price per dozen, over the regions shown and within each region), one page of those entries,
// cheapest per dozen first, with their recent history, and a per-region daily price series.
// Entries are the visible ones (visibleEntries). The figures are aggregated by the database, so
// the answer's size does not grow with the number of entries (75,000 of a type nationwide). The
// per-dozen series reads the daily rollup, which applies the same sample-versus-scraped rule, and
// each region's line starts on its first comparable day (docs/decisions/008).
import { REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import { clampPage, pageCount } from '#shared/pagination.ts';
import type { Db } from '#server/db.ts';
import { listPriceEntries, recentHistory, shownSource, visibleEntries } from '#server/queries/prices.ts';
import { dayWindow, seriesStart } from '#server/queries/insights.ts';

// Its answer's types and the shaping of its figures are compare.ts's own.
import {
  COMPARE_SERIES_DAYS,
  DEFAULT_COMPARE_PAGE_SIZE,
  summaryOf,
  type CompareByType,
  type CompareFilters,
  type ComparePaging,
  type CompareSummary,
  type FigureRow,
  type RegionSeries,
} from '#server/queries/compare.ts';

/**
 * The summary figures, over every region shown and within each, and the ids of one page of the
 * entries, in one statement over the visible entries (read once). The price per dozen is
 * (price / count) * 12 in double precision, as the client and the shared sort work it out; the
 * listing's order is by it, then the cheaper pack, then the lower id, so lowest and highest are
 * the first and last entries of that order (in the region). Each store's entries are counted
 * within a region first (a handful of groups), so the stores are counted over those few rows and
 * the lowest and highest are picked among the few entries at those figures (one more pass). Per egg, the
 * lowest and highest are those same entries' (round(price / count, 4), as entries give it).
 */
async function summaryAndPage(sql: Db, filters: CompareFilters, limit: number, offset: number): Promise<FigureRow[]> {
  const figureEntry = (order: 'asc' | 'desc') => sql`
    (select json_build_object('price', e.price, 'count', p.count, 'region', l.region, 'store_id', l.store_id,
                              'store_name', s.store_name, 'unit_price', round(e.price / p.count, 4))
     from (select id from extremes
           where per_dozen = ${order === 'asc' ? sql`f.low` : sql`f.high`} and (f.region is null or region = f.region)
           order by price ${order === 'asc' ? sql`asc` : sql`desc`}, id ${order === 'asc' ? sql`asc` : sql`desc`}
           limit 1) picked
     join price_entries e on e.id = picked.id
     join products p on p.id = e.product_id
     join store_locations l on l.id = e.location_id
     join stores s on s.id = l.store_id)`;
  return sql<FigureRow[]>`
    with shown as materialized (
      select l.region, l.store_id, e.id, e.price, e.trend_direction, e.price::float8 / p.count * 12 as per_dozen
      ${visibleEntries(sql, filters)}
    ), by_store as (
      select region, store_id, count(*) as products, sum(per_dozen) as per_dozen_sum, sum(price) as price_sum,
             min(per_dozen) as low, max(per_dozen) as high,
             bool_or(trend_direction = 'down') as down, bool_or(trend_direction = 'up') as up
      from shown
      group by region, store_id
    ), f as (
      select region, sum(products)::int as products, count(distinct store_id)::int as stores,
             sum(per_dozen_sum) / sum(products) as average_per_dozen,
             (sum(price_sum) / sum(products))::float8 as average_price,
             min(low) as low, max(high) as high, bool_or(down) as down, bool_or(up) as up
      from by_store
      group by grouping sets ((region), ())
    ), extremes as (
      select region, id, price, per_dozen from shown
      where per_dozen in (select low from f union select high from f)
    )
    select f.region, f.products, f.stores, f.average_per_dozen, f.average_price, f.down, f.up,
           ${figureEntry('asc')} as lowest,
           ${figureEntry('desc')} as highest,
           case when f.region is null then
             (select array_agg(id) from (select id from shown order by per_dozen, price, id limit ${limit} offset ${offset}) listed)
           end as page_ids
    from f`;
}

/** The summary cards' figures (compareByType's, without a page of entries). */
export async function compareSummary(sql: Db, filters: CompareFilters): Promise<CompareSummary> {
  return summaryOf(await summaryAndPage(sql, filters, 0, 0));
}

/**
 * The ids of one page of the visible entries, in the listing's order (summaryAndPage's): for a
 * page asked past the end, read again as the last page.
 */
async function pageIds(sql: Db, filters: CompareFilters, limit: number, offset: number): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    select e.id
    ${visibleEntries(sql, filters)}
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
 * The pack sizes of the egg type that have a visible entry: per product of the type (a few dozen),
 * whether any of its entries is shown, which stops at the first one (the entries' index on
 * product_id), instead of reading every entry of the type.
 */
async function availableCounts(sql: Db, eggType: EggType): Promise<number[]> {
  const rows = await sql<{ count: number }[]>`
    select distinct p.count
    from products p
    where p.egg_type = ${eggType}
      and exists (
        select 1 from price_entries e
        join store_locations l on l.id = e.location_id
        join stores s on s.id = l.store_id
        where e.product_id = p.id and s.active and ${shownSource(sql)})
    order by p.count`;
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
  const [rows, counts, chart] = await Promise.all([
    summaryAndPage(sql, filters, pageSize, (asked - 1) * pageSize),
    availableCounts(sql, filters.eggType),
    regionSeries(sql, filters),
  ]);
  const summary = summaryOf(rows);
  const total = summary.products;
  const pages = pageCount(total, pageSize);
  const page = clampPage(asked, pages);
  const ids =
    page === asked
      ? (rows.find((row) => row.region === null)?.page_ids ?? [])
      : await pageIds(sql, filters, pageSize, (page - 1) * pageSize);
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
