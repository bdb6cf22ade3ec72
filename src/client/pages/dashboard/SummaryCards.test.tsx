// @vitest-environment happy-dom
// The summary cards for statistics whose series are too short for their changes (right after a
// first scrape) and for a full history: the words in place of a percentage, and the Sample data
// badge on a figure resting on sample prices.
import { ChakraProvider } from '@chakra-ui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Stats } from '#shared/types.ts';
import { system } from '#client/theme.ts';
import { StatsCards } from './SummaryCards.tsx';

const range = (days: number): Stats['trends']['7d'] => ({
  days: [],
  series: { national: [], standard: [], cage_free: [], organic: [], pasture_raised: [] },
  summary: { average: null, high: null, low: null, trend: null },
  history_days: { national: days, standard: days, cage_free: days, organic: days, pasture_raised: days },
  sample: true,
});

const lowest: Stats['lowest_price'] = {
  price: 2.79,
  count: 18,
  price_per_dozen: 1.86,
  egg_type: 'standard',
  region: 'south',
  store_id: 'aldi',
  store_name: 'Aldi',
  source: 'scrape',
};

const afterFirstScrape: Stats = {
  as_of: '2026-11-25',
  national_average: { price_per_dozen: 3.4, trend: null, history_days: 1, sample: true },
  weekly_volatility: { value: null, trend: null, history_days: 1, sample: true },
  lowest_price: lowest,
  trends: { '7d': range(1), '30d': range(1) },
};

const settled: Stats = {
  ...afterFirstScrape,
  national_average: {
    price_per_dozen: 3.4,
    trend: { value: 1.25, direction: 'down' },
    history_days: 40,
    sample: false,
  },
  weekly_volatility: { value: 0.84, trend: { value: 0.12, direction: 'up' }, history_days: 40, sample: false },
};

/** Each card's visible text, in order. */
function cards(stats: Stats): string[] {
  const html = renderToStaticMarkup(
    <ChakraProvider value={system}>
      <StatsCards stats={stats} />
    </ChakraProvider>,
  );
  const document = new DOMParser().parseFromString(html, 'text/html');
  return [...document.querySelectorAll('.chakra-card__root')].map((card) => card.textContent ?? '');
}

describe('the summary cards', () => {
  it('say how many days of prices the national series has, instead of a change it cannot know yet', () => {
    const [national, volatility, cheapest] = cards(afterFirstScrape);
    expect(national).toContain('$3.40');
    expect(national).toContain('1 day of prices so far');
    expect(national).not.toMatch(/%|vs last week/);
    expect(volatility).toContain('1 day of prices so far');
    expect(volatility).toContain('Needs 7 days of prices');
    expect(volatility).not.toMatch(/%|pts/);
    // Both rest on sample prices; the cheapest price is a retailer's.
    expect(national).toContain('Sample data');
    expect(volatility).toContain('Sample data');
    expect(cheapest).not.toContain('Sample data');
  });

  it('say "2 days" in the plural, and the change once the history spans it', () => {
    const [national] = cards({
      ...afterFirstScrape,
      national_average: { ...afterFirstScrape.national_average, history_days: 2 },
    });
    expect(national).toContain('2 days of prices so far');
    const [full, volatility] = cards(settled);
    expect(full).toContain('1.25%vs last week');
    expect(full).not.toContain('of prices so far');
    expect(full).not.toContain('Sample data');
    expect(volatility).toContain('0.84%');
    expect(volatility).toContain('0.12 ptsvs previous week');
  });

  it('give the volatility with words for its change while the history spans one week but not two', () => {
    const [, volatility] = cards({
      ...settled,
      weekly_volatility: { value: 0.84, trend: null, history_days: 9, sample: false },
    });
    expect(volatility).toContain('0.84%');
    expect(volatility).toContain('9 days of prices so far');
  });
});
