// Prices by state (the shoppers' US map) over real HTTP: today's median per dozen in each state,
// its range and change since last week, a state's cheapest entries, the CSV, and bad input.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { TestDatabase } from '../../test/db.ts';
import { addListing, type Listing } from '../../test/listings.ts';
import { restServer } from '../../test/rest.ts';
import { refreshRollups } from './queries/rollups.ts';
import type { PriceMapResult, PriceMapCheapestResult } from '../shared/price-map.ts';

let db: TestDatabase;
let walmart: Listing;

const rest = restServer({
  async prepare(database) {
    db = database;
    // Salt Lake City: three stores, standard eggs at $3.00 and $4.20 a dozen and $5.40 for 18.
    walmart = await addListing(db.sql, { store: 'walmart', zip: '84101', price: 3.0 });
    await addListing(db.sql, { store: 'target', zip: '84101', price: 4.2 });
    await addListing(db.sql, { store: 'kroger', zip: '84101', price: 5.4, count: 18 });
    // Last week Walmart's dozen was $2.70; an organic dozen in Utah does not count for standard eggs.
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${walmart.productId}, ${walmart.locationId}, 2.70, now() - interval '7 days', utc_day(now() - interval '7 days'), 'scrape')`;
    await addListing(db.sql, { store: 'aldi', zip: '84101', price: 6.5, eggType: 'organic' });
    // A price read three days ago is not today's.
    const stale = await addListing(db.sql, { store: 'albertsons', zip: '84101', price: 1.0 });
    await db.sql`update price_observations set observed_at = now() - interval '3 days', observed_on = utc_day(now() - interval '3 days') where product_id = ${stale.productId}`;
    // The map reads the figures the rollup refresh keeps (migration 020).
    await refreshRollups(db.sql, { all: true });
  },
});
const { get } = rest;

describe('GET /api/egg-prices/by-state', () => {
  it("answers every state's median per dozen today, its range, and its change since last week", async () => {
    const { status, text } = await get('/api/egg-prices/by-state');
    expect(status).toBe(200);
    const result = JSON.parse(text) as PriceMapResult;
    expect(result.egg_type).toBe('standard');
    expect(result.states).toHaveLength(51);
    expect(result.states.map((s) => s.state)).toEqual([...result.states.map((s) => s.state)].sort());
    const utah = result.states.find((s) => s.state === 'UT')!;
    expect(utah).toMatchObject({
      region: 'west',
      median_per_dozen: 3.6,
      lowest_per_dozen: 3,
      highest_per_dozen: 4.2,
      entries: 3,
      stores: 3,
      sample: false,
      week_ago_median_per_dozen: 2.7,
      change: 0.9,
      change_percent: 33.3,
    });
    // No prices in Wyoming: no data, never zero.
    expect(result.states.find((s) => s.state === 'WY')).toMatchObject({
      median_per_dozen: null,
      entries: 0,
      change: null,
    });
    // The sample catalogue's states are marked as such.
    expect(result.states.some((s) => s.sample && s.median_per_dozen !== null)).toBe(true);
  });

  it('takes the egg type and pack size asked for', async () => {
    const organic = JSON.parse((await get('/api/egg-prices/by-state?egg_type=Organic')).text) as PriceMapResult;
    expect(organic.states.find((s) => s.state === 'UT')).toMatchObject({ median_per_dozen: 6.5, entries: 1 });
    const eighteen = JSON.parse((await get('/api/egg-prices/by-state?count=18')).text) as PriceMapResult;
    expect(eighteen.states.find((s) => s.state === 'UT')).toMatchObject({
      median_per_dozen: 3.6,
      entries: 1,
      week_ago_median_per_dozen: null,
      change: null,
    });
  });

  it('downloads as CSV, one row per state', async () => {
    const { status, headers, text } = await get('/api/egg-prices/by-state.csv?egg_type=standard');
    expect(status).toBe(200);
    expect(headers.get('content-disposition')).toMatch(
      /^attachment; filename="egg-prices-by-state-standard-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(51);
    expect(rows.find((r) => r.state === 'UT')).toMatchObject({
      median_per_dozen: '3.6',
      change: '0.9',
      sample: 'false',
    });
    expect(rows.find((r) => r.state === 'WY')).toMatchObject({ median_per_dozen: '' });
  });

  it('answers 400 with a message for bad input', async () => {
    for (const path of [
      '/api/egg-prices/by-state?egg_type=brown',
      '/api/egg-prices/by-state?count=0',
      '/api/egg-prices/by-state?zip=84101',
    ]) {
      const { status, text } = await get(path);
      expect(status, path).toBe(400);
      expect(JSON.parse(text).message.length, path).toBeGreaterThan(3);
    }
  });
});

describe('GET /api/egg-prices/by-state/{state}', () => {
  it("lists a state's cheapest entries today, cheapest per dozen first", async () => {
    const result = JSON.parse((await get('/api/egg-prices/by-state/ut')).text) as PriceMapCheapestResult;
    expect(result.state).toBe('UT');
    expect(result.entries.map((e) => [e.store_id, e.price_per_dozen])).toEqual([
      ['walmart', 3],
      ['kroger', 3.6],
      ['target', 4.2],
    ]);
    expect(result.entries[0]).toMatchObject({ price: 3, city: 'Salt Lake City', location_id: walmart.locationId });
    const one = JSON.parse(
      (await get('/api/egg-prices/by-state/UT?limit=1&egg_type=organic')).text,
    ) as PriceMapCheapestResult;
    expect(one.entries.map((e) => e.store_id)).toEqual(['aldi']);
  });

  it('pages like every list: X-Total-Count, Link, and the same order across pages', async () => {
    const first = await get('/api/egg-prices/by-state/UT?limit=2');
    const second = await get('/api/egg-prices/by-state/UT?limit=2&offset=2');
    expect([first.headers.get('x-total-count'), second.headers.get('x-total-count')]).toEqual(['3', '3']);
    expect(first.headers.get('link')).toContain('</api/egg-prices/by-state/UT?limit=2&offset=2>; rel="next"');
    const stores = [first, second].flatMap((page) =>
      (JSON.parse(page.text) as PriceMapCheapestResult).entries.map((e) => e.store_id),
    );
    expect(stores).toEqual(['walmart', 'kroger', 'target']);
    const past = JSON.parse((await get('/api/egg-prices/by-state/UT?offset=10')).text) as PriceMapCheapestResult;
    expect(past).toMatchObject({ total: 3, entries: [] });
    const states = await get('/api/egg-prices/by-state?limit=5&offset=50');
    expect(states.headers.get('x-total-count')).toBe('51');
    expect((JSON.parse(states.text) as PriceMapResult).states.map((s) => s.state)).toEqual(['WY']);
  });

  it('answers 400 for a code that is not a state', async () => {
    for (const state of ['XX', 'PR', 'utah']) {
      const { status, text } = await get(`/api/egg-prices/by-state/${state}`);
      expect(status, state).toBe(400);
      expect(JSON.parse(text).message).toMatch(/Not a US state code/);
    }
    // The one limit of every list: at most 5,000.
    const over = await get('/api/egg-prices/by-state/UT?limit=5001');
    expect(over.status).toBe(400);
    expect(JSON.parse(over.text).message).toMatch(/limit must be at most 5000/);
  });
});
