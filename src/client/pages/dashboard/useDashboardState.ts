// The dashboard's applied state, read from and written to the URL query string. A region, egg type
// or pack size the URL does not name comes from the saved preferences, applied like any filter.
import { useCallback, useMemo } from 'react';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';
import { usePreferenceFilters, type PreferenceFilters } from '#client/lib/savedPreferences.ts';
import { DEFAULT_FILTERS, type FilterSelection } from '#shared/filters.ts';
import {
  applyFilters,
  PARAMS,
  parseDashboardParams,
  toDashboardParams,
  type DashboardState,
  type ViewMode,
} from './urlState.ts';

export interface DashboardStateApi {
  state: DashboardState;
  /** The applied filters that come from the saved preferences (the URL names none of them). */
  fromPreferences: PreferenceFilters;
  /** Applies a filter selection; a changed one goes back to page 1. */
  apply: (filters: FilterSelection) => void;
  setPage: (page: number) => void;
  setView: (view: ViewMode) => void;
}

export function useDashboardState(): DashboardStateApi {
  const [params, update] = useUrlSearch();
  const preferred = usePreferenceFilters();
  const base = useMemo(() => ({ ...DEFAULT_FILTERS, ...preferred }), [preferred]);
  const state = useMemo(() => parseDashboardParams(params, base), [params, base]);
  const fromPreferences = useMemo(() => {
    const applied: PreferenceFilters = {};
    if (preferred.eggType && params.get(PARAMS.eggType) === null) applied.eggType = preferred.eggType;
    if (preferred.region && params.get(PARAMS.region) === null) applied.region = preferred.region;
    if (preferred.countRange && params.get(PARAMS.countRange) === null) applied.countRange = preferred.countRange;
    return applied;
  }, [params, preferred]);

  const write = useCallback(
    (next: (current: DashboardState) => DashboardState, replace = false) => {
      update((current) => toDashboardParams(next(parseDashboardParams(current, base)), current, base), {
        replace,
        preventScrollReset: true,
      });
    },
    [update, base],
  );

  return {
    state,
    fromPreferences,
    // New filters and pages are history entries, so Back returns to the previous view.
    apply: useCallback((filters) => write((current) => applyFilters(current, filters)), [write]),
    setPage: useCallback((page) => write((current) => ({ ...current, page })), [write]),
    // The layout choice is not worth a history entry of its own.
    setView: useCallback((view) => write((current) => ({ ...current, view }), true), [write]),
  };
}
