// USDA Market News and APHIS against the stand-in and the real PostgreSQL: off without a key (and
// nothing asked), the key sent as the basic-auth user, a 401 for a wrong key, an empty week (no
// figures, no failure), the retail report's average, low, high and stores by region and egg type,
// the wholesale index's caged white large row only, APHIS's layer flocks summed by state and week,
// a removed detection revising its week, and a 500.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { officialPoints, officialSourceRows } from '#server/queries/official.ts';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { newWorld, startOfficialStandIn, type OfficialStandIn } from '../../test/official/standin.ts';
import { readCaptured } from '../../test/official/standin.ts';
import { csvRows, isTableEggLayerFlock, parseAphis, weekOf } from './aphis.ts';
import { askedSpans, parseRetail, parseWholesale } from './usda.ts';
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

  it('asks two years in spans of 180 days while it holds nothing, then the last five weeks', async () => {
    expect(askedSpans(35, true)).toEqual([[35, 0]]);
    expect(askedSpans(35, false)).toEqual([
      [728, 720],
      [719, 540],
      [539, 360],
      [359, 180],
      [179, 0],
    ]);
    expect(await runOfficialSource(db.sql, config, 'usda_retail', { now: NOW })).toMatchObject({
      kind: 'fetched',
      result: { inserted: 0 },
    });
    expect(standIn.world.mars.requests.map((r) => decodeURIComponent(r.path))).toEqual([
      '/services/v1.2/reports/2757/Report Details?q=report_begin_date=11/29/2024:12/07/2024',
      '/services/v1.2/reports/2757/Report Details?q=report_begin_date=12/08/2024:06/05/2025',
      '/services/v1.2/reports/2757/Report Details?q=report_begin_date=06/06/2025:12/02/2025',
      '/services/v1.2/reports/2757/Report Details?q=report_begin_date=12/03/2025:05/31/2026',
      '/services/v1.2/reports/2757/Report Details?q=report_begin_date=06/01/2026:11/27/2026',
    ]);
  });

  it('reads the retail report by region and egg type, and an empty week is no failure', async () => {
    expect(await runOfficialSource(db.sql, config, 'usda_retail', { now: NOW })).toMatchObject({
      kind: 'fetched',
      result: { inserted: 0 },
    });
    expect((await status('usda_retail')).last_error).toBeNull();
    standIn.world.mars.reports['2757/Report Details'] = [
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
    // (still nothing held: two years asked again, the newest span last)
    const outcome = await runOfficialSource(db.sql, config, 'usda_retail', { now: new Date('2026-11-28T18:00:00Z') });
    expect(outcome).toMatchObject({ kind: 'fetched', result: { inserted: 3 } });
    expect(standIn.world.mars.requests.at(-1)!.path).toContain(
      encodeURIComponent('report_begin_date=06/02/2026:11/28/2026'),
    );
    await runOfficialSource(db.sql, config, 'usda_retail', { now: new Date('2026-11-29T18:00:00Z') });
    expect(standIn.world.mars.requests.at(-1)!.path).toContain(
      encodeURIComponent('report_begin_date=10/25/2026:11/29/2026'),
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

  it("reads the report's details as a public parser of the retail feature reports names them", () => {
    // (environment is the egg type, type the size and colour; "Southcentral" one word; the
    // carton most stores advertised kept; liquid eggs and 18-egg cartons left out)
    const row = {
      report_begin_date: '11/16/2026',
      report_end_date: '11/20/2026',
      report_date: '11/20/2026',
      region: 'Southcentral',
      commodity: 'Eggs',
      package_size: '12',
    };
    const details = [
      {
        ...row,
        type: 'Large White',
        environment: 'Conventional',
        price_avg: '2.49',
        price_min: '1.68',
        price_max: '3.99',
        store_count: '812',
      },
      {
        ...row,
        type: 'Large Brown',
        environment: 'Conventional',
        price_avg: '2.99',
        price_min: '2.50',
        price_max: '3.49',
        store_count: '95',
      },
      {
        ...row,
        type: 'Large White',
        environment: 'Conventional',
        package_size: '18',
        price_avg: '3.79',
        store_count: '900',
      },
      { ...row, type: 'Liquid Egg', environment: 'Conventional', price_avg: '3.29', store_count: '40' },
      {
        ...row,
        type: 'Large Brown',
        environment: 'Cage-Free',
        price_avg: '3.99',
        price_min: '2.99',
        price_max: '5.49',
        store_count: '301',
      },
      { ...row, type: 'Large Brown', environment: 'Free Range', price_avg: '5.49', store_count: '12' },
    ];
    const expected = [
      {
        seriesId: 'usda-retail:south_central:standard',
        period: '2026-11-20',
        valueText: '2.49',
        detail: { low: 1.68, high: 3.99, stores: 812 },
      },
      { seriesId: 'usda-retail:south_central:cage_free', valueText: '3.99', detail: { stores: 301 } },
    ];
    expect(parseRetail(JSON.stringify({ results: details }))).toMatchObject(expected);
    // (asked with all its sections, MARS answers an array of sections)
    const sections = [
      { reportSection: 'Report Metrics', results: [{ region: 'Southcentral', stores: '2100', feature: '31.2' }] },
      { reportSection: 'Report Details', results: details },
    ];
    expect(parseRetail(JSON.stringify(sections))).toMatchObject(expected);
    expect(parseWholesale(JSON.stringify([{ reportSection: 'Report Detail Weighted', results: [] }]))).toEqual([]);
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

  it('reads a captured file exactly: its layer flocks by state and week, nothing else', () => {
    const observations = parseAphis(readCaptured('aphis/hpai-commercial-backyard-flocks-2022-04.csv'));
    const week = (state: string, period: string) =>
      observations.find((o) => o.seriesId === `aphis-layers:${state}` && o.period === period);
    // 203 detections from 8 Feb to 16 Apr 2022: 11 in commercial layer flocks, in 7 states
    expect(observations).toHaveLength(16);
    expect(new Set(observations.map((o) => o.seriesId)).size).toBe(8);
    // (Guthrie 3/28 and Osceola 3/31; the layer breeder flock of 4/3, that week's Sunday, left out)
    expect(week('IA', '2022-03-28')).toEqual({
      seriesId: 'aphis-layers:IA',
      period: '2022-03-28',
      valueText: '6471756',
      value: 6_471_756,
      unit: 'birds affected',
      detail: { detections: 2 },
      publishedOn: '2022-03-31',
    });
    expect(week('WI', '2022-03-14')).toMatchObject({ value: 2_757_768, publishedOn: '2022-03-14' });
    expect(week('US', '2022-04-11')).toMatchObject({ value: 3_404_140, detail: { detections: 3 } });
    const us = observations.filter((o) => o.seriesId === 'aphis-layers:US');
    expect(us.reduce((sum, o) => sum + o.value, 0)).toBe(20_178_626);
    // (turkeys, broilers, pullets and backyard flocks are in no series)
    expect(observations.some((o) => o.seriesId === 'aphis-layers:KY')).toBe(false);
    expect(observations.some((o) => o.seriesId === 'aphis-layers:DE')).toBe(false);
  });

  it('knows a table-egg layer flock by either name', () => {
    expect(isTableEggLayerFlock('Commercial Layer Chickens')).toBe(true);
    expect(isTableEggLayerFlock('Commercial Table Egg Layer')).toBe(true);
    expect(isTableEggLayerFlock('Commercial Layer Chicken Breeder')).toBe(false);
    expect(isTableEggLayerFlock('Commercial Table Egg Pullets')).toBe(false);
    expect(isTableEggLayerFlock('Commercial Pullet Chickens')).toBe(false);
    expect(isTableEggLayerFlock('Commercial Turkeys')).toBe(false);
    expect(isTableEggLayerFlock('Backyard Chickens (poultry)')).toBe(false);
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
