// The REST adapter under /api: a table mapping each path to a tRPC procedure, so REST and tRPC
// share one code path and one validation. Errors answer JSON { message } with the status of
// the tRPC error code. Public GETs are served from a byte cache tied to the data version, with
// ETag revalidation. The same table generates /api/openapi.json (and the reference at /api/docs),
// the CSV sibling of every route that declares CSV columns (`<path>.csv`), and the open-data
// treatment of the public GETs: CORS for any origin, X-Total-Count and Link on paged lists, and a
// per-IP rate limit with RateLimit headers. See docs/decisions/005-near-you-and-open-data.md.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCors from '@fastify/cors';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { z, ZodError } from 'zod';
import {
  DEFAULT_LIST_LIMIT,
  MAX_LIST_LIMIT,
  marketSeriesInput,
  priceListInput,
  storeInsightsInput,
  storeLocationsInput,
  storePricesInput,
} from '#shared/inputs.ts';
import { locationFiguresSchema } from '#shared/location-figures.ts';
import { COVERAGE_RUN_STATUSES, coverageDiscoverInput, coveragePlanInput } from '#shared/coverage.ts';
import {
  changePasswordInput,
  loginInput,
  profileInput,
  registerInput,
  requestResetInput,
  resetPasswordInput,
  verifyEmailInput,
  adminSetupInput,
} from '#shared/auth.ts';
import { priceEntrySchema, statsSchema, storeSchema, type PriceEntry } from '#shared/types.ts';
import {
  historyInput,
  historyResultSchema,
  nearInput,
  nearResultSchema,
  type HistoryResult,
  type NearEntry,
  type NearResult,
} from '#shared/near.ts';
import { RUN_STATUSES, scrapeAllInput, scrapeRunsInput, scrapeSettingsInput } from '#shared/scrape.ts';
import { EGG_TYPES, REGIONS, STORE_IDS } from '#shared/vocabulary.ts';
import {
  NOTIFICATION_FREQUENCIES,
  subscriptionInput,
  subscriptionManageInput,
  subscriptionTokenInput,
} from '#shared/subscriptions.ts';
import { describeZodError } from './trpc.ts';
import { asServiceUnavailable } from './db-errors.ts';
import { isCachedQuery, procedureFor, sourcesOf } from './procedures.ts';
import type { Context } from './context.ts';
import { etagOf, type DataCache } from './cache.ts';
import type { CachedRead } from './cached-reads.ts';
import type { PublicRateLimit } from './public-rate-limit.ts';
import { numberColumn, safeFilename, textColumn, toCsv, type CsvColumn } from './csv.ts';
import type { MarketSeries } from './queries/market.ts';
import {
  byStateInput,
  byStateResultSchema,
  stateCheapestInput,
  stateCheapestResultSchema,
  type ByStateResult,
  type StateFigures,
} from '#shared/by-state.ts';
import { priceEntryBatches } from './queries/prices.ts';

const LOGO_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public/favicon.svg');

type RequestParts = { query: Record<string, unknown>; params: Record<string, string>; body: unknown };
type Call = (procedure: string, input: unknown) => Promise<unknown>;

/** A route's CSV download: its rows, their columns and the file's name, from the procedure's answer. */
interface CsvExport {
  rows: (result: unknown) => readonly unknown[];
  columns: ReadonlyArray<CsvColumn<never>>;
  filename: (result: unknown, parts: RequestParts) => string;
}

/**
 * A list downloaded as CSV in batches (constant memory whatever its size) instead of from the
 * procedure's whole answer: `open` validates the request as the procedure would (throwing the same
 * errors), counts the matching rows and answers the batches.
 */
interface CsvStream {
  open: (request: {
    call: Call;
    ctx: Context;
    parts: RequestParts;
  }) => Promise<{ total: number; batches: AsyncIterable<readonly unknown[]> }>;
  columns: ReadonlyArray<CsvColumn<never>>;
  filename: (parts: RequestParts) => string;
}

/** The input as the schema reads it, or the 400 the procedure would answer. */
function parsed<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid input', cause: result.error });
  return result.data;
}

/** Typed at the route, erased in the table. */
function csvExport<Result, Row>(spec: {
  rows: (result: Result) => readonly Row[];
  columns: ReadonlyArray<CsvColumn<Row>>;
  filename: (result: Result, parts: RequestParts) => string;
}): CsvExport {
  return spec as unknown as CsvExport;
}

interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path under /api, e.g. /stores/:storeId */
  path: string;
  summary: string;
  /** Dotted tRPC procedure path. */
  procedure: string;
  /** Builds the procedure input from the request. */
  input?: (req: { query: Record<string, unknown>; params: Record<string, string>; body: unknown }) => unknown;
  /** zod schemas for the OpenAPI document. */
  query?: z.ZodType;
  body?: z.ZodType;
  /** Status of a successful answer (200 unless given). */
  status?: number;
  /** Needs a session (cookie or Bearer token). */
  auth?: 'user' | 'admin';
  /**
   * A GET without a session that still answers someone's personal data (an unsubscribe link's
   * address): not opened to other sites by CORS, not counted as open data.
   */
  private?: boolean;
  params?: string[];
  response?: z.ZodType;
  /** Also served as CSV at the same path plus `.csv`, with the same input and validation. */
  csv?: CsvExport;
  /** X-Total-Count: how many items the request's filters match before limit (and offset). */
  total?: (answer: {
    result: unknown;
    query: Record<string, unknown>;
    params: Record<string, string>;
    call: Call;
  }) => number | Promise<number>;
  /**
   * Paged with limit and offset: RFC 8288 first/prev/next/last links. Asked as JSON without a
   * limit it answers the first DEFAULT_LIST_LIMIT entries; a limit above MAX_LIST_LIMIT is taken
   * as MAX_LIST_LIMIT.
   */
  paged?: boolean;
  /** Its CSV is streamed in batches (see CsvStream), overriding csv's rows. */
  csvStream?: CsvStream;
  /** What a 409 answer means on this path (documented in OpenAPI). */
  conflict?: string;
}

/** in_stock as a CSV cell: true, false, or empty when the retailer did not say. */
const stockCell = (inStock: boolean | null): string | null => (inStock === null ? null : String(inStock));

