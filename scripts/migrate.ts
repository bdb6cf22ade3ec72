// `npm run db:migrate`: provide the database (DATABASE_URL, else the embedded one), apply the
// pending migrations, seed it when empty, and exit. `npm start` does the same before it starts the
// processes; a deployment runs this once per release, before the new web and worker processes.
import { env } from '#server/env.ts';
import { log, prepareDatabase } from '#server/launcher.ts';

try {
  const database = await prepareDatabase(env);
  await database.stop();
  log('The database is migrated');
} catch (error) {
  console.error(`[eggwatch] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
