// @vitest-environment happy-dom
// A price card's state: it opens on the price it lists whatever the saved preferences (issue: an
// Aldi card showed an estimate for 36 eggs because 36 was the saved pack size while the Filters
// said All), and a pack the store does not sell is estimated from the basis prices.lookup names.
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { observable } from '@trpc/server/observable';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trpc } from '#client/lib/trpc.ts';
import type { CardEntry } from './priceView.ts';
import { usePriceCard } from './usePriceCard.ts';

const aldi: CardEntry = {
  id: 1,
  store_id: 'aldi',
  store_name: 'Aldi',
  region: 'midwest',
  zip: '60611',
  location_name: null,
  city: null,
  state: null,
  egg_type: 'standard',
  count: 12,
  price: 3.96,
  regular_price: null,
  in_stock: true,
  unit_price: 0.33,
  size_grade: 'Large, Grade A',
  trend_value: 0,
  trend_direction: 'stable',
  last_updated: '2026-04-07T06:00:00Z',
  source_url: null,
  title: 'Aldi Large Grade A Eggs, 12 ct',
  brand: 'Goldhen',
  source: 'scrape',
  product_id: 10,
  location_id: 20,
  history: [3.96],
};

let lookups: unknown[] = [];

function wrapper({ children }: { children: ReactNode }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = trpc.createClient({
    links: [
      () =>
        ({ op }) =>
          observable((observer) => {
            lookups.push(op.input);
            // The store's nearest observed price for anything asked: its Midwest 18-pack.
            observer.next({
              result: {
                data: { ...aldi, id: 2, count: 18, price: 5.4, unit_price: 0.3, location_id: 20, history: [5.4] },
              },
            });
            observer.complete();
          }),
    ],
  });
  return (
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

beforeEach(() => {
  lookups = [];
  window.localStorage.setItem(
    'eggwatch.preferences',
    JSON.stringify({ zipCode: '60611', region: 'west', preferredEggType: 'organic', preferredCount: 36 }),
  );
});
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('usePriceCard', () => {
  it('opens on the observed price it lists, whatever the saved preferences, without a lookup', () => {
    const { result } = renderHook(() => usePriceCard(aldi), { wrapper });
    expect(result.current.selection).toEqual({ region: 'midwest', eggType: 'standard', count: 12 });
    expect(result.current.view).toMatchObject({ kind: 'observed', priceText: '$3.96 / 12 ct' });
    expect(lookups).toEqual([]);
  });

  it("estimates a pack the store does not sell from the basis the lookup names, asking for the card's own location", async () => {
    const { result } = renderHook(() => usePriceCard(aldi), { wrapper });
    act(() => result.current.select({ count: 36 }));
    await waitFor(() => expect(result.current.view.kind).toBe('estimate'));
    expect(lookups).toEqual([{ store: 'aldi', region: 'midwest', egg_type: 'standard', count: 36, location: 20 }]);
    const view = result.current.view;
    if (view.kind !== 'estimate') return;
    // $5.40 / 18 * 36 * 0.97 = $10.48: from the 18-pack, not from the card's dozen.
    expect(view.priceText).toBe('$10.48 / 36 ct');
    expect(view.explanation).toContain(
      'Estimated from its observed $5.40 for 18 eggs, Standard, Midwest: $5.40 ÷ 18 × 36 × 0.97 (larger pack) = $10.48',
    );
  });
});