const entryColumns: ReadonlyArray<CsvColumn<PriceEntry>> = [
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

const nearColumns: ReadonlyArray<CsvColumn<NearEntry>> = [
  numberColumn('id', (e) => e.id),
  textColumn('store_id', (e) => e.store_id),
  textColumn('store_name', (e) => e.store_name),
  numberColumn('location_id', (e) => e.location_id),
  textColumn('location_name', (e) => e.location_name),
  textColumn('city', (e) => e.city),
  textColumn('state', (e) => e.state),
  textColumn('zip', (e) => e.zip),
  textColumn('region', (e) => e.region),
  numberColumn('distance_miles', (e) => e.distance_miles),
  numberColumn('product_id', (e) => e.product_id),
  textColumn('title', (e) => e.title),
  textColumn('brand', (e) => e.brand),
  textColumn('egg_type', (e) => e.egg_type),
  numberColumn('count', (e) => e.count),
  textColumn('size_grade', (e) => e.size_grade),
  numberColumn('price', (e) => e.price),
  numberColumn('regular_price', (e) => e.regular_price),
  numberColumn('price_per_dozen', (e) => e.price_per_dozen),
  numberColumn('unit_price', (e) => e.unit_price),
  textColumn('in_stock', (e) => stockCell(e.in_stock)),
  numberColumn('previous_price', (e) => e.previous_price),
  numberColumn('change', (e) => e.change),
  textColumn('last_updated', (e) => e.last_updated),
  textColumn('source', (e) => e.source),
  textColumn('source_url', (e) => e.source_url),
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

type MarketRow = Omit<MarketSeries, 'points'> & MarketSeries['points'][number];

const stateColumns: ReadonlyArray<CsvColumn<StateFigures & { egg_type: string; day: string }>> = [
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

const marketColumns: ReadonlyArray<CsvColumn<MarketRow>> = [
  textColumn('series_id', (r) => r.series_id),
  textColumn('region', (r) => r.region),
  textColumn('item', (r) => r.item),
  textColumn('grade', (r) => r.grade),
  textColumn('period', (r) => r.period),
  numberColumn('price', (r) => r.price),
];

const publicLocationSchema = z.object({
  id: z.number(),
  retailer_location_id: z.string().describe("the retailer's own store id"),
  name: z.string().nullable(),
  banner: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  first_seen_at: z.string(),
  last_seen_at: z.string().nullable(),
  last_priced_at: z.string().nullable().describe('when a visit or scrape last recorded prices there'),
});

const withoutPaging = ({ limit: _limit, offset: _offset, ...filters }: Record<string, unknown>) => filters;

export const REST_ROUTES: RestRoute[] = [
  {
    method: 'GET',
    path: '/egg-prices',
    summary:
      'Current price entries, optionally filtered by store, region, egg type and pack count, and paged with limit and offset. Without limit, the first 1,000 entries (X-Total-Count and Link: next say what is left); a limit above 5,000 is taken as 5,000. The CSV holds every matching entry, streamed',
    procedure: 'prices.list',
    input: ({ query }) => query,
    query: priceListInput,
    response: z.array(priceEntrySchema),
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
    total: async ({ result, query, call }) =>
      query.limit === undefined && query.offset === undefined
        ? (result as unknown[]).length
        : ((await call('prices.count', withoutPaging(query))) as number),
    paged: true,
  },
  {
    method: 'GET',
    path: '/egg-prices/near',
    summary:
      "Near you: the current entries around a ZIP code, ranked by price per dozen, then distance, then store name. scope says which: 'radius' within the radius; 'widened' none was, so within radius_used, the next larger radius that has any (at most 50 miles); 'region' none within 50 miles, so the ZIP's census region at any distance; 'none' nothing there either. An unknown ZIP code answers 400",
    procedure: 'prices.near',
    input: ({ query }) => query,
    query: nearInput,
    response: nearResultSchema,
    csv: csvExport<NearResult, NearEntry>({
      rows: (near) => near.entries,
      columns: nearColumns,
      filename: (near) => `egg-prices-near-${near.zip}.csv`,
    }),
    total: ({ result }) => (result as NearResult).total,
  },
  {
    method: 'GET',
    path: '/egg-prices/by-state',
    summary:
      "Today's median price of a dozen of one egg type (standard by default) in each of the 50 states and DC, with its lowest and highest, the entries and stores it rests on, and its change against the same day last week; a state without prices today has null figures ('no data'). Today's prices are those read in the last 48 hours",
    procedure: 'prices.byState',
    input: ({ query }) => query,
    query: byStateInput,
    response: byStateResultSchema,
    csv: csvExport<ByStateResult, StateFigures & { egg_type: string; day: string }>({
      rows: (result) => result.states.map((state) => ({ ...state, egg_type: result.egg_type, day: result.day })),
      columns: stateColumns,
      filename: (result) => `egg-prices-by-state-${result.egg_type}-${result.day}.csv`,
    }),
  },
  {
    method: 'GET',
    path: '/egg-prices/by-state/:state',
    summary:
      "A state's cheapest entries today per dozen (at most `limit`, 10 by default), for one egg type (standard by default). 400 for a code that is not a state's",
    procedure: 'prices.stateCheapest',
    input: ({ params, query }) => ({ ...query, state: params.state }),
    query: stateCheapestInput.omit({ state: true }),
    params: ['state'],
    response: stateCheapestResultSchema,
  },
  {
    method: 'GET',
    path: '/products/:id/history',
    summary:
      "A product's daily prices at one store location over the last 30, 90 or 365 UTC days, its lowest, highest and latest price, the latest price's change against the observation before it, and the BLS national average price of a dozen grade A large eggs for the months of the span (the latest published month when none of them is published yet). 404 when the product has no price at that location",
    procedure: 'prices.history',
    input: ({ params, query }) => ({ ...query, id: params.id }),
    query: historyInput.omit({ id: true }),
    params: ['id'],
    response: historyResultSchema,
    csv: csvExport<HistoryResult, HistoryRow>({
      rows: (history) => {
        const bls = new Map(history.bls.map((month) => [month.period, month.price]));
        return history.points.map((point) => ({ ...point, history, bls: bls.get(point.day.slice(0, 7)) }));
      },
      columns: historyColumns,
      filename: (history) =>
        `product-${history.product.id}-location-${history.location.id}-history-${history.days}d.csv`,
    }),
  },
  {
    method: 'GET',
    path: '/stores',
    summary: 'All stores',
    procedure: 'stores.list',
    response: z.array(storeSchema),
  },
  {
    method: 'GET',
    path: '/stores/:storeId',
    summary: 'One store',
    procedure: 'stores.byId',
    input: ({ params }) => ({ storeId: params.storeId }),
    params: ['storeId'],
    response: storeSchema,
  },
  {
    method: 'GET',
    path: '/stores/:storeId/prices',
    summary:
      "A store's current price entries, optionally filtered by region, egg type and pack count, and paged with limit and offset like /egg-prices (the first 1,000 without limit; at most 5,000 a page). The CSV holds every matching entry, streamed",
    procedure: 'stores.prices',
    input: ({ params, query }) => ({ ...query, storeId: params.storeId }),
    query: storePricesInput.omit({ storeId: true }),
    params: ['storeId'],
    response: z.array(priceEntrySchema),
    csv: csvExport<PriceEntry[], PriceEntry>({
      rows: (entries) => entries,
      columns: entryColumns,
      filename: (_entries, { params }) => `${(params.storeId ?? 'store').toLowerCase()}-prices.csv`,
    }),
    csvStream: {
      open: async ({ call, ctx, parts }) => {
        const input = parsed(storePricesInput, { ...parts.query, storeId: parts.params.storeId });
        await call('stores.byId', { storeId: input.storeId }); // 404 for a store that is not one
        const total = (await call('prices.count', { ...withoutPaging(parts.query), store: input.storeId })) as number;
        const filters = { store: input.storeId, region: input.region, eggType: input.egg_type, count: input.count };
        return { total, batches: priceEntryBatches(ctx.sql, filters, { limit: input.limit, offset: input.offset }) };
      },
      columns: entryColumns as ReadonlyArray<CsvColumn<never>>,
      filename: ({ params }) => `${(params.storeId ?? 'store').toLowerCase()}-prices.csv`,
    },
    total: async ({ query, params, call }) =>
      (await call('prices.count', { ...withoutPaging(query), store: params.storeId })) as number,
    paged: true,
  },
  {
    method: 'GET',
    path: '/stores/:storeId/locations/figures',
    summary:
      "What a store's locations charge today: for each region, egg type and pack size (optionally filtered by region, egg type and count), the median price per dozen across its locations, the lowest and highest, how many locations and the cheapest of them, as the site words it: 'median $3.47 a dozen across 812 stores, $2.97 to $4.28'. Each open location counts once, with its cheapest in-stock price read in the last 48 hours (an out-of-stock price does not count; one whose stock the retailer does not say does); sample and demo prices count, as in every figure, and mark the figures sample. A combination without any price today is left out. 404 for an unknown store",
    procedure: 'stores.locationFigures',
    input: ({ params, query }) => ({ ...query, storeId: params.storeId }),
    query: storeInsightsInput.omit({ storeId: true }),
    params: ['storeId'],
    response: z.array(locationFiguresSchema),
  },
  {
    method: 'GET',
    path: '/stats',
    summary: 'National average, weekly volatility, lowest price and 7- and 30-day trends, computed from the data',
    procedure: 'stats.get',
    response: statsSchema,
  },
  {
    method: 'GET',
    path: '/market-prices',
    summary: 'BLS monthly average egg prices (grade A large; the West only as grade AA), national and by region',
    procedure: 'market.series',
    input: ({ query }) => query,
    query: marketSeriesInput,
    response: z.array(
      z.object({
        series_id: z.string(),
        region: z.string(),
        item: z.string(),
        grade: z.enum(['A', 'AA']),
        points: z.array(z.object({ period: z.string(), price: z.number() })),
      }),
    ),
    csv: csvExport<MarketSeries[], MarketRow>({
      rows: (series) => series.flatMap(({ points, ...head }) => points.map((point) => ({ ...head, ...point }))),
      columns: marketColumns,
      filename: () => 'market-prices.csv',
    }),
  },
  {
    method: 'GET',
    path: '/ticker',
    summary:
      "The news ticker's price events: a region's egg type change this week, a store's streak of daily rises or falls, a sale, an egg type's nationwide change",
    procedure: 'news.ticker',
    response: z.array(
      z.object({
        kind: z.enum(['region-week', 'store-streak', 'sale', 'national-week']),
        text: z.string(),
        trend: z.enum(['up', 'down', 'none']),
        sample: z.boolean(),
      }),
    ),
  },
  {
    method: 'GET',
    path: '/stores/:storeId/locations',
    summary:
      "A chain's known open stores (its directory, grown by discovery): retailer store id, name, banner, address, city, state, ZIP, coordinates, when first and last seen and when it last gave prices; by state, city and name, optionally in one state, paged with limit and offset like every list (the first 1,000 without limit; a limit above 5,000 is taken as 5,000). 404 for an unknown store",
    procedure: 'stores.locations',
    input: ({ params, query }) => ({ ...query, storeId: params.storeId }),
    query: storeLocationsInput.omit({ storeId: true }),
    params: ['storeId'],
    response: z.array(publicLocationSchema),
    total: ({ query, params, call }) =>
      call('stores.locationsCount', { ...withoutPaging(query), storeId: params.storeId }) as Promise<number>,
    paged: true,
  },
  ...accountRoutes(),
  ...scrapeRoutes(),
  ...coverageRoutes(),
];

/** Nationwide coverage: discovery, plans and visit days of each retailer (administrators only). */
function coverageRoutes(): RestRoute[] {
  const scope = z.union([
    z.object({ kind: z.literal('nationwide') }),
    z.object({ kind: z.literal('states'), states: z.array(z.string()) }),
    z.object({ kind: z.literal('zips'), zipCodes: z.array(z.string()), radiusMiles: z.number() }),
  ]);
  const run = z.object({
    id: z.number(),
    kind: z.enum(['discover', 'visit']),
    status: z.enum(COVERAGE_RUN_STATUSES),
    active: z.boolean(),
    trigger: z.enum(['manual', 'schedule']),
    scope,
    scopeText: z.string(),
    day: z.string().nullable(),
    demo: z.boolean(),
    pointsPlanned: z.number(),
    pointsDone: z.number(),
    locatorCalls: z.number(),
    storesFound: z.number(),
    storesNew: z.number(),
    storesClosed: z.number(),
    storesPlanned: z.number(),
    storesVisited: z.number(),
    storesFailed: z.number(),
    storesBlocked: z.number(),
    chunksPlanned: z.number(),
    chunksDone: z.number(),
    requests: z.number(),
    message: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    heartbeatAt: z.string().nullable(),
  });
  const cost = z.object({
    storesPerDay: z.number(),
    requestsPerDay: z.number(),
    hoursPerDay: z.number().describe('hours a day the requests take at the politeness delay alone'),
    requestsPerDayAllowed: z.number(),
    fits: z.boolean().describe('every store in scope can be visited every revisitDays days'),
    shortestRevisitDays: z.number().nullable().describe('the shortest interval the budget and the delay allow'),
  });
  const perVisit = z.object({
    value: z.number(),
    source: z.enum(['visits', 'zip-runs', 'estimate']),
    samples: z.number(),
  });
  const plan = z.object({
    store: z.enum(STORE_IDS),
    scope,
    scopeText: z.string(),
    revisitDays: z.number(),
    dailyRequestBudget: z.number(),
    enabled: z.boolean(),
    pausedAt: z.string().nullable(),
    pausedReason: z.string().nullable(),
    updatedAt: z.string(),
    storesInScope: z.number(),
    cost,
  });
  const retailer = z.object({
    store: z.enum(STORE_IDS),
    name: z.string(),
    active: z.boolean(),
    known: z.number().describe("open stores with the retailer's own id"),
    inScope: z.number().nullable(),
    visitedDay: z.number(),
    visitedWeek: z.number(),
    neverVisited: z.number(),
    failing: z.number(),
    blocked: z.number(),
    reasons: z.array(z.object({ kind: z.string().nullable(), message: z.string().nullable(), stores: z.number() })),
    states: z.array(z.object({ state: z.string(), known: z.number(), visitedDay: z.number(), share: z.number() })),
    failingStores: z.array(
      z.object({
        id: z.number(),
        retailerId: z.string(),
        name: z.string().nullable(),
        address: z.string().nullable(),
        city: z.string().nullable(),
        state: z.string().nullable(),
        zip: z.string(),
        kind: z.string().nullable(),
        message: z.string().nullable(),
        lastVisitAt: z.string(),
        lastPricedAt: z.string().nullable(),
      }),
    ),
    nextChunk: z
      .object({
        runId: z.number(),
        chunk: z.number(),
        chunks: z.number(),
        stores: z.number(),
        firstStores: z.array(z.string()),
      })
      .nullable(),
    nextDayAt: z.string().nullable(),
    discovery: run.nullable(),
    visit: run.nullable(),
    plan: plan.nullable(),
    requestsPerVisit: perVisit,
    defaultBudget: z.number(),
    delayMs: z.number(),
  });
  const objectBody = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? b : {});
  return [
    {
      method: 'GET',
      path: '/coverage',
      summary:
        "Every retailer's coverage: stores known, in the plan's scope, visited in the last 24 hours and 7 days, never visited, failing and blocked with their reasons, per state, the failing stores, the next planned chunk, the running or latest discovery and visit day, and the plan with its cost",
      procedure: 'coverage.overview',
      response: z.array(retailer),
      auth: 'admin',
    },
    {
      method: 'POST',
      path: '/coverage/:store/discover',
      summary:
        "Start a discovery of a retailer's stores over a scope (the whole country, listed states, or ZIP codes with a radius); 202 with the run id",
      procedure: 'coverage.discover',
      input: ({ body, params }) => ({ ...objectBody(body), store: params.store }),
      params: ['store'],
      body: coverageDiscoverInput.omit({ store: true }),
      response: z.object({
        runId: z.number(),
        store: z.enum(STORE_IDS),
        status: z.literal('queued'),
        scope,
        message: z.string(),
      }),
      status: 202,
      auth: 'admin',
      conflict: 'A discovery of this retailer is already queued or running, or the store is inactive',
    },
    {
      method: 'PUT',
      path: '/coverage/:store/plan',
      summary:
        "Save a retailer's coverage plan: scope, revisitDays (1 to 30, default 1) and dailyRequestBudget (default the retailer's); saving resumes a paused plan. Answers the plan with its cost",
      procedure: 'coverage.savePlan',
      input: ({ body, params }) => ({ ...objectBody(body), store: params.store }),
      params: ['store'],
      body: coveragePlanInput.omit({ store: true }),
      response: plan.extend({ requestsPerVisit: perVisit }),
      auth: 'admin',
    },
    {
      method: 'POST',
      path: '/coverage/:store/visit',
      summary: "Start a visit day of a retailer's plan now; 202 with the run id",
      procedure: 'coverage.visit',
      input: ({ params }) => ({ store: params.store }),
      params: ['store'],
      response: z.object({
        runId: z.number(),
        store: z.enum(STORE_IDS),
        status: z.literal('queued'),
        message: z.string(),
      }),
      status: 202,
      auth: 'admin',
      conflict:
        'A visit day is already queued or running, the retailer has no plan, its plan is paused, or no known store is in its scope',
    },
  ];
}

/** SPEC §7's scraper calls and the run history and schedule: administrators only. */
function scrapeRoutes(): RestRoute[] {
  const zipList = z.object({
    zipCodes: z.array(z.string()).describe('5-digit ZIP codes of US states; trimmed, duplicates dropped, at most 25'),
  });
  const zipResult = z.object({
    zip: z.string(),
    status: z.enum(['succeeded', 'failed']),
    message: z.string().nullable(),
    locationName: z.string().nullable(),
    listingsSeen: z.number(),
    accepted: z.number(),
    observations: z.number(),
    requests: z.number(),
    retries: z.number().describe('requests sent again after a timeout, a network error or a 5xx answer'),
    rateLimitWaits: z.number().describe('429 answers whose Retry-After was waited out'),
    rateLimitWaitMs: z.number(),
    finishedAt: z.string(),
  });
  const run = z.object({
    id: z.number(),
    store: z.enum(STORE_IDS),
    status: z.enum(RUN_STATUSES),
    trigger: z.enum(['manual', 'schedule']),
    demo: z.boolean(),
    zipCodes: z.array(z.string()),
    progress: z.number(),
    total: z.number(),
    listingsSeen: z.number(),
    accepted: z.number(),
    skipped: z.record(z.string(), z.number()),
    rejected: z.record(z.string(), z.number()),
    observationsWritten: z.number(),
    message: z.string().nullable(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    durationMs: z.number().nullable(),
    zips: z.array(zipResult),
  });
  const status = z.object({
    active: z.boolean(),
    lastRun: z.string().nullable(),
    nextScheduledRun: z.string().nullable(),
    message: z.string(),
    run: run.nullable(),
    lastSuccessAt: z.string().nullable(),
    stale: z.boolean(),
  });
  const settings = z.object({
    dailyEnabled: z.boolean(),
    hourUtc: z.number(),
    zipCodes: z.array(z.string()),
    updatedAt: z.string(),
    nextScheduledRun: z.string().nullable(),
  });
  const objectBody = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? b : {});
  return [
    {
      method: 'POST',
      path: '/scrape/:store',
      summary:
        'Start a scraper run for a store (walmart, target, kroger, albertsons, whole-foods, aldi) over ZIP codes; 409 while one is queued or running',
      procedure: 'scrape.start',
      input: ({ body, params }) => ({ ...objectBody(body), store: params.store }),
      params: ['store'],
      body: zipList,
      response: z.object({
        runId: z.number(),
        store: z.enum(STORE_IDS),
        status: z.literal('queued'),
        zipCodes: z.array(z.string()),
        message: z.string(),
      }),
      status: 202,
      auth: 'admin',
    },
    {
      method: 'POST',
      path: '/scrape/all',
      summary:
        "Start every active store's scraper over the same ZIP codes; stores with a run already queued or running are listed in busy (409 when no scraper could start)",
      procedure: 'scrape.startAll',
      input: ({ body }) => objectBody(body),
      body: scrapeAllInput,
      status: 202,
      auth: 'admin',
      response: z.object({
        queued: z.array(z.object({ store: z.enum(STORE_IDS), runId: z.number() })),
        busy: z.array(z.enum(STORE_IDS)),
        inactive: z.array(z.enum(STORE_IDS)),
        zipCodes: z.array(z.string()),
        message: z.string(),
      }),
    },
    {
      method: 'GET',
      path: '/scrape/status',
      summary: "The Walmart scraper's status (active, lastRun, nextScheduledRun, message)",
      procedure: 'scrape.status',
      response: status,
      auth: 'admin',
    },
    {
      method: 'GET',
      path: '/scrape/all-status',
      summary: 'Every scraper status, keyed by store id',
      procedure: 'scrape.allStatus',
      response: z.record(z.enum(STORE_IDS), status),
      auth: 'admin',
    },
    {
      method: 'GET',
      path: '/scrape/runs',
      summary: 'Recent scraper runs with progress, counts and per-ZIP outcomes',
      procedure: 'scrape.runs',
      input: ({ query }) => query,
      query: scrapeRunsInput,
      response: z.array(run),
      auth: 'admin',
    },
    {
      method: 'GET',
      path: '/scrape/runs/:id',
      summary: 'One scraper run',
      procedure: 'scrape.run',
      input: ({ params }) => ({ id: params.id }),
      params: ['id'],
      response: run,
      auth: 'admin',
    },
    {
      method: 'GET',
      path: '/scrape/settings',
      summary: 'The daily scraping schedule',
      procedure: 'scrape.settings',
      response: settings,
      auth: 'admin',
    },
    {
      method: 'PUT',
      path: '/scrape/settings',
      summary: 'Change the daily scraping schedule (on or off, UTC hour, ZIP codes)',
      procedure: 'scrape.updateSettings',
      input: ({ body }) => body ?? {},
      body: scrapeSettingsInput,
      response: settings,
      auth: 'admin',
    },
  ];
}

/** SPEC §7's account paths: the body (or path id) is the procedure's input. */
function accountRoutes(): RestRoute[] {
  const body = ({ body: b }: { body: unknown }) => b ?? {};
  const withId = ({ body: b, params }: { body: unknown; params: Record<string, string> }) => ({
    ...(b && typeof b === 'object' && !Array.isArray(b) ? b : {}),
    id: params.id,
  });
  const ok = z.object({ success: z.literal(true) });
  const user = z.object({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email_verified: z.boolean(),
    role: z.enum(['user', 'admin']),
  });
  return [
    {
      method: 'POST',
      path: '/auth/register',
      summary: 'Create an account; a verification email follows',
      procedure: 'auth.register',
      input: body,
      body: registerInput,
      response: z.object({ message: z.string() }),
      status: 201,
    },
    {
      method: 'POST',
      path: '/auth/login',
      summary: 'Log in: returns a session token (use as Bearer) and the user, and sets the session cookie',
      procedure: 'auth.login',
      input: body,
      body: loginInput,
      response: z.object({ token: z.string(), expiresAt: z.string(), user }),
    },
    {
      method: 'POST',
      path: '/auth/logout',
      summary: 'End the current session (or the one whose token is given)',
      procedure: 'auth.logout',
      input: body,
      body: z.object({ token: z.string().optional() }),
      response: ok,
    },
    {
      method: 'GET',
      path: '/auth/verify',
      summary: 'The signed-in user of the session',
      procedure: 'auth.verify',
      response: z.object({ user }),
      auth: 'user',
    },
    {
      method: 'POST',
      path: '/auth/change-password',
      summary: "Change the signed-in user's password; other sessions end",
      procedure: 'auth.changePassword',
      input: body,
      body: changePasswordInput,
      response: ok,
      auth: 'user',
    },
    {
      method: 'POST',
      path: '/auth/request-reset',
      summary: 'Email a password reset link (the same answer whether or not the email is registered)',
      procedure: 'auth.requestReset',
      input: body,
      body: requestResetInput,
      response: z.object({ message: z.string(), resetToken: z.string().optional() }),
    },
    {
      method: 'POST',
      path: '/auth/reset-password',
      summary: 'Set a new password with a reset token; every session ends',
      procedure: 'auth.resetPassword',
      input: body,
      body: resetPasswordInput,
      response: ok,
    },
    {
      method: 'POST',
      path: '/auth/verify-email',
      summary: 'Confirm an email address with the token from the verification email',
      procedure: 'auth.verifyEmail',
      input: body,
      body: verifyEmailInput,
      response: ok,
    },
    {
      method: 'POST',
      path: '/admin/setup',
      summary: 'Create the first administrator with the setup key',
      procedure: 'admin.setup',
      input: body,
      body: adminSetupInput,
      response: z.object({ user: user.pick({ id: true, username: true, email: true, role: true }) }),
      status: 201,
    },
    {
      method: 'GET',
      path: '/users/:id/subscriptions',
      summary: "A user's price alert subscriptions (that user or an admin)",
      procedure: 'users.subscriptions',
      input: withId,
      params: ['id'],
      response: z.array(z.object({ id: z.number() }).passthrough()),
      auth: 'user',
    },
    {
      method: 'PUT',
      path: '/users/:id',
      summary: "Update a user's profile (that user or an admin)",
      procedure: 'users.update',
      input: withId,
      params: ['id'],
      body: profileInput,
      response: user,
      auth: 'user',
    },
    {
      method: 'DELETE',
      path: '/users/:id',
      summary: 'Delete an account and its data (that user or an admin)',
      procedure: 'users.delete',
      input: withId,
      params: ['id'],
      response: ok,
      auth: 'user',
    },
    {
      method: 'DELETE',
      path: '/subscribers/:id',
      summary: 'Delete a subscription (its owner or an admin)',
      procedure: 'subscriptions.delete',
      input: ({ params }) => ({ id: params.id }),
      params: ['id'],
      response: ok,
      auth: 'user',
    },
    ...subscriberRoutes(),
  ];
}

/** Price-alert subscriptions (SPEC §7 POST /api/subscribers) and their email links. */
function subscriberRoutes(): RestRoute[] {
  const subscription = z.object({
    id: z.number(),
    email: z.string(),
    region: z.enum(REGIONS).nullable(),
    egg_type: z.enum(EGG_TYPES).nullable(),
    preferred_stores: z.array(z.enum(STORE_IDS)),
    notification_frequency: z.enum(NOTIFICATION_FREQUENCIES),
    notification_channel: z.literal('email'),
    price_threshold: z.number().nullable(),
    active: z.boolean(),
    confirmed_at: z.string().nullable(),
    created_at: z.string(),
  });
  const saved = z.object({ subscription, status: z.enum(['confirmed', 'pending']), message: z.string() });
  const objectBody = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? b : {});
  return [
    {
      method: 'POST',
      path: '/subscribers',
      summary:
        "Subscribe to price alerts. An address that is not the signed-in user's verified email is confirmed by a link sent to it before any alert (status pending)",
      procedure: 'subscriptions.create',
      input: ({ body }) => body ?? {},
      body: subscriptionInput,
      response: saved,
      status: 201,
    },
    {
      method: 'GET',
      path: '/subscribers/unsubscribe',
      private: true,
      summary: 'What an unsubscribe link points at',
      procedure: 'subscriptions.unsubscribeInfo',
      input: ({ query }) => query,
      query: subscriptionTokenInput,
      response: z.object({ email: z.string(), active: z.boolean(), summary: z.string() }),
    },
    {
      method: 'POST',
      path: '/subscribers/unsubscribe',
      summary: 'Unsubscribe with the token of an email link (no login)',
      procedure: 'subscriptions.unsubscribe',
      input: ({ body }) => body ?? {},
      body: subscriptionTokenInput,
      response: z.object({ success: z.literal(true), email: z.string(), summary: z.string() }),
    },
    {
      method: 'POST',
      path: '/subscribers/confirm',
      summary:
        'Confirm a subscription with the token of its confirmation email (status already-confirmed when the link was followed before)',
      procedure: 'subscriptions.confirm',
      input: ({ body }) => body ?? {},
      body: subscriptionTokenInput,
      response: z.object({ status: z.enum(['confirmed', 'already-confirmed']), subscription, summary: z.string() }),
    },
    {
      method: 'GET',
      path: '/subscribers/manage',
      private: true,
      summary: 'The subscription a manage link (the token of one of its emails) points at',
      procedure: 'subscriptions.manage',
      input: ({ query }) => query,
      query: subscriptionTokenInput,
      response: z.object({ subscription, summary: z.string() }),
    },
    {
      method: 'PUT',
      path: '/subscribers/manage',
      summary: 'Change a subscription with the token of one of its emails (no login; the address stays)',
      procedure: 'subscriptions.manageUpdate',
      input: ({ body }) => body ?? {},
      body: subscriptionManageInput,
      response: z.object({ subscription, summary: z.string(), message: z.string() }),
    },
    {
      method: 'GET',
      path: '/subscribers/:id',
      summary: 'One subscription (its owner or an admin)',
      procedure: 'subscriptions.byId',
      input: ({ params }) => ({ id: params.id }),
      params: ['id'],
      response: subscription,
      auth: 'user',
    },
    {
      method: 'PUT',
      path: '/subscribers/:id',
      summary: 'Change a subscription (its owner or an admin); a new unproven address is confirmed again',
      procedure: 'subscriptions.update',
      input: ({ body, params }) => ({ ...objectBody(body), id: params.id }),
      params: ['id'],
      body: subscriptionInput,
      response: saved,
      auth: 'user',
    },
  ];
}

export function errorBody(thrown: unknown): { status: number; body: { message: string; issues?: unknown } } {
  const error = asServiceUnavailable(thrown);
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    if (error.cause instanceof ZodError) {
      return {
        status,
        body: {
          message: describeZodError(error.cause),
          issues: error.cause.issues.map(({ path, message }) => ({ path, message })),
        },
      };
    }
    return { status, body: { message: status >= 500 && status !== 503 ? 'Internal server error' : error.message } };
  }
  return { status: 500, body: { message: 'Internal server error' } };
}

