// The dashboard's view in the URL query string: the applied filter selection, the
// page and the grid/list mode, so a view can be shared and survives a reload. Only values that
// differ from the defaults are written; a malformed value falls back to its default alone. The
// defaults of the region, egg type and pack size are the saved preferences' where they set one.
import { DEFAULT_FILTERS, filterFieldOrDefault, type FilterSelection } from '#shared/filters.ts';
import { EGG_TYPE_SLUGS } from '#shared/vocabulary.ts';
import { isSameSelection } from '#client/components/filters/draft.ts';

export type ViewMode = 'grid' | 'list';

export interface DashboardState {
  filters: FilterSelection;
  page: number;
  view: ViewMode;
}

export const DEFAULT_VIEW: ViewMode = 'grid';

/** Query parameter names, short and readable in a shared link. */
export const PARAMS = {
  eggType: 'type',
  store: 'store',
  region: 'region',
  countRange: 'count',
  sortBy: 'sort',
  showRegion: 'showRegion',
  page: 'page',
  view: 'view',
} as const;

/** A parameter read as filterSelectionSchema reads the field, without zod (not in the first paint). */
function field<K extends keyof FilterSelection>(key: K, raw: unknown): FilterSelection[K] {
  return filterFieldOrDefault(key, raw ?? undefined);
}

function parseBoolean(raw: string | null): boolean | undefined {
  if (raw === null) return undefined;
  const value = raw.trim().toLowerCase();
  if (value === 'false' || value === '0' || value === 'no') return false;
  if (value === 'true' || value === '1' || value === 'yes') return true;
  return undefined;
}

function parsePage(raw: string | null): number {
  const page = raw !== null && /^\d+$/.test(raw.trim()) ? Number(raw) : 1;
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** The count parameter's value for 'any pack size', written only when saved preferences set one. */
const ANY_COUNT = 'any';

/**
 * The state in a query string. A filter the URL does not name takes its value from `base`: the
 * defaults, or the saved preferences' filters over them (useDashboardState).
 */
export function parseDashboardParams(
  params: URLSearchParams,
  base: Readonly<FilterSelection> = DEFAULT_FILTERS,
): DashboardState {
  const get = (name: string) => params.get(name);
  const read = <K extends keyof FilterSelection>(key: K, raw: unknown): FilterSelection[K] =>
    raw === null ? base[key] : field(key, raw);
  const count = get(PARAMS.countRange);
  const showRegion = parseBoolean(get(PARAMS.showRegion));
  return {
    filters: {
      eggType: read('eggType', get(PARAMS.eggType)),
      store: read('store', get(PARAMS.store)),
      region: read('region', get(PARAMS.region)),
      countRange: count?.trim().toLowerCase() === ANY_COUNT ? null : read('countRange', count),
      sortBy: read('sortBy', get(PARAMS.sortBy)),
      showRegion: showRegion ?? base.showRegion,
    },
    page: parsePage(get(PARAMS.page)),
    view: get(PARAMS.view) === 'list' ? 'list' : DEFAULT_VIEW,
  };
}

/**
 * The query string for a state; parameters this screen does not own are kept. Only values that
 * differ from `base` are written, so 'all' (or 'any' pack size) is written when base has another.
 */
export function toDashboardParams(
  state: DashboardState,
  keep: URLSearchParams = new URLSearchParams(),
  base: Readonly<FilterSelection> = DEFAULT_FILTERS,
): URLSearchParams {
  const params = new URLSearchParams(keep);
  for (const name of Object.values(PARAMS)) params.delete(name);
  const { filters } = state;
  if (filters.eggType !== base.eggType)
    params.set(PARAMS.eggType, filters.eggType === 'all' ? 'all' : EGG_TYPE_SLUGS[filters.eggType]);
  if (filters.store !== base.store) params.set(PARAMS.store, filters.store);
  if (filters.region !== base.region) params.set(PARAMS.region, filters.region);
  if (filters.countRange !== base.countRange)
    params.set(PARAMS.countRange, filters.countRange === null ? ANY_COUNT : String(filters.countRange));
  if (filters.sortBy !== base.sortBy) params.set(PARAMS.sortBy, filters.sortBy);
  if (filters.showRegion !== base.showRegion) params.set(PARAMS.showRegion, String(filters.showRegion));
  if (state.page > 1) params.set(PARAMS.page, String(state.page));
  if (state.view !== DEFAULT_VIEW) params.set(PARAMS.view, state.view);
  return params;
}

/** Applying a changed selection goes back to page 1; applying the same one keeps the page. */
export function applyFilters(state: DashboardState, filters: FilterSelection): DashboardState {
  return isSameSelection(state.filters, filters) ? state : { ...state, filters: { ...filters }, page: 1 };
}
