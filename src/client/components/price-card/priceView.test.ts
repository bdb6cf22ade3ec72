import { describe, expect, it } from 'vitest';
import { initialSelection, isEntrySelection, resolvePriceView, type CardEntry } from './priceView.ts';

const entry: CardEntry = {
  id: 1,
  store_id: 'walmart',
  store_name: 'Walmart',
  region: 'south',
  zip: '30301',
  location_name: null,
  city: null,
  state: null,
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
  it('starts from the entry it lists', () => {
    expect(initialSelection(entry)).toEqual({ region: 'south', eggType: 'standard', count: 12 });
    expect(isEntrySelection(entry, { region: 'south', eggType: 'standard', count: 12 })).toBe(true);
    expect(isEntrySelection(entry, { region: 'south', eggType: 'organic', count: 12 })).toBe(false);
  });
});

describe('resolvePriceView', () => {
  it("shows the entry itself when the selection is the entry's own, without a lookup", () => {
    const view = resolvePriceView(entry, { region: 'south', eggType: 'standard', count: 12 }, { status: 'idle' });
    expect(view).toMatchObject({
      kind: 'observed',
      priceText: '$3.00 / 12 ct',
      dozenText: '$3.00 per dozen',
      unitText: '$0.25 per egg',
      trendDirection: 'down',
      source: 'sample',
    });
    if (view.kind === 'observed') expect(view.history).toEqual(entry.history);
  });

  it('has no trend, rather than a 0% one, while the price has less than 7 days of history', () => {
    const young: CardEntry = { ...entry, trend_value: null, trend_direction: null, history: [3.1, 3.2] };
    const view = resolvePriceView(young, { region: 'south', eggType: 'standard', count: 12 }, { status: 'idle' });
    expect(view).toMatchObject({ kind: 'observed', trendValue: null, history: [3.1, 3.2] });
    const steady = resolvePriceView(
      { ...entry, trend_value: 0, trend_direction: 'stable' },
      { region: 'south', eggType: 'standard', count: 12 },
      { status: 'idle' },
    );
    expect(steady).toMatchObject({ trendValue: 0, trendDirection: 'stable' });
  });

  it('waits for the lookup of another combination', () => {
    expect(
      resolvePriceView(entry, { region: 'south', eggType: 'organic', count: 12 }, { status: 'pending' }).kind,
    ).toBe('loading');
  });

  it('shows the observed price of the combination when the store has one', () => {
    const organic: CardEntry = {
      ...entry,
      id: 2,
      egg_type: 'organic',
      price: 4.49,
      trend_value: 1.2,
      trend_direction: 'up',
      source: 'scrape',
      history: [4.4, 4.49],
    };
    const view = resolvePriceView(
      entry,
      { region: 'south', eggType: 'organic', count: 12 },
      { status: 'success', entry: organic },
    );
    expect(view).toMatchObject({
      kind: 'observed',
      priceText: '$4.49 / 12 ct',
      trendDirection: 'up',
      source: 'scrape',
      history: [4.4, 4.49],
    });
  });

  it("estimates from the store's nearest observed price, which it names with the sum, when there is none", () => {
    // The Aldi card: a 36-pack asked for, the store's observed Midwest dozen as the basis.
    const aldi: CardEntry = {
      ...entry,
      store_id: 'aldi',
      store_name: 'Aldi',
      region: 'midwest',
      price: 7.44,
      history: [7.44],
    };
    const basis: CardEntry = {
      ...aldi,
      id: 3,
      price: 3.96,
      trend_value: 0,
      trend_direction: 'stable',
      history: [3.9, 3.96],
      location_id: 21,
    };
    const view = resolvePriceView(
      aldi,
      { region: 'midwest', eggType: 'standard', count: 36 },
      { status: 'success', entry: basis },
    );
    expect(view.kind).toBe('estimate');
    if (view.kind !== 'estimate') return;
    expect(view).toMatchObject({
      price: 11.52,
      priceText: '$11.52 / 36 ct',
      dozenText: '$3.84 per dozen',
      unitText: '$0.32 per egg',
      trendDirection: 'stable',
      history: [3.9, 3.96],
    });
    expect(view.base).toBe(basis);
    expect(view.explanation).toBe(
      'Estimate: Aldi has no observed price for Standard, 36 eggs, Midwest. ' +
        'Estimated from its observed $3.96 for 12 eggs, Standard, Midwest: $3.96 ÷ 12 × 36 × 0.97 (larger pack) = $11.52, ' +
        'using typical differences between pack sizes, egg types and regions.',
    );
  });

  it('re-prices across type and region with every factor named', () => {
    const view = resolvePriceView(
      entry,
      { region: 'west', eggType: 'organic', count: 36 },
      { status: 'success', entry },
    );
    expect(view.kind).toBe('estimate');
    if (view.kind !== 'estimate') return;
    // 3.00 / 12 * 36 * 0.97 (bigger pack) * 1.5 (organic) * 1.25 (South to West) = 16.36875
    expect(view.price).toBe(16.37);
    expect(view.priceText).toBe('$16.37 / 36 ct');
    expect(view.title).toBe('Estimated from its $3.00 / 12 ct, Standard, South');
    expect(view.explanation).toBe(
      'Estimate: Walmart has no observed price for Organic, 36 eggs, West. ' +
        'Estimated from its observed $3.00 for 12 eggs, Standard, South: ' +
        '$3.00 ÷ 12 × 36 × 0.97 (larger pack) × 1.5 (organic instead of standard) × 1.25 (West instead of South) = $16.37, ' +
        'using typical differences between pack sizes, egg types and regions.',
    );
    // Its trend and history are the basis's.
    expect(view.trendDirection).toBe('down');
    expect(view.history).toEqual(entry.history);
  });

  it("estimates from the card's own entry when the lookup failed or found no price at all", () => {
    expect(
      resolvePriceView(entry, { region: 'south', eggType: 'standard', count: 6 }, { status: 'error' }),
    ).toMatchObject({ kind: 'estimate', base: entry });
    expect(
      resolvePriceView(entry, { region: 'south', eggType: 'standard', count: 6 }, { status: 'success', entry: null }),
    ).toMatchObject({ kind: 'estimate', base: entry });
  });
});
