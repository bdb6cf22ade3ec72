import { describe, expect, it } from 'vitest';
import { sparklineRange } from './sparkline.ts';

describe('sparklineRange', () => {
  it('runs from 5% below the minimum to 5% above the maximum', () => {
    const range = sparklineRange([3.7, 4, 3.5, 3.9]);
    expect(range.min).toBeCloseTo(3.325);
    expect(range.max).toBeCloseTo(4.2);
  });

  it('pads a single value on both sides', () => {
    const range = sparklineRange([4]);
    expect(range.min).toBeCloseTo(3.8);
    expect(range.max).toBeCloseTo(4.2);
  });

  it('moves a negative minimum down, not up', () => {
    const range = sparklineRange([-2, 2]);
    expect(range.min).toBeCloseTo(-2.1);
    expect(range.max).toBeCloseTo(2.1);
  });

  it('ignores non-finite values', () => {
    const range = sparklineRange([Number.NaN, 2, Infinity]);
    expect(range.min).toBeCloseTo(1.9);
    expect(range.max).toBeCloseTo(2.1);
  });

  it('gives 0..1 for an empty list or only zeros', () => {
    expect(sparklineRange([])).toEqual({ min: 0, max: 1 });
    expect(sparklineRange([0, 0])).toEqual({ min: 0, max: 1 });
  });
});
