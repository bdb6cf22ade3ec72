// The public price data: current entries, Near you, prices by state, a product's history, the
// statistics, the news ticker and the BLS series; with their CSV columns.
import { z } from 'zod';
import { priceListInput, marketSeriesInput } from '#shared/inputs.ts';
import { priceEntrySchema, statsSchema, type PriceEntry } from '#shared/types.ts';
import {
  historyInput,
  historyResultSchema,
  nearInput,
  nearResultSchema,
  type HistoryResult,
  type NearEntry,
  type NearResult,
} from '#shared/near.ts';
import {
  priceMapInput,
  priceMapResultSchema,
  priceMapCheapestInput,
  priceMapCheapestResultSchema,
  type PriceMapResult,
  type PriceMapCheapestResult,
  type StateFigures,
} from '#shared/price-map.ts';
import type { MarketSeries } from '../../queries/market.ts';
import { priceEntryBatches } from '../../queries/prices.ts';
import { numberColumn, textColumn, type CsvColumn } from '../csv.ts';
import { parsed, withoutPaging } from '../paging.ts';
import { csvExport, route, type RestRoute } from '../route.ts';

/** in_stock as a CSV cell: true, false, or empty when the retailer did not say. */
const stockCell = (inStock: boolean | null): string | null => (inStock === null ? null : String(inStock));

/** The columns of a price entry's row (/api/egg-prices.csv, /api/stores/{storeId}/prices.csv). */
export const entryColumns: ReadonlyArray<CsvColumn<PriceEntry>> = [
  numberColumn('id', (e) => e.id),
  textColumn('store_id', (e) => e.store_id),
  textColumn('store_name', (e) => e.store_name),
  textColumn('region', (e) => e.region),
  textColumn('zip', (e) => e.zip),
  numberColumn('location_id', (e) => e.location_id),
  numberColumn('product_id', (e) => e.product_id),
  textColumn('title', (e) => e.title),
  textColumn('brand', (e) => e.brand),
  textColumn('egg_type', (e) => e.egg_type),
  numberColumn('count', (e) => e.count),
  textColumn('size_grade', (e) => e.size_grade),
  numberColumn('price', (e) => e.price),
  numberColumn('regular_price', (e) => e.regular_price),
  numberColumn('unit_price', (e) => e.unit_price),
  textColumn('in_stock', (e) => stockCell(e.in_stock)),
  numberColumn('trend_value', (e) => e.trend_value),
  textColumn('trend_direction', (e) => e.trend_direction),
  textColumn('last_updated', (e) => e.last_updated),
  textColumn('source', (e) => e.source),
  textColumn('source_url', (e) => e.source_url),
];

/** A price entry's column by its header: the rows of Near you are price entries too. */
const entryColumn = (header: string): CsvColumn<PriceEntry> => entryColumns.find((c) => c.header === header)!;

/** Near you's row: the entry's columns with where it is, how far, per dozen and since the day before. */
const nearColumns: ReadonlyArray<CsvColumn<NearEntry>> = [
  ...['id', 'store_id', 'store_name', 'location_id'].map(entryColumn),
  textColumn('location_name', (e) => e.location_name),
  textColumn('city', (e) => e.city),
  textColumn('state', (e) => e.state),
  ...['zip', 'region'].map(entryColumn),
  numberColumn('distance_miles', (e) => e.distance_miles),
  ...['product_id', 'title', 'brand', 'egg_type', 'count', 'size_grade', 'price', 'regular_price'].map(entryColumn),
  numberColumn('price_per_dozen', (e) => e.price_per_dozen),
  ...['unit_price', 'in_stock'].map(entryColumn),
  numberColumn('previous_price', (e) => e.previous_price),
  numberColumn('change', (e) => e.change),
  ...['last_updated', 'source', 'source_url'].map(entryColumn),
];

type HistoryRow = HistoryResult['points'][number] & { history: HistoryResult; bls: number | undefined };

