// A kept benchmark database (bench/database.ts) one migration behind the project: migrated forward
// (the migration timed, then what the app does after new migrations) when its spec allows it,
// rebuilt otherwise, never both.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { ensureCachedDatabase, type BuildInfo, type CachedDatabaseSpec } from '../bench/database.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
const versions = fs
  .readdirSync(MIGRATIONS)
  .map((file) => /^(\d+)\.do\./.exec(file)?.[1])
  .filter((v): v is string => v !== undefined)
  .map(Number)
  .sort((a, b) => a - b);
const latest = versions.at(-1)!;
const previous = versions.at(-2)!;

let db: TestDatabase;
let name: string;
let counts: BuildInfo['counts'];
const config = { scale: 1 };

beforeAll(async () => {
  db = await createTestDatabase({ migratedTo: previous });
  name = new URL(db.url).pathname.slice(1);
  await db.sql`create table bench_build (config jsonb not null, build_ms integer not null, built_at timestamptz not null default now())`;
  await db.sql`insert into bench_build (config, build_ms) values (${db.sql.json(config)}, 1234)`;
  const [row] = await db.sql<BuildInfo['counts'][]>`
    select (select count(*)::int from store_locations) as locations, (select count(*)::int from products) as products,
           (select count(*)::float8 from price_observations) as observations, (select count(*)::int from price_entries) as entries,
           (select count(distinct day)::int from price_daily_rollups) as "rollupDays"`;
  counts = row!;
});
afterAll(async () => {
  await db.drop();
});

let settledRuns = 0;
const spec = (migrateForward: boolean): CachedDatabaseSpec => ({
  name,
  config,
  expected: counts,
  migrateForward,
  afterMigrations: {
    what: 'the refresh a migration leaves to the worker',
    run: async () => {
      settledRuns++;
    },
  },
  build: async () => {
    throw new Error('built again');
  },
});

describe('a kept benchmark database one migration behind', () => {
  it('is migrated forward, the migration timed, when its spec allows it, and is then current', async () => {
    const lines: string[] = [];
    const { info } = await ensureCachedDatabase(inject('adminUrl'), spec(true), (line) => lines.push(line));
    expect(info.rebuilt).toBe(false);
    expect(info.buildMs).toBe(1234);
    expect(info.migrated.map((m) => m.version)).toEqual([latest]);
    expect(info.migrated[0]!.seconds).toBeGreaterThan(0);
    expect(info.reason).toBe(`migrated forward (${latest})`);
    expect(lines[0]).toMatch(new RegExp(`^Migrating ${name} forward: ${latest} `));
    // Then what the app does after new migrations, once.
    expect(settledRuns).toBe(1);
    expect(info.settled?.what).toBe('the refresh a migration leaves to the worker');
    const [row] = await db.sql<{ version: number }[]>`select max(version)::int as version from schemaversion`;
    expect(row?.version).toBe(latest);

    const again = await ensureCachedDatabase(inject('adminUrl'), spec(true), () => {});
    expect(again.info).toMatchObject({ rebuilt: false, reason: 'up to date', migrated: [], settled: null });
    expect(settledRuns).toBe(1);
  });

  it('is rebuilt when its spec does not allow it', async () => {
    await db.sql`delete from schemaversion where version = ${latest}`;
    await expect(ensureCachedDatabase(inject('adminUrl'), spec(false), () => {})).rejects.toThrow('built again');
  });
});
