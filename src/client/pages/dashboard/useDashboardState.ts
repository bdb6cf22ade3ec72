// The dashboard's applied state, read from and written to the URL query string.
import { useCallback, useMemo } from 'react';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';
import type { FilterSelection } from '#shared/filters.ts';
import { applyFilters, parseDashboardParams, toDashboardParams, type DashboardState, type ViewMode } from './urlState.ts';

export interface DashboardStateApi {
  state: DashboardState;
  /** Applies a filter selection; a changed one goes back to page 1 (SPEC §4). */
  apply: (filters: FilterSelection) => void;
  setPage: (page: number) => void;
  setView: (view: ViewMode) => void;
}

export function useDashboardState(): DashboardStateApi {
  const [params, update] = useUrlSearch();
  const state = useMemo(() => parseDashboardParams(params), [params]);

  const write = useCallback(
    (next: (current: DashboardState) => DashboardState, replace = false) => {
      update((current) => toDashboardParams(next(parseDashboardParams(current)), current), { replace, preventScrollReset: true });
    },
    [update],
  );

  return {
    state,
    // New filters and pages are history entries, so Back returns to the previous view.
    apply: useCallback((filters) => write((current) => applyFilters(current, filters)), [write]),
    setPage: useCallback((page) => write((current) => ({ ...current, page })), [write]),
    // The layout choice is not worth a history entry of its own.
    setView: useCallback((view) => write((current) => ({ ...current, view }), true), [write]),
  };
}
