import { describe, expect, it } from 'vitest';
import { cheapestHeading } from './cheapest.ts';

describe('cheapestHeading', () => {
  it('says every pack size is ranked per dozen, or names the chosen pack size', () => {
    expect(cheapestHeading(null)).toBe('Cheapest first by observed price per dozen');
    expect(cheapestHeading(undefined)).toBe('Cheapest first by observed price per dozen');
    expect(cheapestHeading(12)).toBe('12-packs, cheapest first');
    expect(cheapestHeading(18)).toBe('18-packs, cheapest first');
  });
});
