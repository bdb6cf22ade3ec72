// The ticker's price events from crafted price histories: each of the four shapes when it is true,
// none when it is not, and the sample marker.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EggType, Region } from '#shared/vocabulary.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { seedStores } from '../seed.ts';
import { refreshRollups } from './rollups.ts';
import { nationalWeeklyChange, regionWeeklyChange, storeSale, storeStreak, tickerEvents } from './price-events.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  await db.sql.begin((tx) => seedStores(tx));
});
afterAll(() => db.drop());
beforeEach(async () => {
  await db.sql`delete from price_observations`;
  await db.sql`delete from price_entries`;
  await db.sql`delete from products`;
  await db.sql`delete from store_locations`;
  await db.sql`delete from price_daily_rollups`;
  await db.sql`delete from price_store_daily_rollups`;
  await db.sql`delete from price_store_current_rollups`;
  await db.sql`delete from store_region_switches`;
});

/** Daily prices of one product at one location, the last one `endDaysAgo` days ago (today by default), then the rollup refreshed. */
async function history(
  store: string,
  region: Region,
  zip: string,
  eggType: EggType,
  prices: number[],
  source: 'scrape' | 'sample' = 'scrape',
  endDaysAgo = 0,
) {
  const [location] = await db.sql<{ id: number }[]>`
    insert into store_locations (store_id, zip, region) values (${store}, ${zip}, ${region})
    on conflict (store_id, zip) where retailer_location_id is null do update set region = excluded.region returning id`;
  const [product] = await db.sql<{ id: number }[]>`
    insert into products (store_id, retailer_product_id, title, egg_type, count) values (${store}, ${`${eggType}-${zip}`}, 'Eggs, 12 ct', ${eggType}, 12)
    on conflict (store_id, retailer_product_id) do update set title = excluded.title returning id`;
  const n = prices.length;
  await db.sql`
    insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
    select ${product!.id}, ${location!.id}, p, at, utc_day(at), ${source}
    from unnest(${db.sql.array(prices)}::numeric[]) with ordinality as t(p, i)
    cross join lateral (select now() - ((${n} - i + ${endDaysAgo}::int) * interval '1 day') as at) a`;
  await refreshRollups(db.sql, { all: true });
}

const flat = (price: number, days: number) => Array.from({ length: days }, () => price);

describe('a region’s egg type this week', () => {
  it('names the largest weekly change, rounded to a whole percent', async () => {
    await history('walmart', 'midwest', '60611', 'cage_free', [...flat(4, 7), ...flat(3.52, 7)]);
    await history('walmart', 'south', '30301', 'standard', [...flat(3, 7), ...flat(3.06, 7)]);
    expect(await regionWeeklyChange(db.sql)).toEqual({
      kind: 'region-week',
      text: 'Midwest cage-free prices down 12% this week',
      trend: 'down',
      sample: false,
    });
  });

  it('says nothing when no change reaches 1%', async () => {
    await history('walmart', 'midwest', '60611', 'cage_free', [...flat(4, 7), ...flat(4.01, 7)]);
    expect(await regionWeeklyChange(db.sql)).toBeNull();
  });
});

describe('a store’s streak', () => {
  it('counts consecutive daily rises ending today', async () => {
    await history('walmart', 'west', '94110', 'standard', [3, 3, 2.9, 3.0, 3.1, 3.2]);
    await history('target', 'west', '94110', 'standard', [3, 3.1, 3.2, 3.1, 3.0]);
    expect(await storeStreak(db.sql)).toEqual({
      kind: 'store-streak',
      text: 'Walmart egg prices up 3 days in a row',
      trend: 'up',
      sample: false,
    });
  });

  it('needs three days', async () => {
    await history('walmart', 'west', '94110', 'standard', [3, 3, 3.1, 3.2]);
    expect(await storeStreak(db.sql)).toBeNull();
  });
});

