import { describe, expect, it } from 'vitest';
import { NO_CARD_PREFERENCES } from '#client/lib/savedPreferences.ts';
import { initialSelection, isEntrySelection, resolvePriceView, type CardEntry } from './priceView.ts';

const entry: CardEntry = {
  id: 1,
  store_id: 'walmart',
  store_name: 'Walmart',
  region: 'south',
  zip: '30301',
  egg_type: 'standard',
  count: 12,
  price: 3,
  regular_price: null,
  in_stock: null,
  unit_price: 0.25,
  size_grade: 'Large, Grade A',
  trend_value: -2.5,
  trend_direction: 'down',
  last_updated: '2026-04-07T06:00:00Z',
  source_url: null,
  title: 'Great Value Standard Large Grade A Eggs, 12 ct',
  brand: 'Great Value',
  source: 'sample',
  product_id: 10,
  location_id: 20,
  history: [3.1, 3.05, 3, 3.02, 2.98, 3.01, 3],
};

describe('price card selection', () => {
  it('starts from the entry, or from saved preferences where present (SPEC §4)', () => {
    expect(initialSelection(entry, NO_CARD_PREFERENCES)).toEqual({ region: 'south', eggType: 'standard', count: 12 });
    expect(initialSelection(entry, { region: 'west', eggType: null, count: 18 })).toEqual({ region: 'west', eggType: 'standard', count: 18 });
    expect(isEntrySelection(entry, { region: 'south', eggType: 'standard', count: 12 })).toBe(true);
    expect(isEntrySelection(entry, { region: 'south', eggType: 'organic', count: 12 })).toBe(false);
  });
});

describe('resolvePriceView', () => {
  it("shows the entry itself when the selection is the entry's own, without a lookup", () => {
    const view = resolvePriceView(entry, { region: 'south', eggType: 'standard', count: 12 }, { status: 'idle' });
    expect(view).toMatchObject({ kind: 'observed', priceText: '$3.00 / 12 ct', unitText: '$0.25 per egg', trendDirection: 'down', source: 'sample' });
    if (view.kind === 'observed') expect(view.history).toEqual(entry.history);
  });

  it('waits for the lookup of another combination', () => {
    expect(resolvePriceView(entry, { region: 'south', eggType: 'organic', count: 12 }, { status: 'pending' }).kind).toBe('loading');
  });

  it('shows the observed price of the combination when the store has one', () => {
    const organic: CardEntry = { ...entry, id: 2, egg_type: 'organic', price: 4.49, trend_value: 1.2, trend_direction: 'up', source: 'scrape', history: [4.4, 4.49] };
    const view = resolvePriceView(entry, { region: 'south', eggType: 'organic', count: 12 }, { status: 'success', entry: organic });
    expect(view).toMatchObject({ kind: 'observed', priceText: '$4.49 / 12 ct', trendDirection: 'up', source: 'scrape', history: [4.4, 4.49] });
  });

  it('falls back to the SPEC §9 estimate, labelled and explained, when there is none', () => {
    const view = resolvePriceView(entry, { region: 'west', eggType: 'organic', count: 36 }, { status: 'success', entry: null });
    expect(view.kind).toBe('estimate');
    if (view.kind !== 'estimate') return;
    // 0.25 per egg * 1.5 (organic) * 1.25 (South to West) * 0.97 (bigger pack) * 36 eggs.
    expect(view.price).toBeCloseTo(Math.round(0.25 * 1.5 * 1.25 * 0.97 * 36 * 100) / 100, 2);
    expect(view.priceText).toBe(`$${view.price.toFixed(2)} / 36 ct`);
    expect(view.title).toBe('Estimated Organic 36-egg pack in the West');
    expect(view.explanation).toBe(
      'Estimate: Walmart has no observed price for Organic, 36 eggs, West. ' +
        'Calculated from its observed price for Standard, 12 eggs, South, using typical differences between egg types, regions and pack sizes.',
    );
    // Its trend and history are the entry's.
    expect(view.trendDirection).toBe('down');
    expect(view.history).toEqual(entry.history);
  });

  it('estimates when the lookup failed', () => {
    expect(resolvePriceView(entry, { region: 'south', eggType: 'standard', count: 6 }, { status: 'error' }).kind).toBe('estimate');
  });
});
