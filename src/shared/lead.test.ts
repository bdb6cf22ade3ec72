import { describe, expect, it } from 'vitest';
import { backtest, measureLead, outlook } from './lead.ts';

// A wholesale-like series with irregular moves, and a shelf series that follows it 3 weeks later.
const wholesale = Array.from({ length: 40 }, (_, i) => 2 + Math.sin(i / 2.3) + 0.3 * Math.cos(i * 1.7));
const shelf = wholesale.map((_, i) => (i >= 3 ? 1 + 0.8 * wholesale[i - 3]! : null));

describe('lead and outlook', () => {
  it('finds the lag a follower trails by', () => {
    const lead = measureLead(wholesale, shelf, 8)!;
    expect(lead.weeks).toBe(3);
    expect(lead.correlation).toBeGreaterThan(0.99);
  });

  it('finds no lead between unrelated series, or without enough weeks', () => {
    const noise = wholesale.map((_, i) => ((i * 7919) % 13) / 13);
    const lead = measureLead(wholesale, noise, 8);
    expect(lead === null || lead.correlation < 0.6).toBe(true);
    expect(measureLead(wholesale.slice(0, 6), shelf.slice(0, 6))).toBeNull();
  });

  it('backtests the lead-based forecast against no change, and forecasts the next weeks', () => {
    const result = backtest(wholesale, shelf, 3)!;
    expect(result.modelError).toBeLessThan(result.naiveError);
    expect(result.modelError).toBeLessThan(1e-9);
    const next = outlook(wholesale, shelf, 3)!;
    expect(next).toHaveLength(3);
    expect(next[0]).toBeCloseTo(1 + 0.8 * wholesale[37]!, 6);
  });

  it('a follower that does not follow loses to no change', () => {
    // (a price that stays put, then steps once: no change is wrong only at the step)
    const walk = wholesale.map((_, i) => (i < 20 ? 3 : 5));
    const result = backtest(wholesale, walk, 3)!;
    expect(result.modelError).toBeGreaterThan(result.naiveError);
  });
});