const historyColumns: ReadonlyArray<CsvColumn<HistoryRow>> = [
  textColumn('day', (r) => r.day),
  textColumn('store_id', (r) => r.history.product.store_id),
  numberColumn('location_id', (r) => r.history.location.id),
  textColumn('zip', (r) => r.history.location.zip),
  numberColumn('product_id', (r) => r.history.product.id),
  textColumn('title', (r) => r.history.product.title),
  textColumn('egg_type', (r) => r.history.product.egg_type),
  numberColumn('count', (r) => r.history.product.count),
  numberColumn('price', (r) => r.price),
  numberColumn('price_per_dozen', (r) => r.price_per_dozen),
  numberColumn('bls_national_per_dozen', (r) => r.bls),
];

type StateRow = StateFigures & { egg_type: string; day: string };

const stateColumns: ReadonlyArray<CsvColumn<StateRow>> = [
  textColumn('state', (r) => r.state),
  textColumn('region', (r) => r.region),
  textColumn('egg_type', (r) => r.egg_type),
  textColumn('day', (r) => r.day),
  numberColumn('median_per_dozen', (r) => r.median_per_dozen),
  numberColumn('lowest_per_dozen', (r) => r.lowest_per_dozen),
  numberColumn('highest_per_dozen', (r) => r.highest_per_dozen),
  numberColumn('entries', (r) => r.entries),
  numberColumn('stores', (r) => r.stores),
  textColumn('sample', (r) => String(r.sample)),
  numberColumn('week_ago_median_per_dozen', (r) => r.week_ago_median_per_dozen),
  numberColumn('change', (r) => r.change),
  numberColumn('change_percent', (r) => r.change_percent),
];

type MarketRow = Omit<MarketSeries, 'points'> & MarketSeries['points'][number];

const marketColumns: ReadonlyArray<CsvColumn<MarketRow>> = [
  textColumn('series_id', (r) => r.series_id),
  textColumn('region', (r) => r.region),
  textColumn('item', (r) => r.item),
  textColumn('grade', (r) => r.grade),
  textColumn('period', (r) => r.period),
  numberColumn('price', (r) => r.price),
];

const marketSeriesSchema = z.object({
  series_id: z.string(),
  region: z.string(),
  item: z.string(),
  grade: z.enum(['A', 'AA']),
  points: z.array(z.object({ period: z.string().describe('YYYY-MM'), price: z.number() })),
  latest: z
    .object({
      period: z.string().describe('YYYY-MM'),
      publishedOn: z
        .string()
        .nullable()
        .describe('YYYY-MM-DD: the day BLS published the month (first read by the worker); null for seed data'),
    })
    .nullable(),
});

const tickerEventSchema = z.object({
  kind: z.enum(['region-week', 'store-streak', 'sale', 'national-week']),
  text: z.string(),
  trend: z.enum(['up', 'down', 'none']),
  sample: z.boolean(),
});

