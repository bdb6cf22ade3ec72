import { describe, expect, it } from 'vitest';
import { msToWaitForMidnight } from './midnight.ts';

describe('the midnight guard of the test run', () => {
  it('waits for the new UTC day only within the guard window', () => {
    expect(msToWaitForMidnight(new Date('2026-11-25T23:55:00Z'), 10)).toBe(5 * 60_000 + 5_000);
    expect(msToWaitForMidnight(new Date('2026-11-25T23:49:59Z'), 10)).toBe(0);
    expect(msToWaitForMidnight(new Date('2026-11-26T00:00:01Z'), 10)).toBe(0);
    expect(msToWaitForMidnight(new Date('2026-12-31T23:59:00Z'), 10)).toBe(65_000);
    expect(msToWaitForMidnight(new Date('2026-11-25T23:59:00Z'), 0)).toBe(0);
  });
});
