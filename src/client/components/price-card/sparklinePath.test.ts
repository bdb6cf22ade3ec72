import { describe, expect, it } from 'vitest';
import { sparklineAreaPath, sparklinePath } from './sparklinePath.ts';

/** The numbers of a path, in order. */
const numbers = (path: string) => (path.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);

describe('sparklinePath', () => {
  it('spans the box: the minimum sits 5% above the bottom, the maximum 5% below the top', () => {
    const path = sparklinePath([2, 4], 100, 40);
    expect(path.startsWith('M0 ')).toBe(true);
    const values = numbers(path);
    // Range 1.9 .. 4.2: 2 maps to 40 - (0.1 / 2.3) * 40, 4 to 40 - (2.1 / 2.3) * 40.
    expect(values[1]).toBeCloseTo(40 - (0.1 / 2.3) * 40, 1);
    expect(values.at(-2)).toBe(100);
    expect(values.at(-1)).toBeCloseTo(40 - (2.1 / 2.3) * 40, 1);
  });

  it('draws one cubic curve per step, with no points', () => {
    const path = sparklinePath([3, 3.1, 2.9, 3.2, 3.3, 3.1, 3], 100, 32);
    expect(path.match(/C/g)).toHaveLength(6);
    expect(path).not.toMatch(/[AaQqZz]/);
    // Control points never leave the box vertically.
    const values = numbers(path);
    for (let i = 1; i < values.length; i += 2) {
      expect(values[i]).toBeGreaterThanOrEqual(0);
      expect(values[i]).toBeLessThanOrEqual(32);
    }
  });

  it('leaves gaps for missing values instead of interpolating', () => {
    const path = sparklinePath([3, 3.2, Number.NaN, 3.1, 3.4], 100, 32);
    expect(path.match(/M/g)).toHaveLength(2);
  });

  it('draws a single value as a flat line and nothing for no values', () => {
    expect(sparklinePath([3.5], 100, 32)).toBe('M0 16H100');
    expect(sparklinePath([], 100, 32)).toBe('');
    expect(sparklinePath([Number.NaN], 100, 32)).toBe('');
  });

  it('keeps a flat series level', () => {
    const values = numbers(sparklinePath([2, 2, 2], 90, 30));
    const ys = values.filter((_, i) => i % 2 === 1);
    expect(new Set(ys).size).toBe(1);
  });
});

describe('sparklineAreaPath', () => {
  it('closes the line down to the bottom of the box, so a level line reads as a chart', () => {
    const line = sparklinePath([2, 2, 2], 90, 30);
    const area = sparklineAreaPath([2, 2, 2], 90, 30);
    expect(area.startsWith(line)).toBe(true);
    expect(area.slice(line.length)).toBe('L90 30L0 30Z');
  });

  it('fills each run between gaps on its own, and nothing for a lone value', () => {
    expect(sparklineAreaPath([3, 3.2, Number.NaN, 3.1, 3.4], 100, 32).match(/Z/g)).toHaveLength(2);
    expect(sparklineAreaPath([3, Number.NaN, 3.1, 3.4], 90, 32).match(/Z/g)).toHaveLength(1);
    expect(sparklineAreaPath([3.5], 100, 32)).toBe('');
  });
});
