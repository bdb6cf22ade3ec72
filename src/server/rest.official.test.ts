// The official sources' API over real HTTP against the real PostgreSQL: every source with its
// status (USDA off without its key, said so), a series with its revisions, in CSV too, an unknown
// series 404, answers ETagged and revalidated, a worker's fetch (NOTIFY) dropping the cached answer;
// "Fetch now" and the last error for administrators only.
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { TestDatabase } from '../../test/db.ts';
import { callerFor } from '../../test/caller.ts';
import { createAccount } from '../../test/users.ts';
import { until } from '../../test/until.ts';
import { restServer } from '../../test/rest.ts';
import { applyObservations, markFailed, markFetched, recordFetch } from './queries/official.ts';

const rest = restServer();
const { get } = rest;
let db: TestDatabase;

beforeAll(async () => {
  db = rest.db;
  const at = new Date('2026-11-13T14:00:00Z');
  const f = await recordFetch(db.sql, {
    source: 'bls',
    url: 'http://bls',
    httpStatus: 200,
    body: 'a',
    outcome: 'parsed',
  });
  const point = (period: string, valueText: string) => ({
    seriesId: 'APU0000708111',
    period,
    valueText,
    value: Number(valueText),
    unit: 'USD per dozen',
  });
  await applyObservations(db.sql, 'bls', f, at, [point('2026-09-01', '2.400'), point('2026-10-01', '2.500')]);
  const later = new Date('2026-11-20T14:00:00Z');
  const g = await recordFetch(db.sql, {
    source: 'bls',
    url: 'http://bls',
    httpStatus: 200,
    body: 'b',
    outcome: 'parsed',
  });
  await applyObservations(db.sql, 'bls', g, later, [point('2026-09-01', '2.410'), point('2026-10-01', '2.500')]);
  await markFetched(db.sql, 'bls', later, new Date('2026-11-21T02:00:00Z'));
});

describe('GET /api/official', () => {
  it('lists every source with its status; USDA is off without its key', async () => {
    const { status, text } = await get('/api/official/sources');
    expect(status).toBe(200);
    const sources = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(sources.map((s) => s.source)).toEqual(['bls', 'usda_retail', 'usda_wholesale', 'aphis_hpai']);
    expect(sources[0]).toMatchObject({
      status: 'ok',
      lastPeriod: '2026-10-01',
      lastPublishedOn: '2026-11-13',
      lastFetchedAt: '2026-11-20T14:00:00.000Z',
      nextFetch: 'scheduled',
      nextFetchAt: '2026-11-21T02:00:00.000Z',
      nextReleaseExpected: '2026-12-15',
    });
    expect(sources[1]).toMatchObject({
      status: 'off',
      offReason: expect.stringContaining('USDA_MARS_API_KEY') as string,
      nextFetch: 'off',
      nextFetchAt: null,
    });
    // (never fetched: no due time, asked at the schedule's next tick)
    expect(sources[3]).toMatchObject({
      status: 'not-fetched',
      lastPeriod: null,
      nextFetch: 'first',
      nextFetchAt: null,
    });
    expect(text).not.toContain('lastError');
  });

  it('answers a series with its revisions, in JSON and CSV, and 404 for an unknown one', async () => {
    const json = JSON.parse((await get('/api/official/series/APU0000708111?from=2026-09-01&to=2026-09-30')).text) as {
      points: Array<Record<string, unknown>>;
    };
    expect(json.points).toEqual([
      expect.objectContaining({
        period: '2026-09-01',
        valueText: '2.410',
        publishedOn: '2026-11-20',
        revisions: [{ value: 2.4, valueText: '2.400', publishedOn: '2026-11-13', replacedAt: '2026-11-20T14:00:00Z' }],
      }),
    ]);
    const csv = await get('/api/official/series/APU0000708111.csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.period, r.value, r.revised_from])).toEqual([
      ['2026-09-01', '2.410', '2.400'],
      ['2026-10-01', '2.500', ''],
    ]);
    expect((await get('/api/official/series/usda-retail:mars:organic')).status).toBe(404);
    expect((await get('/api/official/series/APU0000708111?from=2026-10-01&to=2026-09-01')).status).toBe(400);
  });

  it('is ETagged, revalidated, and fresh after the worker writes', async () => {
    const first = await get('/api/official/sources');
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await get('/api/official/sources', { 'if-none-match': etag })).status).toBe(304);
    await markFailed(
      db.sql,
      'aphis_hpai',
      new Date('2026-11-22T00:00:00Z'),
      'HTTP 500',
      new Date('2026-11-22T01:00:00Z'),
    );
    await until(
      async () => (await get('/api/official/sources', { 'if-none-match': etag })).status === 200,
      10_000,
      'the cached sources to be dropped',
    );
    const sources = JSON.parse((await get('/api/official/sources')).text) as Array<Record<string, unknown>>;
    expect(sources[3]).toMatchObject({ status: 'failing', failingSince: '2026-11-22T00:00:00.000Z' });
  });
});

describe('official sources for administrators', () => {
  it('shows the last error and queues a fetch now, for administrators only', async () => {
    const admin = await createAccount(db.sql, { role: 'admin' });
    const shopper = await createAccount(db.sql);
    const asAdmin = callerFor({ sql: db.sql, user: admin.user, session: admin.session });
    const asShopper = callerFor({ sql: db.sql, user: shopper.user, session: shopper.session });
    await expect(asShopper.official.adminStatus()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(asShopper.official.fetchNow({ source: 'bls' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const status = await asAdmin.official.adminStatus();
    expect(status.find((s) => s.source === 'aphis_hpai')).toMatchObject({ lastError: 'HTTP 500' });
    await asAdmin.official.fetchNow({ source: 'bls' });
    await asAdmin.official.fetchNow({ source: 'bls' });
    const jobs = await db.sql`select 1 from graphile_worker.jobs where task_identifier = 'official__fetch'`;
    expect(jobs.length).toBe(1);
    await expect(asAdmin.official.fetchNow({ source: 'usda_retail' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
    });
  });
});
