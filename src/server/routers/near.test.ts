// prices.near against a real database: listings at known ZIP codes around Des Moines, Iowa (and
// the seeded sample catalogue at 10001, 60611, 30301 and 90210), ranked, measured and scoped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { addListing, type Listing } from '../../../test/listings.ts';
import { EARTH_RADIUS_MILES, greatCircleMiles, zipFacts } from '../geo.ts';
import { describeZodError } from '../trpc.ts';
import type { NearInput, NearResult } from '#shared/near.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

const CENTRE = '50309'; // Des Moines, IA (midwest)
const milesFrom = (from: string, to: string) => greatCircleMiles(zipFacts(from)!, zipFacts(to)!);

// Listings: store, ZIP, pack, price and yesterday's price.
let walmart: Listing; // 50265 West Des Moines, 12 standard at $3.49 ($3.69 yesterday)
let aldi: Listing; // 50316 Des Moines, 18 standard at $4.99 ($4.99 yesterday)
let kroger: Listing; // 50226 Polk City, 18 standard at $4.99 (no price yesterday)
let organic: Listing; // 50010 Ames, walmart, 12 organic at $6.49
let farKroger: Listing; // 50401 Mason City, 12 standard at $2.99

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
  walmart = await addListing(db.sql, { store: 'walmart', zip: '50265', price: 3.49, previous: 3.69 });
  aldi = await addListing(db.sql, { store: 'aldi', zip: '50316', count: 18, price: 4.99, previous: 4.99 });
  kroger = await addListing(db.sql, { store: 'kroger', zip: '50226', count: 18, price: 4.99 });
  organic = await addListing(db.sql, { store: 'walmart', zip: '50010', eggType: 'organic', price: 6.49 });
  farKroger = await addListing(db.sql, { store: 'kroger', zip: '50401', price: 2.99 });
  // The distances the scopes below rely on.
  expect(milesFrom(CENTRE, '50316')).toBeLessThan(5);
  expect(milesFrom(CENTRE, '50265')).toBeGreaterThan(5);
  expect(milesFrom(CENTRE, '50265')).toBeLessThan(10);
  expect(milesFrom(CENTRE, '50226')).toBeGreaterThan(10);
  expect(milesFrom(CENTRE, '50226')).toBeLessThan(25);
  expect(milesFrom(CENTRE, '50010')).toBeGreaterThan(25);
  expect(milesFrom(CENTRE, '50010')).toBeLessThan(50);
  expect(milesFrom(CENTRE, '50401')).toBeGreaterThan(50);
});
afterAll(() => db.drop());

const near = (input: NearInput) => caller.prices.near(input);
const pairs = (result: NearResult) => result.entries.map((e) => [e.product_id, e.location_id]);
const pair = (listing: Listing) => [listing.productId, listing.locationId];

async function failure(input: unknown): Promise<TRPCError> {
  const error = await caller.prices.near(input as NearInput).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}
const messageOf = (error: TRPCError) =>
  error.cause instanceof ZodError ? describeZodError(error.cause) : error.message;

