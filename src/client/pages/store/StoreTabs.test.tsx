// The store page's Price Trends card when the store's lines start on a recent switch to scraped
// prices: a note of how many days they have, and the Sample data badge while they rest on sample
// or demo prices.
import { ChakraProvider } from '@chakra-ui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import type { RouterOutputs } from '#client/lib/trpc.ts';
import { PriceTrends, seriesHistoryNote } from './StoreTabs.tsx';

type Insights = RouterOutputs['stores']['insights'];

const days = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
const oneDay = (value: number) => [...Array.from({ length: 29 }, () => null), value];

function insights(lines: Insights['series']['lines']): Insights {
  return {
    entries: [],
    total: 0,
    page: 1,
    pageSize: 9,
    pageCount: 0,
    location_figures: [],
    insights: {
      entries: 0,
      regions: [],
      average_price: null,
      average_per_dozen: null,
      lowest: null,
      highest: null,
      weekly_change: null,
      weekly_change_per_dozen: null,
      weekly_compared: 0,
      sample: false,
    },
    series: { days, lines },
    competitive: { downwardTrend: false, down: 0, up: 0, market_position: [], regional: [] },
  } as Insights;
}

const render = (data: Insights) =>
  renderToStaticMarkup(
    <ChakraProvider value={system}>
      <PriceTrends storeName="Walmart" data={data} />
    </ChakraProvider>,
  );

describe('the store’s Price Trends', () => {
  it('says "1 day of prices so far" when every line starts on the latest day, with the Sample data badge', () => {
    const data = insights([
      { egg_type: 'standard', values: oneDay(2.9), history_days: 1, sample: true },
      { egg_type: 'cage_free', values: oneDay(4.1), history_days: 1, sample: true },
    ]);
    expect(seriesHistoryNote(data.series)).toBe('1 day of prices so far');
    const html = render(data);
    expect(html).toContain('1 day of prices so far');
    expect(html).toContain('Sample data');
  });

  it('names the longest line’s days, and says nothing once a line spans the chart', () => {
    const short = insights([
      { egg_type: 'standard', values: oneDay(2.9), history_days: 1, sample: false },
      { egg_type: 'organic', values: oneDay(5.1), history_days: 3, sample: false },
    ]);
    expect(seriesHistoryNote(short.series)).toBe('3 days of prices so far');
    const full = insights([{ egg_type: 'standard', values: days.map(() => 3), history_days: 30, sample: false }]);
    expect(seriesHistoryNote(full.series)).toBeNull();
    const html = render(full);
    expect(html).not.toContain('of prices so far');
    expect(html).not.toContain('Sample data');
  });

  it('says the Price Insights include sample data from the insights’ own flag (every entry, not the page of cards)', () => {
    const data = insights([{ egg_type: 'standard', values: days.map(() => 3), history_days: 30, sample: false }]);
    const figures = {
      ...data.insights,
      entries: 40,
      regions: ['south' as const],
      average_price: 3,
      average_per_dozen: 3,
    };
    // The page of cards holds only scraped prices; an entry on another page is a sample price.
    const withSample = { ...data, entries: [], insights: { ...figures, sample: true } };
    expect(render(withSample)).toContain('Includes sample data');
    expect(render({ ...data, insights: { ...figures, sample: false } })).not.toContain('Includes sample data');
  });
});
