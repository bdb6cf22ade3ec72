// zod input schemas shared by the API and the client. REST query strings arrive as strings, so
// numbers are coerced; 'all' means no filter.
import { z } from 'zod';
import { eggTypeSchema, filterSelectionSchema, regionSchema, storeIdSchema } from './schemas.ts';
import { STATE_REGIONS } from './zip.ts';

/**
 * 'all' (any case: no filter) or what `schema` accepts, normalised by it; a bad value keeps the
 * schema's own message, which says what is accepted.
 */
export const allOr = <T>(schema: z.ZodType<T, string>) =>
  z
    .string()
    .transform((value, ctx): T | undefined => {
      if (value.trim().toLowerCase() === 'all') return undefined;
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: `${issue.message} (or all)` });
      return z.NEVER;
    })
    .optional();

/** A whole-number parameter within bounds (query strings arrive as text), with messages naming it. */
export const intParam = (name: string, min: number, max: number) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

/**
 * The years a date or month parameter may name. Beyond them nothing is held, and ISO's year 0000
 * (a leap year on paper) would reach PostgreSQL's date cast, which has no year zero, and fail there.
 */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2199;
const inYears = (value: string) => {
  const year = Number(value.slice(0, 4));
  return year >= FIRST_YEAR && year <= LAST_YEAR;
};

/** A calendar day (YYYY-MM-DD) of a plausible year, with messages naming the parameter. */
export const dayParam = (name: string) =>
  z.iso
    .date({ error: `${name} must be a date like 2026-01-31` })
    .refine(inYears, `${name} must be a date from ${FIRST_YEAR} to ${LAST_YEAR}`);

/** A month (YYYY-MM) of a plausible year, with messages naming the parameter. */
export const monthParam = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, `${name} must be a month like 2016-01`)
    .refine(inYears, `${name} must be a month from ${FIRST_YEAR} to ${LAST_YEAR}`);

export const entryFiltersInput = z
  .object({
    store: allOr(storeIdSchema),
    region: allOr(regionSchema),
    egg_type: allOr(eggTypeSchema),
    count: intParam('count', 1, 360).optional(),
  })
  .strict();

/**
 * Every list pages the same way (docs/decisions/002-rest-adapter.md): `limit` is 1 to
 * MAX_LIST_LIMIT (more is refused, with the maximum in the message) and `offset` 0 or more. A REST
 * list asked without `limit` answers its first DEFAULT_LIST_LIMIT items unless it documents a
 * smaller default; the two streamed CSV downloads hold every matching row.
 */
export const DEFAULT_LIST_LIMIT = 1000;
export const MAX_LIST_LIMIT = 5000;
export const MAX_LIST_OFFSET = 10_000_000;

export const listLimit = intParam('limit', 1, MAX_LIST_LIMIT);
export const listOffset = intParam('offset', 0, MAX_LIST_OFFSET);

const pageParams = { limit: listLimit.optional(), offset: listOffset.optional() };

export const priceListInput = entryFiltersInput.extend(pageParams).strict();
export type PriceListInput = z.input<typeof priceListInput>;

export const storeIdInput = z.object({ storeId: storeIdSchema }).strict();

const storeFiltersInput = entryFiltersInput.omit({ store: true }).extend({ storeId: storeIdSchema }).strict();

export const storePricesInput = storeFiltersInput.extend(pageParams).strict();

/** A page of price cards at the screen's page size: page 1 of 9 (a large screen's) when not given. */
const cardPageFields = {
  page: intParam('page', 1, 100_000).default(1),
  pageSize: intParam('pageSize', 1, 60).default(9),
};

/** stores.locationFigures: the store page's filters (those of a store's price list, without paging). */
export const storeInsightsInput = storeFiltersInput;

/**
 * stores.insights: the store page's filters, and the page of its Price Data cards (cheapest per
 * dozen first) at the screen's page size, as the dashboard's list pages.
 */
export const storeInsightsPageInput = storeFiltersInput.extend(cardPageFields).strict();

/**
 * compare.byType: one egg type (either spelling, any case; 'all' is not a type), optional filters
 * and the page of its entries (cheapest per dozen first): page 1 of 9 when not given, as the
 * dashboard's list on a large screen.
 */
export const compareByTypeInput = z
  .object({
    eggType: eggTypeSchema,
    region: allOr(regionSchema),
    count: intParam('count', 1, 360).optional(),
    ...cardPageFields,
  })
  .strict();
export type CompareByTypeInput = z.input<typeof compareByTypeInput>;

export const marketSeriesInput = z
  .object({
    from: monthParam('from').optional(),
    region: z.enum(['national', 'northeast', 'midwest', 'south', 'west', 'all']).optional(),
  })
  .strict();

/** The dashboard list: the filter selection, a page and the screen's page size. */
export const dashboardInput = z
  .object({
    filters: filterSelectionSchema.optional(),
    page: intParam('page', 1, 100_000).default(1),
    pageSize: intParam('pageSize', 1, 60).default(9),
  })
  .strict();
export type DashboardInput = z.input<typeof dashboardInput>;

/** The stores one page of a chain's directory lists through tRPC by default (REST: DEFAULT_LIST_LIMIT). */
export const DEFAULT_LOCATIONS_PAGE = 100;

/** stores.locations: a chain's known open stores, optionally in one state, paged. */
export const storeLocationsInput = z
  .object({
    storeId: storeIdSchema,
    state: z
      .string({ message: 'state must be a two-letter US state code' })
      .max(64, 'state must be a two-letter US state code')
      .transform((value) => value.trim().toUpperCase())
      .refine((value) => Object.hasOwn(STATE_REGIONS, value), {
        message: 'state must be a two-letter US state code (or DC)',
      })
      .optional(),
    limit: listLimit.default(DEFAULT_LOCATIONS_PAGE),
    offset: listOffset.default(0),
  })
  .strict();
export const storeLocationsCountInput = storeLocationsInput.omit({ limit: true, offset: true });
