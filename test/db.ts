// Each test file works in a database of its own, cloned from a template built once per run.
import crypto from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openSql, type Sql } from '../src/server/db.ts';
import { migrate } from '../src/server/migrate.ts';
import { settleJobs } from './jobs.ts';
import { databaseUrl } from './urls.ts';

export interface TestDatabase {
  sql: Sql;
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of the test file's own: a clone of the seeded template (default) or of the migrated
 * empty one (seeded: false), or, with migratedTo, an empty database migrated up to that version
 * only (to test a migration on the schema before it).
 */
export async function createTestDatabase(
  options: { seeded?: boolean; migratedTo?: number } = {},
): Promise<TestDatabase> {
  const adminUrl = inject('adminUrl');
  const templates = inject('templates');
  const template = options.seeded === false || options.migratedTo !== undefined ? templates.empty : templates.seeded;
  const name = `${template.replace(/_(empty|seeded)$/, '')}_${crypto.randomBytes(4).toString('hex')}`.replace(
    '_tpl_',
    '_t_',
  );
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"${options.migratedTo === undefined ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(adminUrl, name);
  const sql = await openSql(url, { max: 5 });
  if (options.migratedTo !== undefined) await migrate(sql, url, { to: options.migratedTo });
  return {
    sql,
    url,
    async drop() {
      // graphile-worker commits a job's completion after its run-once worker has resolved
      // (test/jobs.ts): one still on its way when the database goes would fail the whole run as
      // an unhandled rejection. They are waited for, briefly; a database without graphile-worker's
      // schema, or jobs a killed worker left locked, do not hold the drop up.
      await settleJobs(sql, 2000).catch(() => undefined);
      await sql.end({ timeout: 5 });
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