function sendJson(reply: FastifyReply, status: number, body: unknown) {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Requests per minute per IP to the public GETs by default (PUBLIC_API_RATE_LIMIT). */
export const DEFAULT_PUBLIC_API_RATE_LIMIT = 1200;

/** Headers a cross-origin script may read from a public answer. */
const EXPOSED_HEADERS = [
  'ETag',
  'X-Total-Count',
  'Link',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
];

const isPublic = (route: RestRoute) => route.method === 'GET' && !route.auth && !route.private;
const cacheable = (route: RestRoute) => route.method === 'GET' && isCachedQuery(route.procedure);

/** The CORS answer of a public read (what @fastify/cors sends for these options). */
const PUBLIC_CORS_OPTIONS = {
  origin: '*',
  methods: ['GET', 'HEAD'],
  credentials: false,
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: 86_400,
};
const PUBLIC_CORS_HEADERS = {
  vary: 'Origin',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
};

/**
 * The read cache's key of a REST answer: its URL as it came (paths under /api/ never meet the
 * cache's other keys). No cached answer outlives its UTC day (DataCache), so a history made
 * before midnight does not answer after it.
 */
const restCacheKey = (url: string) => url;
const openApiPathOf = (path: string) => `/api${path.replace(/:(\w+)/g, '{$1}')}`;

/** The public GET paths (CSV siblings and the OpenAPI document included) as patterns of concrete URLs. */
const PUBLIC_PATHS: RegExp[] = [
  ...REST_ROUTES.filter(isPublic).flatMap((route) => [route.path, ...(route.csv ? [`${route.path}.csv`] : [])]),
  '/openapi.json',
].map((path) => new RegExp(`^/api${path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`));

export function isPublicApiPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((pattern) => pattern.test(pathname));
}

