import { describe, expect, it } from 'vitest';
import type { TrendRange } from '#shared/types.ts';
import { hasTrendData, rangeHistoryNote, trendSeries, trendSummary } from './TrendChartData.ts';

const range: TrendRange = {
  days: ['2026-04-01', '2026-04-02', '2026-04-03'],
  series: {
    national: [3.75, null, 3.66],
    standard: [2.9, 2.95, 2.88],
    cage_free: [3.8, 3.9, 3.85],
    organic: [4.49, 4.5, null],
    pasture_raised: [5.5, 5.6, 5.55],
  },
  summary: { average: 3.705, high: 4.5, low: 2.88, trend: { value: 0.09, isDown: true } },
  history_days: { national: 120, standard: 120, cage_free: 120, organic: 120, pasture_raised: 120 },
  sample: true,
};

describe('Price Trends data', () => {
  it('draws National Average, Organic and Standard in their colours, keeping missing days as gaps', () => {
    const series = trendSeries(range);
    expect(series.map((s) => [s.id, s.color])).toEqual([
      ['National Average', '#34C759'],
      ['Organic', '#FFB300'],
      ['Standard', '#94A3B8'],
    ]);
    expect(series[0]!.data.map((d) => d.y)).toEqual([3.75, null, 3.66]);
    expect(series[1]!.data.map((d) => d.y)).toEqual([4.49, 4.5, null]);
    expect(series[0]!.data[0]!.x.toISOString()).toBe('2026-04-01T00:00:00.000Z');
  });

  it('summarises Average, High, Low and Trend in dollars, the trend down when isDown', () => {
    expect(trendSummary(range)).toEqual([
      { label: 'Average', value: '$3.71' },
      { label: 'High', value: '$4.50' },
      { label: 'Low', value: '$2.88' },
      { label: 'Trend', value: '$0.09', direction: 'down' },
    ]);
    const rising = trendSummary({
      ...range,
      summary: { average: null, high: null, low: null, trend: { value: 0.12, isDown: false } },
    });
    expect(rising.at(-1)).toEqual({ label: 'Trend', value: '$0.12', direction: 'up' });
    expect(rising[0]!.value).toBe('–');
  });

  it('says how many days of prices the national line has, instead of a trend it cannot know yet', () => {
    const oneDay = {
      ...range,
      summary: { ...range.summary, trend: null },
      history_days: { ...range.history_days, national: 1 },
    };
    expect(trendSummary(oneDay).at(-1)).toEqual({ label: 'Trend', value: '1 day of prices so far', note: true });
    expect(rangeHistoryNote(oneDay)).toBe('1 day of prices so far');
    expect(rangeHistoryNote({ ...oneDay, history_days: { ...range.history_days, national: 2 } })).toBe(
      '2 days of prices so far',
    );
    expect(rangeHistoryNote(range)).toBeNull();
    // No prices at all: a dash, not a count of nothing.
    const none = { ...oneDay, history_days: { ...range.history_days, national: 0 } };
    expect(trendSummary(none).at(-1)).toEqual({ label: 'Trend', value: '–' });
  });

  it('has data only when some line has a price', () => {
    expect(hasTrendData(range)).toBe(true);
    expect(hasTrendData(undefined)).toBe(false);
    expect(hasTrendData({ ...range, days: [] })).toBe(false);
    const empty = { national: [null], standard: [null], cage_free: [1], organic: [null], pasture_raised: [1] };
    expect(hasTrendData({ ...range, days: ['2026-04-01'], series: empty })).toBe(false);
  });
});
