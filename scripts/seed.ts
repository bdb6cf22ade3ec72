// `npm run db:seed`: the seed without the rest of the start-up: the six stores, the BLS series and,
// in a database with no prices yet, the sample catalogue with its history (docs/features/data-sources.md).
// Safe to run again: every step skips what is already there.
import { env } from '#server/env.ts';
import { log, prepareDatabase } from '#server/launcher.ts';
import { openSql } from '#server/db.ts';
import { seedMarketPrices, seedStores } from '#server/seed.ts';

try {
  // prepareDatabase migrates, and seeds the sample catalogue when the database is empty.
  const database = await prepareDatabase(env);
  const sql = await openSql(database.url, { max: 1 });
  try {
    await sql.begin(async (tx) => {
      await seedStores(tx);
      await seedMarketPrices(tx);
    });
  } finally {
    await sql.end();
    await database.stop();
  }
  log('The stores and the BLS series are seeded');
} catch (error) {
  console.error(`[eggwatch] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
