// The Near you section's applied state, read from and written to the URL query string.
import { useCallback, useMemo } from 'react';
import type { NearRadius } from '#shared/near.ts';
import type { EggType } from '#shared/vocabulary.ts';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';
import { parseNearParams, toNearParams, type NearState } from './nearUrlState.ts';

export interface NearStateApi {
  state: NearState;
  /** A new ZIP code is a history entry: Back returns to the previous search. */
  applyZip: (zip: string) => void;
  setRadius: (radius: NearRadius) => void;
  setEggType: (eggType: EggType | 'all') => void;
  setCount: (count: number | null) => void;
}

export function useNearState(): NearStateApi {
  const [params, update] = useUrlSearch();
  const state = useMemo(() => parseNearParams(params), [params]);
  const write = useCallback(
    (change: Partial<NearState>, replace: boolean) =>
      update((current) => toNearParams({ ...parseNearParams(current), ...change }, current), {
        replace,
        preventScrollReset: true,
      }),
    [update],
  );
  return {
    state,
    applyZip: useCallback((zip) => write({ zip }, false), [write]),
    // Narrowing a search is not worth a history entry of its own, as on the store page.
    setRadius: useCallback((radius) => write({ radius }, true), [write]),
    setEggType: useCallback((eggType) => write({ eggType }, true), [write]),
    setCount: useCallback((count) => write({ count }, true), [write]),
  };
}
