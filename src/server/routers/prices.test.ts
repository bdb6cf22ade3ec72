import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { callerFor } from '../../../test/caller.ts';
import { listPriceEntries } from '../queries/prices.ts';
import { cheapestPerStore as listingEntries } from '../queries/cheapest.ts';
import { refreshRollups } from '../queries/rollups.ts';
import { selectListing } from '../../shared/sort.ts';
import { DEFAULT_FILTERS } from '../../shared/filters.ts';

let db: TestDatabase;
let caller: ReturnType<typeof callerFor>;

beforeAll(async () => {
  db = await createTestDatabase();
  caller = callerFor({ sql: db.sql });
});
afterAll(() => db.drop());

describe('prices.list', () => {
  it('returns every current entry with its documented field names, one per product and location', async () => {
    const entries = await caller.prices.list();
    const [{ pairs }] = (await db.sql<{ pairs: number }[]>`
      select count(distinct (product_id, location_id))::int as pairs from price_observations`) as unknown as [
      { pairs: number },
    ];
    expect(entries).toHaveLength(pairs);
    const entry = entries[0]!;
    expect(Object.keys(entry)).toEqual(
      expect.arrayContaining([
        'id',
        'store_id',
        'region',
        'egg_type',
        'count',
        'price',
        'unit_price',
        'size_grade',
        'trend_value',
        'trend_direction',
        'last_updated',
        'source_url',
      ]),
    );
    expect(typeof entry.price).toBe('number');
    expect(entry.unit_price).toBeCloseTo(entry.price / entry.count, 4);
    expect(entry.source).toBe('sample');
    expect(new Date(entry.last_updated).toISOString()).toBe(entry.last_updated.replace('Z', '.000Z'));
  });

  it('filters by store, region, egg type in either spelling and any case, and count', async () => {
    const entries = await caller.prices.list({ store: 'WALMART', region: 'West', egg_type: 'Cage-Free', count: 12 });
    expect(entries.length).toBe(1);
    expect(entries[0]).toMatchObject({ store_id: 'walmart', region: 'west', egg_type: 'cage_free', count: 12 });
    const underscored = await caller.prices.list({ egg_type: 'cage_free' });
    const dashed = await caller.prices.list({ egg_type: 'cage-free' });
    expect(underscored.map((e) => e.id)).toEqual(dashed.map((e) => e.id));
    expect(await caller.prices.list({ store: 'all', region: 'all', egg_type: 'all' })).toHaveLength(
      (await caller.prices.list()).length,
    );
  });

  it('pages with limit and offset in a stable order', async () => {
    const all = await caller.prices.list();
    const page = await caller.prices.list({ limit: 5, offset: 5 });
    expect(page.map((e) => e.id)).toEqual(all.slice(5, 10).map((e) => e.id));
  });

  it('pages a store and region filter as the same slice of the filtered list', async () => {
    // A page reads the filter's locations as a set (another plan than the whole list's): same entries.
    for (const filter of [{ store: 'walmart' }, { region: 'west' }, { store: 'walmart', region: 'west' }] as const) {
      const all = await caller.prices.list(filter);
      expect(all.length).toBeGreaterThanOrEqual(4);
      expect(
        all.every(
          (e) =>
            (!('store' in filter) || e.store_id === filter.store) &&
            (!('region' in filter) || e.region === filter.region),
        ),
      ).toBe(true);
      expect(await caller.prices.list({ ...filter, limit: 3, offset: 1 })).toEqual(all.slice(1, 4));
    }
  });

  it('rejects bad input with BAD_REQUEST and a message', async () => {
    for (const input of [
      { egg_type: 'brown' },
      { region: 'mars' },
      { limit: 0 },
      { count: 'abc' },
      { store: 'x y' },
      { extra: 1 },
    ]) {
      const error = await caller.prices.list(input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe('BAD_REQUEST');
    }
  });

  it('computes the trend against the latest price at least 7 days older', async () => {
    const [entry] = await caller.prices.list({ limit: 1 });
    const [ref] = await db.sql<{ price: number }[]>`
      select o.price from price_observations o
      where o.product_id = ${entry!.product_id} and o.location_id = ${entry!.location_id}
        and o.observed_on <= ${entry!.last_updated}::date - 7
      order by o.observed_on desc limit 1`;
    const expected = Math.round(((entry!.price - ref!.price) / ref!.price) * 10000) / 100;
    expect(entry!.trend_value).toBeCloseTo(expected, 2);
    expect(entry!.trend_direction).toBe(expected > 0 ? 'up' : expected < 0 ? 'down' : 'stable');
  });

  it('answers a null trend, value and direction, while the price has less than 7 days of history', async () => {
    const [location] = await db.sql<{ id: number }[]>`select id from store_locations where store_id = 'aldi' limit 1`;
    const [product] = await db.sql<{ id: number }[]>`
      insert into products (store_id, retailer_product_id, title, egg_type, count)
      values ('aldi', 'young-series', 'Young series eggs', 'standard', 12) returning id`;
    for (const daysAgo of [6, 0]) {
      await db.sql`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        values (${product!.id}, ${location!.id}, ${daysAgo ? 3 : 3.3}, now() - make_interval(days => ${daysAgo}),
                utc_day(now() - make_interval(days => ${daysAgo})), 'scrape')`;
    }
    const young = (await caller.prices.list({ store: 'aldi' })).find((e) => e.product_id === product!.id);
    // Up 10% over 6 days is not a 7-day change: no change and no history are different facts.
    expect(young).toMatchObject({ price: 3.3, trend_value: null, trend_direction: null });
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${product!.id}, ${location!.id}, 3, now() - interval '7 days', utc_day(now() - interval '7 days'), 'scrape')`;
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${product!.id}, ${location!.id}, 3.3, now(), utc_day(now()), 'scrape')
      on conflict (product_id, location_id, observed_on) do update set price = excluded.price`;
    const week = (await caller.prices.list({ store: 'aldi' })).find((e) => e.product_id === product!.id);
    expect(week).toMatchObject({ trend_value: 10, trend_direction: 'up' });
    await db.sql`delete from products where id = ${product!.id}`;
  });

  it('hides sample prices for a store and region once scraped prices arrive there, and keeps the history idempotent', async () => {
    const [location] = await db.sql<
      { id: number }[]
    >`select id from store_locations where store_id = 'target' and region = 'south'`;
    const [product] = await db.sql<
      { id: number }[]
    >`select id from products where store_id = 'target' and retailer_product_id = 'sample-standard-12'`;
    const before = await caller.prices.list({ store: 'target', region: 'south' });
    expect(before.every((e) => e.source === 'sample')).toBe(true);

    for (const price of [3.19, 3.29]) {
      // The same day twice: the second write replaces the first, never duplicates.
      await db.sql`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        values (${product!.id}, ${location!.id}, ${price}, now(), utc_day(now()), 'scrape')
        on conflict (product_id, location_id, observed_on) do update set price = excluded.price, source = excluded.source`;
    }
    const after = await caller.prices.list({ store: 'target', region: 'south' });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ source: 'scrape', price: 3.29, egg_type: 'standard', count: 12 });
    // Other stores and regions still show their sample prices.
    expect((await caller.prices.list({ store: 'target', region: 'west' })).length).toBeGreaterThan(1);
  });
});

