// The dashboard's filter selection (SPEC §3) and the rules that match entries against it (SPEC §5).
import { z } from 'zod';
import type { LooseEntry } from './types.ts';
import { packCount } from './format.ts';
import {
  FILTER_COUNTS,
  SORT_OPTIONS,
  eggTypeSchema,
  parseEggType,
  parseRegion,
  regionSchema,
  storeIdSchema,
  type EggType,
  type Region,
  type SortOption,
} from './vocabulary.ts';

export type FilterCount = (typeof FILTER_COUNTS)[number];

export interface FilterSelection {
  eggType: EggType | 'all';
  /** 'all' or a store id, lowercased. */
  store: string;
  region: Region | 'all';
  sortBy: SortOption;
  /** A single pack size, or null for any (SPEC §5). */
  countRange: FilterCount | null;
  showRegion: boolean;
}

/** SPEC §3 defaults: all types, all stores, all regions, cheapest first, any count, region shown. */
export const DEFAULT_FILTERS: Readonly<FilterSelection> = Object.freeze({
  eggType: 'all',
  store: 'all',
  region: 'all',
  sortBy: 'price',
  countRange: null,
  showRegion: true,
});

export function isFilterCount(value: unknown): value is FilterCount {
  return (FILTER_COUNTS as readonly unknown[]).includes(value);
}

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

/**
 * SPEC §5: store ids match case-insensitively; egg type and region match case-insensitively in
 * either spelling (cage-free / cage_free); count matches exactly, a missing count being 12.
 */
export function matchesFilters(
  entry: LooseEntry,
  filters: Pick<FilterSelection, 'eggType' | 'store' | 'region' | 'countRange'>,
): boolean {
  if (filters.store !== 'all' && entry.store_id.trim().toLowerCase() !== filters.store.trim().toLowerCase()) {
    return false;
  }
  if (filters.eggType !== 'all') {
    const wanted = parseEggType(filters.eggType);
    if (wanted === null || parseEggType(entry.egg_type) !== wanted) return false;
  }
  if (filters.region !== 'all') {
    const wanted = parseRegion(filters.region);
    if (wanted === null || parseRegion(entry.region) !== wanted) return false;
  }
  return filters.countRange === null || packCount(entry.count) === filters.countRange;
}

/** SPEC §5: the count filter is a single choice; choosing the selected value again clears it. */
export function toggleCount(current: FilterCount | null, value: FilterCount): FilterCount | null {
  return current === value ? null : value;
}
