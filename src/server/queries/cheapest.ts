// "Where are eggs cheapest": the one rule every screen and the API use to compare prices
// (docs/features/comparing.md, "Like with like").
//
// - Which prices: the visible current entries (visibleEntries) within the filters (store, region,
//   egg type, pack size).
// - Per what unit: the price per dozen, price / count * 12, so a 60-pack and a 6-pack compare like
//   with like. Every pack size is compared unless a pack size is chosen.
// - A store's price: its cheapest pack per dozen within the filters; at an equal price per dozen
//   the cheaper pack to buy, then standard eggs, then a dozen, then the lower entry id.
// - The label: listingHeading in src/shared/cheapest.ts.
import type { EggType, Region } from '#shared/vocabulary.ts';
import type { PriceEntry } from '#shared/types.ts';
import type { Db } from '../db.ts';
import { listPriceEntries, visibleEntries, type EntryFilters } from './prices.ts';

export interface CheapestFilters {
  store?: string | undefined;
  region?: Region | undefined;
  eggType?: EggType | undefined;
  count?: number | undefined;
}

/**
 * The rule's order over rows with a price, a count, an egg type and an id (qualified column
 * names), cheapest per dozen first, as an ORDER BY tail: the price per egg orders as the price per
 * dozen does, without rounding.
 */
export function cheapestOrder(sql: Db, price: string, count: string, eggType: string, id: string) {
  return sql`${sql(price)} / ${sql(count)}, ${sql(price)}, (${sql(eggType)} <> 'standard'), (${sql(count)} <> 12), ${sql(id)}`;
}

/**
 * Each store's cheapest pack per dozen within the filters, as entry ids in the order of each
 * store's first entry in id order (the order in which a stable sort keeps stores at an equal
 * price). From the store figures (price_store_entry_figures: per store, region, egg type and pack
 * size, its cheapest visible entry) as of the latest rollup refresh; null when a chosen entry is
 * no longer visible. The caller asks the entries then, and when none is chosen (figures never
 * computed).
 */
export async function cheapestFromFigures(sql: Db, filters: CheapestFilters): Promise<PriceEntry[] | null> {
  const rows = await sql<{ id: number }[]>`
    with chosen as (
      select distinct on (f.store_id) f.lowest_entry_id as id, min(f.first_entry_id) over (partition by f.store_id) as first_id
      from price_store_entry_figures f
      join stores s on s.id = f.store_id
      where s.active
        ${filters.store ? sql`and f.store_id = ${filters.store}` : sql``}
        ${filters.region ? sql`and f.region = ${filters.region}` : sql``}
        ${filters.eggType ? sql`and f.egg_type = ${filters.eggType}` : sql``}
        ${filters.count ? sql`and f.count = ${filters.count}` : sql``}
      order by f.store_id, ${cheapestOrder(sql, 'f.lowest_price', 'f.count', 'f.egg_type', 'f.lowest_entry_id')}
    )
    select id from chosen order by first_id`;
  const entries = await readInOrder(sql, rows);
  return entries.length === rows.length ? entries : null;
}

/** The same choice made from every matching visible entry: current the moment prices are written. */
export async function cheapestPerStoreLive(sql: Db, filters: CheapestFilters): Promise<PriceEntry[]> {
  const rows = await sql<{ id: number }[]>`
    with chosen as (
      select distinct on (l.store_id) e.id, min(e.id) over (partition by l.store_id) as first_id
      ${visibleEntries(sql, filters satisfies EntryFilters)}
      order by l.store_id, ${cheapestOrder(sql, 'e.price', 'p.count', 'p.egg_type', 'e.id')}
    )
    select id from chosen order by first_id`;
  return readInOrder(sql, rows);
}

/**
 * Each store's cheapest pack per dozen within the filters (one entry per store, in the order of
 * each store's first entry). fromFigures says whether the choice came from the store figures, so
 * a caller reads its other figures from the same refresh.
 */
export async function cheapestPerStore(
  sql: Db,
  filters: CheapestFilters,
): Promise<{ entries: PriceEntry[]; fromFigures: boolean }> {
  const chosen = await cheapestFromFigures(sql, filters);
  if (chosen && chosen.length > 0) return { entries: chosen, fromFigures: true };
  return { entries: await cheapestPerStoreLive(sql, filters), fromFigures: false };
}

/** The rule's comparison of two chosen entries: cheaper per dozen, then the cheaper pack. */
export function cheaperFirst(a: Pick<PriceEntry, 'price' | 'count'>, b: Pick<PriceEntry, 'price' | 'count'>): number {
  return a.price / a.count - b.price / b.count || a.price - b.price;
}

/** The cheapest of every store's cheapest within the filters (ties: the earlier store), or null. */
export async function cheapestEntry(sql: Db, filters: CheapestFilters = {}): Promise<PriceEntry | null> {
  const { entries } = await cheapestPerStore(sql, filters);
  return [...entries].sort(cheaperFirst)[0] ?? null;
}

async function readInOrder(sql: Db, rows: readonly { id: number }[]): Promise<PriceEntry[]> {
  if (rows.length === 0) return [];
  const entries = new Map(
    (await listPriceEntries(sql, { ids: rows.map((row) => row.id) })).map((entry) => [entry.id, entry]),
  );
  return rows.flatMap((row) => entries.get(row.id) ?? []);
}
