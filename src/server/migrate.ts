// Schema migrations: the numbered plain-SQL files in migrations/ (applied by postgrator, which
// records them with checksums in `schemaversion`), then graphile-worker's own schema, so the
// price trigger can queue jobs from the first write, then the data backfills that need code (a
// store location's coordinates, city and state from its ZIP code's geodata). Safe to run from
// several processes at once.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Postgrator from 'postgrator';
import { Logger, runMigrations } from 'graphile-worker';
import type { Sql } from './db.ts';
import { backfillLocationPlaces } from './queries/locations.ts';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');
const LOCK_KEY = 7_345_112; // pg_advisory_lock key reserved for migrations

/** The highest migration version in migrations/ (the number of its newest NNN.do.*.sql file). */
export function latestMigrationVersion(): number {
  return Math.max(
    0,
    ...fs
      .readdirSync(MIGRATIONS_DIR)
      .map((name) => /^(\d+)\.do\./.exec(name)?.[1])
      .filter(Boolean)
      .map(Number),
  );
}

/** The highest version applied to the database (0 before any). */
export async function appliedMigrationVersion(sql: Sql): Promise<number> {
  const [row] = await sql<{ version: number | null }[]>`
    select max(version)::int as version from schemaversion where to_regclass('schemaversion') is not null`;
  return row?.version ?? 0;
}

/**
 * Applies the migrations not applied yet, up to `options.to` (a version number, for tests of a
 * migration on the schema before it) or the latest.
 */
export async function migrate(
  sql: Sql,
  connectionString: string,
  options: { to?: number } = {},
): Promise<{ applied: string[]; placesFilled: number }> {
  const connection = await sql.reserve();
  try {
    await connection`select pg_advisory_lock(${LOCK_KEY})`;
    const [{ database }] = (await connection`select current_database() as database`) as unknown as [
      { database: string },
    ];
    const postgrator = new Postgrator({
      migrationPattern: path.join(MIGRATIONS_DIR, '*.sql'),
      driver: 'pg',
      database,
      schemaTable: 'schemaversion',
      validateChecksums: true,
      execQuery: async (query: string) => ({ rows: await connection.unsafe(query) }),
      // Each migration file runs in its own transaction: it applies whole or not at all.
      execSqlScript: async (script: string) => {
        await connection.unsafe(`begin;\n${script}\ncommit;`).catch(async (error: unknown) => {
          await connection.unsafe('rollback').catch(() => {});
          throw error;
        });
      },
    });
    const applied = await postgrator.migrate(options.to === undefined ? undefined : String(options.to));
    await runMigrations({ connectionString, logger: quietLogger });
    const placesFilled = await backfillLocationPlaces(connection);
    return { applied: applied.map((m) => m.filename), placesFilled };
  } finally {
    await connection`select pg_advisory_unlock(${LOCK_KEY})`.catch(() => {});
    connection.release();
  }
}

/** graphile-worker's migration chatter is not useful at start-up. */
export const quietLogger = new Logger(() => () => {});
