// The map page's bird-flu detections by state: loading, error with Retry, the empty text, and the
// table alternative with each state linked to APHIS's page; the window and the legend's steps.
import { ChakraProvider } from '@chakra-ui/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { OFFICIAL_SOURCE_INFO } from '#shared/official.ts';
import { system } from '#client/theme.ts';
import { BirdFluContent, detectionSteps, detectionsFrom, hensShort, type DetectionRow } from './BirdFluByState.tsx';

const render = (props: Parameters<typeof BirdFluContent>[0]) =>
  renderToStaticMarkup(
    <ChakraProvider value={system}>
      <BirdFluContent {...props} />
    </ChakraProvider>,
  );

const rows: DetectionRow[] = [
  { state: 'OH', seriesId: 'aphis-layers:OH', birds: 2_000_000, detections: 1, weeks: 1, latestWeek: '2026-05-04' },
  { state: 'IA', seriesId: 'aphis-layers:IA', birds: 1_750_000, detections: 3, weeks: 2, latestWeek: '2026-09-14' },
];

describe('bird-flu detections by state', () => {
  it('shows a loading status, then an error with Retry', () => {
    expect(render({ rows: undefined })).toContain('aria-label="Loading bird-flu detections"');
    const failed = render({ rows: undefined, error: 'Network down', onRetry: () => {} });
    expect(failed).toContain('Unable to load bird-flu detections');
    expect(failed).toContain('Network down');
    expect(failed).toContain('Retry');
    expect(failed).not.toContain('Loading bird-flu detections');
  });

  it('says so when no detection is held', () => {
    expect(render({ rows: [] })).toContain(
      'No bird-flu detections in commercial layer flocks are held for the last 12 months.',
    );
  });

  it('lists each state with its hens, flocks and latest week, each linked to APHIS', () => {
    // (without the style elements emotion puts before an element's first use)
    const html = render({ rows }).replace(/<style[^>]*>.*?<\/style>/g, '');
    expect(html).toContain('Table of detections by state');
    expect(html).toMatch(/<td[^>]*>Ohio<\/td><td[^>]*>2,000,000<\/td><td[^>]*>1<\/td><td[^>]*>May 4, 2026<\/td>/);
    expect(html).toMatch(/<td[^>]*>Iowa<\/td><td[^>]*>1,750,000<\/td><td[^>]*>3<\/td><td[^>]*>Sep 14, 2026<\/td>/);
    expect(html.split(`href="${OFFICIAL_SOURCE_INFO.aphis_hpai.link}"`)).toHaveLength(3);
    expect(html).toContain('aria-label="Iowa: the source, USDA APHIS"');
    expect(html).toContain('No detection held');
    expect(html).toContain('1.5M to 2M');
  });

  it('reads the last 12 months from the first of a month, and rounds the legend’s bounds', () => {
    expect(detectionsFrom(new Date('2026-11-29T13:00:00Z'))).toBe('2025-12-01');
    expect(detectionsFrom(new Date('2026-01-05T00:00:00Z'))).toBe('2025-02-01');
    expect(hensShort(250_000)).toBe('250k');
    expect(hensShort(1_500_000)).toBe('1.5M');
    expect(hensShort(2_000_000)).toBe('2M');
    expect(detectionSteps(400).map((s) => s.label)).toEqual(['Up to 100', '100 to 200', '200 to 300', '300 to 400']);
  });
});
