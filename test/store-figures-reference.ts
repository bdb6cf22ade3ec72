// The store page's figures as they were computed before migration 017, from every visible entry
// on each call (src/server/queries/insights.ts before the precomputed rows): what the precomputed
// figures are checked against. Kept verbatim but for the names.
import { EGG_TYPES, REGIONS, type EggType, type Region } from '../src/shared/vocabulary.ts';
import type { PriceEntry } from '../src/shared/types.ts';
import { entryPricePerDozen } from '../src/shared/sort.ts';
import { roundCents } from '../src/shared/format.ts';
import type { Db } from '../src/server/db.ts';
import { listPriceEntries, shownSource, visibleEntries } from '../src/server/queries/prices.ts';
import type {
  MarketPosition,
  PriceInsights,
  PricePoint,
  RegionalAnalysis,
  StoreFilters,
} from '../src/server/queries/insights.ts';

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
const typeOrder = (type: EggType) => EGG_TYPES.indexOf(type);

function pointOf(entry: Pick<PriceEntry, 'price' | 'count' | 'egg_type' | 'region'>): PricePoint {
  return {
    price: entry.price,
    count: entry.count,
    price_per_dozen: roundCents(entryPricePerDozen({ ...entry, store_id: '' })),
    egg_type: entry.egg_type,
    region: entry.region,
  };
}

function perDozenOrder(sql: Db, direction: 'asc' | 'desc' = 'asc') {
  return direction === 'asc'
    ? sql`order by e.price::float8 / p.count * 12, e.price, e.id`
    : sql`order by e.price::float8 / p.count * 12 desc, e.price desc, e.id desc`;
}

async function extremePoint(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
  direction: 'asc' | 'desc',
): Promise<PricePoint | null> {
  const [row] = await sql<Array<{ price: number; count: number; egg_type: EggType; region: Region }>>`
    select e.price, p.count, p.egg_type, l.region
    ${visibleEntries(sql, { ...filters, store: storeId })}
    ${perDozenOrder(sql, direction)}
    limit 1`;
  return row ? pointOf(row) : null;
}

export async function referencePriceInsights(
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
      select count(*)::int as entries,
             array_agg(distinct l.region) as regions,
             bool_or(e.source <> 'scrape') as sample,
             round(avg(e.price), 2) as average_price,
             round(avg(e.price / p.count * 12), 2) as average_per_dozen,
             round(avg(e.price - e.reference_price) filter (where e.reference_price is not null), 2) as weekly_change,
             round(avg((e.price - e.reference_price) / p.count * 12) filter (where e.reference_price is not null), 2) as weekly_change_per_dozen,
             count(*) filter (where e.reference_price is not null)::int as weekly_compared,
             count(*) filter (where e.trend_direction = 'down')::int as down,
             count(*) filter (where e.trend_direction = 'up')::int as up
      ${visibleEntries(sql, { ...filters, store: storeId })}`,
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

export async function referenceMarketPositions(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
): Promise<MarketPosition[]> {
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
      -- Each store's distinct offers (egg type, region, pack size, price) with the lowest entry id
      -- at each: the representative, the cheapest per dozen (ties to the cheaper pack, then a dozen), is chosen among these as among the entries (ties on the
      -- price per dozen go to the lowest id), but sorting a few thousand offers instead of every
      -- entry of the catalogue (60,000 at 3,000 locations, sorted on disk: most of the time).
      select l.store_id, s.store_name, p.egg_type, p.count, e.price, l.region, min(e.id) as id,
             e.price / p.count * 12 as per_dozen
      ${visibleEntries(sql, filters)}
      group by l.store_id, s.store_name, p.egg_type, p.count, e.price, l.region
    ), representative as (
      select distinct on (store_id, egg_type, region) *
      from candidates
      order by store_id, egg_type, region, price / count, price, (egg_type <> 'standard'), (count <> 12), id
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

export async function referenceRegionalAnalysis(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
): Promise<RegionalAnalysis[]> {
  const rows = await sql<
    Array<{
      region: Region;
      average_price: number;
      average_per_dozen: number;
      product_count: number;
      egg_types: EggType[];
    }>
  >`
    select l.region,
           round(avg(e.price), 2) as average_price,
           round(avg(e.price / p.count * 12), 2) as average_per_dozen,
           count(*)::int as product_count,
           array_agg(distinct p.egg_type) as egg_types
    ${visibleEntries(sql, { ...filters, store: storeId })}
    group by l.region`;
  return rows
    .sort((a, b) => REGIONS.indexOf(a.region) - REGIONS.indexOf(b.region))
    .map((r) => ({ ...r, egg_types: [...r.egg_types].sort((a, b) => typeOrder(a) - typeOrder(b)) }));
}

export async function referenceFilterOptions(
  sql: Db,
  storeId: string,
): Promise<{ regions: Region[]; egg_types: EggType[]; counts: number[] }> {
  const rows = await sql<Array<{ region: Region; egg_type: EggType; count: number }>>`
    select r.region, p.egg_type, p.count
    from (select distinct region from store_locations where store_id = ${storeId}) r
    cross join products p
    join stores s on s.id = p.store_id
    where p.store_id = ${storeId} and s.active
      and exists (
        select 1
        from price_entries e
        join store_locations l on l.id = e.location_id
        where e.product_id = p.id and l.store_id = ${storeId} and l.region = r.region
          and ${shownSource(sql)})`;
  return {
    regions: REGIONS.filter((region) => rows.some((row) => row.region === region)),
    egg_types: EGG_TYPES.filter((type) => rows.some((row) => row.egg_type === type)),
    counts: [...new Set(rows.map((row) => row.count))].sort((a, b) => a - b),
  };
}

export async function referenceEntriesPage(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
  page: number,
  pageSize: number,
): Promise<PriceEntry[]> {
  const ids = await sql<{ id: number }[]>`
    select e.id
    ${visibleEntries(sql, { ...filters, store: storeId })}
    ${perDozenOrder(sql)}
    limit ${pageSize} offset ${(page - 1) * pageSize}`;
  if (ids.length === 0) return [];
  const position = new Map(ids.map((row, index) => [row.id, index]));
  const entries = await listPriceEntries(sql, { ids: ids.map((row) => row.id) });
  return entries.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}