interface Answer extends CachedRead {
  /** The route's own headers (paging, file name). */
  headers: Record<string, string>;
}

/** RFC 8288 links to the first, previous, next and last pages, keeping the rest of the query. */
export function pageLinks(url: string, total: number, limit: number, offset: number): string {
  const [pathname = '', search = ''] = url.split('?');
  const link = (pageOffset: number, rel: string) => {
    const params = new URLSearchParams(search);
    params.set('limit', String(limit));
    params.set('offset', String(pageOffset));
    return `<${pathname}?${params.toString()}>; rel="${rel}"`;
  };
  // The last page on the same alignment as the offset asked for (7, 12 for limit 5 from 7), or
  // on multiples of the limit when the offset is past the end.
  const last =
    total === 0
      ? 0
      : offset < total
        ? offset + Math.floor((total - 1 - offset) / limit) * limit
        : Math.floor((total - 1) / limit) * limit;
  return [
    link(0, 'first'),
    ...(offset > 0 ? [link(Math.min(Math.max(0, offset - limit), last), 'prev')] : []),
    ...(offset + limit < total ? [link(offset + limit, 'next')] : []),
    link(last, 'last'),
  ].join(', ');
}

export interface RestOptions {
  cache: DataCache;
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Promise<Context>;
  /** The public GETs' rate limit (public-rate-limit.ts), or null for none. */
  rateLimit: PublicRateLimit | null;
}

