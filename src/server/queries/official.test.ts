// The official sources' storage against the real PostgreSQL: answers kept compressed (one copy of
// a repeated body), figures as published, a revision replacing a value with the old one kept, a
// gap left a gap, the daily request limit, and the status of a failing then recovered source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import {
  applyObservations,
  detectionsByState,
  fetchBody,
  markFailed,
  markFetched,
  officialPoints,
  officialSourceRows,
  recordFetch,
  takeRequest,
} from './official.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
});
afterAll(() => db.drop());

const point = (period: string, valueText: string) => ({
  seriesId: 'APU0000708111',
  period,
  valueText,
  value: Number(valueText),
  unit: 'USD per dozen',
});

describe('official storage', () => {
  it('keeps bodies compressed, one copy of a repeated body', async () => {
    const body = JSON.stringify({ status: 'REQUEST_SUCCEEDED', padding: 'x'.repeat(5000) });
    const a = await recordFetch(db.sql, { source: 'bls', url: 'http://x/a', httpStatus: 200, body, outcome: 'parsed' });
    const b = await recordFetch(db.sql, { source: 'bls', url: 'http://x/a', httpStatus: 200, body, outcome: 'parsed' });
    const [rows] = await db.sql<Array<{ a: number; b: number | null; same: number | null }>>`
      select (select length(body_gzip) from official_fetches where id = ${a}) as a,
             (select length(body_gzip) from official_fetches where id = ${b}) as b,
             (select same_as from official_fetches where id = ${b}) as same`;
    expect(rows!.a).toBeLessThan(body.length / 10);
    expect(rows!.b).toBeNull();
    expect(Number(rows!.same)).toBe(a);
    expect(await fetchBody(db.sql, b)).toBe(body);
  });

  it('inserts, leaves unchanged figures alone, and keeps the value a revision replaced', async () => {
    const day1 = new Date('2026-11-13T14:00:00Z');
    const f1 = await recordFetch(db.sql, { source: 'bls', url: 'u', httpStatus: 200, body: '1', outcome: 'parsed' });
    expect(
      await applyObservations(db.sql, 'bls', f1, day1, [point('2025-09-01', '3.490'), point('2025-11-01', '2.860')]),
    ).toEqual({ inserted: 2, revised: 0, unchanged: 0 });
    const day2 = new Date('2026-12-11T14:00:00Z');
    const f2 = await recordFetch(db.sql, { source: 'bls', url: 'u', httpStatus: 200, body: '2', outcome: 'parsed' });
    expect(
      await applyObservations(db.sql, 'bls', f2, day2, [point('2025-09-01', '3.490'), point('2025-11-01', '2.910')]),
    ).toEqual({ inserted: 0, revised: 1, unchanged: 1 });
    const points = await officialPoints(db.sql, 'APU0000708111');
    // (October 2025 was never published: no point, no zero)
    expect(points.map((p) => [p.period, p.value_text, p.published_on])).toEqual([
      ['2025-09-01', '3.490', '2026-11-13'],
      ['2025-11-01', '2.910', '2026-12-11'],
    ]);
    expect(points[1]!.revisions).toEqual([
      { value: 2.86, value_text: '2.860', published_on: '2026-11-13', replaced_at: '2026-12-11T14:00:00Z' },
    ]);
    expect(points[0]!.revisions).toEqual([]);
  });

  it('counts requests against a daily limit', async () => {
    expect(await takeRequest(db.sql, 'usda_retail', 2)).toBe(true);
    expect(await takeRequest(db.sql, 'usda_retail', 2)).toBe(true);
    expect(await takeRequest(db.sql, 'usda_retail', 2)).toBe(false);
    const row = (await officialSourceRows(db.sql)).find((r) => r.source === 'usda_retail');
    expect(row!.requests_today).toBe(2);
  });

  it('says since when a source fails, and clears it on the next good fetch', async () => {
    const t1 = new Date('2026-11-20T00:00:00Z');
    const t2 = new Date('2026-11-20T12:00:00Z');
    await markFailed(db.sql, 'bls', t1, 'HTTP 500', new Date('2026-11-20T01:00:00Z'));
    await markFailed(db.sql, 'bls', t2, 'HTTP 500 again', new Date('2026-11-20T13:00:00Z'));
    let bls = (await officialSourceRows(db.sql)).find((r) => r.source === 'bls')!;
    expect(bls.failing_since).toEqual(t1);
    expect(bls.last_error).toBe('HTTP 500 again');
    await markFetched(db.sql, 'bls', new Date('2026-11-21T00:00:00Z'), new Date('2026-11-21T12:00:00Z'));
    bls = (await officialSourceRows(db.sql)).find((r) => r.source === 'bls')!;
    expect(bls.last_error).toBeNull();
    expect(bls.failing_since).toBeNull();
    expect(bls.last_period).toBe('2025-11-01');
    expect(bls.last_published_on).toBe('2026-12-11');
  });

  it('sums APHIS layer-flock detections by state from a week on, the national total left out, most hens first', async () => {
    const at = new Date('2026-11-22T00:00:00Z');
    const f = await recordFetch(db.sql, {
      source: 'aphis_hpai',
      url: 'a',
      httpStatus: 200,
      body: 'csv',
      outcome: 'parsed',
    });
    const week = (state: string, period: string, birds: number, detections: number) => ({
      seriesId: `aphis-layers:${state}`,
      period,
      valueText: String(birds),
      value: birds,
      unit: 'birds',
      detail: { detections },
    });
    await applyObservations(db.sql, 'aphis_hpai', f, at, [
      week('IA', '2025-10-06', 4_200_000, 1), // before the window
      week('IA', '2026-03-02', 1_500_000, 1),
      week('IA', '2026-09-14', 250_000, 2),
      week('OH', '2026-05-04', 2_000_000, 1),
      week('CO', '2026-06-01', 0, 0), // no hens: not a detection
      week('US', '2026-03-02', 1_500_000, 1),
      week('US', '2026-05-04', 2_000_000, 1),
      week('US', '2026-09-14', 250_000, 2),
    ]);
    expect(await detectionsByState(db.sql, '2025-12-01')).toEqual([
      { state: 'OH', birds: 2_000_000, detections: 1, weeks: 1, latest_week: '2026-05-04' },
      { state: 'IA', birds: 1_750_000, detections: 3, weeks: 2, latest_week: '2026-09-14' },
    ]);
    expect(await detectionsByState(db.sql, '2026-10-01')).toEqual([]);
    expect((await detectionsByState(db.sql, '2025-01-01')).find((r) => r.state === 'IA')?.birds).toBe(5_950_000);
  });
});
