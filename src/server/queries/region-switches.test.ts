// The switch trigger (009, its look-ups by location since 018) on statements that write several
// locations and days at once: a pair switches on its earliest retailer's day, a switched pair is
// left alone unless an earlier day is written, sample prices never switch, and a switch marks the
// days of the pair's sample prices dirty.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { seedStores } from '../seed.ts';

let db: TestDatabase;
const loc = { north1: 0, north2: 0, west: 0, otherStore: 0 };
let product = 0;
let otherProduct = 0;

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  await db.sql.begin((tx) => seedStores(tx));
  const rows = await db.sql<{ id: number }[]>`
    insert into store_locations (store_id, zip, region)
    values ('walmart', '10001', 'northeast'), ('walmart', '10002', 'northeast'), ('walmart', '90210', 'west'), ('target', '10003', 'northeast')
    returning id`;
  [loc.north1, loc.north2, loc.west, loc.otherStore] = rows.map((r) => r.id) as [number, number, number, number];
  const [p, q] = await db.sql<{ id: number }[]>`
    insert into products (store_id, retailer_product_id, title, egg_type, count)
    values ('walmart', 'w-12', 'Large Eggs, 12 ct', 'standard', 12), ('target', 't-12', 'Large Eggs, 12 ct', 'standard', 12)
    returning id`;
  product = p!.id;
  otherProduct = q!.id;
});
afterAll(() => db.drop());
beforeEach(async () => {
  await db.sql`delete from price_observations`;
  await db.sql`delete from price_entries`;
  await db.sql`delete from store_region_switches`;
  await db.sql`delete from rollup_dirty_days`;
});

/** One statement writing each row (product, location, day, source). */
async function write(rows: Array<[number, number, string, string]>) {
  await db.sql`
    insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
    select p, l, 2.5, (d::date + time '12:00') at time zone 'UTC', d::date, s
    from unnest(${db.sql.array(rows.map((r) => r[0]))}::int[], ${db.sql.array(rows.map((r) => r[1]))}::int[],
                ${db.sql.array(rows.map((r) => r[2]))}::text[], ${db.sql.array(rows.map((r) => r[3]))}::text[]) as t(p, l, d, s)`;
}

const switches = async () =>
  (
    await db.sql<{ pair: string; on: string }[]>`
    select store_id || '/' || region as pair, switched_on::text as on from store_region_switches order by 1`
  ).map((r) => `${r.pair} ${r.on}`);

describe('store and region switches', () => {
  it('switches every unswitched pair of a statement on its earliest day, and leaves sample prices out', async () => {
    await write([
      [product, loc.north1, '2026-03-05', 'scrape'],
      [product, loc.north2, '2026-03-03', 'scrape'],
      [product, loc.west, '2026-03-04', 'sample'],
      [otherProduct, loc.otherStore, '2026-03-06', 'demo'],
    ]);
    expect(await switches()).toEqual(['target/northeast 2026-03-06', 'walmart/northeast 2026-03-03']);
  });

  it('finds one unswitched pair among switched ones in the same statement', async () => {
    await write([[product, loc.north1, '2026-03-01', 'scrape']]);
    expect(await switches()).toEqual(['walmart/northeast 2026-03-01']);
    await write([
      [product, loc.north1, '2026-03-02', 'scrape'],
      [product, loc.north2, '2026-03-02', 'scrape'],
      [product, loc.west, '2026-03-02', 'scrape'],
    ]);
    expect(await switches()).toEqual(['walmart/northeast 2026-03-01', 'walmart/west 2026-03-02']);
  });

  it("moves a switch to an earlier day written later, by a location's earliest row even when it also writes later days", async () => {
    await write([[product, loc.north1, '2026-03-10', 'scrape']]);
    // The location's later day is after the switch, its earlier one before it: the pair switches earlier.
    await write([
      [product, loc.north2, '2026-03-12', 'scrape'],
      [product, loc.north2, '2026-03-07', 'scrape'],
    ]);
    expect(await switches()).toEqual(['walmart/northeast 2026-03-07']);
    // Later days only: unchanged.
    await write([[product, loc.north1, '2026-03-11', 'scrape']]);
    expect(await switches()).toEqual(['walmart/northeast 2026-03-07']);
  });

  it("marks the days of the pair's sample prices dirty when it switches, and nothing when it was switched already", async () => {
    await write([
      [product, loc.north1, '2026-02-20', 'sample'],
      [product, loc.north2, '2026-02-21', 'sample'],
      [product, loc.west, '2026-02-22', 'sample'],
    ]);
    await db.sql`delete from rollup_dirty_days`;
    await write([[product, loc.north1, '2026-03-01', 'scrape']]);
    const dirty = async () =>
      (await db.sql<{ day: string }[]>`select day::text from rollup_dirty_days order by 1`).map((r) => r.day);
    // The northeast pair's sample days (not the west's), and the written day.
    expect(await dirty()).toEqual(['2026-02-20', '2026-02-21', '2026-03-01']);
    await db.sql`delete from rollup_dirty_days`;
    await write([[product, loc.north2, '2026-03-02', 'scrape']]);
    expect(await dirty()).toEqual(['2026-03-02']);
  });
});
