// State kept in the page's query string. Every write starts from the browser's current URL, not
// from the query string of the last render: react-router's setSearchParams(updater) hands the
// updater the params of the last render, so two changes made before React re-renders (two quick
// filter picks, or a script) kept only the second. history.pushState/replaceState update
// window.location at once, so each write here sees the ones before it in the same tick.
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

export interface UrlWriteOptions {
  /** Replace the history entry instead of adding one (Back then means the previous page). */
  replace?: boolean;
  preventScrollReset?: boolean;
}

export type UrlSearchUpdate = (
  change: (current: URLSearchParams) => URLSearchParams,
  options?: UrlWriteOptions,
) => void;

/** The query string of the latest navigation, which may be ahead of what React rendered. */
function latestSearch(fallback: string): string {
  return typeof window === 'undefined' ? fallback : window.location.search;
}

/** The page's query string plus a writer that applies each change to the latest URL. */
export function useUrlSearch(): readonly [URLSearchParams, UrlSearchUpdate] {
  const location = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const update = useCallback<UrlSearchUpdate>(
    (change, options = {}) => {
      const current = new URLSearchParams(latestSearch(location.search));
      const next = change(new URLSearchParams(current)).toString();
      if (next === current.toString()) return;
      navigate({ search: next ? `?${next}` : '' }, options);
    },
    // The pathname is the route's; the search is always read fresh.
    [navigate, location.search],
  );
  return [params, update] as const;
}

/**
 * The query string plus a setter for one key at a time (an empty value removes the key). Filters
 * kept in the URL survive a reload and can be shared; replacing the history entry keeps Back
 * meaning "the previous page", not "the previous filter".
 */
export function useSearchParam() {
  const [params, update] = useUrlSearch();
  const setParam = useCallback(
    (key: string, value: string) =>
      update(
        (next) => {
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        { replace: true },
      ),
    [update],
  );
  return [params, setParam] as const;
}
