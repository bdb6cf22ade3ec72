import { describe, expect, it } from 'vitest';
import { benchmarkLines, formatPeriod, type MarketSeriesData } from './benchmark.ts';

const series: MarketSeriesData[] = [
  {
    series_id: 'APU0000708111',
    region: 'national',
    grade: 'A',
    points: [
      { period: '2024-11', price: 3.65 },
      { period: '2025-01', price: 4.95 },
      { period: '2025-02', price: 5.9 },
    ],
  },
  // The old national grade AA series must not replace the grade A one.
  { series_id: 'APU0000708112', region: 'national', grade: 'AA', points: [{ period: '1997-12', price: 1.2 }] },
  { series_id: 'APU0100708111', region: 'northeast', grade: 'A', points: [{ period: '2023-05', price: 2.4 }] },
  { series_id: 'APU0400708112', region: 'west', grade: 'AA', points: [{ period: '2024-12', price: 4.1 }] },
];

describe('benchmarkLines', () => {
  it('ends on the latest month and covers the range month by month', () => {
    const { months } = benchmarkLines(series, 1);
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2024-03');
    expect(months.at(-1)).toBe('2025-02');
  });

  it('leaves unpublished months as gaps, never interpolated', () => {
    const national = benchmarkLines(series, 1).lines.find((l) => l.area === 'national')!;
    expect(national.series_id).toBe('APU0000708111');
    expect(national.values.slice(-4)).toEqual([3.65, null, 4.95, 5.9]);
  });

  it('labels the West as grade AA and keeps series without points in range', () => {
    const { lines } = benchmarkLines(series, 1);
    expect(lines.map((l) => l.label)).toEqual(['National', 'Northeast', 'West (grade AA)']);
    const northeast = lines.find((l) => l.area === 'northeast')!;
    expect(northeast.values.every((v) => v === null)).toBe(true);
    expect(northeast.lastPeriod).toBe('2023-05');
    expect(
      benchmarkLines(series, 5)
        .lines.find((l) => l.area === 'northeast')!
        .values.some((v) => v === 2.4),
    ).toBe(true);
  });

  it('is empty without data', () => {
    expect(benchmarkLines([], 10)).toEqual({ months: [], lines: [] });
    expect(formatPeriod('2026-05')).toBe('May 2026');
  });
});
