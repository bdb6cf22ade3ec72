// The store page's figures computed afresh in TypeScript from the visible entries (read as plain
// rows: test/visible-entry-rows.ts), by the rules of docs/decisions/004 and 014 and
// docs/features/comparing.md: what the precomputed figures (src/server/queries/insights.ts) are
// checked against. Written from the rules, not from the queries, so a wrong rule there fails here.
import { EGG_TYPES, REGIONS } from '#shared/vocabulary.ts';
import type { PriceEntry } from '#shared/types.ts';
import type { Db } from '#server/db.ts';
import { listPriceEntries } from '#server/queries/prices.ts';
import type {
  MarketPosition,
  PriceInsights,
  PricePoint,
  RegionalAnalysis,
  StoreFilters,
} from '#server/queries/insights.ts';
import {
  compareExact,
  dollars,
  eggTypesOf,
  listingOrder,
  matching,
  perDozen,
  percentChange,
  regionsOf,
  rounded,
  roundedMean,
  visibleEntryRows,
  type EntryRow,
} from './visible-entry-rows.ts';

async function storeRows(sql: Db, storeId: string, filters: StoreFilters): Promise<EntryRow[]> {
  return matching(await visibleEntryRows(sql), filters).filter((row) => row.store_id === storeId);
}

const dozenPrice = (row: EntryRow) => rounded(perDozen(row.price, row.count));

function point(row: EntryRow | undefined): PricePoint | null {
  if (!row) return null;
  const { price, count, egg_type, region } = row;
  return { price, count, price_per_dozen: dozenPrice(row), egg_type, region };
}

/**
 * Price Insights: over the entries, the mean shelf price and price per dozen, the entries with the
 * lowest and highest price per dozen (the listing's first and last), and the mean change against
 * each entry's week-old price (shelf and per dozen) over those that have one; with the counts of
 * entries trending down and up.
 */
export async function referencePriceInsights(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
): Promise<PriceInsights & { down: number; up: number }> {
  const rows = await storeRows(sql, storeId, filters);
  const listed = listingOrder(rows);
  const compared = rows.filter((row) => row.reference_price !== null);
  const change = (row: EntryRow) => row.price - row.reference_price!;
  return {
    entries: rows.length,
    regions: regionsOf(rows),
    sample: rows.some((row) => row.source !== 'scrape'),
    average_price: roundedMean(rows.map((row) => dollars(row.price))),
    average_per_dozen: roundedMean(rows.map((row) => perDozen(row.price, row.count))),
    lowest: point(listed[0]),
    highest: point(listed.at(-1)),
    weekly_change: roundedMean(compared.map((row) => dollars(change(row)))),
    weekly_change_per_dozen: roundedMean(compared.map((row) => perDozen(change(row), row.count))),
    weekly_compared: compared.length,
    down: rows.filter((row) => row.trend_direction === 'down').length,
    up: rows.filter((row) => row.trend_direction === 'up').length,
  };
}

/**
 * The cheapest-pack rule: cheaper per dozen (exactly), then the cheaper pack, then standard eggs,
 * then a dozen, then the lower entry id.
 */
function cheaperPack(a: EntryRow, b: EntryRow): number {
  return (
    compareExact(perDozen(a.price, a.count), perDozen(b.price, b.count)) ||
    a.price - b.price ||
    Number(a.egg_type !== 'standard') - Number(b.egg_type !== 'standard') ||
    Number(a.count !== 12) - Number(b.count !== 12) ||
    a.id - b.id
  );
}

/**
 * Market Position: per egg type and region where the store has entries, every store's
 * representative is its cheapest pack there; the store's rank is one more than the stores cheaper
 * to the cent, and the cheapest competitor is the cheapest other store of the region, with how
 * much dearer (+) or cheaper (-) the store is, in percent of the competitor's price per dozen.
 */
export async function referenceMarketPositions(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
): Promise<MarketPosition[]> {
  const rows = matching(await visibleEntryRows(sql), filters);
  const positions: MarketPosition[] = [];
  for (const type of EGG_TYPES) {
    for (const region of REGIONS) {
      const offers = rows.filter((row) => row.egg_type === type && row.region === region);
      const stores = [...new Set(offers.map((row) => row.store_id))];
      const representatives = stores
        .map((store) => offers.filter((row) => row.store_id === store).sort(cheaperPack)[0]!)
        .sort(
          (a, b) =>
            compareExact(perDozen(a.price, a.count), perDozen(b.price, b.count)) ||
            a.store_id.localeCompare(b.store_id),
        );
      const own = representatives.find((row) => row.store_id === storeId);
      if (!own) continue;
      const competitor = representatives.find((row) => row.store_id !== storeId);
      const ownDozen = dozenPrice(own);
      const cheaper = representatives.filter((row) => dozenPrice(row) < ownDozen).length;
      const competitorDozen = competitor ? dozenPrice(competitor) : 0;
      positions.push({
        egg_type: type,
        region,
        price: own.price,
        count: own.count,
        price_per_dozen: ownDozen,
        rank: cheaper + 1,
        of: representatives.length,
        cheapest_competitor: competitor
          ? {
              store_id: competitor.store_id,
              store_name: competitor.store_name,
              price: competitor.price,
              count: competitor.count,
              region: competitor.region,
              price_per_dozen: competitorDozen,
              difference_pct: rounded(percentChange(ownDozen, competitorDozen), 1),
            }
          : null,
      });
    }
  }
  return positions;
}

/** Regional Analysis: per region of the store's entries, their means, number and egg types. */
export async function referenceRegionalAnalysis(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
): Promise<RegionalAnalysis[]> {
  const rows = await storeRows(sql, storeId, filters);
  return regionsOf(rows).map((region) => {
    const within = rows.filter((row) => row.region === region);
    return {
      region,
      average_price: roundedMean(within.map((row) => dollars(row.price)))!,
      average_per_dozen: roundedMean(within.map((row) => perDozen(row.price, row.count)))!,
      product_count: within.length,
      egg_types: eggTypesOf(within),
    };
  });
}

/** The regions, egg types and pack sizes of the store's visible entries. */
export async function referenceFilterOptions(sql: Db, storeId: string) {
  const rows = await storeRows(sql, storeId, {});
  return {
    regions: regionsOf(rows),
    egg_types: eggTypesOf(rows),
    counts: [...new Set(rows.map((row) => row.count))].sort((a, b) => a - b),
  };
}

/** One page of the store's entries in the listing's order. */
export async function referenceEntriesPage(
  sql: Db,
  storeId: string,
  filters: StoreFilters,
  page: number,
  pageSize: number,
): Promise<PriceEntry[]> {
  const ids = listingOrder(await storeRows(sql, storeId, filters))
    .slice((page - 1) * pageSize, page * pageSize)
    .map((row) => row.id);
  if (ids.length === 0) return [];
  const entries = await listPriceEntries(sql, { ids });
  return ids.map((id) => entries.find((entry) => entry.id === id)!);
}
