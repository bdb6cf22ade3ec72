import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { STORE_IDS } from '../../shared/vocabulary.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
});
afterAll(() => db.drop());

describe('stores', () => {
  it('lists the six seeded stores with SPEC fields', async () => {
    const stores = await caller.stores.list();
    expect(stores.map((s) => s.id).sort()).toEqual([...STORE_IDS].sort());
    for (const store of stores) {
      expect(Object.keys(store).sort()).toEqual(['active', 'id', 'regions_served', 'store_logo_url', 'store_name', 'store_type']);
      expect(store.regions_served.length).toBeGreaterThan(0);
    }
  });

  it('reads one store case-insensitively and answers NOT_FOUND for an unknown id', async () => {
    expect(await caller.stores.byId({ storeId: 'Whole-Foods' })).toMatchObject({ id: 'whole-foods', store_name: 'Whole Foods' });
    await expect(caller.stores.byId({ storeId: 'costco' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(caller.stores.byId({ storeId: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it("lists a store's prices, in every region it serves, with optional filters", async () => {
    const kroger = await caller.stores.prices({ storeId: 'kroger' });
    expect(kroger.length).toBeGreaterThan(0);
    expect(new Set(kroger.map((e) => e.store_id))).toEqual(new Set(['kroger']));
    expect(new Set(kroger.map((e) => e.region))).toEqual(new Set(['midwest', 'south', 'west']));
    const organic = await caller.stores.prices({ storeId: 'kroger', egg_type: 'ORGANIC', region: 'south' });
    expect(organic.map((e) => [e.egg_type, e.region])).toEqual([['organic', 'south']]);
    await expect(caller.stores.prices({ storeId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('leaves out inactive stores from price lists', async () => {
    await db.sql`update stores set active = false where id = 'aldi'`;
    expect((await caller.prices.list({ store: 'aldi' })).length).toBe(0);
    await db.sql`update stores set active = true where id = 'aldi'`;
    expect((await caller.prices.list({ store: 'aldi' })).length).toBeGreaterThan(0);
  });
});
