// A REST test file's server: a database of the file's own and the server on a free port, started
// before the file's tests and stopped after them, with the helpers that ask it over real HTTP.
import { afterAll, beforeAll } from 'vitest';
import { createServer, type ServerOptions } from '../src/server/app.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import type { TestAccount } from './users.ts';

/** The account features' settings of the REST tests (a known setup key, links to eggwatch.test). */
export const ACCOUNT_SETTINGS = { publicUrl: 'http://eggwatch.test', adminSetupKey: 'rest-setup-key-000' };

export interface CallOptions {
  /** Signed in as (a Bearer session). */
  as?: TestAccount | null | undefined;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is (as JSON unless the headers say otherwise). */
  raw?: string;
  headers?: Record<string, string>;
}

/**
 * An answer: its status and body (parsed JSON, or the text when it is not JSON), which compare
 * with toEqual as { status, body }; its headers and text are there too, for the tests that read them.
 */
export class RestAnswer {
  readonly #headers: Headers;
  readonly #text: string;

  constructor(
    readonly status: number,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the answer it expects; its assertions check the shape
    readonly body: any,
    headers: Headers,
    text: string,
  ) {
    this.#headers = headers;
    this.#text = text;
  }

  get headers(): Headers {
    return this.#headers;
  }

  get text(): string {
    return this.#text;
  }
}

export interface RestServer {
  /** The file's database and the server's address, once the file's first beforeAll has run. */
  db: TestDatabase;
  base: string;
  call(method: string, path: string, options?: CallOptions): Promise<RestAnswer>;
  /** A GET with the given headers: its status, headers and text. */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; text: string }>;
}

/**
 * Registers the file's server (call it at the top of the file, before its own beforeAll): a
 * database of its own (seeded unless told otherwise), `prepare` run on it, then the server with
 * the given options over the tests' defaults (any free port, no logs, no client build).
 */
export function restServer(
  options: {
    seeded?: boolean;
    prepare?: (db: TestDatabase) => Promise<void>;
    server?: Omit<ServerOptions, 'sql'>;
    /** beforeAll's time limit, for a long `prepare`. */
    timeout?: number;
  } = {},
): RestServer {
  let server: ReturnType<typeof createServer> | undefined;
  const rest: RestServer = {
    db: undefined as unknown as TestDatabase,
    base: '',
    async call(method, path, { as, body, raw, headers: given } = {}) {
      const headers: Record<string, string> = { ...given };
      if (as) headers.authorization = `Bearer ${as.token}`;
      if ((body !== undefined || raw !== undefined) && !headers['content-type']) {
        headers['content-type'] = 'application/json';
      }
      const response = await fetch(`${rest.base}${path}`, {
        method,
        headers,
        body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // a plain text answer
      }
      return new RestAnswer(response.status, parsed, response.headers, text);
    },
    async get(path, headers = {}) {
      const response = await fetch(`${rest.base}${path}`, { headers });
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
  };
  beforeAll(async () => {
    rest.db = await createTestDatabase({ seeded: options.seeded ?? true });
    await options.prepare?.(rest.db);
    server = createServer({
      port: 0,
      logLevel: 'silent',
      distDir: '/nonexistent',
      ...options.server,
      sql: rest.db.sql,
    });
    rest.base = await server.start();
  }, options.timeout);
  afterAll(async () => {
    await server?.stop();
    await rest.db?.drop();
  });
  return rest;
}
