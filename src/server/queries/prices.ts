// Price entries: the current price of each product at each store location, read from the
// price_entries snapshot that the observation trigger keeps. Sample prices are hidden for a
// store and region as soon as scraped prices exist there (DESIGN.md, "Prices shown").
import type { EggType, Region } from '#shared/vocabulary.ts';
import type { PriceEntry } from '#shared/types.ts';
import type { Db } from '../db.ts';

export interface EntryFilters {
  store?: string | undefined;
  region?: Region | undefined;
  eggType?: EggType | undefined;
  count?: number | undefined;
}

export interface Page {
  limit?: number | undefined;
  offset?: number | undefined;
}

/** FROM and WHERE of the visible price entries (aliases e, l, s, p), for every reader. */
export function visibleEntries(sql: Db, filters: EntryFilters = {}) {
  return sql`
    from price_entries e
    join store_locations l on l.id = e.location_id
    join stores s on s.id = l.store_id
    join products p on p.id = e.product_id
    where s.active
      and (e.source = 'scrape' or not exists (
        select 1 from price_entries se
        join store_locations sl on sl.id = se.location_id
        where se.source = 'scrape' and sl.store_id = l.store_id and sl.region = l.region))
      ${filters.store ? sql`and l.store_id = ${filters.store}` : sql``}
      ${filters.region ? sql`and l.region = ${filters.region}` : sql``}
      ${filters.eggType ? sql`and p.egg_type = ${filters.eggType}` : sql``}
      ${filters.count ? sql`and p.count = ${filters.count}` : sql``}`;
}

export async function listPriceEntries(sql: Db, filters: EntryFilters = {}, page: Page = {}): Promise<PriceEntry[]> {
  return sql<PriceEntry[]>`
    select e.id, l.store_id, s.store_name, l.region, l.zip, p.egg_type, p.count,
           e.price, round(e.price / p.count, 4)::numeric as unit_price, p.size_grade,
           e.trend_value, e.trend_direction,
           to_char(e.observed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last_updated,
           p.url as source_url, p.title, p.brand, e.source, e.product_id, e.location_id
    ${visibleEntries(sql, filters)}
    order by e.id
    ${page.limit !== undefined ? sql`limit ${page.limit}` : sql``}
    ${page.offset ? sql`offset ${page.offset}` : sql``}`;
}

export async function countPriceEntries(sql: Db, filters: EntryFilters = {}): Promise<number> {
  const [row] = await sql<{ total: number }[]>`
    select count(*)::int as total
    ${visibleEntries(sql, filters)}`;
  return row!.total;
}

/**
 * Daily prices of the given entries over the last `days` days up to each entry's latest
 * observation, oldest first: the real history behind each price card's sparkline.
 */
export async function recentHistory(sql: Db, entryIds: number[], days = 7): Promise<Map<number, number[]>> {
  const history = new Map<number, number[]>();
  if (entryIds.length === 0) return history;
  const rows = await sql<{ id: number; prices: number[] }[]>`
    select e.id, array_agg(o.price order by o.observed_on) as prices
    from price_entries e
    join price_observations o on o.product_id = e.product_id and o.location_id = e.location_id
    where e.id = any(${sql.array(entryIds)}::int[])
      and o.observed_on > (e.observed_at at time zone 'UTC')::date - ${days}::int
    group by e.id`;
  for (const row of rows) history.set(row.id, row.prices.map(Number));
  return history;
}
