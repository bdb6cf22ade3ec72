// A card's sparkline: a line over a light fill of the trend's colour from two days of prices; with
// fewer, a dash that says how many days there are, instead of a level line across the card.
import { ChakraProvider } from '@chakra-ui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import { Sparkline, hasSparkline } from './Sparkline.tsx';

const render = (values: number[], label: string) =>
  renderToStaticMarkup(
    <ChakraProvider value={system}>
      <Sparkline values={values} color="trend.stable" label={label} />
    </ChakraProvider>,
  );

describe('Sparkline', () => {
  it('shows a dash with its label for one day of prices, not a line', () => {
    const html = render([3.99], '1 day of prices so far: $3.99');
    expect(html).toContain('role="img"');
    expect(html).toContain('aria-label="1 day of prices so far: $3.99"');
    expect(html).toContain('—');
    expect(html).not.toContain('<path');
    expect(hasSparkline([3.99, Number.NaN])).toBe(false);
  });

  it('draws two days or more as a line over a filled area', () => {
    const html = render([3.99, 3.99, 3.99], 'Price over the last 3 days: $3.99, $3.99, $3.99');
    const paths = [...html.matchAll(/<path [^>]*>/g)].map((m) => m[0]);
    expect(paths).toHaveLength(2);
    expect(paths[0]).toMatch(/fill="currentColor" fill-opacity="0.12"/);
    expect(paths[0]).toMatch(/Z"/);
    expect(paths[1]).toContain('stroke="currentColor"');
    expect(html).not.toContain('—');
  });
});
