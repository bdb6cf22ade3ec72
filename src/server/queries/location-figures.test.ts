// What a store's locations charge, against real PostgreSQL: the median per dozen across locations
// (even and odd counts), its range, one value per location (its cheapest in-stock pack), a single
// location, sample and demo prices, and what never counts: out-of-stock, stale, closed and
// hidden sample prices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { addListing, type Listing } from '../../../test/listings.ts';
import { combinationKey, locationFiguresText } from '../../shared/location-figures.ts';
import { locationFigures, storeLocationFigures } from './location-figures.ts';
import { refreshRollups } from './rollups.ts';

let db: TestDatabase;
let burlington: Listing;

beforeAll(async () => {
  db = await createTestDatabase();
  const sql = db.sql;
  // Walmart in the Northeast, standard dozens at four locations: $3.60, $4.20, $3.00, and at
  // Burlington two brands, $6.00 and $2.70 (the location charges its cheapest, $2.70).
  await addListing(sql, { store: 'walmart', zip: '02108', price: 3.6 });
  await addListing(sql, { store: 'walmart', zip: '10001', price: 4.2 });
  await addListing(sql, { store: 'walmart', zip: '19103', price: 3.0 });
  await addListing(sql, { store: 'walmart', zip: '05401', price: 6.0 });
  burlington = await addListing(sql, { store: 'walmart', zip: '05401', price: 2.7, brand: 'Other Farms' });
  // What never counts: out of stock in Hartford, read three days ago in Portland, a closed store in Providence.
  const outOfStock = await addListing(sql, { store: 'walmart', zip: '06103', price: 1.5 });
  await sql`update price_observations set in_stock = false where product_id = ${outOfStock.productId}`;
  const stale = await addListing(sql, { store: 'walmart', zip: '04101', price: 1.2 });
  await sql`update price_observations set observed_at = now() - interval '3 days', observed_on = utc_day(now() - interval '3 days') where product_id = ${stale.productId}`;
  const closed = await addListing(sql, { store: 'walmart', zip: '02903', price: 1.1 });
  await sql`update store_locations set status = 'closed', closed_at = now() where id = ${closed.locationId}`;
  // Stock the retailer does not say (null) counts: an 18-pack at three locations, $5.40, $4.50
  // and $6.30 (per dozen $3.60, $3.00 and $4.20).
  for (const [zip, price] of [
    ['02108', 5.4],
    ['10001', 4.5],
    ['19103', 6.3],
  ] as const) {
    const listing = await addListing(sql, { store: 'walmart', zip, price, count: 18 });
    await sql`update price_observations set in_stock = null where product_id = ${listing.productId}`;
  }
  // Target's organic dozen at one Northeast store.
  await addListing(sql, { store: 'target', zip: '02108', price: 7.49, eggType: 'organic' });
  // Kroger in the Midwest: two retailer prices and one from the demo's stand-in.
  await addListing(sql, { store: 'kroger', zip: '45202', price: 3.2 });
  await addListing(sql, { store: 'kroger', zip: '43215', price: 3.4 });
  await addListing(sql, { store: 'kroger', zip: '46204', price: 3.0, source: 'demo' });
  // The store page's figures are precomputed by the rollup refresh that follows price writes (the
  // worker's, a second later); the cards' are read from the entries.
  await refreshRollups(sql, { all: true });
});
afterAll(async () => {
  await db?.drop();
});

const walmartDozen = { store_id: 'walmart', region: 'northeast', egg_type: 'standard', count: 12 } as const;

