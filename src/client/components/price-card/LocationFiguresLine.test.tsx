// A price card's line on what its store's locations charge: none without figures or for a single
// store; otherwise the words, the Sample data badge on sample figures, and the cheapest
// store's price history one click away, named for screen readers.
import { ChakraProvider } from '@chakra-ui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import type { LocationFigures } from '#shared/location-figures.ts';
import { LocationFiguresLine } from './LocationFiguresLine.tsx';

const render = (figures: LocationFigures | null) =>
  renderToStaticMarkup(
    <ChakraProvider value={system}>
      <MemoryRouter>
        <LocationFiguresLine figures={figures} storeName="Target" />
      </MemoryRouter>
    </ChakraProvider>,
  );

const three: LocationFigures = {
  store_id: 'target',
  region: 'midwest',
  egg_type: 'standard',
  count: 12,
  locations: 3,
  median_per_dozen: 3.5,
  lowest_per_dozen: 3.1,
  highest_per_dozen: 4.9,
  sample: false,
  cheapest: {
    entry_id: 1,
    product_id: 4,
    location_id: 5,
    price: 3.1,
    price_per_dozen: 3.1,
    name: 'Target 1',
    city: 'Chicago',
    state: 'IL',
    zip: '60601',
  },
};
/** The text of the markup, without the theme's style elements; inline elements' text runs on. */
const text = (html: string) =>
  html
    .replace(/<style[^>]*>.*?<\/style>/gs, '')
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ');

describe('LocationFiguresLine', () => {
  it('shows nothing without figures or for a single store', () => {
    expect(render(three)).toContain('data-testid="location-figures"');
    expect(render(null)).not.toContain('data-testid="location-figures"');
    expect(render({ ...three, locations: 1, lowest_per_dozen: 3.5, highest_per_dozen: 3.5 })).not.toContain(
      'data-testid="location-figures"',
    );
  });

  it("words the figures as the issue does and links the cheapest store's price history", () => {
    const html = render(three);
    expect(text(html)).toContain('median $3.50 a dozen across 3 stores, $3.10 to $4.90');
    expect(text(html)).toContain('Cheapest: Chicago, IL (Target at $3.10 a dozen: its price history)');
    expect(html).toContain('href="/products/4/history?location=5"');
    expect(html).not.toContain('Sample data');
    expect(render({ ...three, sample: true })).toContain('Sample data');
  });
});
