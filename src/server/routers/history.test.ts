// prices.history against a real database: daily observations placed a known number of UTC days
// ago, and the BLS national series rewritten relative to the current month, so the answers do not
// depend on the day the test runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { addListing, type Listing } from '../../../test/listings.ts';
import { zipFacts } from '../geo.ts';
import { describeZodError } from '../trpc.ts';
import { BENCHMARK_SERIES } from '../seed.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;
let listing: Listing;
let single: Listing;

const DAY_MS = 86_400_000;
/** The UTC day `n` days ago, YYYY-MM-DD. */
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
/** The month `n` months before the current UTC month, YYYY-MM. */
const monthsAgo = (n: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1)).toISOString().slice(0, 7);
};

async function observe(target: Listing, prices: Record<number, number>) {
  for (const [ago, price] of Object.entries(prices)) {
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${target.productId}, ${target.locationId}, ${price}, now() - make_interval(days => ${Number(ago)}), utc_day(now() - make_interval(days => ${Number(ago)})), 'scrape')
      on conflict (product_id, location_id, observed_on) do update set price = excluded.price`;
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
  // Today $3.29 (addListing), yesterday $3.49; then older days, one outside every span.
  listing = await addListing(db.sql, {
    store: 'target',
    zip: '55401',
    count: 18,
    price: 3.29,
    previous: 3.49,
    title: 'Good & Gather Grade A Large Eggs, 18 ct',
  });
  await observe(listing, { 5: 2.99, 29: 3.99, 30: 4.49, 40: 1.99, 100: 5.49, 400: 0.99 });
  // Today $3.00 and 40 days ago $2.00: nothing else.
  single = await addListing(db.sql, { store: 'aldi', zip: '55401', price: 3.0 });
  await observe(single, { 40: 2.0 });
  // The BLS national series: the 14 months before the current one, $2.00, $2.01, ...
  await db.sql`delete from market_prices where series_id = ${BENCHMARK_SERIES.national}`;
  for (let n = 14; n >= 1; n--) {
    await db.sql`
      insert into market_prices (series_id, region, item, grade, period, price)
      values (${BENCHMARK_SERIES.national}, 'national', 'Eggs, grade A, large, per doz.', 'A', ${`${monthsAgo(n)}-01`}, ${2 + (14 - n) / 100})`;
  }
});
afterAll(() => db.drop());

const history = (input: { id: number; location: number; days?: number }) => caller.prices.history(input as never);

async function failure(input: unknown): Promise<TRPCError> {
  const error = await caller.prices.history(input as never).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}
const messageOf = (error: TRPCError) =>
  error.cause instanceof ZodError ? describeZodError(error.cause) : error.message;

describe('prices.history', () => {
  it('answers the product, its location and the daily prices of the last 30 UTC days', async () => {
    const result = await history({ id: listing.productId, location: listing.locationId, days: 30 });
    expect(result.product).toMatchObject({
      id: listing.productId,
      store_id: 'target',
      store_name: 'Target',
      title: 'Good & Gather Grade A Large Eggs, 18 ct',
      egg_type: 'standard',
      count: 18,
    });
    expect(result.location).toEqual({
      id: listing.locationId,
      name: expect.any(String),
      zip: '55401',
      city: zipFacts('55401')!.city,
      state: 'MN',
      region: 'midwest',
    });
    expect(result.days).toBe(30);
    expect(result.source).toBe('scrape');
    expect(result.points).toEqual([
      { day: daysAgo(29), price: 3.99, price_per_dozen: 2.66 },
      { day: daysAgo(5), price: 2.99, price_per_dozen: 1.99 },
      { day: daysAgo(1), price: 3.49, price_per_dozen: 2.33 },
      { day: daysAgo(0), price: 3.29, price_per_dozen: 2.19 },
    ]);
    expect(result.lowest).toEqual({ day: daysAgo(5), price: 2.99 });
    expect(result.highest).toEqual({ day: daysAgo(29), price: 3.99 });
    expect(result.latest).toEqual({ day: daysAgo(0), price: 3.29 });
    expect(result.change).toEqual({ value: -0.2, percent: -5.73, since: daysAgo(1) });
  });

  it('widens with the span: 90 and 365 days', async () => {
    const ninety = await history({ id: listing.productId, location: listing.locationId, days: 90 });
    expect(ninety.points.map((p) => p.day)).toEqual([
      daysAgo(40),
      daysAgo(30),
      daysAgo(29),
      daysAgo(5),
      daysAgo(1),
      daysAgo(0),
    ]);
    expect(ninety.lowest).toEqual({ day: daysAgo(40), price: 1.99 });
    expect(ninety.highest).toEqual({ day: daysAgo(30), price: 4.49 });
    const year = await history({ id: listing.productId, location: listing.locationId, days: 365 });
    expect(year.points).toHaveLength(7);
    expect(year.points[0]).toEqual({ day: daysAgo(100), price: 5.49, price_per_dozen: 3.66 });
    expect(year.highest).toEqual({ day: daysAgo(100), price: 5.49 });
    // 400 days ago is outside every span.
    expect(year.lowest).toEqual({ day: daysAgo(40), price: 1.99 });
  });

  it('defaults to 90 days', async () => {
    expect((await history({ id: listing.productId, location: listing.locationId })).days).toBe(90);
  });

  it('measures the latest change against the observation before it, even outside the span', async () => {
    const result = await history({ id: single.productId, location: single.locationId, days: 30 });
    expect(result.points).toEqual([{ day: daysAgo(0), price: 3, price_per_dozen: 3 }]);
    expect(result.lowest).toEqual(result.latest);
    expect(result.highest).toEqual(result.latest);
    expect(result.change).toEqual({ value: 1, percent: 50, since: daysAgo(40) });
  });

  it('gives the most recent day when the lowest or highest price repeats', async () => {
    const repeat = await addListing(db.sql, { store: 'albertsons', zip: '55401', price: 4.0, previous: 2.5 });
    await observe(repeat, { 3: 2.5, 6: 4.0 });
    const result = await history({ id: repeat.productId, location: repeat.locationId, days: 30 });
    expect(result.lowest).toEqual({ day: daysAgo(1), price: 2.5 });
    expect(result.highest).toEqual({ day: daysAgo(0), price: 4 });
  });

  it('counts the days of prices the product has there in all, inside the span or before it', async () => {
    expect((await history({ id: listing.productId, location: listing.locationId, days: 30 })).history_days).toBe(8);
    const fresh = await addListing(db.sql, { store: 'walmart', zip: '55401', price: 2.49 });
    const result = await history({ id: fresh.productId, location: fresh.locationId, days: 90 });
    expect(result).toMatchObject({ history_days: 1, points: [{ day: daysAgo(0), price: 2.49 }] });
  });

  it('answers an empty span without a latest price or change', async () => {
    const old = await addListing(db.sql, { store: 'kroger', zip: '55401', price: 2.79 });
    await db.sql`update price_observations set observed_at = now() - interval '45 days', observed_on = utc_day(now() - interval '45 days') where product_id = ${old.productId}`;
    const result = await history({ id: old.productId, location: old.locationId, days: 30 });
    expect(result).toMatchObject({ points: [], lowest: null, highest: null, latest: null, change: null, source: null });
    expect((await history({ id: old.productId, location: old.locationId, days: 90 })).points).toHaveLength(1);
  });

  it('gives the BLS national average for the months of the span', async () => {
    const year = await history({ id: listing.productId, location: listing.locationId, days: 365 });
    const firstMonth = daysAgo(364).slice(0, 7);
    const expected = Array.from({ length: 14 }, (_, i) => 14 - i)
      .map((n) => ({ period: monthsAgo(n), price: 2 + (14 - n) / 100 }))
      .filter((month) => month.period >= firstMonth);
    expect(year.bls).toEqual(expected);
    expect(year.bls.length).toBeGreaterThanOrEqual(11);
    // 30 days cover last month (or only this one): either way, last month's figure.
    const month = await history({ id: listing.productId, location: listing.locationId, days: 30 });
    expect(month.bls).toEqual([{ period: monthsAgo(1), price: 2.13 }]);
  });

  it('falls back to the latest published month when none of the span is published', async () => {
    await db.sql`delete from market_prices where series_id = ${BENCHMARK_SERIES.national} and period >= ${`${monthsAgo(2)}-01`}`;
    const month = await history({ id: listing.productId, location: listing.locationId, days: 30 });
    expect(month.bls).toEqual([{ period: monthsAgo(3), price: 2.11 }]);
  });

  it('is NOT_FOUND for an unknown product or location, or one without a price there', async () => {
    const [elsewhere] = await db.sql<
      { id: number }[]
    >`select id from store_locations where store_id = 'walmart' limit 1`;
    for (const [id, location] of [
      [999_999, listing.locationId],
      [listing.productId, 999_999],
      [listing.productId, elsewhere!.id],
    ] as const) {
      const error = await failure({ id, location });
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toBe(`No price history for product ${id} at location ${location}`);
    }
  });

  it('has no history for a sample price that scraped prices replaced', async () => {
    const [sample] = await db.sql<{ product_id: number; location_id: number }[]>`
      select e.product_id, e.location_id from price_entries e join store_locations l on l.id = e.location_id
      where l.store_id = 'whole-foods' and l.region = 'west' and e.source = 'sample' limit 1`;
    expect((await history({ id: sample!.product_id, location: sample!.location_id })).source).toBe('sample');
    await addListing(db.sql, { store: 'whole-foods', zip: '98101', price: 6.99 });
    expect((await failure({ id: sample!.product_id, location: sample!.location_id })).code).toBe('NOT_FOUND');
  });

  it('rejects bad input with the validation message', async () => {
    const ok = { id: listing.productId, location: listing.locationId };
    expect(messageOf(await failure({ ...ok, days: 7 }))).toMatch(/days must be one of 30, 90, 365/);
    expect(messageOf(await failure({ ...ok, days: 'week' }))).toMatch(/days must be a number/);
    expect(messageOf(await failure({ ...ok, id: 0 }))).toMatch(/id must be at least 1/);
    expect(messageOf(await failure({ ...ok, location: 'x' }))).toMatch(/location must be a number/);
    expect(messageOf(await failure({ ...ok, location: 1.5 }))).toMatch(/location must be a whole number/);
    expect((await failure({ id: listing.productId })).code).toBe('BAD_REQUEST');
    expect((await failure({ ...ok, extra: 1 })).code).toBe('BAD_REQUEST');
  });
});
