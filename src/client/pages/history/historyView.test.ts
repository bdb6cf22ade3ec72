import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_SPAN, HISTORY_SPANS, historyInput, type HistoryResult } from '#shared/near.ts';
import {
  DEFAULT_SPAN,
  SPANS,
  blsOfDay,
  blsReference,
  blsSteps,
  chartSummary,
  historyChange,
  historyNote,
  parseId,
  parseSpan,
  spanWindow,
} from './historyView.ts';

const result: HistoryResult = {
  product: {
    id: 7,
    store_id: 'aldi',
    store_name: 'Aldi',
    title: 'Goldhen Large Eggs, 12 ct',
    brand: 'Goldhen',
    egg_type: 'standard',
    count: 12,
    size_grade: 'Large',
    url: null,
  },
  location: { id: 3, name: 'Aldi (sample location)', zip: '60611', city: null, state: null, region: 'midwest' },
  days: 30,
  history_days: 40,
  source: 'sample',
  points: [
    { day: '2025-03-28', price: 3.0, price_per_dozen: 3.0 },
    { day: '2025-04-01', price: 2.5, price_per_dozen: 2.5 },
    { day: '2025-04-10', price: 3.5, price_per_dozen: 3.5 },
  ],
  lowest: { day: '2025-04-01', price: 2.5 },
  highest: { day: '2025-04-10', price: 3.5 },
  latest: { day: '2025-04-10', price: 3.5 },
  change: { value: 1, percent: 40, since: '2025-04-01' },
  bls: [
    { period: '2025-03', price: 6.23 },
    { period: '2025-01', price: 4.95 },
  ],
};

describe('price history view', () => {
  it('reads ids and spans as the API does, each falling back alone', () => {
    expect(parseId('12')).toBe(12);
    for (const bad of ['0', '-1', '1.5', 'abc', '', null, '99999999999']) expect(parseId(bad)).toBeNull();
    expect(parseSpan('30')).toBe(30);
    expect(parseSpan('365')).toBe(365);
    expect(parseSpan('31')).toBe(90);
    expect(parseSpan(null)).toBe(90);
    expect(SPANS).toEqual(HISTORY_SPANS);
    expect(DEFAULT_SPAN).toBe(DEFAULT_HISTORY_SPAN);
    expect(historyInput.parse({ id: parseId('7'), location: parseId('3'), days: parseSpan('30') })).toEqual({
      id: 7,
      location: 3,
      days: 30,
    });
  });

  it('spans the days that end with the latest price', () => {
    expect(spanWindow(result)).toEqual({ from: '2025-03-12', to: '2025-04-10' });
    expect(spanWindow({ days: 30, points: [] }, new Date('2025-05-31T12:00:00Z'))).toEqual({
      from: '2025-05-02',
      to: '2025-05-31',
    });
  });

  it('draws the BLS average as one level per month, cut to the span, with a gap for a missing month', () => {
    expect(blsSteps(result.bls, { from: '2025-03-12', to: '2025-04-10' })).toEqual([
      { day: '2025-03-12', value: 6.23 },
      { day: '2025-03-31', value: 6.23 },
    ]);
    expect(blsSteps(result.bls, { from: '2025-01-15', to: '2025-03-05' })).toEqual([
      { day: '2025-01-15', value: 4.95 },
      { day: '2025-01-31', value: 4.95 },
      { day: '2025-02-01', value: null },
      { day: '2025-03-01', value: 6.23 },
      { day: '2025-03-05', value: 6.23 },
    ]);
    // BLS publishes late: its latest month, ended before the span ends, stands beside the latest days.
    expect(blsReference(result.bls, { from: '2025-03-12', to: '2025-04-10' })).toEqual({
      period: '2025-03',
      price: 6.23,
    });
    expect(blsReference(result.bls, { from: '2025-03-01', to: '2025-03-20' })).toBeNull();
    expect(blsReference([], { from: '2025-03-01', to: '2025-03-20' })).toBeNull();
    expect(blsOfDay(result.bls, '2025-03-28')).toBe(6.23);
    expect(blsOfDay(result.bls, '2025-04-01')).toBeNull();
  });

  it('describes the change and the chart in words', () => {
    expect(historyChange(result.change)).toEqual({
      direction: 'up',
      text: '▲ $1.00 (40.0%)',
      description: 'Up $1.00 (40.0%) since Apr 1, 2025',
    });
    expect(historyChange({ value: -0.25, percent: -7.14, since: '2025-04-01' })).toMatchObject({
      direction: 'down',
      text: '▼ $0.25 (7.1%)',
    });
    expect(historyChange({ value: 0, percent: 0, since: '2025-04-01' })).toMatchObject({ direction: 'same' });
    expect(historyChange(null)).toBeNull();
    expect(chartSummary(result)).toBe(
      'Price per dozen of Goldhen Large Eggs, 12 ct at Aldi, Mar 28, 2025 to Apr 10, 2025, 3 days: lowest $2.50, highest $3.50, latest $3.50. BLS national average $6.23 in March 2025.',
    );
  });

  it('says how many days of prices the product has when its history began inside the span', () => {
    expect(historyNote(result)).toBeNull();
    const oneDay = { ...result, history_days: 1, points: [{ day: '2025-04-10', price: 3.5, price_per_dozen: 3.5 }] };
    expect(historyNote(oneDay)).toBe('1 day of prices so far');
    expect(historyNote({ ...result, history_days: 3 })).toBe('3 days of prices so far');
    expect(chartSummary(oneDay)).toContain('Apr 10, 2025 to Apr 10, 2025, 1 day: lowest $3.50');
  });
});
