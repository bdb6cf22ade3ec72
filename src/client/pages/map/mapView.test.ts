import { describe, expect, it } from 'vitest';
import type { PriceMapCheapestResult, StateFigures } from '#shared/price-map.ts';
import {
  anySample,
  priceMapCsvHref,
  changeShort,
  changeText,
  cheapestRows,
  mapLabel,
  NO_DATA_COLOR,
  parseMapEggType,
  PRICE_COLORS,
  priceColor,
  priceScale,
  priceStep,
  stateRows,
  storeText,
  tooltipLines,
} from './mapView.ts';

function figures(state: string, median: number | null, extra: Partial<StateFigures> = {}): StateFigures {
  return {
    state,
    region: 'west',
    median_per_dozen: median,
    lowest_per_dozen: median === null ? null : median - 0.5,
    highest_per_dozen: median === null ? null : median + 0.5,
    entries: median === null ? 0 : 4,
    stores: median === null ? 0 : 2,
    sample: false,
    week_ago_median_per_dozen: null,
    change: null,
    change_percent: null,
    ...extra,
  };
}

describe('priceScale', () => {
  it('is null without any median', () => {
    expect(priceScale([null, null])).toBeNull();
    expect(priceScale([])).toBeNull();
  });

  it('makes five steps of whole 5 cents from the lowest median rounded down to a quarter, holding the highest', () => {
    const scale = priceScale([3.12, null, 5.2, 4.0])!;
    expect(scale.domain[0]).toBe(3);
    expect(scale.steps).toHaveLength(PRICE_COLORS.length);
    const width = scale.steps[0]!.to - scale.steps[0]!.from;
    expect(Math.round(width * 100) % 5).toBe(0);
    expect(scale.domain[1]).toBeGreaterThanOrEqual(5.2);
    expect(scale.steps.map((s) => s.label)).toEqual([
      'Under $3.45',
      '$3.45 to $3.90',
      '$3.90 to $4.35',
      '$4.35 to $4.80',
      '$4.80 or more',
    ]);
    expect(scale.steps.map((s) => s.color)).toEqual([...PRICE_COLORS]);
  });

  it('still has steps when every state has the same median', () => {
    const scale = priceScale([3.49, 3.49])!;
    expect(scale.domain).toEqual([3.25, 3.5]);
    expect(priceStep(scale, 3.49)).toBe(4);
  });

  it('gives the cheapest the first colour, the dearest the last, and No data its own', () => {
    const scale = priceScale([2, 6])!;
    expect(priceColor(scale, 2)).toBe(PRICE_COLORS[0]);
    expect(priceColor(scale, 6)).toBe(PRICE_COLORS[4]);
    expect(priceColor(scale, null)).toBe(NO_DATA_COLOR);
    expect(priceColor(null, null)).toBe(NO_DATA_COLOR);
    expect(PRICE_COLORS).not.toContain(NO_DATA_COLOR);
  });
});

describe('change and tooltip texts', () => {
  it('says up, down, no change, or why there is none', () => {
    expect(changeText(figures('CA', 3.5, { change: 0.2, change_percent: 6.06 }))).toBe(
      'Up $0.20 (6.1%) since last week',
    );
    expect(changeText(figures('CA', 3.5, { change: -0.15, change_percent: -4.1 }))).toBe(
      'Down $0.15 (4.1%) since last week',
    );
    expect(changeText(figures('CA', 3.5, { change: 0.001, change_percent: 0 }))).toBe('No change since last week');
    expect(changeText(figures('CA', 3.5))).toBe('No price a week ago to compare');
    expect(changeText(figures('CA', null))).toBe('No data');
    expect(changeShort(0.2)).toBe('+$0.20');
    expect(changeShort(-0.15)).toBe('−$0.15');
    expect(changeShort(null)).toBe('—');
  });

  it('names the state, its median with what it rests on, the change and sample prices', () => {
    expect(tooltipLines(figures('NY', 4.25, { change: 0.1, change_percent: 2.4, sample: true }))).toEqual({
      title: 'New York',
      lines: [
        '$4.25 a dozen (median), based on 4 prices from 2 stores',
        'Up $0.10 (2.4%) since last week',
        'Includes sample prices',
      ],
    });
    expect(tooltipLines(figures('WY', null))).toEqual({ title: 'Wyoming', lines: ['No data: no prices today'] });
  });
});

