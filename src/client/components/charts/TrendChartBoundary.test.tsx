import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import { CHART_ERROR_DEFAULT, CHART_ERROR_TEXT, CHART_ERROR_TITLE, TrendChartBoundary } from './TrendChartBoundary.tsx';

/** What the boundary shows once a child has thrown `error` (server rendering runs no boundaries). */
function fallbackFor(error: unknown): string {
  const boundary = new TrendChartBoundary({ children: null });
  boundary.state = TrendChartBoundary.getDerivedStateFromError(error);
  return renderToStaticMarkup(<ChakraProvider value={system}>{boundary.render() as ReactNode}</ChakraProvider>);
}

describe('TrendChartBoundary', () => {
  it("shows the chart failure, titled 'Chart Error', with the error and Retry", () => {
    const html = fallbackFor(new Error('Cannot read properties of undefined'));
    expect(html).toContain(CHART_ERROR_TITLE);
    expect(html).toContain(CHART_ERROR_TEXT);
    expect(html).toContain('Cannot read properties of undefined');
    expect(html).toContain('Retry');
    expect(html).toContain('role="alert"');
  });

  it("falls back to 'Chart could not be rendered' when the error has no message", () => {
    expect(fallbackFor('boom')).toContain(CHART_ERROR_DEFAULT);
    expect(fallbackFor(new Error(''))).toContain(CHART_ERROR_DEFAULT);
  });

  it('renders its children while nothing has failed', () => {
    const html = renderToStaticMarkup(
      <TrendChartBoundary>
        <p>chart</p>
      </TrendChartBoundary>,
    );
    expect(html).toBe('<p>chart</p>');
  });
});
