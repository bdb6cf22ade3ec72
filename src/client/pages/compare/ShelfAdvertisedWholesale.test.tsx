// "Shelf, advertised and wholesale" once loaded (the compare page's and the dashboard's, one
// component): the table alternative of the last 12 weeks, the measured lead, the outlook only when
// its backtest beat "no change" (both errors printed either way), and the empty text.
import { ChakraProvider } from '@chakra-ui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Comparison } from '#shared/official.ts';
import { system } from '#client/theme.ts';
import { comparisonScope } from '#client/pages/dashboard/ComparisonSlot.tsx';
import { ComparisonBody } from './ShelfAdvertisedWholesale.tsx';
import { ComparisonPlaceholder, SAMPLE_SHELF_NOTE, SOURCES_NOTE, TABLE_SUMMARY } from './ComparisonFrame.tsx';

const weeks = Array.from({ length: 14 }, (_, i) => {
  const day = new Date(Date.UTC(2026, 7, 3 + 7 * i)).toISOString().slice(0, 10);
  return { week: day, shelf: 3 + i / 100, advertised: i === 13 ? null : 3.5, wholesale: 2 + i / 50 };
});

function comparison(outlook: Comparison['outlook']): Comparison {
  return {
    region: 'northeast',
    usdaRegion: 'northeast',
    eggType: 'standard',
    weeks,
    shelfIsSample: false,
    shelfLead: { weeks: 3, correlation: 0.71, pairs: 10 },
    advertisedLead: null,
    outlook,
    latestAdvertised: { week: weeks[12]!.week, price: 3.5, low: 2.99, high: 4.49, stores: 1840 },
  };
}

const render = (c: Comparison) =>
  renderToStaticMarkup(
    <ChakraProvider value={system}>
      <ComparisonBody comparison={c} />
    </ChakraProvider>,
  );

describe('Shelf, advertised and wholesale', () => {
  it('shows the lead, the outlook with both errors when it won, and a table of the last 12 weeks', () => {
    const html = render(
      comparison({
        shown: true,
        modelError: 0.08,
        naiveError: 0.12,
        backtestWeeks: 20,
        points: [
          { week: '2026-11-16', shelf: 3.21 },
          { week: '2026-11-23', shelf: 3.3 },
        ],
      }),
    );
    expect(html).toContain('Shelf prices have followed wholesale by about 3 weeks (correlation 0.71 over 10 weeks).');
    expect(html).toContain(
      'Outlook for the next 2 weeks: $3.21, $3.30 a dozen (backtest error $0.08 a dozen against $0.12 for &quot;no change&quot;, over 20 forecasts).',
    );
    expect(html).toContain('Table of the last 12 weeks');
    // The first two of the 14 weeks fall outside the table; the newest has no advertised figure.
    expect(html).not.toContain(weeks[1]!.week);
    expect(html).toContain(weeks[2]!.week);
    expect(html.match(/<tr/g)).toHaveLength(13);
    expect(html).toContain('$3.13');
    expect(html).toContain('–');
    expect(html).toContain(
      `USDA: advertised in the Northeast the week of ${weeks[12]!.week}: $3.50 a dozen, 1,840 stores.`,
    );
  });

  it('says "no outlook" with both errors when the backtest did not beat no change, and draws no outlook', () => {
    const html = render(
      comparison({ shown: false, modelError: 0.15, naiveError: 0.12, backtestWeeks: 20, points: [] }),
    );
    expect(html).toContain(
      'No outlook: its backtest error was $0.15 a dozen against $0.12 for &quot;no change&quot;, over 20 forecasts (it did not beat no change).',
    );
    expect(html).not.toContain('Shelf outlook');
    expect(html).not.toContain('Outlook for the next');
  });

  it('says when nothing is held, and when the history is too short to test an outlook', () => {
    expect(render({ ...comparison(null), weeks: [] })).toContain(
      'No shelf, advertised or wholesale figures are held for this region and egg type yet.',
    );
    const short = render({ ...comparison(null), shelfLead: null });
    expect(short).toContain('No outlook: the history held is too short to test one.');
    expect(short).toContain('No lead of wholesale over shelf prices shows in the history held so far.');
  });
});

describe('the dashboard’s section scope', () => {
  it('follows the applied region and egg type, and falls back to standard eggs with the default region', () => {
    expect(comparisonScope({ region: 'west', eggType: 'organic' })).toEqual({ region: 'west', eggType: 'organic' });
    expect(comparisonScope({ region: 'all', eggType: 'all' })).toEqual({ region: undefined, eggType: 'standard' });
  });

  it('has a placeholder that is the section laid out as loaded: its heading, the region, the chart and its lines as skeletons', () => {
    const html = renderToStaticMarkup(
      <ChakraProvider value={system}>
        <ComparisonPlaceholder region="west" />
      </ChakraProvider>,
    );
    expect(html).toContain('aria-labelledby="saw-heading"');
    expect(html).toContain('Shelf, advertised and wholesale');
    expect(html.match(/<select[^>]*>/)![0]).toMatch(/disabled.*aria-label="Region"|aria-label="Region".*disabled/);
    expect(html).toContain('<option value="west" selected=""');
    expect(html).toContain('role="status"');
    // (the lines the loaded body shows, in the same places, hidden under skeletons)
    for (const text of [
      SAMPLE_SHELF_NOTE,
      SOURCES_NOTE,
      TABLE_SUMMARY,
      'Shelf prices have followed wholesale by about',
    ])
      expect(html).toContain(text.replace(/'/g, '&#x27;').replace(/"/g, '&quot;'));
    expect(html.match(/chakra-skeleton/g)!.length).toBeGreaterThanOrEqual(8);
  });
});
