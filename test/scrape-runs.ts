// A finished ZIP scrape run that wrote listings at one location today, through the app's own write
// path (writeZipOutcome): the price alert tests' source of price events.
import type { Db } from '../src/server/db.ts';
import { writeZipOutcome } from '../src/server/queries/scrape-writes.ts';
import type { EggType, Region } from '../src/shared/vocabulary.ts';

export interface RunListing {
  id: string;
  eggType: EggType;
  count: number;
  price: number;
}

/** Writes the run (source 'scrape' unless demo) and answers its id; the store's earlier runs are finished first. */
export async function scrapeRun(
  sql: Db,
  store: string,
  zip: string,
  region: Region,
  listings: RunListing[],
  source: 'scrape' | 'demo' = 'scrape',
): Promise<number> {
  await sql`update scrape_runs set status = 'succeeded' where store_id = ${store} and status in ('queued', 'running')`;
  const [run] = await sql<{ id: number }[]>`
    insert into scrape_runs (store_id, zip_codes, total, status, started_at, finished_at, demo, observations_written)
    values (${store}, ${sql.array([zip])}::text[], 1, 'succeeded', now(), now(), ${source === 'demo'}, ${listings.length}) returning id`;
  await writeZipOutcome(sql, {
    runId: run!.id,
    storeId: store,
    zip,
    status: 'succeeded',
    message: null,
    startedAt: new Date(),
    pages: 1,
    listingsSeen: listings.length,
    skipped: {},
    rejected: {},
    requests: 1,
    location: {
      zip,
      region,
      retailerLocationId: zip,
      name: `${store} ${zip}`,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    },
    listings: listings.map((l) => ({
      retailerProductId: l.id,
      title: `Test <b>${l.id}</b> & Eggs, ${l.count} ct`,
      brand: null,
      eggType: l.eggType,
      count: l.count,
      sizeGrade: null,
      price: l.price,
      regularPrice: null,
      inStock: true,
      url: null,
    })),
    source,
  });
  return run!.id;
}
