// The compare page computed afresh in TypeScript from the visible entries of the egg type (read as
// plain rows: test/visible-entry-rows.ts), by the rules of docs/features/comparing.md and
// docs/decisions/004: what compareByType (src/server/queries/compare.ts, from the precomputed
// figures and the price index) is checked against, in tests and on the bench database. Written
// from the rules, not from the queries, so a wrong rule there fails here. Only the chart is
// compare.ts's own (regionSeries: its tests check it against the observations).
import type { Region } from '#shared/vocabulary.ts';
import type { Db } from '#server/db.ts';
import { listPriceEntries, recentHistory } from '#server/queries/prices.ts';
import {
  DEFAULT_COMPARE_PAGE_SIZE,
  regionSeries,
  type CompareByType,
  type CompareFilters,
  type ComparePaging,
  type CompareSummary,
  type PriceFigures,
  type StorePrice,
} from '#server/queries/compare.ts';
import {
  listingOrder,
  matching,
  perDozen,
  perEgg,
  regionsOf,
  rounded,
  roundedMean,
  dollars,
  visibleEntryRows,
  type EntryRow,
} from './visible-entry-rows.ts';

function storePrice(row: EntryRow): StorePrice {
  const { price, count, region, store_id, store_name } = row;
  return { price, count, price_per_dozen: rounded(perDozen(price, count)), region, store_id, store_name };
}

/**
 * The figures over the entries: how many, at how many stores; the lowest and highest per dozen
 * (the listing's first and last entries) and the difference of the two as shown; the mean price
 * per dozen; per egg, the lowest and the highest entry's price per egg (to 4 decimals).
 */
function figuresOf(rows: readonly EntryRow[]): PriceFigures {
  const listed = listingOrder(rows);
  const first = listed[0];
  const last = listed.at(-1);
  const lowest = first ? storePrice(first) : null;
  const highest = last ? storePrice(last) : null;
  return {
    products: rows.length,
    stores: new Set(rows.map((row) => row.store_id)).size,
    lowest,
    highest,
    difference_per_dozen: lowest && highest ? rounded(dollars(highest.price_per_dozen - lowest.price_per_dozen)) : null,
    average_per_dozen: roundedMean(rows.map((row) => perDozen(row.price, row.count))),
    unit_price:
      first && last
        ? { min: rounded(perEgg(first.price, first.count), 4), max: rounded(perEgg(last.price, last.count), 4) }
        : null,
  };
}

function summaryOf(rows: readonly EntryRow[]): CompareSummary {
  const regions = regionsOf(rows);
  return {
    ...figuresOf(rows),
    regions,
    average_price: roundedMean(rows.map((row) => dollars(row.price))),
    some_decreasing: rows.some((row) => row.trend_direction === 'down'),
    some_increasing: rows.some((row) => row.trend_direction === 'up'),
    by_region: regions.map((region: Region) => ({
      region,
      ...figuresOf(rows.filter((row) => row.region === region)),
    })),
  };
}

/** The summary cards' figures. */
export async function compareSummary(sql: Db, filters: CompareFilters): Promise<CompareSummary> {
  return summaryOf(matching(await visibleEntryRows(sql, filters.eggType), filters));
}

/**
 * The compare page: the summary of the entries under the filters; the page asked for (from 1, past
 * the end: the last) of those entries in the listing's order, each with its last 7 days of prices;
 * the pack sizes of the egg type that have an entry; and the chart.
 */
export async function compareByType(
  sql: Db,
  filters: CompareFilters,
  paging: ComparePaging = { page: 1, pageSize: DEFAULT_COMPARE_PAGE_SIZE },
): Promise<CompareByType> {
  const ofType = await visibleEntryRows(sql, filters.eggType);
  const rows = matching(ofType, filters);
  const { pageSize } = paging;
  const pages = Math.ceil(rows.length / pageSize);
  const page = Math.max(1, Math.min(Math.floor(paging.page), pages));
  const ids = listingOrder(rows)
    .slice((page - 1) * pageSize, page * pageSize)
    .map((row) => row.id);
  const entries = ids.length ? await listPriceEntries(sql, { ids }) : [];
  const history = await recentHistory(sql, ids);
  return {
    egg_type: filters.eggType,
    entries: ids.map((id) => {
      const entry = entries.find((listed) => listed.id === id)!;
      return { ...entry, history: history.get(id) ?? [entry.price] };
    }),
    total: rows.length,
    page,
    pageSize,
    pageCount: pages,
    summary: summaryOf(rows),
    counts: [...new Set(ofType.map((row) => row.count))].sort((a, b) => a - b),
    chart: await regionSeries(sql, filters),
  };
}
