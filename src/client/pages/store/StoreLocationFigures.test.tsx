// The store page's "What its stores charge today": loading, empty, the combinations with the most
// stores first (a single store and equal prices worded as such), the cheapest store's link, and
// 'Show all' past six lines.
import { ChakraProvider } from '@chakra-ui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import type { LocationFigures } from '#shared/location-figures.ts';
import { byLocations, NO_LOCATION_FIGURES_MESSAGE, StoreLocationFigures } from './StoreLocationFigures.tsx';

const render = (figures: LocationFigures[] | undefined, loading = false) =>
  renderToStaticMarkup(
    <ChakraProvider value={system}>
      <MemoryRouter>
        <StoreLocationFigures storeName="Walmart" figures={figures} loading={loading} />
      </MemoryRouter>
    </ChakraProvider>,
  );

function figures(locations: number, patch: Partial<LocationFigures> = {}): LocationFigures {
  return {
    store_id: 'walmart',
    region: 'south',
    egg_type: 'standard',
    count: 12,
    locations,
    median_per_dozen: 3.47,
    lowest_per_dozen: locations > 1 ? 2.97 : 3.47,
    highest_per_dozen: locations > 1 ? 4.28 : 3.47,
    sample: false,
    cheapest: {
      entry_id: 1,
      product_id: 7,
      location_id: 9,
      price: 2.97,
      price_per_dozen: 2.97,
      name: 'Walmart 1',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
    },
    ...patch,
  };
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('StoreLocationFigures', () => {
  it('shows a loading state, then the empty message', () => {
    expect(render(undefined, true)).toContain('aria-label="Loading what its stores charge"');
    expect(text(render([]))).toContain(NO_LOCATION_FIGURES_MESSAGE);
  });

  it("lists the combinations with the most stores first, in the issue's words, with the cheapest store's price history", () => {
    const html = render([figures(1, { region: 'northeast', sample: true }), figures(812)]);
    const shown = text(html);
    expect(shown.indexOf('South · Standard · 12 eggs')).toBeLessThan(shown.indexOf('Northeast · Standard · 12 eggs'));
    expect(shown).toContain('median $3.47 a dozen across 812 stores, $2.97 to $4.28');
    expect(shown).toContain('$3.47 a dozen at 1 store');
    expect(shown).toContain('Cheapest: Austin, TX');
    expect(shown).toContain('Store: Austin, TX');
    expect(shown.match(/Sample data/g)).toHaveLength(1);
    expect(html).toContain('href="/products/7/history?location=9"');
    expect(html).not.toContain('Show all');
  });

  it("shows six lines, then 'Show all'", () => {
    const many = [12, 18, 24, 30, 6, 36, 60].map((count, i) => figures(10 - i, { count }));
    const html = render(many);
    expect(text(html)).toContain('Show all 7');
    expect(html).not.toContain('· 60 eggs');
    expect(byLocations([figures(1), figures(3, { count: 18 }), figures(3, { count: 6 })]).map((f) => f.count)).toEqual([
      18, 6, 12,
    ]);
  });
});