export async function registerRest(app: FastifyInstance, deps: RestOptions): Promise<void> {
  // One counter per address for all the public GETs together; a cached read is counted by the
  // hook that answers it early (cached-reads.ts), the others by their route's hook.
  const limitPublic = deps.rateLimit?.hook();

  // CORS for the public GETs only: any origin may read them, without credentials. Every other
  // /api path (sessions, mutations) answers no CORS headers, so browsers keep other sites out.
  // A preflight is matched by the path it asks about and the method it announces.
  await app.register(fastifyCors, {
    delegator: (req, callback) => {
      const pathname = req.url.split('?')[0] ?? '';
      const method =
        req.method === 'OPTIONS'
          ? String(req.headers['access-control-request-method'] ?? '').toUpperCase()
          : req.method;
      const open = (method === 'GET' || method === 'HEAD') && isPublicApiPath(pathname);
      callback(null, open ? PUBLIC_CORS_OPTIONS : { origin: false });
    },
  });

  for (const route of REST_ROUTES) {
    const formats = route.csv ? (['json', 'csv'] as const) : (['json'] as const);
    for (const format of formats) {
      app.route({
        method: route.method,
        url: `/api${route.path}${format === 'csv' ? '.csv' : ''}`,
        ...(limitPublic && isPublic(route) ? { onRequest: limitPublic } : {}),
        handler: (req, reply) => handle(route, format, req, reply, deps),
      });
    }
  }

  app.get('/api/openapi.json', { ...(limitPublic ? { onRequest: limitPublic } : {}) }, async (_req, reply) =>
    reply.send(openApiDocument()),
  );

  // Unknown /api paths answer JSON, never the single-page app.
  app.all('/api/*', async (req, reply) =>
    sendJson(reply, 404, { message: `No API route ${req.method} ${req.url.split('?')[0]}` }),
  );
}

