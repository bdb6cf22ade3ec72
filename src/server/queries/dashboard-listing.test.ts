// The dashboard listing chosen from the store figures (migration 021, listingEntries) against the
// choice made from every matching visible entry (liveListingEntries, the query it replaces), on
// real PostgreSQL: the sample catalogue beside scraped prices in several stores and regions (some
// pairs switched, so their sample prices are hidden), ties on the second an entry was observed,
// an inactive store, under filters of each kind, after a rollup refresh of the changed days and
// after a full one; the cards' location figures read from the precomputed rows equal those from
// the entries; the fallback to the entries when the figures lag a write; and the migration's
// backfill.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { addListing } from '../../../test/listings.ts';
import { callerFor } from '../../../test/caller.ts';
import { combinationKey } from '../../shared/location-figures.ts';
import { EGG_TYPES, REGIONS, STORE_IDS } from '../../shared/vocabulary.ts';
import type { EntryFilters } from './prices.ts';
import {
  cheapestFromFigures as figuresListing,
  cheapestPerStore as listingEntries,
  cheapestPerStoreLive as liveListingEntries,
} from './cheapest.ts';
import { locationFigures } from './location-figures.ts';
import { refreshRollups } from './rollups.ts';
import { refreshStoreFigures } from './store-figures.ts';
import { migrate } from '../migrate.ts';
import { seedStores } from '../seed.ts';

let db: TestDatabase;

/** Every filter of each kind, alone, and some together. */
const FILTERS: EntryFilters[] = [
  {},
  ...STORE_IDS.map((store) => ({ store })),
  ...REGIONS.map((region) => ({ region })),
  ...EGG_TYPES.map((eggType) => ({ eggType })),
  ...[6, 12, 18].map((count) => ({ count })),
  { store: 'walmart', region: 'northeast' },
  { store: 'aldi', region: 'west', eggType: 'standard', count: 12 },
  { region: 'midwest', eggType: 'organic' },
  { eggType: 'cage_free', count: 18 },
  { store: 'target', count: 18 },
  { region: 'south', count: 6 },
  { store: 'no-such-store' },
];

/** Under every filter: the ids chosen from the figures (null when they lag) and from the entries. */
async function bothWays() {
  const fromFigures: unknown[] = [];
  const live: unknown[] = [];
  for (const filters of FILTERS) {
    fromFigures.push({ filters, ids: (await figuresListing(db.sql, filters))?.map((e) => e.id) ?? null });
    live.push({ filters, ids: (await liveListingEntries(db.sql, filters)).map((e) => e.id) });
  }
  return { fromFigures, live };
}

beforeAll(async () => {
  db = await createTestDatabase();
  const sql = db.sql;
  await refreshRollups(sql);
  // Scraped prices: Walmart in the Northeast (three dozens and an 18-pack), Target's organic in
  // the Midwest, a demo price of Aldi's in the West; their pairs' sample prices are hidden.
  await addListing(sql, { store: 'walmart', zip: '02108', price: 3.6, previous: 3.9 });
  await addListing(sql, { store: 'walmart', zip: '10001', price: 4.2 });
  await addListing(sql, { store: 'walmart', zip: '19103', price: 3.0 });
  await addListing(sql, { store: 'walmart', zip: '02108', price: 5.4, count: 18 });
  await addListing(sql, { store: 'target', zip: '60601', price: 7.49, eggType: 'organic' });
  await addListing(sql, { store: 'target', zip: '55401', price: 6.99, eggType: 'organic' });
  await addListing(sql, { store: 'aldi', zip: '94103', price: 2.49, source: 'demo' });
  // Ties on the second: Walmart's Northeast dozens all observed within one second (the lowest id
  // is kept), Kroger's standard dozens of two regions in one second and one of its 18-packs a
  // second later (a dozen is preferred all the same), and Target's organic a second newer in one
  // of its two locations.
  await sql`
    update price_entries e set observed_at = date_trunc('second', now()) + (e.id % 7) * interval '0.1 seconds'
    from store_locations l, products p
    where l.id = e.location_id and p.id = e.product_id and l.store_id in ('walmart', 'kroger') and p.egg_type = 'standard' and p.count = 12`;
  await sql`
    update price_entries set observed_at = date_trunc('second', now()) + interval '1.5 seconds'
    where id = (select max(e.id) from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
                where l.store_id = 'kroger' and p.egg_type = 'standard' and p.count = 18)`;
  await sql`
    update price_entries set observed_at = date_trunc('second', now()) + interval '1.2 seconds'
    where id = (select min(e.id) from price_entries e join store_locations l on l.id = e.location_id join products p on p.id = e.product_id
                where l.store_id = 'target' and p.egg_type = 'organic' and l.zip = '55401')`;
  await refreshRollups(sql);
});
afterAll(async () => {
  await db?.drop();
});

