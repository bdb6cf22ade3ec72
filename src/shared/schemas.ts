// zod schemas for the vocabulary (egg type, region, store id in any accepted spelling) and the
// dashboard's filter selection, used to validate API input (inputs.ts, the routers) and by forms.
// They live apart from vocabulary.ts and filters.ts so that client code which only needs the
// constants and the domain rules (the first paint of /) does not download zod.
import { z } from 'zod';
import { DEFAULT_FILTERS, isFilterCount, type FilterCount } from './filters.ts';
import { FILTER_COUNTS, SORT_OPTIONS, parseEggType, parseRegion } from './vocabulary.ts';

/** Egg type in any spelling and case, normalised to the stored form. */
export const eggTypeSchema = z
  .string()
  .max(40)
  .transform((value, ctx) => {
    const parsed = parseEggType(value);
    if (!parsed) {
      ctx.addIssue({
        code: 'custom',
        message: `Unknown egg type '${value.slice(0, 40)}': use standard, cage-free, organic or pasture-raised`,
      });
      return z.NEVER;
    }
    return parsed;
  });

export const regionSchema = z
  .string()
  .max(40)
  .transform((value, ctx) => {
    const parsed = parseRegion(value);
    if (!parsed) {
      ctx.addIssue({
        code: 'custom',
        message: `Unknown region '${value.slice(0, 40)}': use northeast, midwest, south or west`,
      });
      return z.NEVER;
    }
    return parsed;
  });

/** Store ids are slugs; matching is case-insensitive. */
export const storeIdSchema = z
  .string()
  .trim()
  .min(1, 'Store id is required')
  .max(64, 'Store id is too long')
  .transform((value) => value.toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9-]+$/, 'Store id may contain only letters, digits and dashes'));

/** Accepts 'all' in any case, or whatever `schema` accepts (normalised by it). */
function allOr<T extends string>(schema: z.ZodType<T, string>) {
  return z.string().transform((value, ctx): T | 'all' => {
    if (value.trim().toLowerCase() === 'all') return 'all';
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });
}

/** null, or one of the filter panel's pack sizes as a number or numeric string. */
const countRangeSchema = z
  .union([z.null(), z.number(), z.string().trim().regex(/^\d+$/).transform(Number)])
  .transform((value, ctx): FilterCount | null => {
    if (value === null || isFilterCount(value)) return value;
    ctx.addIssue({ code: 'custom', message: `Egg count must be one of ${FILTER_COUNTS.join(', ')}` });
    return z.NEVER;
  });

/** Parses a filter selection from any source (URL, form, storage); missing fields take the defaults. */
export const filterSelectionSchema = z.object({
  eggType: allOr(eggTypeSchema).default(DEFAULT_FILTERS.eggType),
  store: allOr(storeIdSchema).default(DEFAULT_FILTERS.store),
  region: allOr(regionSchema).default(DEFAULT_FILTERS.region),
  sortBy: z.string().trim().toLowerCase().pipe(z.enum(SORT_OPTIONS)).default(DEFAULT_FILTERS.sortBy),
  countRange: countRangeSchema.default(DEFAULT_FILTERS.countRange),
  showRegion: z.boolean().default(DEFAULT_FILTERS.showRegion),
});
