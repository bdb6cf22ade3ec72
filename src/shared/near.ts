// The contract of "Near you" and a product's price history: inputs the API validates and the
// shapes it answers, shared by the server (REST, tRPC, OpenAPI) and the client.
import { z } from 'zod';
import { allOr, intParam, listLimit, listOffset } from './inputs.ts';
import { eggTypeSchema } from './schemas.ts';
import { priceEntrySchema, priceSourceSchema } from './types.ts';
import { REGIONS } from './vocabulary.ts';

/** The radii a shopper can choose, in miles. */
export const NEAR_RADII = [5, 10, 25, 50] as const;
export type NearRadius = (typeof NEAR_RADII)[number];
export const DEFAULT_NEAR_RADIUS: NearRadius = 25;

/** The spans of a price history, in days. */
export const HISTORY_SPANS = [30, 90, 365] as const;
export type HistorySpan = (typeof HISTORY_SPANS)[number];
export const DEFAULT_HISTORY_SPAN: HistorySpan = 90;

const oneOf = <T extends readonly number[]>(name: string, values: T) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .refine(
      (value): value is T[number] => (values as readonly number[]).includes(value),
      `${name} must be one of ${values.join(', ')}`,
    );

/** A US ZIP code as typed: five digits, or ZIP+4 (its first five count). */
export const zipParam = z
  .string({ message: 'zip is required' })
  .trim()
  .regex(/^\d{5}(-\d{4})?$/, 'zip must be a 5-digit US ZIP code')
  .transform((zip) => zip.slice(0, 5));

/** GET /api/egg-prices/near and prices.near. */
export const nearInput = z
  .object({
    zip: zipParam,
    radius: oneOf('radius', NEAR_RADII).default(DEFAULT_NEAR_RADIUS),
    egg_type: allOr(eggTypeSchema),
    count: intParam('count', 1, 360).optional(),
    limit: listLimit.default(100),
    offset: listOffset.default(0),
  })
  .strict();
export type NearInput = z.input<typeof nearInput>;

/** One listing near the ZIP: a price entry with where it is and how it moved since the day before. */
export const nearEntrySchema = priceEntrySchema.extend({
  location_name: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  distance_miles: z
    .number()
    .nullable()
    .describe(
      "Straight-line miles from the ZIP code to the store (or, when the retailer gave no coordinates, its ZIP code's centre), one decimal; null for such a store in the ZIP code searched (distance unknown: it is in that ZIP code, ranked after measured ones at an equal price)",
    ),
  price_per_dozen: z.number().describe('Shelf price for 12 eggs at this pack size'),
  previous_price: z
    .number()
    .nullable()
    .describe("The pack price observed on the latest price's previous UTC day; null when none was observed that day"),
  change: z.number().nullable().describe('price minus previous_price, in dollars; null without a previous price'),
});
export type NearEntry = z.infer<typeof nearEntrySchema>;

/**
 * Which listings the answer holds: 'radius' those within the chosen radius; 'widened' none was
 * within it, so those within radius_used (a larger radius, at most 50 miles); 'region' none was
 * within 50 miles, so the cheapest of the ZIP's census region, at any distance; 'none' the region
 * has none either; 'far' no store with prices is within a few hundred miles (Alaska, Hawaii), so
 * none is listed and `nearest` says where the nearest is.
 */
export const NEAR_SCOPES = ['radius', 'widened', 'region', 'none', 'far'] as const;
export type NearScope = (typeof NEAR_SCOPES)[number];

/** The nearest store with prices, when it is too far to call near. */
export const nearestStoreSchema = z.object({
  store_name: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string(),
  distance_miles: z.number().describe('Straight-line miles from the ZIP code, one decimal'),
});
export type NearestStore = z.infer<typeof nearestStoreSchema>;

export const nearResultSchema = z.object({
  zip: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  region: z.enum(REGIONS),
  radius: z.number().describe('The radius asked for, in miles'),
  scope: z.enum(NEAR_SCOPES),
  radius_used: z.number().nullable().describe("The radius the entries are within ('radius' and 'widened'), else null"),
  total: z.number().int().describe('Entries in scope before the limit'),
  entries: z
    .array(nearEntrySchema)
    .describe('Ranked by price per dozen, then measured distances before unknown ones, then distance'),
  nearest: nearestStoreSchema
    .nullable()
    .describe("scope 'far': the nearest store with prices under the filters, and how far it is; otherwise null"),
});
export type NearResult = z.infer<typeof nearResultSchema>;

/** GET /api/products/{id}/history and prices.history. */
export const historyInput = z
  .object({
    id: intParam('id', 1, 2_147_483_647),
    location: intParam('location', 1, 2_147_483_647),
    days: oneOf('days', HISTORY_SPANS).default(DEFAULT_HISTORY_SPAN),
  })
  .strict();
export type HistoryInput = z.input<typeof historyInput>;

const dayPrice = z.object({ day: z.string().describe('UTC day, YYYY-MM-DD'), price: z.number() });

export const historyResultSchema = z.object({
  product: z.object({
    id: z.number().int(),
    store_id: z.string(),
    store_name: z.string(),
    title: z.string(),
    brand: z.string().nullable(),
    egg_type: eggTypeSchema,
    count: z.number().int(),
    size_grade: z.string().nullable(),
    url: z.string().nullable(),
  }),
  location: z.object({
    id: z.number().int(),
    name: z.string().nullable(),
    zip: z.string(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    region: z.enum(REGIONS),
  }),
  days: z.number().int(),
  history_days: z
    .number()
    .int()
    .describe(
      'Days with a price of the product at this location in all, within the span or before it: fewer than the span means its history began inside it',
    ),
  source: priceSourceSchema.nullable().describe('Source of the latest price'),
  points: z
    .array(dayPrice.extend({ price_per_dozen: z.number() }))
    .describe('One price per observed UTC day, oldest first'),
  lowest: dayPrice.nullable(),
  highest: dayPrice.nullable(),
  latest: dayPrice.nullable(),
  change: z
    .object({ value: z.number(), percent: z.number(), since: z.string() })
    .nullable()
    .describe('The latest price against the observation before it'),
  bls: z
    .array(z.object({ period: z.string().describe('YYYY-MM'), price: z.number() }))
    .describe('BLS national average price of a dozen grade A large eggs for the months of the span'),
});
export type HistoryResult = z.infer<typeof historyResultSchema>;