describe('stateRows', () => {
  const states = [
    figures('TX', 3.1),
    figures('AK', null),
    figures('CA', 4.2, { change: -0.3, change_percent: -6.7 }),
    figures('AL', null),
    figures('IA', 3.1),
  ];

  it('lists every state by name with No data where there is no price', () => {
    const rows = stateRows(states);
    expect(rows.map((r) => r.name)).toEqual(['Alabama', 'Alaska', 'California', 'Iowa', 'Texas']);
    expect(rows[1]).toMatchObject({ medianText: 'No data', rangeText: '—', changeShort: '—', storesText: '—' });
    expect(rows[2]).toMatchObject({
      medianText: '$4.20',
      rangeText: '$3.70 – $4.70',
      changeShort: '−$0.30',
      storesText: '2',
    });
  });

  it('sorts by price cheapest first, ties by name, No data last', () => {
    expect(stateRows(states, 'price').map((r) => r.state)).toEqual(['IA', 'TX', 'CA', 'AL', 'AK']);
  });
});

describe('mapLabel and the rest', () => {
  it('summarises the map for screen readers', () => {
    expect(
      mapLabel({ egg_type: 'cage_free', states: [figures('TX', 3.1), figures('HI', 6.5), figures('WY', null)] }),
    ).toBe(
      "US map of today's median price of a dozen cage-free eggs by state: 2 states with prices, from $3.10 in Texas to $6.50 in Hawaii; 1 state with no data. The table below lists every state.",
    );
    expect(mapLabel({ egg_type: 'standard', states: [figures('WY', null)] })).toBe(
      "US map of today's median price of a dozen standard eggs by state: no state has prices today.",
    );
  });

  it('reads the egg type of the URL, standard by default', () => {
    expect(parseMapEggType('organic')).toBe('organic');
    expect(parseMapEggType('nope')).toBe('standard');
    expect(parseMapEggType(null)).toBe('standard');
    expect(priceMapCsvHref('organic')).toBe('/api/egg-prices/by-state.csv?egg_type=organic');
  });

  it('flags sample figures only where a state has a price', () => {
    expect(anySample([figures('TX', 3, { sample: true })])).toBe(true);
    expect(anySample([figures('TX', null, { sample: true }), figures('CA', 3)])).toBe(false);
  });

  it('names a store location once', () => {
    expect(storeText('Aldi', 'Aldi (sample location)')).toBe('Aldi (sample location)');
    expect(storeText('Walmart', 'Downtown')).toBe('Walmart (Downtown)');
    expect(storeText('Walmart', null)).toBe('Walmart');
  });

  it("lists a state's cheapest stores with a link to each product's history there", () => {
    const entry = {
      id: 7,
      store_id: 'aldi',
      store_name: 'ALDI',
      region: 'west',
      zip: '90001',
      egg_type: 'standard',
      count: 18,
      price: 4.5,
      regular_price: null,
      unit_price: 0.25,
      size_grade: null,
      trend_value: 0,
      trend_direction: 'stable',
      last_updated: '2026-11-25T00:00:00Z',
      in_stock: true,
      source_url: null,
      title: 'Large eggs',
      brand: null,
      source: 'sample',
      product_id: 12,
      location_id: 34,
      price_per_dozen: 3,
      city: 'Los Angeles',
      location_name: null,
    } as PriceMapCheapestResult['entries'][number];
    expect(
      cheapestRows({
        state: 'CA',
        egg_type: 'standard',
        count: null,
        total: 2,
        entries: [entry, { ...entry, id: 8, city: null, location_name: 'Downtown', source: 'scrape' }],
      }),
    ).toEqual([
      {
        key: 7,
        store: 'ALDI',
        city: 'Los Angeles',
        priceText: '$4.50 / 18 ct',
        perDozenText: '$3.00',
        historyHref: '/products/12/history?location=34',
        sample: true,
        title: 'Large eggs',
      },
      {
        key: 8,
        store: 'ALDI (Downtown)',
        city: 'ZIP 90001',
        priceText: '$4.50 / 18 ct',
        perDozenText: '$3.00',
        historyHref: '/products/12/history?location=34',
        sample: false,
        title: 'Large eggs',
      },
    ]);
  });
});