describe('prices.dashboard', () => {
  // The listing is chosen from the store figures, which the rollup refresh that follows price
  // writes computes (the seeded database has not had one yet).
  beforeAll(() => refreshRollups(db.sql));

  it("keeps each store's cheapest pack per dozen, cheapest first, and agrees with the Lowest price card", async () => {
    const result = await caller.prices.dashboard({ pageSize: 9 });
    expect(result.total).toBe(6);
    expect(result.items.map((e) => e.store_id).sort()).toEqual([
      'albertsons',
      'aldi',
      'kroger',
      'target',
      'walmart',
      'whole-foods',
    ]);
    const all = await listPriceEntries(db.sql);
    const perDozen = (e: { price: number; count: number }) => (e.price / e.count) * 12;
    for (const item of result.items) {
      const own = all.filter((e) => e.store_id === item.store_id);
      expect(perDozen(item)).toBe(Math.min(...own.map(perDozen)));
    }
    const dozens = result.items.map(perDozen);
    expect(dozens).toEqual([...dozens].sort((a, b) => a - b));
    const { lowest_price } = await caller.stats.get();
    expect(lowest_price).toMatchObject({ store_id: result.items[0]!.store_id, price: result.items[0]!.price });
    // Each card carries its real recent history for the sparkline, ending at its current price.
    for (const item of result.items) {
      expect(item.history.length).toBe(7);
      expect(item.history.at(-1)).toBe(item.price);
    }
  });

  it('applies filters (both spellings, any case) and pages with a clamped page number', async () => {
    const organic = await caller.prices.dashboard({
      filters: { eggType: 'ORGANIC', region: 'West', sortBy: 'unit-price' },
      pageSize: 4,
    });
    expect(organic.items.every((e) => e.egg_type === 'organic' && e.region === 'west')).toBe(true);
    expect(organic.pageCount).toBe(Math.ceil(organic.total / 4));
    const cageFree = await caller.prices.dashboard({
      filters: { eggType: 'cage_free', countRange: 18 },
      pageSize: 4,
      page: 2,
    });
    expect(cageFree.page).toBe(2);
    expect(cageFree.items.every((e) => e.egg_type === 'cage_free' && e.count === 18)).toBe(true);
    const beyond = await caller.prices.dashboard({ pageSize: 4, page: 99 });
    expect(beyond.page).toBe(beyond.pageCount);
    await expect(caller.prices.dashboard({ pageSize: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(caller.prices.dashboard({ filters: { countRange: 7 } } as never)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('lists what the shared listing rule picks from every current entry, in its order, for every sort', async () => {
    // Walmart's standard dozens all observed in the same second (the lowest id is kept), and one
    // of Target's a second newer than the rest of its class (it is kept).
    await db.sql`
      update price_entries e set observed_at = date_trunc('second', now()) + interval '0.4 seconds'
      from store_locations l, products p
      where l.id = e.location_id and p.id = e.product_id and l.store_id = 'walmart' and p.egg_type = 'standard' and p.count = 12`;
    await db.sql`
      update price_entries set observed_at = date_trunc('second', now()) + interval '1.2 seconds'
      where id = (select max(e.id) from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
                  where l.store_id = 'target' and p.egg_type = 'standard' and p.count = 12)`;
    // Entries written directly, not through observations: no day to refresh, so all of them.
    await refreshRollups(db.sql, { all: true });
    expect((await listingEntries(db.sql, {})).fromFigures).toBe(true);
    const all = await listPriceEntries(db.sql);
    for (const sortBy of ['price', 'unit-price', 'freshness', 'trend'] as const) {
      for (const filters of [
        {},
        { eggType: 'organic' as const },
        { region: 'west' as const, countRange: 18 as const },
        { store: 'walmart' },
      ]) {
        const selection = { ...DEFAULT_FILTERS, ...filters, sortBy };
        const result = await caller.prices.dashboard({ filters: selection, pageSize: 60 });
        expect(
          result.items.map((e) => e.id),
          JSON.stringify(selection),
        ).toEqual(selectListing(all, selection).map((e) => e.id));
      }
    }
  });
});

describe('prices.lookup', () => {
  it('returns the observed current entry for an exact store, region, type and count, with its history', async () => {
    const entry = await caller.prices.lookup({ store: 'Walmart', region: 'South', egg_type: 'cage-free', count: 18 });
    expect(entry).not.toBeNull();
    expect(entry).toMatchObject({ store_id: 'walmart', region: 'south', egg_type: 'cage_free', count: 18 });
    const [listed] = await caller.prices.list({ store: 'walmart', region: 'south', egg_type: 'cage_free', count: 18 });
    expect(entry!.id).toBe(listed!.id);
    expect(entry!.price).toBe(listed!.price);
    expect(entry!.history.length).toBe(7);
    expect(entry!.history.at(-1)).toBe(entry!.price);
  });

  it("returns the store's nearest price, the basis of an estimate, when it sells no such pack there", async () => {
    // The sample catalogue has no 36-count packs: the South's standard 18-pack is the nearest.
    expect(
      await caller.prices.lookup({ store: 'walmart', region: 'south', egg_type: 'standard', count: 36 }),
    ).toMatchObject({ region: 'south', egg_type: 'standard', count: 18 });
    // Kroger serves no Northeast location: its standard dozen of another region.
    expect(
      await caller.prices.lookup({ store: 'kroger', region: 'northeast', egg_type: 'standard', count: 12 }),
    ).toMatchObject({ egg_type: 'standard', count: 12 });
    expect(
      await caller.prices.lookup({ store: 'no-such-store', region: 'west', egg_type: 'organic', count: 12 }),
    ).toBeNull();
  });

  it('accepts a count given as a numeric string', async () => {
    const entry = await caller.prices.lookup({
      store: 'aldi',
      region: 'west',
      egg_type: 'organic',
      count: '12',
    } as never);
    expect(entry).toMatchObject({ store_id: 'aldi', region: 'west', egg_type: 'organic', count: 12 });
  });

  it('rejects incomplete or unknown input with BAD_REQUEST', async () => {
    for (const input of [
      { store: 'walmart', region: 'south', egg_type: 'standard' },
      { store: 'walmart', region: 'all', egg_type: 'standard', count: 12 },
      { store: 'walmart', region: 'south', egg_type: 'brown', count: 12 },
      { store: 'walmart', region: 'south', egg_type: 'standard', count: 0 },
      { store: 'wal mart', region: 'south', egg_type: 'standard', count: 12 },
      { store: 'walmart', region: 'south', egg_type: 'standard', count: 12, extra: true },
    ]) {
      await expect(caller.prices.lookup(input as never)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
  });
});
