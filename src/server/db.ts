// The postgres.js client. A process makes one with createSql() and passes it down; numeric
// columns arrive as JavaScript numbers (money has two decimals, far inside double precision).
import postgres from 'postgres';

export type Sql = postgres.Sql<Record<string, never>>;
export type TxSql = postgres.TransactionSql<Record<string, never>>;
/** Either the pool or a transaction: queries/ functions take this so callers can compose them. */
export type Db = Sql | TxSql;

export function createSql(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // A database out of reach fails a request within seconds (503) instead of holding it for
    // postgres.js's default 30 s.
    connect_timeout: 5,
    // Seconds before reconnecting after a failed connection. postgres.js's default grows to 20 s
    // as failures repeat, and queries wait for it: after a database outage, requests would hang.
    // Capped at 0.25 s, a request during an outage fails fast (503: a request's queries wait for a
    // connection's next attempt, and one request may make two or three queries, so the waits add
    // up; measured in docs/decisions/001-database-and-migrations.md) and service returns within a
    // fraction of a second of the database. A refused connection costs the server nothing.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.25) * (0.5 + Math.random() / 2),
    // Days are UTC days everywhere (observed_on, current_date), whatever the server's zone.
    connection: { application_name: 'eggwatch', TimeZone: 'UTC' },
    types: {
      numeric: {
        to: 1700,
        from: [1700],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
  }) as unknown as Sql;
}

/**
 * createSql, then one plain query before any other. postgres.js learns the array types on a pool's
 * first query; a first query that itself sends an array (sql.array) fails with "malformed array
 * literal". Every process opens its pool with this.
 */
export async function openSql(url: string, options: { max?: number } = {}): Promise<Sql> {
  const sql = createSql(url, options);
  await sql`select 1`;
  return sql;
}
