import { describe, expect, it } from 'vitest';
import { benchmarkProvenance } from '#shared/official.ts';
import { periodLabel, statusText } from './sourcesView.ts';

describe('Data Sources wording', () => {
  it('names each period in its source’s unit', () => {
    expect(periodLabel('bls', '2026-10-01')).toBe('October 2026');
    expect(periodLabel('usda_retail', '2026-11-20')).toBe('week of 20 Nov 2026');
    expect(periodLabel('usda_wholesale', '2026-11-27')).toBe('27 Nov 2026');
    expect(statusText({ status: 'off' })).toBe('Off');
  });

  it('says the benchmark’s month, release day and next due day', () => {
    expect(benchmarkProvenance({ period: '2026-10', publishedOn: '2026-11-13' })).toBe(
      'BLS, October 2026, released 13 Nov; next due about 15 Dec',
    );
    expect(benchmarkProvenance({ period: '2026-05', publishedOn: null })).toBe('BLS, May 2026; next due about 15 Jul');
    expect(benchmarkProvenance(null)).toBeNull();
  });
});
