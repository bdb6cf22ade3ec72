// The stores, a store's current prices, its known locations and what they charge.
import { z } from 'zod';
import { storeInsightsInput, storeLocationsInput, storePricesInput } from '#shared/inputs.ts';
import { locationFiguresSchema } from '#shared/location-figures.ts';
import { priceEntrySchema, storeSchema, type PriceEntry } from '#shared/types.ts';
import { priceEntryBatches } from '../../queries/prices.ts';
import type { CsvColumn } from '../csv.ts';
import { parsed, withoutPaging } from '../paging.ts';
import { csvExport, route, type RestRoute } from '../route.ts';
import { entryColumns } from './prices.ts';

const STORE_ID =
  "The store's id (walmart, target, kroger, albertsons, whole-foods, aldi); an unknown store answers 404";

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

const storePricesFile = ({ params }: { params: Record<string, string> }) =>
  `${(params.storeId ?? 'store').toLowerCase()}-prices.csv`;

export const storeRoutes: RestRoute[] = [
  route({
    method: 'GET',
    path: '/stores',
    summary: 'All stores, by name',
    procedure: 'stores.list',
    response: z.array(storeSchema),
    list: {},
  }),
  route({
    method: 'GET',
    path: '/stores/:storeId',
    summary: 'One store',
    procedure: 'stores.byId',
    params: { storeId: STORE_ID },
    response: storeSchema,
    errors: { 404: 'No store with that id' },
  }),
  route({
    method: 'GET',
    path: '/stores/:storeId/prices',
    summary:
      "A store's current price entries, optionally filtered by region, egg type and pack count, in id order. The CSV holds every matching entry, streamed, unless limit is given",
    procedure: 'stores.prices',
    query: storePricesInput.omit({ storeId: true }),
    params: { storeId: STORE_ID },
    response: z.array(priceEntrySchema),
    errors: { 404: 'No store with that id' },
    list: {
      total: ({ input: { storeId, ...filters }, call }) =>
        call('prices.count', { ...filters, store: storeId }) as Promise<number>,
    },
    csv: csvExport<PriceEntry[], PriceEntry>({
      rows: (entries) => entries,
      columns: entryColumns,
      filename: (_entries, parts) => storePricesFile(parts),
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
      filename: storePricesFile,
    },
  }),
  route({
    method: 'GET',
    path: '/stores/:storeId/locations/figures',
    summary:
      "What a store's locations charge today: for each region, egg type and pack size (optionally filtered by region, egg type and count), the median price per dozen across its locations, the lowest and highest, how many locations and the cheapest of them, as the site words it: 'median $3.47 a dozen across 812 stores, $2.97 to $4.28'. Each open location counts once, with its cheapest in-stock price read in the last 48 hours (an out-of-stock price does not count; one whose stock the retailer does not say does); sample and demo prices count, as in every figure, and mark the figures sample. A combination without any price today is left out",
    procedure: 'stores.locationFigures',
    query: storeInsightsInput.omit({ storeId: true }),
    params: { storeId: STORE_ID },
    response: z.array(locationFiguresSchema),
    errors: { 404: 'No store with that id' },
    list: {},
  }),
  route({
    method: 'GET',
    path: '/stores/:storeId/locations',
    summary:
      "A chain's known open stores (its directory, grown by discovery): retailer store id, name, banner, address, city, state, ZIP, coordinates, when first and last seen and when it last gave prices; by state, city and name, optionally in one state",
    procedure: 'stores.locations',
    query: storeLocationsInput.omit({ storeId: true }),
    params: { storeId: STORE_ID },
    response: z.array(publicLocationSchema),
    errors: { 404: 'No store with that id' },
    list: { total: ({ input, call }) => call('stores.locationsCount', input) as Promise<number> },
  }),
];
