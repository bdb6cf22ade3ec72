// Test database server: TEST_DATABASE_URL when given, otherwise an embedded PostgreSQL under
// .data/test-postgres. Builds two template databases per run (migrated; migrated and seeded)
// that each test file clones into a database of its own (test/db.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { removeEmbeddedCluster, startEmbeddedPostgres } from '../src/server/embedded-db.ts';
import { createSql } from '../src/server/db.ts';
import { migrate } from '../src/server/migrate.ts';
import { seed } from '../src/server/seed.ts';
import { databaseUrl } from './urls.ts';
import { waitForMidnightIfClose } from './midnight.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templates: { empty: string; seeded: string };
  }
}

const CLUSTERS = '.data/test-postgres';

/** Minutes before a UTC midnight within which a run first waits for the new day (test/midnight.ts). */
const MIDNIGHT_GUARD_MINUTES = 10;

/** Clusters of test runs that died without cleaning up (their process is gone). */
function removeAbandonedClusters() {
  if (!fs.existsSync(CLUSTERS)) return;
  for (const name of fs.readdirSync(CLUSTERS)) {
    const pid = Number.parseInt(name, 10);
    if (!Number.isInteger(pid)) continue;
    try {
      process.kill(pid, 0);
    } catch {
      removeEmbeddedCluster(path.join(CLUSTERS, name));
    }
  }
}

export default async function setup(project: TestProject) {
  await waitForMidnightIfClose(MIDNIGHT_GUARD_MINUTES);
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!adminUrl) {
    // A throwaway cluster per run, so concurrent runs never stop each other's server.
    removeAbandonedClusters();
    const dir = path.join(CLUSTERS, String(process.pid));
    const embedded = await startEmbeddedPostgres({ dir });
    adminUrl = embedded.adminUrl;
    stopEmbedded = async () => {
      await embedded.stop();
      removeEmbeddedCluster(dir);
    };
  }
  const run = crypto.randomBytes(4).toString('hex');
  const templates = { empty: `eggwatch_tpl_${run}_empty`, seeded: `eggwatch_tpl_${run}_seeded` };
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });

  for (const [kind, name] of Object.entries(templates)) {
    await admin.unsafe(`create database "${name}"`);
    const url = databaseUrl(adminUrl, name);
    const sql = createSql(url, { max: 2 });
    await migrate(sql, url);
    if (kind === 'seeded') await seed(sql);
    await sql.end();
  }
  project.provide('adminUrl', adminUrl);
  project.provide('templates', templates);

  return async () => {
    // Test files drop their own databases; this removes the templates and any leftovers of this run.
    const leftovers = await admin<
      { datname: string }[]
    >`select datname from pg_database where datname like ${`eggwatch_%${run}%`}`;
    for (const { datname } of leftovers) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.end();
    await stopEmbedded?.();
  };
}
