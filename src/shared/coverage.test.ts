import { describe, expect, it } from 'vitest';
import {
  coveragePlanInput,
  coverageScopeSchema,
  defaultDailyBudget,
  nextVisitDayAt,
  planCost,
  retailerQueue,
  scopeText,
  shouldPause,
  storeShares,
  US_STORE_COUNTS,
} from './coverage.ts';

describe('coverage scope', () => {
  it('accepts the three kinds and normalises them', () => {
    expect(coverageScopeSchema.parse({ kind: 'nationwide' })).toEqual({ kind: 'nationwide' });
    expect(coverageScopeSchema.parse({ kind: 'states', states: ['ut', ' RI', 'UT'] })).toEqual({
      kind: 'states',
      states: ['RI', 'UT'],
    });
    expect(coverageScopeSchema.parse({ kind: 'zips', zipCodes: ['84101', ' 84101 '] })).toEqual({
      kind: 'zips',
      zipCodes: ['84101'],
      radiusMiles: 25,
    });
  });

  it('names what is wrong', () => {
    const message = (value: unknown) =>
      coverageScopeSchema
        .safeParse(value)
        .error?.issues.map((i) => i.message)
        .join(' ');
    expect(message({ kind: 'states', states: ['UT', 'XX', 'PR'] })).toBe('Not US state codes: "XX", "PR"');
    expect(message({ kind: 'states', states: [] })).toBe('Choose at least one state');
    expect(message({ kind: 'zips', zipCodes: ['8410', '00901'] })).toBe('Not 5-digit ZIP codes: "8410"');
    expect(message({ kind: 'zips', zipCodes: ['00901'] })).toBe('Not ZIP codes of a US state: 00901');
    expect(message({ kind: 'zips', zipCodes: ['84101'], radiusMiles: 101 })).toBe('radiusMiles must be 1 to 100');
    expect(message({ kind: 'county' })).toMatch(/scope.kind must be nationwide, states or zips/);
    expect(message({ kind: 'nationwide', extra: 1 })).toMatch(/extra/);
  });
});

describe('coverage plan', () => {
  it('defaults to a visit every day and checks its numbers', () => {
    expect(coveragePlanInput.parse({ store: 'aldi', scope: { kind: 'nationwide' } })).toEqual({
      store: 'aldi',
      scope: { kind: 'nationwide' },
      revisitDays: 1,
    });
    expect(
      coveragePlanInput.safeParse({ store: 'aldi', scope: { kind: 'nationwide' }, revisitDays: 0 }).error?.issues[0]
        ?.message,
    ).toBe('revisitDays must be 1 to 30');
    expect(
      coveragePlanInput.safeParse({ store: 'aldi', scope: { kind: 'nationwide' }, dailyRequestBudget: 2.5 }).error
        ?.issues[0]?.message,
    ).toBe('dailyRequestBudget must be a whole number');
    expect(coveragePlanInput.safeParse({ store: 'costco', scope: { kind: 'nationwide' } }).success).toBe(false);
  });

  it('derives the default budget from the delay, under Kroger API limit', () => {
    expect(defaultDailyBudget('walmart', 1500)).toBe(57_600);
    expect(defaultDailyBudget('kroger', 1500)).toBe(9_000);
    expect(defaultDailyBudget('kroger', 60_000)).toBe(1_440);
  });

  it('works out what a plan costs and which interval the budget allows', () => {
    // 4,600 stores a day at 2 requests each: 9,200 requests, 3.83 hours at 1.5 s.
    const daily = planCost({
      storesInScope: 4600,
      requestsPerVisit: 2,
      revisitDays: 1,
      dailyRequestBudget: 57_600,
      delayMs: 1500,
    });
    expect(daily).toMatchObject({ storesPerDay: 4600, requestsPerDay: 9200, fits: true, shortestRevisitDays: 1 });
    expect(daily.hoursPerDay).toBeCloseTo(3.833, 3);
    // Kroger: 2,700 stores at 4 requests each need 10,800 a day, over a 9,000 budget: every 2 days.
    const kroger = planCost({
      storesInScope: 2700,
      requestsPerVisit: 4,
      revisitDays: 1,
      dailyRequestBudget: 9000,
      delayMs: 1500,
    });
    expect(kroger).toMatchObject({ requestsPerDay: 10_800, fits: false, shortestRevisitDays: 2 });
    expect(
      planCost({ storesInScope: 2700, requestsPerVisit: 4, revisitDays: 2, dailyRequestBudget: 9000, delayMs: 1500 })
        .fits,
    ).toBe(true);
    // The day is the bound when the budget is not: 60,000 requests at 1.5 s take 25 hours.
    const long = planCost({
      storesInScope: 30_000,
      requestsPerVisit: 2,
      revisitDays: 1,
      dailyRequestBudget: 1_000_000,
      delayMs: 1500,
    });
    expect(long).toMatchObject({ requestsPerDayAllowed: 57_600, fits: false, shortestRevisitDays: 2 });
    expect(
      planCost({ storesInScope: 0, requestsPerVisit: 2, revisitDays: 1, dailyRequestBudget: 10, delayMs: 1500 }),
    ).toMatchObject({ fits: true, shortestRevisitDays: null });
  });

  it('pauses on a wall, not on a few blocks', () => {
    expect(shouldPause(10, 10)).toBe(false);
    expect(shouldPause(20, 9)).toBe(false);
    expect(shouldPause(20, 10)).toBe(true);
  });

  it('names queues and scopes', () => {
    expect(retailerQueue('whole-foods')).toBe('retailer:whole-foods');
    expect(scopeText({ kind: 'states', states: ['RI', 'UT'] })).toBe('2 states: RI, UT');
    expect(scopeText({ kind: 'zips', zipCodes: ['84101'], radiusMiles: 25 })).toBe('1 ZIP code within 25 miles');
    expect(scopeText({ kind: 'nationwide' })).toBe('Nationwide');
  });

  it('splits a number of stores over the six chains in proportion to their US store counts', () => {
    // 15,000 of the real 14,450: each chain scaled by 15,000 / 14,450, rounded so they add up.
    expect(storeShares(15_000)).toEqual({
      walmart: 4775,
      target: 2045,
      kroger: 2803,
      albertsons: 2336,
      'whole-foods': 550,
      aldi: 2491,
    });
    expect(storeShares(14_450)).toEqual(US_STORE_COUNTS);
    for (const total of [0, 1, 7, 2000, 14_999, 15_000]) {
      const shares = Object.values(storeShares(total));
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      expect(shares.every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
    }
  });
});

describe('the next visit day', () => {
  it("is the scheduler's next tick until today's day has started, then tomorrow's first tick", () => {
    expect(nextVisitDayAt(new Date('2026-11-26T00:03:00Z'), false).toISOString()).toBe('2026-11-26T00:05:00.000Z');
    expect(nextVisitDayAt(new Date('2026-11-26T00:05:00Z'), false).toISOString()).toBe('2026-11-26T01:05:00.000Z');
    expect(nextVisitDayAt(new Date('2026-11-26T23:30:00Z'), false).toISOString()).toBe('2026-11-27T00:05:00.000Z');
    expect(nextVisitDayAt(new Date('2026-11-26T09:30:00Z'), true).toISOString()).toBe('2026-11-27T00:05:00.000Z');
    expect(nextVisitDayAt(new Date('2026-12-31T23:59:00Z'), true).toISOString()).toBe('2027-01-01T00:05:00.000Z');
  });
});