async function handle(
  route: RestRoute,
  format: 'json' | 'csv',
  req: FastifyRequest,
  reply: FastifyReply,
  deps: RestOptions,
) {
  const cacheKey = cacheable(route) ? restCacheKey(req.url) : null;
  // A cached answer is sent as it is: no session, input or call to prepare (only a URL that was
  // answered successfully is ever cached under its key).
  const hit = cacheKey ? deps.cache.peek<Answer>(cacheKey) : undefined;
  if (hit) return sendAnswer(req, reply, hit);
  try {
    const ctx = await deps.createContext({ req, res: reply });
    const call: Call = (procedure, input) => procedureFor(ctx, procedure)(input);
    const parts: RequestParts = {
      query: (req.query ?? {}) as Record<string, unknown>,
      params: (req.params ?? {}) as Record<string, string>,
      body: req.body,
    };
    if (route.paged && format === 'json') parts.query = withListLimit(parts.query);
    if (format === 'csv' && route.csvStream)
      return await streamCsv(route, route.csvStream, { req, reply, call, ctx, parts });
    const input = route.input?.(parts);
    if (!cacheKey && format === 'json' && !route.total)
      return sendJson(reply, route.status ?? 200, await call(route.procedure, input));

    const compute = async (): Promise<Answer> => {
      const result = await call(route.procedure, input);
      const headers: Record<string, string> = {};
      if (route.total) {
        const total = await route.total({ result, query: parts.query, params: parts.params, call });
        headers['x-total-count'] = String(total);
        // Validated by the procedure already: whole numbers in range.
        if (route.paged && parts.query.limit !== undefined) {
          headers.link = pageLinks(req.url, total, Number(parts.query.limit), Number(parts.query.offset ?? 0) || 0);
        }
      }
      let body: Buffer;
      let type: string;
      if (format === 'csv' && route.csv) {
        body = Buffer.from(toCsv(route.csv.rows(result) as never[], route.csv.columns), 'utf8');
        type = 'text/csv; charset=utf-8';
        headers['content-disposition'] = `attachment; filename="${safeFilename(route.csv.filename(result, parts))}"`;
      } else {
        body = Buffer.from(JSON.stringify(result));
        type = 'application/json; charset=utf-8';
      }
      const etag = etagOf(body);
      const open = isPublic(route);
      return {
        body,
        etag,
        headers,
        sent: {
          ...(open ? PUBLIC_CORS_HEADERS : {}),
          ...headers,
          etag,
          'cache-control': CACHE_CONTROL,
          'content-type': type,
        },
        limited: open && deps.rateLimit !== null,
      };
    };
    return sendAnswer(
      req,
      reply,
      cacheKey ? await deps.cache.get(cacheKey, compute, sourcesOf(route.procedure)) : await compute(),
    );
  } catch (error) {
    const { status, body } = errorBody(error);
    if (status === 503) req.log.warn(`${req.method} ${req.url.split('?')[0]}: ${body.message}`);
    else if (status >= 500) req.log.error({ err: error }, 'REST call failed');
    return sendJson(reply, status, body);
  }
}

