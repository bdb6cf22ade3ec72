// Shapes the API serves and the client reads. The zod schemas document
// the REST responses in /api/openapi.json; the types are derived from them.
import { z } from 'zod';
import { EGG_TYPES, PRICE_SOURCES, REGIONS, TREND_DIRECTIONS, type PriceSource } from './vocabulary.ts';

export const priceSourceSchema = z.enum(PRICE_SOURCES);
export type { PriceSource };

/** A price entry: the latest observation of one product at one store location. */
export const priceEntrySchema = z.object({
  id: z.number().int(),
  store_id: z.string(),
  store_name: z.string(),
  region: z.enum(REGIONS),
  zip: z.string(),
  location_name: z
    .string()
    .nullable()
    .describe("The store location's name as the retailer gives it (with its store number)"),
  city: z.string().nullable(),
  state: z.string().nullable(),
  egg_type: z.enum(EGG_TYPES),
  count: z.number().int(),
  price: z.number().describe("Shelf price in US dollars: the promotion's price when one applies"),
  regular_price: z
    .number()
    .nullable()
    .describe('The regular price the retailer shows beside a promotion ("was $x.xx"); null when there is no promotion'),
  unit_price: z.number().describe('Price per egg in US dollars'),
  size_grade: z.string().nullable(),
  trend_value: z
    .number()
    .nullable()
    .describe(
      'Percent change against the latest price at least 7 days older; null while the price has less than 7 days of history (no change is 0)',
    ),
  trend_direction: z
    .enum(TREND_DIRECTIONS)
    .nullable()
    .describe('up, down or stable against the same week-old price; null while trend_value is null'),
  last_updated: z.string().describe('ISO 8601 time of the latest observation'),
  in_stock: z
    .boolean()
    .nullable()
    .describe(
      'Stock at that store when last seen: true in stock, false out of stock, null when the retailer did not say (unknown)',
    ),
  source_url: z.string().nullable(),
  title: z.string(),
  brand: z.string().nullable(),
  source: priceSourceSchema.describe(
    "'scrape': read from the retailer; 'sample': the seeded sample catalogue; 'demo': read from a stand-in retailer (npm run demo). Only 'scrape' prices are real",
  ),
  product_id: z.number().int(),
  location_id: z.number().int(),
});
export type PriceEntry = z.infer<typeof priceEntrySchema>;

export const storeSchema = z.object({
  id: z.string(),
  store_name: z.string(),
  store_logo_url: z.string().nullable(),
  regions_served: z.array(z.enum(REGIONS)),
  store_type: z.string(),
  active: z.boolean(),
});
export type Store = z.infer<typeof storeSchema>;

/**
 * The loosest entry the domain rules accept: numeric strings, a missing count
 * and any trend direction are allowed, so integrators' data and older payloads are handled the same way.
 */
export interface LooseEntry {
  id?: number | string;
  store_id: string;
  region?: string | null;
  egg_type?: string | null;
  count?: number | null;
  price: number | string | null;
  unit_price?: number | string | null;
  trend_value?: number | string | null;
  trend_direction?: string | null;
  last_updated?: string | null;
}

const trendSchema = z.object({
  value: z.number().describe('Absolute change'),
  direction: z.enum(TREND_DIRECTIONS),
});

/** Days of prices a series has: how far back a change or a chart line can compare like with like. */
const historyDaysSchema = z
  .number()
  .int()
  .describe(
    "Days with prices since the series' first comparable day: the latest day any store and region behind it switched from sample to retailers' prices, or its first day of prices. A change needs this history to span it: 8 days for the weekly change, 7 for the volatility, 14 for the volatility's change",
  );

const sampleFlagSchema = z
  .boolean()
  .describe("The figure rests, at least partly, on sample or demo prices (source 'sample' or 'demo')");

const trendRangeSchema = z.object({
  days: z.array(z.string()).describe('UTC days, oldest first'),
  series: z
    .object({
      national: z.array(z.number().nullable()),
      standard: z.array(z.number().nullable()),
      cage_free: z.array(z.number().nullable()),
      organic: z.array(z.number().nullable()),
      pasture_raised: z.array(z.number().nullable()),
    })
    .describe(
      "Average price per dozen for each day; null where a day has no price or lies before the series' history (history_days)",
    ),
  summary: z
    .object({
      average: z.number().nullable(),
      high: z.number().nullable(),
      low: z.number().nullable(),
      trend: z.object({ value: z.number(), isDown: z.boolean() }).nullable(),
    })
    .describe(
      'Over the national, organic and standard lines: their mean (national), highest and lowest point, and the national change from first to last day; trend is null unless the national line has prices on both and its history covers the whole range',
    ),
  history_days: z.object({
    national: historyDaysSchema,
    standard: historyDaysSchema,
    cage_free: historyDaysSchema,
    organic: historyDaysSchema,
    pasture_raised: historyDaysSchema,
  }),
  sample: sampleFlagSchema.describe(
    'Some day drawn of the national, organic or standard line rests on sample or demo prices',
  ),
});

/** GET /api/stats: computed from the daily rollup and the current prices. */
export const statsSchema = z.object({
  as_of: z.string().nullable().describe('The latest day with prices'),
  national_average: z.object({
    price_per_dozen: z.number().nullable(),
    trend: trendSchema
      .nullable()
      .describe("Percent change against 7 days earlier; null until the national series' history reaches that day"),
    history_days: historyDaysSchema,
    sample: sampleFlagSchema,
  }),
  weekly_volatility: z.object({
    value: z
      .number()
      .nullable()
      .describe(
        'Coefficient of variation of the last 7 daily national averages, percent; null with less than 7 days of history',
      ),
    trend: trendSchema
      .nullable()
      .describe('Change against the week before, percentage points; null with less than 14 days of history'),
    history_days: historyDaysSchema,
    sample: sampleFlagSchema,
  }),
  lowest_price: z
    .object({
      price: z.number(),
      count: z.number().int(),
      price_per_dozen: z.number(),
      egg_type: z.enum(EGG_TYPES),
      region: z.enum(REGIONS),
      store_id: z.string(),
      store_name: z.string(),
      source: priceSourceSchema,
    })
    .nullable(),
  trends: z.object({ '7d': trendRangeSchema, '30d': trendRangeSchema }),
});
export type Stats = z.infer<typeof statsSchema>;
export type TrendRange = z.infer<typeof trendRangeSchema>;
