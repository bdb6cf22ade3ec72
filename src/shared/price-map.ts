// Prices by state (the shoppers' US map): today's median price of a dozen of one egg type in each
// of the 50 states and DC, its range, how many entries and stores it rests on, and its change
// against the same day last week; and a state's cheapest entries. Shared by the API's validation,
// its OpenAPI document and the map page.
import { z } from 'zod';
import { intParam, listLimit, listOffset } from './inputs.ts';
import { eggTypeSchema } from './schemas.ts';
import { priceEntrySchema } from './types.ts';
import { STATE_REGIONS, type UsState } from './zip.ts';
import { EGG_TYPES, REGIONS } from './vocabulary.ts';

/** Prices count as today's when read within this many hours (a day's visits span the whole day). */
export const TODAY_HOURS = 48;

export const priceMapInput = z
  .object({
    egg_type: eggTypeSchema.default('standard'),
    count: intParam('count', 1, 360).optional(),
  })
  .strict();
export type PriceMapInput = z.input<typeof priceMapInput>;

const stateCodeSchema = z
  .string({ message: 'state must be a two-letter state code' })
  .max(64, 'state must be a two-letter state code')
  .transform((value, ctx) => {
    const code = value.trim().toUpperCase();
    if (!Object.hasOwn(STATE_REGIONS, code)) {
      ctx.addIssue({ code: 'custom', message: `Not a US state code: ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return code as UsState;
  });

export const priceMapCheapestInput = priceMapInput
  .extend({
    state: stateCodeSchema,
    limit: listLimit.default(10),
    offset: listOffset.default(0),
  })
  .strict();
export type PriceMapCheapestInput = z.input<typeof priceMapCheapestInput>;

export const stateFiguresSchema = z.object({
  state: z.string().describe('Two-letter code of the state (or DC)'),
  region: z.enum(REGIONS),
  median_per_dozen: z.number().nullable().describe("Today's median price of a dozen; null: no data"),
  lowest_per_dozen: z.number().nullable(),
  highest_per_dozen: z.number().nullable(),
  entries: z.number().int().describe('Current entries the median rests on'),
  stores: z.number().int().describe('Store locations those entries are from'),
  sample: z.boolean().describe('Whether any of them are sample or demo prices'),
  week_ago_median_per_dozen: z
    .number()
    .nullable()
    .describe('The median of the same day last week, from the price history'),
  change: z.number().nullable().describe('Dollars per dozen against the same day last week'),
  change_percent: z.number().nullable(),
});
export type StateFigures = z.infer<typeof stateFiguresSchema>;

export const priceMapResultSchema = z.object({
  egg_type: z.enum(EGG_TYPES),
  count: z.number().int().nullable(),
  day: z.string().describe('Today (UTC), YYYY-MM-DD'),
  states: z.array(stateFiguresSchema).describe('The 50 states and DC, by code'),
});
export type PriceMapResult = z.infer<typeof priceMapResultSchema>;

export const priceMapCheapestEntrySchema = priceEntrySchema.extend({
  price_per_dozen: z.number(),
  city: z.string().nullable(),
  location_name: z.string().nullable(),
});
export const priceMapCheapestResultSchema = z.object({
  state: z.string(),
  egg_type: z.enum(EGG_TYPES),
  count: z.number().int().nullable(),
  total: z.number().int().describe("Today's entries in the state before limit and offset"),
  entries: z.array(priceMapCheapestEntrySchema).describe("Today's entries in the state, cheapest per dozen first"),
});
export type PriceMapCheapestResult = z.infer<typeof priceMapCheapestResultSchema>;