const CACHE_CONTROL = 'public, max-age=60';

/**
 * A JSON list's paging as served: without a limit, the first DEFAULT_LIST_LIMIT entries; a whole
 * number above MAX_LIST_LIMIT taken as MAX_LIST_LIMIT (anything else is left for the schema to
 * judge).
 */
export function withListLimit(query: Record<string, unknown>): Record<string, unknown> {
  const limit = query.limit;
  if (limit === undefined) return { ...query, limit: String(DEFAULT_LIST_LIMIT) };
  if (typeof limit === 'string' && /^\s*\d+\s*$/.test(limit) && Number(limit) > MAX_LIST_LIMIT)
    return { ...query, limit: String(MAX_LIST_LIMIT) };
  return query;
}

/** Tells this process's answers apart from another's (or an earlier run's) with the same data version. */
const BOOT_ID = crypto.randomBytes(6).toString('base64url');

/**
 * A list's CSV streamed in batches: validated and counted first (an error still answers JSON with
 * its status), then a header row and each batch as the client reads (Readable.from pulls the next
 * batch only when the socket wants more), so memory stays flat however many rows match and however
 * slowly they are read. Its ETag names the data version, so revalidation costs no query.
 */
async function streamCsv(
  route: RestRoute,
  stream: CsvStream,
  {
    req,
    reply,
    call,
    ctx,
    parts,
  }: { req: FastifyRequest; reply: FastifyReply; call: Call; ctx: Context; parts: RequestParts },
) {
  // The data version changes with every change of prices this process hears of; the minute bounds
  // it like the cache's own expiry. Without a cache (no notifications) there is no ETag.
  const etag = ctx.cache.enabled
    ? `W/"${BOOT_ID}.${ctx.cache.version}.${Math.floor(Date.now() / 60_000)}.${crypto.createHash('sha256').update(req.url).digest('base64url').slice(0, 16)}"`
    : null;
  const open = isPublic(route);
  const headers: Record<string, string> = {
    ...(open ? PUBLIC_CORS_HEADERS : {}),
    ...(etag ? { etag } : {}),
    'cache-control': CACHE_CONTROL,
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${safeFilename(stream.filename(parts))}"`,
  };
  if (etag && req.headers['if-none-match'] === etag)
    return reply.headers({ etag, 'cache-control': CACHE_CONTROL }).code(304).send();
  const { total, batches } = await stream.open({ call, ctx, parts });
  headers['x-total-count'] = String(total);
  if (parts.query.limit !== undefined)
    headers.link = pageLinks(req.url, total, Number(parts.query.limit), Number(parts.query.offset ?? 0) || 0);
  const iterator = batches[Symbol.asyncIterator]();
  // The first batch before the headers: a database that fails now still gets its JSON answer.
  const first = await iterator.next();
  const columns = stream.columns;
  async function* body() {
    yield toCsv(first.done ? [] : (first.value as never[]), columns);
    if (first.done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      yield toCsv(next.value as never[], columns, { header: false });
  }
  const readable = Readable.from(body());
  readable.on('error', (error) => req.log.warn({ err: error }, `${req.url.split('?')[0]}: the download stopped`));
  return reply.headers(headers).send(readable);
}

function sendAnswer(req: FastifyRequest, reply: FastifyReply, answer: Answer) {
  if (req.headers['if-none-match'] === answer.etag)
    return reply
      .headers(answer.headers)
      .header('etag', answer.etag)
      .header('cache-control', CACHE_CONTROL)
      .code(304)
      .send();
  return reply.headers(answer.sent).send(answer.body);
}

/**
 * The API reference at /api/docs: Swagger UI (@fastify/swagger-ui, its files served from this
 * process, nothing from the internet) over the document of /api/openapi.json, given to
 * @fastify/swagger in static mode. Swagger UI's scripts are files of its own, so the app's
 * Content-Security-Policy (script-src 'self', no inline scripts) applies to it unchanged.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, { mode: 'static', specification: { document: openApiDocument() as never } });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    theme: { title: 'EggWatch API reference' },
    logo: { type: 'image/svg+xml', content: fs.readFileSync(LOGO_FILE) },
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0, tryItOutEnabled: true },
    // Swagger UI would otherwise ask an online validator about the document.
    validatorUrl: false,
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

let document: unknown;
export function openApiDocument() {
  if (document) return document;
  const paths: Record<string, Record<string, unknown>> = {};
  const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });
  const rateLimitHeaders = {
    'RateLimit-Limit': integerHeader('Requests allowed per minute from one address'),
    'RateLimit-Remaining': integerHeader('Requests left in the current minute'),
    'RateLimit-Reset': integerHeader('Seconds until the current minute ends'),
  };
  for (const route of REST_ROUTES) {
    const parameters: unknown[] = (route.params ?? []).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (route.query) {
      const schema = z.toJSONSchema(route.query, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
      }
    }
    const headers = {
      ...(isPublic(route) ? rateLimitHeaders : {}),
      ...(route.total ? { 'X-Total-Count': integerHeader('Items the filters match before limit and offset') } : {}),
      ...(route.paged
        ? {
            Link: {
              description: 'RFC 8288 links to the first, previous, next and last pages (when limit is given)',
              schema: { type: 'string' },
            },
          }
        : {}),
    };
    const otherResponses = {
      ...(route.auth ? { 401: errorResponse('No session') } : {}),
      ...(route.auth === 'admin' ? { 403: errorResponse('Not an administrator') } : {}),
      ...(route.method !== 'GET' || isPublic(route)
        ? { 429: errorResponse('Rate limited (public GETs: per address and minute; see Retry-After)') }
        : {}),
      400: errorResponse('Invalid input'),
      ...(route.params ? { 404: errorResponse('Not found') } : {}),
      ...(route.conflict ? { 409: errorResponse(route.conflict) } : {}),
    };
    const tags = [route.procedure.split('.')[0]!];
    const operation = {
      summary: route.summary,
      operationId: route.procedure,
      tags,
      parameters,
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) },
              },
            },
          }
        : {}),
      ...(route.auth ? { security: [{ bearer: [] }, { cookie: [] }] } : {}),
      responses: {
        [route.status ?? 200]: {
          description: 'OK',
          ...(Object.keys(headers).length ? { headers } : {}),
          content: {
            'application/json': {
              schema: route.response ? z.toJSONSchema(route.response, { unrepresentable: 'any' }) : {},
            },
          },
        },
        ...otherResponses,
      },
    };
    const openApiPath = openApiPathOf(route.path);
    paths[openApiPath] ??= {};
    paths[openApiPath]![route.method.toLowerCase()] = operation;
    if (route.csv) {
      paths[`${openApiPath}.csv`] = {
        get: {
          summary: `CSV download of ${openApiPath}: the same parameters and errors; a header row, then one row per item (RFC 4180, UTF-8)`,
          operationId: `${route.procedure}.csv`,
          tags,
          parameters,
          responses: {
            200: {
              description: 'CSV file (Content-Disposition: attachment)',
              headers: {
                ...headers,
                'Content-Disposition': { description: 'attachment; filename="..."', schema: { type: 'string' } },
              },
              content: { 'text/csv': { schema: { type: 'string' } } },
            },
            ...otherResponses,
          },
        },
      };
    }
  }
  document = {
    openapi: '3.1.0',
    info: {
      title: 'EggWatch API',
      version: '1.0.0',
      description: [
        'Grocery egg prices by store, region, egg type and pack size. Egg types accept both spellings (cage-free or cage_free) in any case.',
        'The public GETs (no session) answer any origin (CORS, no credentials), send ETag and Cache-Control, and are rate limited per address',
        '(RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers; 429 with Retry-After beyond the limit). Lists with a CSV download',
        'serve it at the same path plus .csv. Errors answer JSON { "message": ... }.',
      ].join(' '),
    },
    tags: [
      { name: 'prices', description: 'Current prices, Near you and price histories' },
      { name: 'stores', description: 'Stores and their prices' },
      { name: 'stats', description: 'Statistics computed from the prices' },
      { name: 'market', description: 'The BLS average price series' },
      { name: 'news', description: 'The news ticker' },
      { name: 'auth', description: 'Accounts and sessions' },
      { name: 'admin', description: 'First administrator' },
      { name: 'users', description: 'User accounts' },
      { name: 'subscriptions', description: 'Price alert subscriptions' },
      { name: 'scrape', description: 'Scraper runs and schedule (administrators)' },
      { name: 'coverage', description: 'Nationwide coverage: store discovery, plans and visit days (administrators)' },
    ],
    paths,
    components: {
      schemas: {
        Error: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/auth/login' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'eggwatch_session' },
      },
    },
  };
  return document;
}
