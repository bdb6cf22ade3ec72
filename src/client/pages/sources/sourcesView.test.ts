import { describe, expect, it } from 'vitest';
import { benchmarkProvenance } from '#shared/official.ts';
import { inWords, nextFetchText, periodLabel, releaseText, statusText } from './sourcesView.ts';

describe('Data Sources wording', () => {
  it('names each period in its source’s unit', () => {
    expect(periodLabel('bls', '2026-10-01')).toBe('October 2026');
    expect(periodLabel('usda_retail', '2026-11-20')).toBe('week of 20 Nov 2026');
    expect(periodLabel('usda_wholesale', '2026-11-27')).toBe('27 Nov 2026');
    expect(statusText({ status: 'off' })).toBe('Off');
    const now = new Date('2026-11-29T12:00:00Z');
    expect(inWords('2026-11-29T18:00:00Z', now)).toBe('in 6 hours');
    expect(inWords('2026-11-29T12:20:00Z', now)).toBe('in 20 minutes');
    expect(inWords('2026-11-29T11:00:00Z', now)).toBe('any moment now');
    expect(releaseText('2026-12-15', '2026-11-29')).toBe('next release expected about 15 Dec');
    expect(releaseText('2026-06-15', '2026-11-29')).toBe('next release overdue (expected about 15 Jun)');
  });

  it('says when the worker asks a source next: a source never fetched at the next quarter-hour tick', () => {
    const now = new Date('2026-11-29T12:03:00Z');
    expect(nextFetchText({ nextFetch: 'first', nextFetchAt: null }, now)).toEqual({
      at: '2026-11-29T12:15:00.000Z',
      text: 'first fetch in 12 minutes (the schedule looks every 15 minutes)',
    });
    // (due at 18:05: the tick at 18:15 asks it)
    expect(nextFetchText({ nextFetch: 'scheduled', nextFetchAt: '2026-11-29T18:05:00.000Z' }, now)).toEqual({
      at: '2026-11-29T18:15:00.000Z',
      text: 'next fetch in 6 hours',
    });
    // (due an hour ago, the worker not having run since: the next tick)
    expect(nextFetchText({ nextFetch: 'scheduled', nextFetchAt: '2026-11-29T11:00:00.000Z' }, now)).toEqual({
      at: '2026-11-29T12:15:00.000Z',
      text: 'next fetch in 12 minutes',
    });
    expect(nextFetchText({ nextFetch: 'off', nextFetchAt: null }, now)).toBeNull();
  });

  it('says the benchmark’s month, release day and next due day', () => {
    expect(benchmarkProvenance({ period: '2026-10', publishedOn: '2026-11-13' }, '2026-11-29')).toBe(
      'BLS, October 2026, released 13 Nov; next due about 15 Dec',
    );
    expect(benchmarkProvenance({ period: '2026-05', publishedOn: null }, '2026-11-29')).toBe(
      'BLS, May 2026; the next month is overdue (expected about 15 Jul)',
    );
    expect(benchmarkProvenance(null)).toBeNull();
  });
});
