// The store directory as discovery writes it: upserts by the retailer's id (never a second row),
// newer details kept, a sample row of the same ZIP claimed, and closures after complete sweeps
// that miss a store twice in a row, with reopening when it comes back; nothing deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { recordMissedStores, upsertFoundStores, type FoundStore } from './coverage-directory.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const found = (id: string, over: Partial<FoundStore> = {}): FoundStore => ({
  retailerLocationId: id,
  banner: 'FRED',
  name: `Fred Meyer - Store ${id}`,
  address: `${id} Main St`,
  city: 'Portland',
  state: 'OR',
  zip: '97201',
  latitude: 45.5,
  longitude: -122.68,
  ...over,
});

const row = (store: string, id: string) =>
  db.sql<
    Array<Record<string, unknown>>
  >`select * from store_locations where store_id = ${store} and retailer_location_id = ${id}`.then((rows) => rows[0]);

const everyWhere = () => true;

describe('upsertFoundStores', () => {
  it('inserts new stores with their banner, address and position, and counts them', async () => {
    const result = await upsertFoundStores(db.sql, 'kroger', [
      found('70100001'),
      found('70100002', { zip: '97202', latitude: null, longitude: null }),
    ]);
    expect(result).toEqual({ found: 2, created: 2, reopened: 0, skipped: 0 });
    expect(await row('kroger', '70100001')).toMatchObject({
      banner: 'FRED',
      name: 'Fred Meyer - Store 70100001',
      address: '70100001 Main St',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      region: 'west',
      status: 'open',
      missed_sweeps: 0,
      coordinates_source: 'retailer',
    });
    // No position from the locator: the ZIP code's centre, so marked.
    expect(await row('kroger', '70100002')).toMatchObject({ coordinates_source: 'zip' });
  });

  it('updates a known store in place (one row per retailer id), keeping what a blank answer leaves out', async () => {
    const before = await row('kroger', '70100001');
    const result = await upsertFoundStores(db.sql, 'kroger', [
      found('70100001', { name: 'Fred Meyer - Hawthorne', address: null }),
      found('70100001'),
    ]);
    expect(result).toMatchObject({ found: 1, created: 0 });
    const after = await row('kroger', '70100001');
    expect(after).toMatchObject({
      name: 'Fred Meyer - Store 70100001',
      address: '70100001 Main St',
      id: before!.id,
      first_seen_at: before!.first_seen_at,
    });
    const [{ count }] =
      (await db.sql`select count(*)::int as count from store_locations where store_id = 'kroger' and retailer_location_id = '70100001'`) as unknown as [
        { count: number },
      ];
    expect(count).toBe(1);
  });

  it('skips a store without a US ZIP code', async () => {
    expect(
      await upsertFoundStores(db.sql, 'kroger', [
        found('70100009', { zip: null }),
        found('70100010', { zip: '00601' }),
      ]),
    ).toEqual({ found: 0, created: 0, reopened: 0, skipped: 2 });
  });

  it('claims a sample row of the same ZIP code that has no retailer id', async () => {
    const [sample] = await db.sql<Array<{ id: number }>>`
      insert into store_locations (store_id, zip, region, name) values ('aldi', '02903', 'northeast', 'Sample ALDI') returning id`;
    await upsertFoundStores(db.sql, 'aldi', [
      found('423-101', { banner: null, zip: '02903', state: 'RI', name: 'ALDI Providence' }),
    ]);
    expect(await row('aldi', '423-101')).toMatchObject({ id: sample!.id, name: 'ALDI Providence' });
  });
});

describe('recordMissedStores', () => {
  it('closes a store missed by two complete sweeps in a row, leaves the found ones, and reopens it when found again', async () => {
    const stores = ['T1', 'T2', 'T3'].map((id) => found(id, { banner: null, zip: '02860', state: 'RI' }));
    await upsertFoundStores(db.sql, 'target', stores);
    await upsertFoundStores(db.sql, 'target', [found('T9', { banner: null, zip: '84101', state: 'UT' })]);

    // Sweep 1 of RI finds T1 and T2.
    const first = new Date(Date.now() + 1000);
    await db.sql`update store_locations set last_seen_at = now() - interval '1 hour' where store_id = 'target'`;
    await upsertFoundStores(db.sql, 'target', stores.slice(0, 2));
    await db.sql`update store_locations set last_seen_at = ${new Date(first.getTime() + 1)} where store_id = 'target' and retailer_location_id in ('T1', 'T2')`;
    const inRi = (r: { state: string | null }) => r.state === 'RI';
    expect(await recordMissedStores(db.sql, 'target', first, inRi)).toEqual({ missed: 1, closed: 0 });
    expect(await row('target', 'T3')).toMatchObject({ status: 'open', missed_sweeps: 1 });
    // UT is outside the scope: untouched.
    expect(await row('target', 'T9')).toMatchObject({ status: 'open', missed_sweeps: 0 });

    // Sweep 2 misses T3 again: closed, not deleted.
    const second = new Date(Date.now() + 5000);
    await db.sql`update store_locations set last_seen_at = ${new Date(second.getTime() + 1)} where store_id = 'target' and retailer_location_id in ('T1', 'T2')`;
    expect(await recordMissedStores(db.sql, 'target', second, inRi)).toEqual({ missed: 1, closed: 1 });
    const closed = await row('target', 'T3');
    expect(closed).toMatchObject({ status: 'closed', missed_sweeps: 2 });
    expect(closed!.closed_at).not.toBeNull();
    // A closed store is not counted again.
    expect(await recordMissedStores(db.sql, 'target', new Date(Date.now() + 9000), everyWhere)).toMatchObject({
      closed: 0,
    });

    // Found again: open, no missed sweep.
    expect(await upsertFoundStores(db.sql, 'target', [stores[2]!])).toMatchObject({
      found: 1,
      created: 0,
      reopened: 1,
    });
    expect(await row('target', 'T3')).toMatchObject({ status: 'open', missed_sweeps: 0, closed_at: null });
  });

  it('a store found in one sweep starts its count again', async () => {
    await upsertFoundStores(db.sql, 'albertsons', [found('A1', { zip: '19901', state: 'DE', banner: 'ACME Markets' })]);
    const start = new Date(Date.now() + 1000);
    expect(await recordMissedStores(db.sql, 'albertsons', start, everyWhere)).toMatchObject({ missed: 1, closed: 0 });
    await upsertFoundStores(db.sql, 'albertsons', [found('A1', { zip: '19901', state: 'DE', banner: 'ACME Markets' })]);
    expect(await row('albertsons', 'A1')).toMatchObject({ missed_sweeps: 0, status: 'open' });
  });
});
