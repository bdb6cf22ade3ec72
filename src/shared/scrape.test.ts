// The admin screens' scrape wording: one progress text, the run history's ZIP summary, a ZIP
// code's retries, and the ZIP list's problem as the API states it.
import { describe, expect, it } from 'vitest';
import {
  reasonCountsText,
  runProgressText,
  runZipSummary,
  zipListProblem,
  zipRetriesText,
  type ZipResult,
} from './scrape.ts';

const zip = (status: ZipResult['status']): Pick<ZipResult, 'status'> => ({ status });

describe('runProgressText', () => {
  it('says where a queued or running run is, in one wording', () => {
    expect(
      runProgressText({ store: 'whole-foods', status: 'queued', progress: 0, total: 5, listingsSeen: 0, accepted: 0 }),
    ).toBe('Queued: waiting for a worker to start the Whole Foods scraper.');
    expect(
      runProgressText({ store: 'walmart', status: 'running', progress: 2, total: 5, listingsSeen: 40, accepted: 12 }),
    ).toBe('Running: 2 of 5 ZIP codes done, 40 listings seen, 12 egg prices so far.');
    expect(
      runProgressText({ store: 'walmart', status: 'running', progress: 1, total: 1, listingsSeen: 1, accepted: 1 }),
    ).toBe('Running: 1 of 1 ZIP code done, 1 listing seen, 1 egg price so far.');
  });
});

describe('runZipSummary', () => {
  it('counts the ZIP codes that succeeded once a run has finished, not the ZIP codes done', () => {
    const zips = [...Array.from({ length: 5 }, () => zip('succeeded')), zip('failed')];
    expect(runZipSummary({ status: 'partial', total: 6, progress: 6, zips: zips as ZipResult[] })).toBe(
      '5 of 6 ZIP codes succeeded',
    );
    expect(runZipSummary({ status: 'succeeded', total: 1, progress: 1, zips: [zip('succeeded')] as ZipResult[] })).toBe(
      '1 of 1 ZIP code succeeded',
    );
    // A run that failed before any ZIP code (Kroger without credentials).
    expect(runZipSummary({ status: 'failed', total: 3, progress: 0, zips: [] })).toBe('0 of 3 ZIP codes succeeded');
  });

  it('says how far a run that has not finished is', () => {
    expect(
      runZipSummary({
        status: 'running',
        total: 6,
        progress: 2,
        zips: [zip('succeeded'), zip('failed')] as ZipResult[],
      }),
    ).toBe('2 of 6 ZIP codes done');
    expect(runZipSummary({ status: 'queued', total: 6, progress: 0, zips: [] })).toBe('0 of 6 ZIP codes done');
  });
});

describe('zipRetriesText', () => {
  it('names the retries and the rate-limit waits with their time', () => {
    expect(zipRetriesText({ retries: 0, rateLimitWaits: 0, rateLimitWaitMs: 0 })).toBe(
      'no retries, no rate-limit waits',
    );
    expect(zipRetriesText({ retries: 1, rateLimitWaits: 1, rateLimitWaitMs: 30_000 })).toBe(
      '1 retry, 1 rate-limit wait (30 s)',
    );
    expect(zipRetriesText({ retries: 3, rateLimitWaits: 2, rateLimitWaitMs: 2_400 })).toBe(
      '3 retries, 2 rate-limit waits (2 s)',
    );
  });
});

describe('zipListProblem', () => {
  it('states what the API would refuse, naming the bad entries, or null', () => {
    expect(zipListProblem(['10001', '60611'])).toBeNull();
    expect(zipListProblem(['1234', '10001', 'abc'])).toBe('Not 5-digit ZIP codes: "1234", "abc"');
    expect(zipListProblem(['00601'])).toBe('Not ZIP codes of a US state: 00601');
    expect(zipListProblem([])).toBe('Enter at least one ZIP code');
  });
});

describe('reasonCountsText', () => {
  it('names what was left out by reason, most first, and says when nothing was', () => {
    expect(
      reasonCountsText({ skipped: { marketplace: 15, duplicate: 11, prepared: 3 }, rejected: { 'no-price': 1 } }),
    ).toBe(
      "Skipped 15 marketplace sellers' offers (not the store's shelf), 11 listed twice (sponsored repeats), 3 prepared egg foods (hard-boiled, bites, sandwiches). Rejected 1 no price at this store.",
    );
    expect(reasonCountsText({ skipped: { 'online-only': 2 }, rejected: {} })).toBe(
      'Skipped 2 sold online only, not stocked at the store.',
    );
    expect(reasonCountsText({ skipped: {}, rejected: { 'sold-by-weight': 4, 'no-count': 0 } })).toBe(
      'Rejected 4 priced by weight, not by the pack.',
    );
    expect(reasonCountsText({ skipped: {}, rejected: {} })).toBe('Nothing skipped or rejected.');
    // A reason the labels do not know yet is shown by its key rather than dropped.
    expect(reasonCountsText({ skipped: { 'new-reason': 2 }, rejected: {} })).toBe('Skipped 2 new-reason.');
  });
});
