import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
});
afterAll(() => db.drop());

describe('market.series', () => {
  it('serves the BLS series with real values and gaps left as gaps', async () => {
    const series = await caller.market.series();
    const national = series.find((s) => s.series_id === 'APU0000708111')!;
    expect(national.grade).toBe('A');
    expect(national.points.find((p) => p.period === '2023-01')!.price).toBe(4.823);
    expect(national.points.find((p) => p.period === '2025-03')!.price).toBe(6.227);
    // October 2025 was never published: no point, not an interpolated one.
    expect(national.points.some((p) => p.period === '2025-10')).toBe(false);
    const west = series.find((s) => s.region === 'west')!;
    expect(west).toMatchObject({ series_id: 'APU0400708112', grade: 'AA' });
    expect(west.points.find((p) => p.period === '2022-09')!.price).toBe(3.04);
  });

  it('takes the months the worker read from BLS over the seed, with the day each was published', async () => {
    const [fetch] = await db.sql<Array<{ id: number }>>`
      insert into official_fetches (source, url, outcome) values ('bls', 'http://stand-in', 'parsed') returning id`;
    await db.sql`
      insert into official_observations (source, series_id, period, value, value_text, unit, published_on, fetched_at, fetch_id)
      values ('bls', 'APU0000708111', '2026-05-01', 2.2, '2.200', 'USD per dozen', '2026-06-10', now(), ${fetch!.id}),
             ('bls', 'APU0000708111', '2026-06-01', 2.3, '2.300', 'USD per dozen', '2026-07-15', now(), ${fetch!.id})`;
    const [national] = await caller.market
      .series({ from: '2026-04', region: 'national' })
      .then((all) => all.filter((s) => s.series_id === 'APU0000708111'));
    expect(national!.points).toEqual([
      { period: '2026-04', price: expect.any(Number) as number },
      { period: '2026-05', price: 2.2 },
      { period: '2026-06', price: 2.3 },
    ]);
    expect(national!.latest).toEqual({ period: '2026-06', publishedOn: '2026-07-15' });
    await db.sql`delete from official_observations`;
  });

  it('filters by start month and region, and rejects malformed input', async () => {
    const recent = await caller.market.series({ from: '2024-01', region: 'northeast' });
    expect(recent.map((s) => s.region)).toEqual(['northeast']);
    expect(recent[0]!.points[0]!.period >= '2024-01').toBe(true);
    await expect(caller.market.series({ from: 'January' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
