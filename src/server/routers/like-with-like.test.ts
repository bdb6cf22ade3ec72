// Figures that compare like with like, on crafted prices: 6-packs beside 60-packs and stores in
// several regions. Ranges, averages, lowest and highest, ranks and competitors go by the price per
// dozen, and competitors and per-region figures stay within one region.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { addListing, type ListingSpec } from '../../../test/listings.ts';
import { seedStores } from '../seed.ts';
import { refreshRollups } from '../queries/rollups.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

const SOUTH = '30301';
const MIDWEST = '60611';
const WEST = '90210';

/** A current price, and optionally the price 8 days earlier (the week-old reference of its trend). */
async function listing(spec: ListingSpec & { weekAgo?: number }) {
  const { productId, locationId } = await addListing(db.sql, spec);
  if (spec.weekAgo !== undefined) {
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${productId}, ${locationId}, ${spec.weekAgo}, now() - interval '8 days', utc_day(now() - interval '8 days'), 'scrape')`;
  }
}

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  await db.sql.begin((tx) => seedStores(tx));
  caller = callerFor({ sql: db.sql });
  // Cage-free: the cheapest pack on the shelf (a 6-pack) is the dearest per dozen, and the dearest
  // pack (a 60-pack) is not the dearest per dozen.
  await listing({ store: 'aldi', zip: SOUTH, eggType: 'cage_free', count: 6, price: 2.79 }); // 5.58 a dozen
  await listing({ store: 'walmart', zip: SOUTH, eggType: 'cage_free', count: 18, price: 5.24 }); // 3.49
  await listing({ store: 'whole-foods', zip: WEST, eggType: 'cage_free', count: 60, price: 26.29 }); // 5.26
  await listing({ store: 'kroger', zip: MIDWEST, eggType: 'cage_free', count: 12, price: 3.99 }); // 3.99
  await listing({ store: 'target', zip: WEST, eggType: 'cage_free', count: 12, price: 4.49 }); // 4.49
  // Standard: Walmart sells a 60-pack and a 6-pack in the South and a dozen in the Midwest.
  await listing({ store: 'walmart', zip: SOUTH, count: 60, price: 15, weekAgo: 18 }); // 3.00; was 3.60
  await listing({ store: 'walmart', zip: SOUTH, count: 6, price: 1.99, weekAgo: 1.89 }); // 3.98; was 3.78
  await listing({ store: 'walmart', zip: MIDWEST, count: 12, price: 2.5 });
  await listing({ store: 'aldi', zip: SOUTH, count: 12, price: 2.4 });
  await listing({ store: 'kroger', zip: MIDWEST, count: 12, price: 2.2 });
  // The cheapest dozen anywhere is in the West, where Walmart sells none.
  await listing({ store: 'target', zip: WEST, count: 12, price: 1.99 });
  // The store page's figures are precomputed by the rollup refresh that follows price writes.
  await refreshRollups(db.sql, { all: true });
});
afterAll(() => db.drop());

describe('compare.byType, like with like', () => {
  it('ranges, averages and sorts cage-free prices per dozen, with the pack prices beside', async () => {
    const { entries, summary } = await caller.compare.byType({ eggType: 'cage-free' });
    expect(entries.map((e) => e.store_id)).toEqual(['walmart', 'kroger', 'target', 'whole-foods', 'aldi']);
    expect(summary.regions).toEqual(['midwest', 'south', 'west']);
    expect(summary.lowest).toEqual({
      store_id: 'walmart',
      store_name: 'Walmart',
      region: 'south',
      price: 5.24,
      count: 18,
      price_per_dozen: 3.49,
    });
    expect(summary.highest).toEqual({
      store_id: 'aldi',
      store_name: 'Aldi',
      region: 'south',
      price: 2.79,
      count: 6,
      price_per_dozen: 5.58,
    });
    expect(summary.difference_per_dozen).toBe(2.09);
    // (5.58 + 3.4933 + 5.258 + 3.99 + 4.49) / 5
    expect(summary.average_per_dozen).toBe(4.56);
    expect(summary.unit_price).toEqual({ min: 0.2911, max: 0.465 });
  });

  it('gives the same figures within each region', async () => {
    const { summary } = await caller.compare.byType({ eggType: 'cage_free' });
    expect(
      summary.by_region.map((r) => [
        r.region,
        r.products,
        r.lowest?.store_id,
        r.highest?.store_id,
        r.difference_per_dozen,
        r.average_per_dozen,
      ]),
    ).toEqual([
      ['midwest', 1, 'kroger', 'kroger', 0, 3.99],
      ['south', 2, 'walmart', 'aldi', 2.09, 4.54],
      ['west', 2, 'target', 'whole-foods', 0.77, 4.87],
    ]);
    const west = await caller.compare.byType({ eggType: 'cage_free', region: 'west' });
    expect(west.summary).toMatchObject({
      regions: ['west'],
      products: 2,
      difference_per_dozen: 0.77,
      average_per_dozen: 4.87,
    });
    expect(west.summary.highest).toMatchObject({
      store_id: 'whole-foods',
      price: 26.29,
      count: 60,
      price_per_dozen: 5.26,
    });
  });
});

describe('stores.insights, like with like', () => {
  it("averages a store's prices per dozen and picks its lowest and highest per dozen", async () => {
    const { insights, entries } = await caller.stores.insights({ storeId: 'walmart', egg_type: 'standard' });
    expect(entries.map((e) => e.count)).toEqual([12, 60, 6]);
    expect(insights.regions).toEqual(['midwest', 'south']);
    // (2.50 + 3.00 + 3.98) / 3
    expect(insights.average_per_dozen).toBe(3.16);
    expect(insights.lowest).toEqual({
      price: 2.5,
      count: 12,
      price_per_dozen: 2.5,
      egg_type: 'standard',
      region: 'midwest',
    });
    expect(insights.highest).toEqual({
      price: 1.99,
      count: 6,
      price_per_dozen: 3.98,
      egg_type: 'standard',
      region: 'south',
    });
    // The 60-pack fell $3.00 ($0.60 a dozen), the 6-pack rose $0.10 ($0.20 a dozen).
    expect(insights.weekly_compared).toBe(2);
    expect(insights.weekly_change_per_dozen).toBe(-0.2);
  });

  it('ranks and compares the store with competitors of the same region only', async () => {
    const { competitive } = await caller.stores.insights({ storeId: 'walmart' });
    expect(
      competitive.market_position.map((p) => [
        p.egg_type,
        p.region,
        p.count,
        p.price_per_dozen,
        p.rank,
        p.of,
        p.cheapest_competitor?.store_id,
        p.cheapest_competitor?.region,
        p.cheapest_competitor?.difference_pct,
      ]),
    ).toEqual([
      // Midwest: Walmart's dozen at $2.50 against Kroger's $2.20, never Target's $1.99 in the West.
      ['standard', 'midwest', 12, 2.5, 2, 2, 'kroger', 'midwest', 13.6],
      // South: no dozen, so its cheapest pack per dozen (the 60-pack, $3.00) against Aldi's $2.40.
      ['standard', 'south', 60, 3, 2, 2, 'aldi', 'south', 25],
      ['cage_free', 'south', 18, 3.49, 1, 2, 'aldi', 'south', -37.5],
    ]);
  });

  it('averages each region per dozen', async () => {
    const { competitive } = await caller.stores.insights({ storeId: 'walmart' });
    expect(competitive.regional.map((r) => [r.region, r.product_count, r.average_per_dozen])).toEqual([
      ['midwest', 1, 2.5],
      // (3.00 + 3.98 + 3.4933) / 3
      ['south', 3, 3.49],
    ]);
  });
});