describe('the dashboard listing from the store figures', () => {
  it('equals the choice from every visible entry after a refresh of the changed days, under every filter', async () => {
    const { fromFigures, live } = await bothWays();
    expect(fromFigures).toEqual(live);
    // Not vacuous: every store, and the scraped prices where their pairs switched.
    const all = await liveListingEntries(db.sql, {});
    expect(all.map((e) => e.store_id).sort()).toEqual([...STORE_IDS].sort());
    expect((await liveListingEntries(db.sql, { store: 'aldi', region: 'west' }))[0]).toMatchObject({
      source: 'demo',
      price: 2.49,
    });
    expect((await liveListingEntries(db.sql, { store: 'walmart', region: 'northeast' }))[0]).toMatchObject({
      source: 'scrape',
    });
  });

  it('equals it after a full refresh, with ties on the second and an inactive store', async () => {
    const sql = db.sql;
    // Every standard dozen of Albertsons in one second, the lowest id's a fraction later.
    await sql`
      update price_entries e set observed_at = date_trunc('second', now()) + interval '2 seconds' + (1000 - e.id % 1000) * interval '1 microsecond'
      from store_locations l, products p
      where l.id = e.location_id and p.id = e.product_id and l.store_id = 'albertsons' and p.egg_type = 'standard' and p.count = 12`;
    await sql`update stores set active = false where id = 'whole-foods'`;
    try {
      await refreshRollups(sql, { all: true });
      const { fromFigures, live } = await bothWays();
      expect(fromFigures).toEqual(live);
      expect((await liveListingEntries(sql, {})).some((e) => e.store_id === 'whole-foods')).toBe(false);
    } finally {
      await sql`update stores set active = true where id = 'whole-foods'`;
    }
  });

  it("gives the dashboard's cards the precomputed location figures, equal to those from the entries", async () => {
    const caller = callerFor({ sql: db.sql });
    for (const filters of [{}, { region: 'northeast' as const }, { eggType: 'organic' as const }]) {
      const page = await caller.prices.dashboard({ filters, page: 1, pageSize: 60 });
      expect(page.items.length).toBeGreaterThan(0);
      const fresh = await locationFigures(db.sql, page.items);
      expect(await locationFigures(db.sql, page.items, { precomputed: true })).toEqual(fresh);
      for (const item of page.items)
        expect(item.locations, item.store_id).toEqual(fresh.get(combinationKey(item)) ?? null);
    }
  });

  it('is chosen from the entries when a chosen entry is no longer visible, until the refresh', async () => {
    const sql = db.sql;
    const caller = callerFor({ sql });
    const west = { store: 'kroger', region: 'west' } as const;
    // Kroger's first scraped price in the West hides its sample prices there, the figures' choice among them.
    expect((await figuresListing(sql, west))?.[0]).toMatchObject({ source: 'sample' });
    await addListing(sql, { store: 'kroger', zip: '84101', price: 2.5, count: 18 });
    expect(await figuresListing(sql, west)).toBeNull();
    expect(await listingEntries(sql, west)).toEqual({
      entries: await liveListingEntries(sql, west),
      fromFigures: false,
    });
    const page = await caller.prices.dashboard({ filters: west, page: 1, pageSize: 9 });
    expect(page.items.map((e) => [e.source, e.price, e.count])).toEqual([['scrape', 2.5, 18]]);
    await refreshRollups(sql);
    expect(await listingEntries(sql, west)).toEqual({
      entries: await liveListingEntries(sql, west),
      fromFigures: true,
    });
    const { fromFigures, live } = await bothWays();
    expect(fromFigures).toEqual(live);
  });

  it('is chosen from the entries when the figures choose none (never computed)', async () => {
    const sql = db.sql;
    await sql`delete from price_store_entry_figures`;
    expect(await figuresListing(sql, {})).toEqual([]);
    const listed = await listingEntries(sql, {});
    expect(listed.fromFigures).toBe(false);
    expect(listed.entries.length).toBe(STORE_IDS.length);
    expect(listed.entries).toEqual(await liveListingEntries(sql, {}));
  });

  it('are filled by migration 021 from the existing entries as the refresh computes them', async () => {
    const old = await createTestDatabase({ migratedTo: 16 });
    try {
      const sql = old.sql;
      await seedStores(sql);
      await sql`
        insert into store_locations (store_id, zip, region, name)
        values ('walmart', '10001', 'northeast', 'Walmart 10001'), ('walmart', '02108', 'northeast', 'Walmart 02108'),
               ('walmart', '60611', 'midwest', 'Walmart 60611'), ('target', '60614', 'midwest', 'Target 60614')`;
      await sql`
        insert into products (store_id, retailer_product_id, title, egg_type, count)
        values ('walmart', 'w-12', 'Eggs, 12 ct', 'standard', 12), ('walmart', 'w-12b', 'Other Eggs, 12 ct', 'standard', 12),
               ('walmart', 'w-18', 'Organic Eggs, 18 ct', 'organic', 18), ('target', 't-12', 'Cage Free Eggs, 12 ct', 'cage_free', 12)`;
      // Three days of prices, each location's a fraction of a second apart: sample ones, and
      // scraped ones at one Walmart Northeast store (which hide its samples there).
      await sql`
        insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
        select p.id, l.id, 2 + p.count / 12.0, date_trunc('second', now()) - d * interval '1 day' + (l.id % 3) * interval '0.3 seconds',
               utc_day(now() - d * interval '1 day'), case when l.zip = '10001' then 'scrape' else 'sample' end
        from products p join store_locations l on l.store_id = p.store_id
        cross join generate_series(0, 2) d`;
      await migrate(sql, old.url, { to: 20 });
      // Target's entries went after the figures were computed: its row goes too.
      await sql`delete from price_entries where location_id in (select id from store_locations where store_id = 'target')`;
      await migrate(sql, old.url);
      const read = () => sql`
        select store_id, region, egg_type, count, first_entry_id, newest_entry_id, newest_observed_at
        from price_store_entry_figures order by store_id, region, egg_type, count`;
      const migrated = await read();
      expect(migrated.map((row) => row.store_id)).toEqual(['walmart', 'walmart', 'walmart', 'walmart']);
      await sql.begin((tx) => refreshStoreFigures(tx, 'all'));
      expect(await read()).toEqual(migrated);
    } finally {
      await old.drop();
    }
  });
});
