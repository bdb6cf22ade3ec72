// prices.lookup: the observed price of a combination, else the basis a price card's estimate starts
// from: the store's nearest observed price (same region and egg type first, then the nearest pack
// size, the card's own location on a tie), on crafted prices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { addListing } from '../../../test/listings.ts';
import { seedStores } from '../seed.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;
let near: number;
let far: number;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  await db.sql.begin((tx) => seedStores(tx));
  caller = callerFor({ sql: db.sql });
  // Aldi in the Midwest: two stores selling a standard dozen, an 18-pack and an organic dozen.
  near = (await addListing(db.sql, { store: 'aldi', zip: '60611', count: 12, price: 3.96 })).locationId;
  far = (await addListing(db.sql, { store: 'aldi', zip: '60601', count: 12, price: 7.44 })).locationId;
  await addListing(db.sql, { store: 'aldi', zip: '60611', count: 18, price: 5.4 });
  await addListing(db.sql, { store: 'aldi', zip: '60611', eggType: 'organic', count: 12, price: 5.49 });
  // Elsewhere: a standard 36-pack in the South, a cage-free dozen in the West.
  await addListing(db.sql, { store: 'aldi', zip: '30301', count: 36, price: 9 });
  await addListing(db.sql, { store: 'aldi', zip: '90210', eggType: 'cage_free', count: 12, price: 4.8 });
});
afterAll(() => db.drop());

const lookup = (region: string, eggType: string, count: number, location?: number) =>
  caller.prices.lookup({ store: 'aldi', region, egg_type: eggType, count, ...(location ? { location } : {}) } as never);

describe('prices.lookup and the basis of an estimate', () => {
  it("answers the observed price of the combination, the card's own store first", async () => {
    expect(await lookup('midwest', 'standard', 12, near)).toMatchObject({ location_id: near, price: 3.96, count: 12 });
    expect(await lookup('midwest', 'standard', 12, far)).toMatchObject({ location_id: far, price: 7.44, count: 12 });
    const entry = await lookup('midwest', 'standard', 12, near);
    expect(entry!.history).toEqual([3.96]);
  });

  it('starts from the same region and egg type, at the nearest pack size', async () => {
    // A 36-pack in the Midwest: the 18-pack there, not the South's 36-pack nor the dozens.
    expect(await lookup('midwest', 'standard', 36, near)).toMatchObject({
      region: 'midwest',
      egg_type: 'standard',
      count: 18,
      price: 5.4,
    });
    expect(await lookup('midwest', 'standard', 24, far)).toMatchObject({ count: 18 });
    // 15 is as near 12 as 18: the smaller pack, at the card's own store.
    expect(await lookup('midwest', 'standard', 15, far)).toMatchObject({ count: 12, location_id: far, price: 7.44 });
    expect(await lookup('midwest', 'standard', 6, near)).toMatchObject({ count: 12, location_id: near, price: 3.96 });
  });

  it('then the same region with another egg type, then the same egg type in another region', async () => {
    // No organic in the West: the West's cage-free dozen, not the Midwest's organic dozen.
    expect(await lookup('west', 'organic', 12)).toMatchObject({ region: 'west', egg_type: 'cage_free', price: 4.8 });
    // No Northeast store: the organic dozen of another region.
    expect(await lookup('northeast', 'organic', 12)).toMatchObject({
      region: 'midwest',
      egg_type: 'organic',
      price: 5.49,
    });
    // Neither: the nearest pack size anywhere (the South's 36-pack for a 30-pack).
    expect(await lookup('northeast', 'pasture_raised', 30)).toMatchObject({ region: 'south', count: 36, price: 9 });
  });

  it('is null only for a store without any price', async () => {
    expect(
      await caller.prices.lookup({ store: 'kroger', region: 'midwest', egg_type: 'standard', count: 12 }),
    ).toBeNull();
    await expect(
      caller.prices.lookup({ store: 'aldi', region: 'midwest', egg_type: 'standard', count: 12, location: 0 }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      caller.prices.lookup({
        store: 'aldi',
        region: 'midwest',
        egg_type: 'standard',
        count: 12,
        location: 'x',
      } as never),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
