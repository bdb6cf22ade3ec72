import fs from 'node:fs';
import path from 'node:path';
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
  it('lists the six seeded stores with their documented fields', async () => {
    const stores = await caller.stores.list();
    expect(stores.map((s) => s.id).sort()).toEqual([...STORE_IDS].sort());
    for (const store of stores) {
      expect(Object.keys(store).sort()).toEqual([
        'active',
        'id',
        'regions_served',
        'store_logo_url',
        'store_name',
        'store_type',
      ]);
      expect(store.regions_served.length).toBeGreaterThan(0);
    }
  });

  it("serves every store's logo from the site itself (public/logos/), never a third party", async () => {
    for (const store of await caller.stores.list()) {
      expect(store.store_logo_url).toBe(`/logos/${store.id}.svg`);
      const file = fs.readFileSync(path.join('public', store.store_logo_url!), 'utf8');
      expect(file).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      // Nothing in it loads from elsewhere (an image, a font, a stylesheet).
      expect(file).not.toMatch(/href=|url\(|@import/);
    }
  });

  it('migration 013 repoints logos seeded from the icon service, and leaves one set by hand alone', async () => {
    await db.sql`update stores set store_logo_url = 'https://icons.duckduckgo.com/ip3/walmart.com.ico' where id = 'walmart'`;
    await db.sql`update stores set store_logo_url = '/logos/custom-target.png' where id = 'target'`;
    await db.sql.unsafe(fs.readFileSync(path.join('migrations', '013.do.store-logos.sql'), 'utf8'));
    const logos = Object.fromEntries((await caller.stores.list()).map((s) => [s.id, s.store_logo_url]));
    expect(logos.walmart).toBe('/logos/walmart.svg');
    expect(logos.target).toBe('/logos/custom-target.png');
    await db.sql`update stores set store_logo_url = '/logos/target.svg' where id = 'target'`;
  });

  it('reads one store case-insensitively and answers NOT_FOUND for an unknown id', async () => {
    expect(await caller.stores.byId({ storeId: 'Whole-Foods' })).toMatchObject({
      id: 'whole-foods',
      store_name: 'Whole Foods',
    });
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
