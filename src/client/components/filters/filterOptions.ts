// Option lists of the dashboard filters: each option a value and a label.
import type { FilterSelection } from '#shared/filters.ts';
import {
  EGG_TYPES,
  EGG_TYPE_LABELS,
  REGIONS,
  REGION_LABELS,
  SORT_OPTIONS,
  type SortOption,
} from '#shared/vocabulary.ts';

export interface FilterOption<V extends string = string> {
  value: V;
  label: string;
}

export const EGG_TYPE_OPTIONS: ReadonlyArray<FilterOption<FilterSelection['eggType']>> = [
  { value: 'all', label: 'All Egg Types' },
  ...EGG_TYPES.map((type) => ({ value: type, label: EGG_TYPE_LABELS[type] })),
];

export const REGION_OPTIONS: ReadonlyArray<FilterOption<FilterSelection['region']>> = [
  { value: 'all', label: 'All Regions' },
  ...REGIONS.map((region) => ({ value: region, label: REGION_LABELS[region] })),
];

export const SORT_LABELS: Record<SortOption, string> = {
  price: 'Price per dozen (lowest first)',
  'unit-price': 'Unit price (lowest per egg)',
  freshness: 'Freshness (newest first)',
  trend: 'Trend (biggest change)',
};

export const SORT_FILTER_OPTIONS: ReadonlyArray<FilterOption<SortOption>> = SORT_OPTIONS.map((value) => ({
  value,
  label: SORT_LABELS[value],
}));

/** 'whole-foods' -> 'Whole Foods': a readable name until the stores list has loaded. */
export function storeLabelFromId(id: string): string {
  return id
    .split('-')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

/** Store filter values, in the order the Filters panel lists them. */
export const STORE_FILTER_VALUES = ['walmart', 'target', 'whole-foods', 'kroger', 'albertsons', 'aldi'] as const;

/**
 * Store filter values, in that order, labelled with the stores' names once known. A
 * store the list has that the fixed values lack is appended, so new retailers can be chosen.
 */
export function storeOptions(stores: ReadonlyArray<{ id: string; store_name: string }> | undefined): FilterOption[] {
  const names = new Map((stores ?? []).map((store) => [store.id.toLowerCase(), store.store_name]));
  const known: readonly string[] = STORE_FILTER_VALUES;
  const ids = [...known, ...[...names.keys()].filter((id) => !known.includes(id))];
  return [
    { value: 'all', label: 'All Stores' },
    ...ids.map((id) => ({ value: id, label: names.get(id) ?? storeLabelFromId(id) })),
  ];
}
