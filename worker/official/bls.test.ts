// BLS against its stand-in and the real PostgreSQL: the series asked in one request (keyless, or
// with the key), a gap (October 2025) left a gap, a new month arriving with its day, a revision
// replacing a value with the old one kept, the daily-limit refusal (HTTP 200 with
// REQUEST_NOT_PROCESSED, the captured body) and an HTTP 500 marking the source failing since then,
// the source not asked again before its limit resets, and a fetch run twice writing nothing twice.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { officialPoints, officialSourceRows } from '#server/queries/official.ts';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { newWorld, readCaptured, startOfficialStandIn, type OfficialStandIn } from '../../test/official/standin.ts';
import { parseBls } from './bls.ts';
import type { OfficialConfig } from './config.ts';
import { NotBefore } from './http.ts';
import { runOfficialSource } from './run.ts';

let db: TestDatabase;
let standIn: OfficialStandIn;
let config: OfficialConfig;
const national = () => standIn.world.bls.values.get('APU0000708111')!;
const MAY_2026 = '2.191';

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  standIn = await startOfficialStandIn(newWorld());
  config = {
    bls: { origin: standIn.origin },
    mars: { origin: standIn.origin },
    aphis: { url: `${standIn.origin}/x.csv` },
  };
});
afterAll(async () => {
  await standIn.close();
  await db.drop();
});
beforeEach(async () => {
  await db.sql`delete from official_revisions`;
  await db.sql`delete from official_observations`;
  await db.sql`delete from official_fetches`;
  await db.sql`update official_sources set last_period = null, last_published_on = null, last_fetched_at = null,
    last_attempt_at = null, last_error = null, failing_since = null, next_due_at = null, not_before = null,
    requests_day = null, requests_count = 0`;
  standIn.world.bls = newWorld().bls;
});

const bls = async () => (await officialSourceRows(db.sql)).find((r) => r.source === 'bls')!;

