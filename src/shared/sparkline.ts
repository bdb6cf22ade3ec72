// Sparkline y-axis range.

export interface Range {
  min: number;
  max: number;
}

/** Fraction of padding below the minimum and above the maximum (5%). */
export const SPARKLINE_PADDING = 0.05;

/**
 * The y-axis runs from 5% below the minimum to 5% above the maximum. "Below" and
 * "above" are taken on the magnitude, so a negative minimum still moves down. Non-finite values
 * are ignored. A single value v gives 0.95v..1.05v. With no values, or only zeros (a range of
 * nothing), the range is 0..1 so a chart still has a usable scale.
 */
export function sparklineRange(values: readonly number[]): Range {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return { min: 0, max: 1 };
  const low = Math.min(...finite);
  const high = Math.max(...finite);
  const min = low - Math.abs(low) * SPARKLINE_PADDING;
  const max = high + Math.abs(high) * SPARKLINE_PADDING;
  return min === max ? { min: 0, max: 1 } : { min, max };
}