describe('prices.near', () => {
  it('ranks by price per dozen, then distance, and measures great-circle miles from the ZIP code', async () => {
    const result = await near({ zip: CENTRE, radius: 25 });
    expect(result).toMatchObject({
      zip: CENTRE,
      city: zipFacts(CENTRE)!.city,
      state: 'IA',
      region: 'midwest',
      radius: 25,
      scope: 'radius',
      radius_used: 25,
      total: 3,
    });
    // $4.99 for 18 is $3.33 a dozen, under $3.49 for 12; the two 18-packs tie, so the nearer comes first.
    expect(pairs(result)).toEqual([pair(aldi), pair(kroger), pair(walmart)]);
    expect(result.entries.map((e) => e.price_per_dozen)).toEqual([3.33, 3.33, 3.49]);
    for (const entry of result.entries) {
      expect(Math.abs(entry.distance_miles! - milesFrom(CENTRE, entry.zip)), entry.zip).toBeLessThanOrEqual(
        0.05 + 1e-9,
      );
      expect(entry.distance_miles).toBe(Math.round(entry.distance_miles! * 10) / 10);
    }
    expect(result.entries[0]).toMatchObject({
      store_id: 'aldi',
      zip: '50316',
      state: 'IA',
      city: zipFacts('50316')!.city,
      count: 18,
      price: 4.99,
      unit_price: 0.2772,
      source: 'scrape',
    });
  });

  it('keeps to the radius asked for when it has entries', async () => {
    const five = await near({ zip: CENTRE, radius: 5 });
    expect(five).toMatchObject({ scope: 'radius', radius_used: 5, total: 1 });
    expect(pairs(five)).toEqual([pair(aldi)]);
    const ten = await near({ zip: CENTRE, radius: 10 });
    expect(pairs(ten)).toEqual([pair(aldi), pair(walmart)]);
  });

  it('widens to the next radius that has entries, up to 50 miles', async () => {
    const result = await near({ zip: CENTRE, radius: 5, egg_type: 'organic' });
    expect(result).toMatchObject({ scope: 'widened', radius: 5, radius_used: 50, total: 1 });
    expect(pairs(result)).toEqual([pair(organic)]);
    const count18 = await near({ zip: '50265', radius: 5, count: 18 });
    // From West Des Moines the nearest 18-pack is more than 5 miles away.
    expect(milesFrom('50265', '50316')).toBeGreaterThan(5);
    expect(count18.scope).toBe('widened');
    expect(count18.radius_used).toBeGreaterThan(5);
    expect(count18.entries.every((e) => e.distance_miles! <= count18.radius_used!)).toBe(true);
  });

  it("falls back to the ZIP code's census region at any distance, still measured", async () => {
    // Bismarck, ND: nothing within 50 miles, the nearest store (Mason City, IA) 449 miles away.
    const result = await near({ zip: '58501', radius: 50 });
    expect(result).toMatchObject({ zip: '58501', state: 'ND', region: 'midwest', scope: 'region', radius_used: null });
    expect(result.total).toBe(result.entries.length);
    expect(result.entries.every((e) => e.region === 'midwest')).toBe(true);
    expect(pairs(result)).toEqual(
      expect.arrayContaining([pair(farKroger), pair(walmart), pair(aldi), pair(kroger), pair(organic)]),
    );
    for (const entry of result.entries) {
      expect(entry.distance_miles).toBeGreaterThan(50);
      expect(Math.abs(entry.distance_miles! - milesFrom('58501', entry.zip))).toBeLessThanOrEqual(0.05 + 1e-9);
    }
    const perDozen = result.entries.map((e) => e.price_per_dozen);
    expect(perDozen).toEqual([...perDozen].sort((a, b) => a - b));
    const order = pairs(result).map((p) => JSON.stringify(p));
    expect(order.indexOf(JSON.stringify(pair(farKroger)))).toBeLessThan(order.indexOf(JSON.stringify(pair(walmart))));
    // Sample prices of the stores without scraped midwest prices are part of it, marked as such.
    expect(result.entries.filter((e) => e.source === 'sample').map((e) => e.store_id)).toEqual(
      expect.arrayContaining(['target', 'albertsons', 'whole-foods']),
    );
    expect(
      result.entries.some((e) => e.source === 'sample' && ['walmart', 'aldi', 'kroger'].includes(e.store_id)),
    ).toBe(false);
  });

  it("answers 'none' when the region has no such entry either", async () => {
    const result = await near({ zip: '98101', radius: 50, count: 30 });
    expect(result).toEqual({
      zip: '98101',
      city: zipFacts('98101')!.city,
      state: 'WA',
      region: 'west',
      radius: 50,
      scope: 'none',
      radius_used: null,
      total: 0,
      entries: [],
      nearest: null,
    });
  });

  it('filters by egg type in either spelling and by pack size', async () => {
    const standard = await near({ zip: CENTRE, radius: 50, egg_type: 'Standard' });
    expect(standard.entries.every((e) => e.egg_type === 'standard')).toBe(true);
    expect(pairs(standard)).not.toContainEqual(pair(organic));
    const organicOnly = await near({ zip: CENTRE, radius: 50, egg_type: 'Organic' });
    expect(pairs(organicOnly)).toEqual([pair(organic)]);
    const eighteens = await near({ zip: CENTRE, radius: 50, count: 18 });
    expect(pairs(eighteens)).toEqual([pair(aldi), pair(kroger)]);
    expect(await near({ zip: CENTRE, radius: 50, egg_type: 'all' })).toMatchObject({ total: 4 });
  });

  it("gives each entry the previous UTC day's price and the change", async () => {
    const { entries } = await near({ zip: CENTRE, radius: 25 });
    const byStore = Object.fromEntries(entries.map((e) => [e.store_id, e]));
    expect(byStore.walmart).toMatchObject({ price: 3.49, previous_price: 3.69, change: -0.2 });
    expect(byStore.aldi).toMatchObject({ price: 4.99, previous_price: 4.99, change: 0 });
    expect(byStore.kroger).toMatchObject({ price: 4.99, previous_price: null, change: null });
  });

  it('shows sample prices only where the store has no scraped prices in that region', async () => {
    // Chicago's sample locations: walmart, aldi and kroger have scraped prices in the midwest now.
    const result = await near({ zip: '60611', radius: 5 });
    expect(result.scope).toBe('radius');
    expect(new Set(result.entries.map((e) => e.store_id))).toEqual(new Set(['target', 'albertsons', 'whole-foods']));
    // Placed at the centre of the ZIP code searched: in 60611, distance unknown (never 0.0 mi).
    expect(result.entries.every((e) => e.source === 'sample' && e.zip === '60611' && e.distance_miles === null)).toBe(
      true,
    );
    // In the northeast nobody has scraped prices: every store's sample location is there.
    const newYork = await near({ zip: '10001', radius: 5, count: 12, egg_type: 'standard' });
    expect(newYork.entries.map((e) => e.store_id).sort()).toEqual([
      'albertsons',
      'aldi',
      'target',
      'walmart',
      'whole-foods',
    ]);
  });

  it('ranks a store of unknown distance after the measured ones at an equal price', async () => {
    // Two dozens at $3.99 in Des Moines: one with the retailer's coordinates 2 miles off, one
    // placed at the centre of the ZIP code searched.
    const measured = await addListing(db.sql, { store: 'target', zip: '50317', count: 20, price: 6.65 });
    const placed = await addListing(db.sql, { store: 'albertsons', zip: CENTRE, count: 20, price: 6.65 });
    await db.sql`update store_locations set coordinates_source = 'retailer' where id = ${measured.locationId}`;
    try {
      const result = await near({ zip: CENTRE, radius: 25, count: 20 });
      expect(pairs(result)).toEqual([pair(measured), pair(placed)]);
      expect(result.entries[0]!.distance_miles).toBeGreaterThan(0);
      expect(result.entries[1]).toMatchObject({ zip: CENTRE, distance_miles: null });
      // From another ZIP code, the distance between the two centres stands.
      const fromAmes = await near({ zip: '50010', radius: 50, count: 20 });
      expect(fromAmes.entries.find((e) => e.location_id === placed.locationId)!.distance_miles).toBeGreaterThan(25);
    } finally {
      await db.sql`delete from products where id in (${measured.productId}, ${placed.productId})`;
    }
  });

  it('says no store is near Anchorage or Honolulu, and how far the nearest is, rather than listing a far region', async () => {
    for (const zip of ['99501', '96813']) {
      const result = await near({ zip, radius: 50 });
      expect(result).toMatchObject({ zip, region: 'west', scope: 'far', total: 0, entries: [] });
      expect(result.nearest!.distance_miles).toBeGreaterThan(500);
      expect(result.nearest).toMatchObject({ store_name: expect.any(String), zip: expect.any(String) });
    }
    // Bismarck's nearest store is within 500 miles: its region's cheapest stand. Rapid City's is 505.
    expect((await near({ zip: '58501', radius: 50 })).scope).toBe('region');
    expect(await near({ zip: '57701', radius: 50 })).toMatchObject({ scope: 'far', nearest: { zip: '50401' } });
  });

  it('leaves out inactive stores', async () => {
    await db.sql`update stores set active = false where id = 'aldi'`;
    try {
      expect(pairs(await near({ zip: CENTRE, radius: 25 }))).toEqual([pair(kroger), pair(walmart)]);
    } finally {
      await db.sql`update stores set active = true where id = 'aldi'`;
    }
  });

  it('counts the total before the limit', async () => {
    const result = await near({ zip: CENTRE, radius: 25, limit: 1 });
    expect(result.total).toBe(3);
    expect(pairs(result)).toEqual([pair(aldi)]);
  });

  it('chooses the radius by the nearest location with a shown entry, across a state and a region line', async () => {
    // Cincinnati, OH (midwest) and Covington, KY (south) across the river. Kroger has scraped
    // prices in the midwest (Polk City) and none in the south: its sample price in Cincinnati is
    // hidden, the one in Covington is shown.
    const hidden = await addListing(db.sql, { store: 'kroger', zip: '45202', count: 15, price: 2.5, source: 'sample' });
    const shown = await addListing(db.sql, { store: 'kroger', zip: '41011', count: 15, price: 3.5, source: 'sample' });
    expect(milesFrom('45202', '41011')).toBeLessThan(5);
    const result = await near({ zip: '45202', radius: 5, count: 15 });
    expect(result).toMatchObject({ state: 'OH', region: 'midwest', scope: 'radius', radius_used: 5, total: 1 });
    expect(pairs(result)).toEqual([pair(shown)]);
    expect(result.entries[0]).toMatchObject({ state: 'KY', region: 'south', source: 'sample' });
    expect(pairs(await near({ zip: '41011', radius: 50 }))).not.toContainEqual(pair(hidden));

    // A hidden price at the ZIP code itself does not keep the radius: the nearest shown one is
    // Walmart's scraped price in Hamilton, OH, about 20 miles away.
    await addListing(db.sql, {
      store: 'walmart',
      zip: '45202',
      eggType: 'organic',
      count: 15,
      price: 5.99,
      source: 'sample',
    });
    const hamilton = await addListing(db.sql, {
      store: 'walmart',
      zip: '45011',
      eggType: 'organic',
      count: 15,
      price: 6.99,
    });
    expect(milesFrom('45202', '45011')).toBeGreaterThan(10);
    expect(milesFrom('45202', '45011')).toBeLessThan(25);
    const widened = await near({ zip: '45202', radius: 5, egg_type: 'organic', count: 15 });
    expect(widened).toMatchObject({ scope: 'widened', radius_used: 25, total: 1 });
    expect(pairs(widened)).toEqual([pair(hamilton)]);
  });

  it('keeps a location just within a radius and leaves out one just beyond it, at 10 and at 50 miles', async () => {
    // Locations placed by their own coordinates: due north of Cincinnati at 9.9 and 10.1 miles,
    // due east at 49.9 and 50.1 (inside the bounding box of 50 miles, which is wider than the circle).
    const centre = zipFacts('45202')!;
    const north = (miles: number) => ({
      latitude: centre.latitude + (miles / EARTH_RADIUS_MILES) * (180 / Math.PI),
      longitude: centre.longitude,
    });
    const east = (miles: number) => {
      const span =
        2 * Math.asin(Math.sin(miles / EARTH_RADIUS_MILES / 2) / Math.cos((centre.latitude * Math.PI) / 180));
      return { latitude: centre.latitude, longitude: centre.longitude + span * (180 / Math.PI) };
    };
    const placed = async (zip: string, at: { latitude: number; longitude: number }, count: number) => {
      const listing = await addListing(db.sql, { store: 'aldi', zip, count, price: 4 });
      await db.sql`update store_locations set latitude = ${at.latitude}, longitude = ${at.longitude}, coordinates_source = 'retailer' where id = ${listing.locationId}`;
      return listing;
    };
    // Aldi's locations are one per ZIP code here: each at a ZIP code of its own.
    const inside10 = await placed('45069', north(9.9), 20);
    const beyond10 = await placed('45011', north(10.1), 20);
    const inside50 = await placed('45150', east(49.9), 20);
    const beyond50 = await placed('45103', east(50.1), 21);
    await placed('45140', east(50.1), 20);

    const ten = await near({ zip: '45202', radius: 10, count: 20 });
    expect(ten).toMatchObject({ scope: 'radius', radius_used: 10, total: 1 });
    expect(pairs(ten)).toEqual([pair(inside10)]);
    expect(ten.entries[0]!.distance_miles).toBe(9.9);
    expect(await near({ zip: '45202', radius: 5, count: 20 })).toMatchObject({
      scope: 'widened',
      radius_used: 10,
      total: 1,
    });
    const fifty = await near({ zip: '45202', radius: 50, count: 20 });
    expect(pairs(fifty)).toEqual([pair(inside10), pair(beyond10), pair(inside50)]);
    expect(fifty.entries.map((e) => e.distance_miles)).toEqual([9.9, 10.1, 49.9]);
    // Only a location 50.1 miles away: beyond every radius, so the region's entries answer.
    const region = await near({ zip: '45202', radius: 50, count: 21 });
    expect(region).toMatchObject({ scope: 'region', radius_used: null });
    expect(pairs(region)).toEqual([pair(beyond50)]);
    expect(region.entries[0]!.distance_miles).toBe(50.1);
  });

  it('accepts a ZIP+4 code', async () => {
    expect((await near({ zip: '50309-1234', radius: 5 })).zip).toBe(CENTRE);
  });

  it('rejects malformed input with the validation message', async () => {
    for (const zip of ['5030', '503090', 'abcde', '', ' ']) {
      const error = await failure({ zip });
      expect(error.code, zip).toBe('BAD_REQUEST');
      expect(messageOf(error), zip).toMatch(/zip must be a 5-digit US ZIP code/);
    }
    expect(messageOf(await failure({}))).toMatch(/zip/);
    expect(messageOf(await failure({ zip: CENTRE, radius: 7 }))).toMatch(/radius must be one of 5, 10, 25, 50/);
    expect(messageOf(await failure({ zip: CENTRE, radius: 'far' }))).toMatch(/radius must be a number/);
    expect(messageOf(await failure({ zip: CENTRE, egg_type: 'brown' }))).toMatch(/Unknown egg type/);
    expect(messageOf(await failure({ zip: CENTRE, count: 0 }))).toMatch(/count must be at least 1/);
    expect(messageOf(await failure({ zip: CENTRE, limit: 5001 }))).toMatch(/limit must be at most 5000/);
    expect(messageOf(await failure({ zip: CENTRE, offset: -1 }))).toMatch(/offset must be at least 0/);
    expect((await failure({ zip: CENTRE, page: 2 })).code).toBe('BAD_REQUEST');
  });

  it('pages with limit and offset: every page has the same total and scope, one past the end none of the entries', async () => {
    const whole = await near({ zip: CENTRE, radius: 25 });
    const pages = [
      await near({ zip: CENTRE, radius: 25, limit: 2 }),
      await near({ zip: CENTRE, radius: 25, limit: 2, offset: 2 }),
    ];
    expect(pages.map((page) => [page.total, page.scope, page.radius_used])).toEqual([
      [3, 'radius', 25],
      [3, 'radius', 25],
    ]);
    expect(pages.flatMap(pairs)).toEqual(pairs(whole));
    expect(await near({ zip: CENTRE, radius: 25, limit: 2, offset: 10 })).toMatchObject({
      scope: 'radius',
      radius_used: 25,
      total: 3,
      entries: [],
    });
  });

  it('rejects ZIP codes the geodata does not know or that have no census region', async () => {
    for (const zip of ['00000', '99999', '00601' /* Puerto Rico */, '96910' /* Guam */]) {
      const error = await failure({ zip });
      expect(error.code, zip).toBe('BAD_REQUEST');
      expect(error.message).toBe(`Unknown ZIP code ${zip}`);
    }
  });
});
