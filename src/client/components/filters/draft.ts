// Comparing filter selections and counting what narrows the list, for the Filters panel.
import { DEFAULT_FILTERS, type FilterSelection } from '#shared/filters.ts';

const KEYS = Object.keys(DEFAULT_FILTERS) as Array<keyof FilterSelection>;

export function isSameSelection(a: FilterSelection, b: Readonly<FilterSelection>): boolean {
  return KEYS.every((key) => a[key] === b[key]);
}

/** How many applied filters narrow the list (egg type, store, region, count); sort and display do not. */
export function activeFilterCount(filters: FilterSelection): number {
  return [
    filters.eggType !== 'all',
    filters.store !== 'all',
    filters.region !== 'all',
    filters.countRange !== null,
  ].filter(Boolean).length;
}