describe('a sale', () => {
  it('is a price at least 10% under its 30-day average', async () => {
    await history('whole-foods', 'northeast', '10001', 'organic', [...flat(6, 20), 5]);
    await history('kroger', 'midwest', '60611', 'organic', [...flat(6, 20), 5.7]);
    expect(await storeSale(db.sql)).toEqual({
      kind: 'sale',
      text: 'Organic eggs on sale at Whole Foods in the Northeast',
      trend: 'none',
      sample: false,
    });
  });

  it('compares the current prices, also those of a location not visited on the latest day', async () => {
    // The Bronx store's latest price is yesterday's 6.00: with today's 4.80 elsewhere the current
    // average is 5.40, 9.6% under the 30-day average (today's prices alone would be 20% under it).
    await history('whole-foods', 'northeast', '10451', 'organic', flat(6, 20), 'scrape', 1);
    await history('whole-foods', 'northeast', '10001', 'organic', [...flat(6, 20), 4.8]);
    expect(await storeSale(db.sql)).toBeNull();
    // At 4.50 the current average, 5.25, is 12% under it.
    await db.sql`
      update price_observations o set price = 4.5 from store_locations l
      where l.id = o.location_id and l.zip = '10001' and o.observed_on = utc_day(now())`;
    await refreshRollups(db.sql);
    expect(await storeSale(db.sql)).toEqual({
      kind: 'sale',
      text: 'Organic eggs on sale at Whole Foods in the Northeast',
      trend: 'none',
      sample: false,
    });
  });

  it('is none when every price is within 10% of its average', async () => {
    await history('kroger', 'midwest', '60611', 'organic', [...flat(6, 20), 5.7]);
    expect(await storeSale(db.sql)).toBeNull();
  });
});

describe('an egg type nationwide', () => {
  it('names the type whose average moved most this week', async () => {
    await history('aldi', 'west', '94110', 'pasture_raised', [...flat(7, 7), ...flat(6.5, 7)]);
    await history('aldi', 'south', '30301', 'pasture_raised', [...flat(7, 7), ...flat(6.6, 7)]);
    await history('aldi', 'south', '30301', 'standard', [...flat(3, 7), ...flat(3.05, 7)]);
    expect(await nationalWeeklyChange(db.sql)).toEqual({
      kind: 'national-week',
      text: 'Pasture-raised eggs seeing a nationwide price drop',
      trend: 'down',
      sample: false,
    });
  });
});

describe('a series that switched from sample to scraped prices', () => {
  it('has no weekly change until its history since the switch spans two weeks', async () => {
    await history('walmart', 'midwest', '60611', 'cage_free', flat(4, 20), 'sample');
    await history('walmart', 'midwest', '60614', 'cage_free', [...flat(6, 3), ...flat(5, 7)]);
    expect(await regionWeeklyChange(db.sql)).toBeNull();
    expect(await nationalWeeklyChange(db.sql)).toBeNull();
  });

  it('has no streak across the switch of one of the store’s regions', async () => {
    await history('walmart', 'midwest', '60611', 'standard', [3, 3.1, 3.2, 3.3, 3.4], 'sample');
    await history('walmart', 'south', '30303', 'standard', [3.5, 3.6]);
    expect(await storeStreak(db.sql)).toBeNull();
  });

  it('has no sale with less than 14 days of prices', async () => {
    await history('whole-foods', 'northeast', '10001', 'organic', [...flat(6, 12), 5]);
    expect(await storeSale(db.sql)).toBeNull();
  });
});

describe('the ticker', () => {
  it('lists the true shapes in order and marks those resting on sample prices', async () => {
    await history('walmart', 'midwest', '60611', 'cage_free', [...flat(4, 7), ...flat(3.52, 7)], 'sample');
    const events = await tickerEvents(db.sql);
    expect(events.map((e) => [e.kind, e.sample])).toEqual([
      ['region-week', true],
      ['national-week', true],
    ]);
  });

  it('is empty without prices', async () => {
    expect(await tickerEvents(db.sql)).toEqual([]);
  });
});
