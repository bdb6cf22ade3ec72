import type { Sql } from '#server/db.ts';

/** What tasks need from the process: passed in, so tests give their own database. */
export interface WorkerDeps {
  sql: Sql;
}
