// What a store's locations charge, through the procedures that carry it (the dashboard's page of
// cards, a card's lookup, the store page's insights) and over HTTP at
// GET /api/stores/{storeId}/locations/figures, with its bad input and OpenAPI entry.
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../test/db.ts';
import { callerFor } from '../../test/caller.ts';
import { addListing } from '../../test/listings.ts';
import { refreshRollups } from './queries/rollups.ts';
import { restServer } from '../../test/rest.ts';
import type { LocationFigures } from '../shared/location-figures.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

const rest = restServer({
  async prepare(database) {
    db = database;
    // Target's standard dozen at three Midwest stores ($3.10, $3.50, $4.90) and, out of stock, $2.00.
    await addListing(db.sql, { store: 'target', zip: '60601', price: 3.1 });
    await addListing(db.sql, { store: 'target', zip: '55401', price: 3.5 });
    await addListing(db.sql, { store: 'target', zip: '63101', price: 4.9 });
    const gone = await addListing(db.sql, { store: 'target', zip: '48226', price: 2.0 });
    await db.sql`update price_observations set in_stock = false where product_id = ${gone.productId}`;
    // The store page's figures are precomputed by the rollup refresh that follows price writes.
    await refreshRollups(db.sql, { all: true });
    caller = callerFor({ sql: db.sql });
  },
});
const get = (path: string) => rest.call('GET', path);

const expected = {
  store_id: 'target',
  region: 'midwest',
  egg_type: 'standard',
  count: 12,
  locations: 3,
  median_per_dozen: 3.5,
  lowest_per_dozen: 3.1,
  highest_per_dozen: 4.9,
  sample: false,
};

describe('the procedures that carry the figures', () => {
  it("gives each card of the dashboard's page its store's figures, and none where no location has today's price", async () => {
    const page = await caller.prices.dashboard({
      filters: { store: 'target', region: 'midwest', eggType: 'standard' },
      page: 1,
      pageSize: 9,
    });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.locations).toMatchObject({
      ...expected,
      cheapest: { zip: '60601', city: 'Chicago', state: 'IL', price: 3.1 },
    });
    // The whole first page in one call: Target's Midwest card has the figures, the sample stores' one location each.
    const first = await caller.prices.dashboard({ page: 1, pageSize: 60 });
    const target = first.items.filter((item) => item.store_id === 'target');
    for (const item of first.items) {
      if (item.locations)
        expect(item.locations).toMatchObject({
          store_id: item.store_id,
          region: item.region,
          egg_type: item.egg_type,
          count: item.count,
        });
    }
    expect(target.every((item) => item.locations !== null)).toBe(true);
    // Kroger's only West price was read three days ago (its sample prices there are hidden by it): not today's, so no figures, never zero.
    const old = await addListing(db.sql, { store: 'kroger', zip: '84101', price: 2.5 });
    await db.sql`update price_observations set observed_at = now() - interval '3 days', observed_on = utc_day(now() - interval '3 days') where product_id = ${old.productId}`;
    const stale = await caller.prices.dashboard({ filters: { store: 'kroger', region: 'west' }, page: 1, pageSize: 9 });
    expect(stale.items[0]).toMatchObject({ store_id: 'kroger', region: 'west', price: 2.5 });
    expect(stale.items[0]!.locations).toBeNull();
  });

  it("gives a card's other combination its figures through the lookup", async () => {
    const found = await caller.prices.lookup({ store: 'target', region: 'midwest', egg_type: 'standard', count: 12 });
    expect(found!.locations).toMatchObject(expected);
    // An estimate (no 30-pack at Target) has no figures.
    const estimate = await caller.prices.lookup({
      store: 'target',
      region: 'midwest',
      egg_type: 'standard',
      count: 30,
    });
    expect(estimate).not.toBeNull();
    expect(estimate!.locations).toBeNull();
  });

  it("lists the store page's figures under its filters, and puts each on its entries", async () => {
    const insights = await caller.stores.insights({
      storeId: 'target',
      region: 'midwest',
      egg_type: 'standard',
      count: 12,
    });
    expect(insights.location_figures).toEqual([expect.objectContaining(expected)]);
    expect(insights.entries.length).toBeGreaterThanOrEqual(3);
    // The out-of-stock entry's card too shows what the other locations charge.
    for (const entry of insights.entries) expect(entry.locations).toEqual(insights.location_figures[0]);
    expect(insights.entries.some((entry) => entry.in_stock === false)).toBe(true);
  });
});

describe('GET /api/stores/{storeId}/locations/figures', () => {
  it("answers what the store's locations charge per combination, filtered, without a session", async () => {
    const { status, body } = await get(
      '/api/stores/Target/locations/figures?region=midwest&egg_type=Standard&count=12',
    );
    expect(status).toBe(200);
    const figures = body as LocationFigures[];
    expect(figures).toEqual([
      {
        ...expected,
        cheapest: {
          entry_id: expect.any(Number),
          product_id: expect.any(Number),
          location_id: expect.any(Number),
          price: 3.1,
          price_per_dozen: 3.1,
          name: 'target Chicago',
          city: 'Chicago',
          state: 'IL',
          zip: '60601',
        },
      },
    ]);
    // Unfiltered: every combination, the sample catalogue's marked as such.
    const all = (await get('/api/stores/target/locations/figures')).body as LocationFigures[];
    expect(all.length).toBeGreaterThan(1);
    expect(all.filter((f) => f.region !== 'midwest').every((f) => f.sample)).toBe(true);
  });

  it('answers 404 for an unknown store and 400 for bad filters', async () => {
    expect(await get('/api/stores/costco/locations/figures')).toMatchObject({
      status: 404,
      body: { message: "Store 'costco' not found" },
    });
    const bad = await get('/api/stores/target/locations/figures?count=dozen');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/count must be a number/);
    expect((await get('/api/stores/target/locations/figures?region=moon')).status).toBe(400);
  });

  it('is in the OpenAPI document with its filters and response', async () => {
    const doc = (await get('/api/openapi.json')).body as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string }>; responses: Record<string, unknown> } }>;
    };
    const path = doc.paths['/api/stores/{storeId}/locations/figures']?.get;
    expect(path).toBeDefined();
    expect(path!.parameters!.map((p) => p.name).sort()).toEqual([
      'count',
      'egg_type',
      'limit',
      'offset',
      'region',
      'storeId',
    ]);
    expect(JSON.stringify(path!.responses['200'])).toContain('median_per_dozen');
  });
});
