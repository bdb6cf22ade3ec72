// A price card's (or list row's) local overrides of region, egg type and count, and
// what they price to: the entry, the observed price of that combination, or an estimate from the
// store's nearest observed price.
import { useState } from 'react';
import { trpc } from '#client/lib/trpc.ts';
import type { LocationFigures } from '#shared/location-figures.ts';
import {
  initialSelection,
  isEntrySelection,
  resolvePriceView,
  selectionKey,
  type CardEntry,
  type CardSelection,
  type LookupState,
  type PriceView,
} from './priceView.ts';

export interface PriceCardState {
  selection: CardSelection;
  select: (patch: Partial<CardSelection>) => void;
  view: PriceView;
  /** What the store's locations charge for the shown combination today; null for an estimate or while loading. */
  figures: LocationFigures | null;
}

export function usePriceCard(entry: CardEntry): PriceCardState {
  const initial = initialSelection(entry);
  // The overrides start again from the initial values whenever the entry changes (a new
  // page of results, a new price).
  const origin = `${entry.id}|${selectionKey(initial)}`;
  const [state, setState] = useState({ origin, selection: initial });
  let selection = state.selection;
  if (state.origin !== origin) {
    selection = initial;
    setState({ origin, selection: initial });
  }

  const own = isEntrySelection(entry, selection);
  const lookup = trpc.prices.lookup.useQuery(
    {
      store: entry.store_id,
      region: selection.region,
      egg_type: selection.eggType,
      count: selection.count,
      // Among equally near prices, the card's own store location's.
      ...(Number.isInteger(entry.location_id) && entry.location_id > 0 ? { location: entry.location_id } : {}),
    },
    { enabled: !own },
  );
  const lookupState: LookupState = own
    ? { status: 'idle' }
    : lookup.isSuccess
      ? { status: 'success', entry: lookup.data }
      : lookup.isError
        ? { status: 'error' }
        : { status: 'pending' };

  const view = resolvePriceView(entry, selection, lookupState);
  return {
    selection,
    select: (patch) => setState((current) => ({ ...current, selection: { ...current.selection, ...patch } })),
    view,
    figures: view.kind !== 'observed' ? null : own ? (entry.locations ?? null) : (lookup.data?.locations ?? null),
  };
}