describe('locationFigures', () => {
  it("takes the median of an even number of locations' prices per dozen, each location's cheapest in-stock pack once, read today, at open stores", async () => {
    const figures = (await locationFigures(db.sql, [walmartDozen])).get(combinationKey(walmartDozen));
    expect(figures).toEqual({
      ...walmartDozen,
      // 2.70, 3.00, 3.60, 4.20: the seeded sample price of Walmart's Northeast location is hidden
      // now that the store and region has scraped prices, as everywhere.
      locations: 4,
      median_per_dozen: 3.3,
      lowest_per_dozen: 2.7,
      highest_per_dozen: 4.2,
      sample: false,
      cheapest: {
        entry_id: expect.any(Number),
        product_id: burlington.productId,
        location_id: burlington.locationId,
        price: 2.7,
        price_per_dozen: 2.7,
        name: 'walmart Burlington',
        city: 'Burlington',
        state: 'VT',
        zip: '05401',
      },
    });
    expect(locationFiguresText(figures!)).toBe('median $3.30 a dozen across 4 stores, $2.70 to $4.20');
  });

  it('answers several combinations in one call, per dozen whatever the pack size (an odd count), and leaves out those without prices today', async () => {
    const eighteen = { ...walmartDozen, count: 18 };
    const target = { store_id: 'target', region: 'northeast', egg_type: 'organic', count: 12 } as const;
    const nothing = { store_id: 'aldi', region: 'northeast', egg_type: 'pasture_raised', count: 30 } as const;
    const figures = await locationFigures(db.sql, [eighteen, target, nothing, walmartDozen]);
    expect([...figures.keys()].sort()).toEqual(
      [combinationKey(target), combinationKey(walmartDozen), combinationKey(eighteen)].sort(),
    );
    expect(figures.get(combinationKey(eighteen))).toMatchObject({
      locations: 3,
      median_per_dozen: 3.6,
      lowest_per_dozen: 3,
      highest_per_dozen: 4.2,
    });
    expect(figures.get(combinationKey(eighteen))!.cheapest).toMatchObject({
      zip: '10001',
      price: 4.5,
      price_per_dozen: 3,
    });
    // One location: no median, no range.
    const single = figures.get(combinationKey(target))!;
    expect(single).toMatchObject({
      locations: 1,
      median_per_dozen: 7.49,
      lowest_per_dozen: 7.49,
      highest_per_dozen: 7.49,
    });
    expect(locationFiguresText(single)).toBe('$7.49 a dozen at 1 store');
    expect(await locationFigures(db.sql, [])).toEqual(new Map());
  });

  it('counts sample and demo prices, and says so', async () => {
    const kroger = { store_id: 'kroger', region: 'midwest', egg_type: 'standard', count: 12 } as const;
    const mixed = (await locationFigures(db.sql, [kroger])).get(combinationKey(kroger));
    // The demo's $3.00 counts beside the retailers' $3.20 and $3.40 (the sample location is hidden).
    expect(mixed).toMatchObject({ locations: 3, median_per_dozen: 3.2, lowest_per_dozen: 3, sample: true });
    // Aldi has only the sample catalogue: its figures rest on sample prices, one location per region.
    const aldi = await storeLocationFigures(db.sql, 'aldi');
    expect(aldi.length).toBeGreaterThan(0);
    expect(aldi.every((f) => f.sample && f.locations === 1)).toBe(true);
  });
});

describe('storeLocationFigures', () => {
  it('lists every combination of the store under the filters, by region, egg type and pack size', async () => {
    const walmart = await storeLocationFigures(db.sql, 'walmart', { region: 'northeast', eggType: 'standard' });
    expect(walmart.map((f) => [f.count, f.locations, f.median_per_dozen])).toEqual([
      [12, 4, 3.3],
      [18, 3, 3.6],
    ]);
    const dozens = await storeLocationFigures(db.sql, 'walmart', { count: 12 });
    const regions = dozens.map((f) => f.region);
    expect(regions).toEqual(
      [...regions].sort(
        (a, b) =>
          ['northeast', 'midwest', 'south', 'west'].indexOf(a) - ['northeast', 'midwest', 'south', 'west'].indexOf(b),
      ),
    );
    expect(dozens.every((f) => f.count === 12 && f.store_id === 'walmart')).toBe(true);
    // The sample catalogue's other regions count one location each, marked as sample.
    expect(dozens.filter((f) => f.region !== 'northeast').every((f) => f.sample && f.locations === 1)).toBe(true);
  });
});
