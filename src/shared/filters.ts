// The dashboard's filter selection and the rules that match entries against it.
// Its zod schema (filterSelectionSchema, for API input) is in schemas.ts: this module stays free
// of zod because the dashboard's first paint uses it. filterFieldOrDefault reads one field the way
// that schema does, without zod (schemas.test.ts checks that they agree).
import type { LooseEntry } from './types.ts';
import { packCount } from './format.ts';
import {
  FILTER_COUNTS,
  SORT_OPTIONS,
  parseEggType,
  parseRegion,
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
  /** A single pack size, or null for any. */
  countRange: FilterCount | null;
  showRegion: boolean;
}

/** Defaults: all types, all stores, all regions, cheapest first, any count, region shown. */
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

/** 'all' in any case (surrounding spaces allowed), as filterSelectionSchema accepts it. */
function isAll(value: string): boolean {
  return value.trim().toLowerCase() === 'all';
}

/** Store ids as storeIdSchema (schemas.ts) reads them: trimmed, 1 to 64 characters, lowercased slug. */
function parseStoreId(value: string): string | null {
  const id = value.trim();
  if (id.length < 1 || id.length > 64) return null;
  const lower = id.toLowerCase();
  return /^[a-z0-9-]+$/.test(lower) ? lower : null;
}

/** Egg types and regions are at most 40 characters before normalising (schemas.ts). */
const MAX_NAME_LENGTH = 40;

function readField(
  key: keyof FilterSelection,
  value: string | number | boolean | null,
): FilterSelection[keyof FilterSelection] | undefined {
  switch (key) {
    case 'eggType':
      if (typeof value !== 'string') return undefined;
      if (isAll(value)) return 'all';
      return value.length <= MAX_NAME_LENGTH ? (parseEggType(value) ?? undefined) : undefined;
    case 'region':
      if (typeof value !== 'string') return undefined;
      if (isAll(value)) return 'all';
      return value.length <= MAX_NAME_LENGTH ? (parseRegion(value) ?? undefined) : undefined;
    case 'store':
      if (typeof value !== 'string') return undefined;
      return isAll(value) ? 'all' : (parseStoreId(value) ?? undefined);
    case 'sortBy': {
      if (typeof value !== 'string') return undefined;
      const sort = value.trim().toLowerCase();
      return (SORT_OPTIONS as readonly string[]).includes(sort) ? (sort as SortOption) : undefined;
    }
    case 'countRange': {
      if (value === null) return null;
      let count: number;
      if (typeof value === 'number') count = value;
      else if (typeof value === 'string' && /^\d+$/.test(value.trim())) count = Number(value.trim());
      else return undefined;
      return isFilterCount(count) ? count : undefined;
    }
    case 'showRegion':
      return typeof value === 'boolean' ? value : undefined;
  }
}

/**
 * One field of a filter selection from loose input (a URL parameter, stored data), read as
 * filterSelectionSchema reads that field; a missing or invalid value gives the field's default.
 */
export function filterFieldOrDefault<K extends keyof FilterSelection>(key: K, value: unknown): FilterSelection[K] {
  if (value === undefined) return DEFAULT_FILTERS[key];
  if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return DEFAULT_FILTERS[key];
  const parsed = readField(key, value);
  return (parsed === undefined ? DEFAULT_FILTERS[key] : parsed) as FilterSelection[K];
}

/**
 * Store ids match case-insensitively; egg type and region match case-insensitively in
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

/** The count filter is a single choice; choosing the selected value again clears it. */
export function toggleCount(current: FilterCount | null, value: FilterCount): FilterCount | null {
  return current === value ? null : value;
}
