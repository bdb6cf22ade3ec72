// The store locations' place backfill: coordinates, city and state from the ZIP code's geodata
// for rows that lack them, never over a retailer's own, and nothing on a second run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { zipFacts } from '../geo.ts';
import { SAMPLE_ZIPS } from '../seed.ts';
import { backfillLocationPlaces } from './locations.ts';
import { writeZipOutcome, type ZipWrite } from './scrape-writes.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const place = (id: number) =>
  db.sql<
    Array<{
      city: string | null;
      state: string | null;
      latitude: number | null;
      longitude: number | null;
      coordinates_source: string | null;
    }>
  >`
    select city, state, latitude, longitude, coordinates_source from store_locations where id = ${id}`.then(
    (rows) => rows[0]!,
  );

describe('backfillLocationPlaces', () => {
  it('the seeded sample locations already have their ZIP code centroid, city and state', async () => {
    const rows = await db.sql<
      Array<{
        zip: string;
        city: string;
        state: string;
        latitude: number;
        longitude: number;
        coordinates_source: string;
      }>
    >`
      select zip, city, state, latitude, longitude, coordinates_source from store_locations`;
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      expect(Object.values(SAMPLE_ZIPS)).toContain(row.zip);
      const facts = zipFacts(row.zip)!;
      expect(row).toEqual({
        zip: row.zip,
        city: facts.city,
        state: facts.state,
        latitude: facts.latitude,
        longitude: facts.longitude,
        coordinates_source: 'zip',
      });
    }
    expect(await backfillLocationPlaces(db.sql)).toBe(0);
  });

  it('fills what a location lacks, keeps what it has, and is idempotent', async () => {
    const [bare] = await db.sql<{ id: number }[]>`
      insert into store_locations (store_id, zip, region) values ('kroger', '50309', 'midwest') returning id`;
    const [retailer] = await db.sql<{ id: number }[]>`
      insert into store_locations (store_id, zip, region, city, latitude, longitude, coordinates_source)
      values ('target', '50309', 'midwest', 'Des Moines (Downtown)', 41.5, -93.5, 'retailer') returning id`;
    const [unknown] = await db.sql<{ id: number }[]>`
      insert into store_locations (store_id, zip, region) values ('aldi', '00000', 'south') returning id`;

    expect(await backfillLocationPlaces(db.sql)).toBe(2);
    const facts = zipFacts('50309')!;
    expect(await place(bare!.id)).toEqual({
      city: facts.city,
      state: 'IA',
      latitude: facts.latitude,
      longitude: facts.longitude,
      coordinates_source: 'zip',
    });
    expect(await place(retailer!.id)).toEqual({
      city: 'Des Moines (Downtown)',
      state: 'IA',
      latitude: 41.5,
      longitude: -93.5,
      coordinates_source: 'retailer',
    });
    expect(await place(unknown!.id)).toEqual({
      city: null,
      state: null,
      latitude: null,
      longitude: null,
      coordinates_source: null,
    });
    expect(await backfillLocationPlaces(db.sql)).toBe(0);
  });

  it('refuses half a position', async () => {
    await expect(
      db.sql`insert into store_locations (store_id, zip, region, latitude) values ('walmart', '50310', 'midwest', 41.6)`,
    ).rejects.toThrow(/store_locations_coordinates_check/);
  });

  it("a scrape keeps the retailer's position over a ZIP centroid, and replaces a centroid with the retailer's", async () => {
    const write = async (zip: string, latitude: number, longitude: number, coordinatesSource: 'retailer' | 'zip') => {
      const [run] = await db.sql<{ id: number }[]>`
        insert into scrape_runs (store_id, zip_codes, total, status, started_at) values ('albertsons', ${db.sql.array([zip])}::text[], 1, 'running', now()) returning id`;
      const outcome: ZipWrite = {
        runId: run!.id,
        storeId: 'albertsons',
        zip,
        status: 'succeeded',
        message: null,
        startedAt: new Date(),
        pages: 1,
        listingsSeen: 0,
        skipped: {},
        rejected: {},
        requests: 1,
        listings: [],
        source: 'scrape',
        location: {
          zip,
          region: 'midwest',
          retailerLocationId: null,
          name: null,
          city: null,
          state: null,
          address: null,
          latitude,
          longitude,
          coordinatesSource,
        },
      };
      await writeZipOutcome(db.sql, outcome);
      await db.sql`update scrape_runs set status = 'succeeded' where id = ${run!.id}`;
      const [row] = await db.sql<{ latitude: number; longitude: number; coordinates_source: string }[]>`
        select latitude, longitude, coordinates_source from store_locations where store_id = 'albertsons' and zip = ${zip}`;
      return row;
    };
    expect(await write('50311', 41.6, -93.65, 'retailer')).toEqual({
      latitude: 41.6,
      longitude: -93.65,
      coordinates_source: 'retailer',
    });
    expect(await write('50311', 41.61, -93.66, 'zip')).toEqual({
      latitude: 41.6,
      longitude: -93.65,
      coordinates_source: 'retailer',
    });
    expect(await write('50312', 41.58, -93.68, 'zip')).toEqual({
      latitude: 41.58,
      longitude: -93.68,
      coordinates_source: 'zip',
    });
    expect(await write('50312', 41.585, -93.675, 'retailer')).toEqual({
      latitude: 41.585,
      longitude: -93.675,
      coordinates_source: 'retailer',
    });
  });
});