export const priceRoutes: RestRoute[] = [
  route({
    method: 'GET',
    path: '/egg-prices',
    summary:
      'Current price entries, optionally filtered by store, region, egg type and pack count, in id order. The CSV holds every matching entry, streamed, unless limit is given',
    procedure: 'prices.list',
    query: priceListInput,
    response: z.array(priceEntrySchema),
    errors: { 404: 'No store with the id given as store' },
    list: { total: ({ input, call }) => call('prices.count', input) as Promise<number> },
    csv: csvExport<PriceEntry[], PriceEntry>({
      rows: (entries) => entries,
      columns: entryColumns,
      filename: () => 'egg-prices.csv',
    }),
    csvStream: {
      open: async ({ call, ctx, parts }) => {
        const input = parsed(priceListInput, parts.query);
        const total = (await call('prices.count', withoutPaging(parts.query))) as number;
        const filters = { store: input.store, region: input.region, eggType: input.egg_type, count: input.count };
        return { total, batches: priceEntryBatches(ctx.sql, filters, { limit: input.limit, offset: input.offset }) };
      },
      columns: entryColumns as ReadonlyArray<CsvColumn<never>>,
      filename: () => 'egg-prices.csv',
    },
  }),
  route({
    method: 'GET',
    path: '/egg-prices/near',
    summary:
      "Near you: the current entries around a ZIP code, ranked by price per dozen, then distance, then store name. scope says which: 'radius' within the radius; 'widened' none was, so within radius_used, the next larger radius that has any (at most 50 miles); 'region' none within 50 miles, so the ZIP's census region at any distance; 'none' nothing there either. An unknown ZIP code answers 400",
    procedure: 'prices.near',
    query: nearInput,
    response: nearResultSchema,
    list: { field: 'entries', defaultLimit: 100, total: ({ result }) => (result as NearResult).total },
    csv: csvExport<NearResult, NearEntry>({
      rows: (near) => near.entries,
      columns: nearColumns,
      filename: (near) => `egg-prices-near-${near.zip}.csv`,
    }),
  }),
  route({
    method: 'GET',
    path: '/egg-prices/by-state',
    summary:
      "Today's median price of a dozen of one egg type (standard by default) in each of the 50 states and DC, by state code, with its lowest and highest, the entries and stores it rests on, and its change against the same day last week; a state without prices today has null figures ('no data'). Today's prices are those read in the last 48 hours",
    procedure: 'prices.map',
    query: priceMapInput,
    response: priceMapResultSchema,
    list: { field: 'states' },
    csv: csvExport<PriceMapResult, StateRow>({
      rows: (result) => result.states.map((state) => ({ ...state, egg_type: result.egg_type, day: result.day })),
      columns: stateColumns,
      filename: (result) => `egg-prices-by-state-${result.egg_type}-${result.day}.csv`,
    }),
  }),
  route({
    method: 'GET',
    path: '/egg-prices/by-state/:state',
    summary:
      "A state's entries today, cheapest per dozen first, for one egg type (standard by default). 400 for a code that is not a state's",
    procedure: 'prices.mapCheapest',
    query: priceMapCheapestInput.omit({ state: true }),
    params: { state: 'A two-letter state code (or DC), any case' },
    response: priceMapCheapestResultSchema,
    list: { field: 'entries', defaultLimit: 10, total: ({ result }) => (result as PriceMapCheapestResult).total },
  }),
  route({
    method: 'GET',
    path: '/products/:id/history',
    summary:
      "A product's daily prices at one store location over the last 30, 90 or 365 UTC days, its lowest, highest and latest price, the latest price's change against the observation before it, and the BLS national average price of a dozen grade A large eggs for the months of the span (the latest published month when none of them is published yet)",
    procedure: 'prices.history',
    query: historyInput.omit({ id: true }),
    params: { id: "The product's id (product_id of a price entry)" },
    response: historyResultSchema,
    errors: { 404: 'The product has no price at that location' },
    csv: csvExport<HistoryResult, HistoryRow>({
      rows: (history) => {
        const bls = new Map(history.bls.map((month) => [month.period, month.price]));
        return history.points.map((point) => ({ ...point, history, bls: bls.get(point.day.slice(0, 7)) }));
      },
      columns: historyColumns,
      filename: (history) =>
        `product-${history.product.id}-location-${history.location.id}-history-${history.days}d.csv`,
    }),
  }),
  route({
    method: 'GET',
    path: '/stats',
    summary: 'National average, weekly volatility, lowest price and 7- and 30-day trends, computed from the data',
    procedure: 'stats.get',
    response: statsSchema,
  }),
  route({
    method: 'GET',
    path: '/market-prices',
    summary: 'BLS monthly average egg prices (grade A large; the West only as grade AA), national and by region',
    procedure: 'market.series',
    query: marketSeriesInput,
    response: z.array(marketSeriesSchema),
    list: {},
    csv: csvExport<MarketSeries[], MarketRow>({
      rows: (series) => series.flatMap(({ points, ...head }) => points.map((point) => ({ ...head, ...point }))),
      columns: marketColumns,
      filename: () => 'market-prices.csv',
    }),
  }),
  route({
    method: 'GET',
    path: '/ticker',
    summary:
      "The news ticker's price events: a region's egg type change this week, a store's streak of daily rises or falls, a sale, an egg type's nationwide change",
    procedure: 'news.ticker',
    response: z.array(tickerEventSchema),
    list: {},
  }),
];
