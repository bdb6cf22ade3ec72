// USDA Market News and APHIS against the stand-in and the real PostgreSQL: off without a key (and
// nothing asked), the key sent as the basic-auth user, a 401 for a wrong key, an empty week (no
// figures, no failure), the retail report's average, low, high and stores by region and egg type,
// the wholesale index's caged white large row only, APHIS's layer flocks summed by state and week,
// a removed detection revising its week, and a 500.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { officialPoints, officialSourceRows } from '#server/queries/official.ts';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { newWorld, startOfficialStandIn, type OfficialStandIn } from '../../test/official/standin.ts';
import { csvRows, weekOf } from './aphis.ts';
import type { OfficialConfig } from './config.ts';
import { runOfficialSource } from './run.ts';

let db: TestDatabase;
let standIn: OfficialStandIn;
let config: OfficialConfig;
const NOW = new Date('2026-11-27T18:00:00Z');

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  standIn = await startOfficialStandIn(newWorld());
  config = {
    bls: { origin: standIn.origin },
    mars: { origin: standIn.origin, apiKey: 'stand-in-key' },
    aphis: { url: `${standIn.origin}/aphis/hpai-confirmed-detections.csv` },
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
    last_error = null, failing_since = null, next_due_at = null, not_before = null, requests_day = null, requests_count = 0`;
  const fresh = newWorld();
  standIn.world.mars = fresh.mars;
  standIn.world.aphis = fresh.aphis;
});

const status = async (source: string) => (await officialSourceRows(db.sql)).find((r) => r.source === source)!;

describe('USDA Market News', () => {
  it('is off without a key, and asks nothing', async () => {
    const outcome = await runOfficialSource(db.sql, { ...config, mars: { origin: standIn.origin } }, 'usda_retail', {
      now: NOW,
    });
    expect(outcome).toMatchObject({ kind: 'off', reason: expect.stringContaining('USDA_MARS_API_KEY') as string });
    expect(standIn.world.mars.requests).toEqual([]);
  });

  it('sends the key as the basic-auth user; a wrong key is a 401 and the source fails', async () => {
    const wrong = await runOfficialSource(
      db.sql,
      { ...config, mars: { origin: standIn.origin, apiKey: 'nope' } },
      'usda_retail',
      {
        now: NOW,
      },
    );
    expect(wrong).toMatchObject({ kind: 'failed', message: 'USDA Market News refused the key (HTTP 401)' });
    expect(standIn.world.mars.requests[0]!.user).toBe('nope');
    expect((await status('usda_retail')).failing_since).toEqual(NOW);
  });

  it('reads the retail report by region and egg type, and an empty week is no failure', async () => {
    expect(await runOfficialSource(db.sql, config, 'usda_retail', { now: NOW })).toMatchObject({
      kind: 'fetched',
      result: { inserted: 0 },
    });
    expect((await status('usda_retail')).last_error).toBeNull();
    standIn.world.mars.reports['2757'] = [
      {
        report_date: '11/20/2026',
        region: 'Northeast',
        type: 'Cage-Free',
        package: 'Dozen',
        avg_price: '4.12',
        price_min: '2.99',
        price_max: '5.49',
        store_count: '1840',
      },
      {
        report_date: '11/20/2026',
        region: 'Northeast',
        type: 'Conventional',
        package: 'Dozen',
        avg_price: '2.61',
        price_min: '1.49',
        price_max: '3.99',
        store_count: '2210',
      },
      {
        report_date: '11/20/2026',
        region: 'Northeast',
        type: 'Conventional',
        package: '18 ct',
        avg_price: '3.90',
        price_min: '3.00',
        price_max: '4.50',
        store_count: '100',
      },
      {
        report_date: '09/01/2026',
        region: 'Northeast',
        type: 'Organic',
        package: 'Dozen',
        avg_price: '5.00',
        price_min: '4.00',
        price_max: '6.00',
        store_count: '10',
      },
    ];
    const outcome = await runOfficialSource(db.sql, config, 'usda_retail', { now: new Date('2026-11-28T18:00:00Z') });
    expect(outcome).toMatchObject({ kind: 'fetched', result: { inserted: 2 } });
    expect(standIn.world.mars.requests.at(-1)!.path).toContain(
      encodeURIComponent('report_begin_date=10/24/2026:11/28/2026'),
    );
    const [cageFree] = await officialPoints(db.sql, 'usda-retail:northeast:cage_free');
    expect(cageFree).toMatchObject({
      period: '2026-11-20',
      value_text: '4.12',
      published_on: '2026-11-20',
      detail: { low: 2.99, high: 5.49, stores: 1840 },
    });
    expect((await officialPoints(db.sql, 'usda-retail:northeast:standard')).map((p) => p.value)).toEqual([2.61]);
  });

  it('reads the wholesale index from its caged white large row', async () => {
    standIn.world.mars.reports['2843/Report Detail Weighted'] = [
      {
        report_date: '11/25/2026',
        egg_type: 'Graded Loose',
        environment: 'Caged',
        color: 'White',
        class: 'Large',
        wtd_avg_price: '178.50',
        price_unit: 'cents per dozen',
        volume: '1200',
        volume_unit: 'cases',
      },
      {
        report_date: '11/25/2026',
        egg_type: 'Graded Loose',
        environment: 'Caged',
        color: 'Brown',
        class: 'Large',
        wtd_avg_price: '190.00',
        price_unit: 'cents per dozen',
        volume: '50',
        volume_unit: 'cases',
      },
    ];
    expect(await runOfficialSource(db.sql, config, 'usda_wholesale', { now: NOW })).toMatchObject({
      kind: 'fetched',
      result: { inserted: 1 },
    });
    expect(await officialPoints(db.sql, 'usda-wholesale:national')).toMatchObject([
      { period: '2026-11-25', value_text: '178.50', unit: 'cents per dozen' },
    ]);
  });

  it('fails on a 500, keeping what it had', async () => {
    standIn.world.mars.failure = 'http-500';
    expect(await runOfficialSource(db.sql, config, 'usda_wholesale', { now: NOW })).toMatchObject({
      kind: 'failed',
      message: 'USDA Market News answered HTTP 500',
    });
  });
});

describe('APHIS', () => {
  it('parses quoted CSV and weeks from Monday', () => {
    expect(csvRows('a,b\n"x, ""y""",2\r\n')).toEqual([
      ['a', 'b'],
      ['x, "y"', '2'],
    ]);
    expect(weekOf('2026-11-29')).toBe('2026-11-23');
    expect(weekOf('2026-11-23')).toBe('2026-11-23');
  });

  it('sums commercial table-egg layer flocks by state and week, and revises a week a detection left', async () => {
    standIn.world.aphis.csv = [
      'State,County,Date Confirmed,Flock Type,Flock Size',
      'Iowa,Sioux,11-18-2026,Commercial Table Egg Layer,"1,200,000"',
      'Iowa,Sioux,11-20-2026,Commercial Table Egg Layer,"300,000"',
      'Ohio,Darke,11-19-2026,Commercial Table Egg Layer,"500,000"',
      'Ohio,Darke,11-19-2026,WOAH Non-Poultry,40',
      'Iowa,Osceola,11-19-2026,Commercial Turkey Meat Bird,"50,000"',
    ].join('\n');
    expect(await runOfficialSource(db.sql, config, 'aphis_hpai', { now: NOW })).toMatchObject({
      kind: 'fetched',
      result: { inserted: 3 },
    });
    expect(await officialPoints(db.sql, 'aphis-layers:IA')).toMatchObject([
      { period: '2026-11-16', value: 1_500_000, detail: { detections: 2 }, published_on: '2026-11-20' },
    ]);
    expect((await officialPoints(db.sql, 'aphis-layers:US'))[0]!.value).toBe(2_000_000);
    standIn.world.aphis.csv = standIn.world.aphis.csv.replace(/\nIowa,Sioux,11-20-2026[^\n]*/, '');
    expect(
      await runOfficialSource(db.sql, config, 'aphis_hpai', { now: new Date('2026-11-28T06:00:00Z') }),
    ).toMatchObject({
      kind: 'fetched',
      result: { revised: 2 },
    });
    const [iowa] = await officialPoints(db.sql, 'aphis-layers:IA');
    expect(iowa).toMatchObject({ value: 1_200_000, revisions: [{ value_text: '1500000' }] });
  });

  it('fails on a 500 and on a file without its columns', async () => {
    standIn.world.aphis.failure = 'http-500';
    expect(await runOfficialSource(db.sql, config, 'aphis_hpai', { now: NOW })).toMatchObject({ kind: 'failed' });
    standIn.world.aphis.failure = 'none';
    standIn.world.aphis.csv = 'Name,Value\nx,1\n';
    expect(
      await runOfficialSource(db.sql, config, 'aphis_hpai', { now: new Date(NOW.getTime() + 3_600_000) }),
    ).toMatchObject({ kind: 'failed', message: expect.stringContaining('lacks a column') as string });
  });
});
