// @vitest-environment happy-dom
// The status box says how far a run is once, in the server's one wording (not a second text of
// its own with other words), and names the time zone of its times.
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { runProgressText, type ScrapeRun, type ScraperStatus } from '#shared/scrape.ts';
import { system } from '#client/theme.ts';
import { ScraperStatusBox } from './ScraperStatusBox.tsx';

const run: ScrapeRun = {
  id: 1,
  store: 'walmart',
  status: 'running',
  trigger: 'manual',
  demo: true,
  zipCodes: ['10001', '60611', '90210', '30301', '77001'],
  progress: 2,
  total: 5,
  listingsSeen: 40,
  accepted: 12,
  skipped: {},
  rejected: {},
  observationsWritten: 12,
  message: null,
  createdAt: '2026-11-25T19:04:00Z',
  startedAt: '2026-11-25T19:05:00Z',
  finishedAt: null,
  durationMs: 60_000,
  zips: [],
};
const status: ScraperStatus = {
  active: true,
  lastRun: run.startedAt,
  nextScheduledRun: '2026-11-26T06:00:00Z',
  message: runProgressText(run),
  run,
  lastSuccessAt: null,
  stale: true,
};

afterEach(cleanup);

describe('ScraperStatusBox', () => {
  it("shows a running run's progress in one text, beside its progress bar", () => {
    const { container, getByRole } = render(
      <ChakraProvider value={system}>
        <ScraperStatusBox status={status} activeStyle="active-idle" label="Walmart scraper" />
      </ChakraProvider>,
    );
    const text = container.textContent ?? '';
    expect(text).toContain('Running: 2 of 5 ZIP codes done, 40 listings seen, 12 egg prices so far.');
    expect(text.match(/2 of 5 ZIP codes/g)).toHaveLength(1);
    expect(text).not.toMatch(/egg listings|listings seen ·/);
    expect(getByRole('progressbar', { name: 'Walmart scraper progress' }).getAttribute('aria-valuetext')).toBe(
      '2 of 5 ZIP codes',
    );
    // Last Run and Next Run name their zone (the test machine's: UTC or another).
    expect(text).toMatch(/Last Run\s*Nov 25, \d{1,2}:05 [AP]M [A-Z]{2,5}[+-]?\d*/);
    expect(text).toMatch(/Next Run\s*Nov 2[56], \d{1,2}:00 [AP]M [A-Z]{2,5}/);
  });
});
