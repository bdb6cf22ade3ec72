// Each test file works in a database of its own, cloned from a template built once per run.
import crypto from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { openSql, type Sql } from '../src/server/db.ts';
import { databaseUrl } from './urls.ts';

export interface TestDatabase {
  sql: Sql;
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(options: { seeded?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = inject('adminUrl');
  const templates = inject('templates');
  const template = options.seeded === false ? templates.empty : templates.seeded;
  const name = `${template.replace(/_(empty|seeded)$/, '')}_${crypto.randomBytes(4).toString('hex')}`.replace('_tpl_', '_t_');
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(adminUrl, name);
  const sql = await openSql(url, { max: 5 });
  return {
    sql,
    url,
    async drop() {
      await sql.end({ timeout: 5 });
      const cleanup = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
    },
  };
}