describe('BLS', () => {
  it('reads the captured envelope and refuses the captured daily-limit answer', () => {
    const now = new Date('2026-11-29T10:00:00Z');
    // (the captured success is of another series: its envelope parses, and only egg series are kept)
    expect(parseBls(readCaptured('bls/request-succeeded-envelope.json'), now)).toEqual([]);
    const refusal = (() => {
      try {
        parseBls(readCaptured('bls/request-not-processed.json'), now);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(NotBefore);
    expect((refusal as NotBefore).until.toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });

  it('asks every current series in one request, keeps gaps, and takes a new month with its day', async () => {
    national().delete('2026-05');
    const june = new Date('2026-06-10T13:00:00Z');
    const first = await runOfficialSource(db.sql, config, 'bls', { now: june });
    expect(first.kind).toBe('fetched');
    expect(standIn.world.bls.requests).toEqual([
      { seriesid: ['APU0000708111', 'APU0100708111', 'APU0200708111', 'APU0300708111', 'APU0400708112'] },
    ]);
    let points = await officialPoints(db.sql, 'APU0000708111', { from: '2025-08-01', to: '2025-12-01' });
    expect(points.map((p) => p.period)).toEqual(['2025-08-01', '2025-09-01', '2025-11-01', '2025-12-01']);
    expect((await bls()).last_period).toBe('2026-04-01');
    // BLS releases May: the next fetch takes it, dated the day it was first read.
    national().set('2026-05', MAY_2026);
    const release = new Date('2026-06-11T01:00:00Z');
    const second = await runOfficialSource(db.sql, config, 'bls', { now: release });
    expect(second).toMatchObject({ kind: 'fetched', result: { inserted: 1, revised: 0 } });
    points = await officialPoints(db.sql, 'APU0000708111', { from: '2026-05-01' });
    expect(points).toMatchObject([{ period: '2026-05-01', value_text: MAY_2026, published_on: '2026-06-11' }]);
    const status = await bls();
    expect(status).toMatchObject({ last_period: '2026-05-01', last_published_on: '2026-06-11', last_error: null });
    expect(status.next_due_at!.toISOString()).toBe('2026-06-11T13:00:00.000Z');
    // The same answer again writes nothing and keeps no second copy of the body.
    const third = await runOfficialSource(db.sql, config, 'bls', { now: new Date('2026-06-11T13:00:00Z') });
    expect(third).toMatchObject({ kind: 'fetched', result: { inserted: 0, revised: 0 } });
    const [copies] = await db.sql<Array<{ bodies: number; fetches: number }>>`
      select count(body_gzip)::int as bodies, count(*)::int as fetches from official_fetches where source = 'bls'`;
    expect(copies).toEqual({ bodies: 2, fetches: 3 });
  });

  it('replaces a revised value and keeps the old one', async () => {
    await runOfficialSource(db.sql, config, 'bls', { now: new Date('2026-06-20T00:00:00Z') });
    const before = national().get('2026-04')!;
    national().set('2026-04', (Number(before) + 0.05).toFixed(3));
    const outcome = await runOfficialSource(db.sql, config, 'bls', { now: new Date('2026-07-15T00:00:00Z') });
    expect(outcome).toMatchObject({ kind: 'fetched', result: { revised: 1, inserted: 0 } });
    const [april] = await officialPoints(db.sql, 'APU0000708111', { from: '2026-04-01', to: '2026-04-01' });
    expect(april!.value_text).toBe((Number(before) + 0.05).toFixed(3));
    // (first read on the first fetch, after nothing held: its release day is not known)
    expect(april!.revisions).toMatchObject([{ value_text: before, published_on: null }]);
    expect(april!.published_on).toBe('2026-07-15');
  });

  it('sends the key when there is one', async () => {
    await runOfficialSource(db.sql, { ...config, bls: { origin: standIn.origin, apiKey: 'k-123' } }, 'bls', {
      now: new Date('2026-06-20T00:00:00Z'),
    });
    expect(standIn.world.bls.requests[0]!.registrationkey).toBe('k-123');
  });

  it('on the daily-limit answer: failing since then, figures kept, not asked again before midnight UTC', async () => {
    await runOfficialSource(db.sql, config, 'bls', { now: new Date('2026-06-20T00:00:00Z') });
    standIn.world.bls.failure = 'daily-limit';
    const at = new Date('2026-06-20T12:00:00Z');
    const outcome = await runOfficialSource(db.sql, config, 'bls', { now: at });
    expect(outcome).toMatchObject({ kind: 'failed', until: new Date('2026-06-21T00:00:00Z') });
    const status = await bls();
    expect(status.last_error).toContain('daily threshold');
    expect(status.failing_since).toEqual(at);
    expect(status.last_period).toBe('2026-05-01');
    const asked = standIn.world.bls.requests.length;
    expect(await runOfficialSource(db.sql, config, 'bls', { now: new Date('2026-06-20T18:00:00Z') })).toMatchObject({
      kind: 'waiting',
    });
    expect(standIn.world.bls.requests.length).toBe(asked);
    const [kept] = await db.sql<Array<{ outcome: string }>>`
      select outcome from official_fetches where source = 'bls' order by id desc limit 1`;
    expect(kept!.outcome).toBe('refused');
  });

  it('on an HTTP 500: failing, retried an hour later, recovered on the next good answer', async () => {
    standIn.world.bls.failure = 'http-500';
    const at = new Date('2026-06-20T12:00:00Z');
    expect(await runOfficialSource(db.sql, config, 'bls', { now: at })).toMatchObject({
      kind: 'failed',
      message: 'BLS answered HTTP 500',
    });
    expect((await bls()).next_due_at).toEqual(new Date('2026-06-20T13:00:00Z'));
    standIn.world.bls.failure = 'none';
    await runOfficialSource(db.sql, config, 'bls', { now: new Date('2026-06-20T13:00:00Z') });
    expect(await bls()).toMatchObject({ last_error: null, failing_since: null });
  });
});
