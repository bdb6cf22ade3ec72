// index.html carries the public answers its page asks for first, as the API gives them, in a
// data block no product title can break out of; without the database it goes out without them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { INITIAL_DATA_ELEMENT_ID, type InitialEntry } from '#shared/initial-data.ts';
import { transformer } from '#shared/transformer.ts';
import { seedInitialData, trpcQueryKey } from '#client/lib/initialData.ts';
import { trpc } from '#client/lib/trpc.ts';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { buildApp, createServer } from './app.ts';
import { createSql } from './db.ts';
import { initialQueries, scriptSafeJson, withInitialData } from './initial-data.ts';

describe('initialQueries', () => {
  it('asks for the dashboard’s first answers, one first page per page size, only for its default view', () => {
    const queries = initialQueries('/', '');
    expect(queries.map((q) => q.path)).toEqual([
      'news.ticker',
      'stats.get',
      'stores.list',
      'prices.dashboard',
      'prices.dashboard',
      'prices.dashboard',
    ]);
    expect(queries.filter((q) => q.path === 'prices.dashboard').map((q) => q.input)).toEqual(
      [4, 6, 9].map((pageSize) => ({ filters: { ...DEFAULT_FILTERS }, page: 1, pageSize })),
    );
    expect(initialQueries('/', '?egg_type=organic').map((q) => q.path)).toEqual([
      'news.ticker',
      'stats.get',
      'stores.list',
    ]);
  });

  it('asks for the compare page’s comparison of a known egg type only', () => {
    expect(initialQueries('/compare/organic', '').filter((q) => q.path === 'compare.byType')).toEqual(
      [4, 6, 9].map((pageSize) => ({ path: 'compare.byType', input: { eggType: 'organic', page: 1, pageSize } })),
    );
    expect(initialQueries('/compare/organic', '?region=West').map((q) => q.path)).not.toContain('compare.byType');
    expect(initialQueries('/compare/<script>', '')).toEqual([{ path: 'news.ticker' }]);
    expect(initialQueries('/profile', '')).toEqual([{ path: 'news.ticker' }]);
  });
});

describe('the data block', () => {
  const hostile = 'Eggs </script><script>alert(1)</script> <!-- & \u2028';

  it('cannot be ended or bent by any text, and reads back as it was', () => {
    const json = scriptSafeJson([{ path: 'x', data: { title: hostile } }]);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual([{ path: 'x', data: { title: hostile } }]);
    const page = withInitialData(Buffer.from('<html><head><title>t</title></head><body></body></html>'), [
      { path: 'x', data: { title: hostile } },
    ]).toString();
    const $ = load(page);
    expect($('script')).toHaveLength(1);
    expect(JSON.parse($(`#${INITIAL_DATA_ELEMENT_ID}`).text())[0].data.title).toBe(hostile);
    expect($('head #initial-data').attr('type')).toBe('application/json');
  });

  it('is left out when there is nothing to carry or nowhere to put it', () => {
    const page = Buffer.from('<html><head></head></html>');
    expect(withInitialData(page, [])).toBe(page);
    expect(withInitialData(Buffer.from('<p>no head</p>'), [{ path: 'x', data: 1 }]).toString()).toBe('<p>no head</p>');
  });

  it('seeds the query cache under the keys tRPC’s hooks read', () => {
    const input = { filters: { ...DEFAULT_FILTERS }, page: 1, pageSize: 4 };
    expect(trpcQueryKey('prices.dashboard', input)).toEqual(getQueryKey(trpc.prices.dashboard, input, 'query'));
    expect(trpcQueryKey('stats.get', undefined)).toEqual(getQueryKey(trpc.stats.get, undefined, 'query'));
    const entries: InitialEntry[] = [
      { path: 'stats.get', data: transformer.serialize({ at: new Date('2026-01-02T00:00:00Z') }) },
      { path: 'prices.dashboard', input, data: transformer.serialize({ total: 3 }) },
      { path: 42 as unknown as string, data: 1 },
    ];
    const client = new QueryClient();
    const doc = {
      getElementById: (id: string) =>
        id === INITIAL_DATA_ELEMENT_ID ? ({ textContent: scriptSafeJson(entries) } as HTMLElement) : null,
    };
    expect(seedInitialData(client, doc)).toBe(2);
    expect(client.getQueryData(getQueryKey(trpc.stats.get, undefined, 'query'))).toEqual({
      at: new Date('2026-01-02T00:00:00Z'),
    });
    expect(client.getQueryData(getQueryKey(trpc.prices.dashboard, input, 'query'))).toEqual({ total: 3 });
    expect(
      seedInitialData(new QueryClient(), { getElementById: () => ({ textContent: '{not json' }) as HTMLElement }),
    ).toBe(0);
    expect(seedInitialData(new QueryClient(), { getElementById: () => null })).toBe(0);
  });
});

describe('index.html from the web process', () => {
  let db: TestDatabase;
  let server: ReturnType<typeof createServer>;
  let base: string;
  let dist: string;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-initial-'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>EggWatch</title></head><body><div id="root"></div></body></html>',
    );
    db = await createTestDatabase();
    server = createServer({ sql: db.sql, port: 0, logLevel: 'silent', distDir: dist });
    base = await server.start();
  });
  afterAll(async () => {
    await server.stop();
    await db.drop();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  /**
   * The page's block of first answers. On a busy machine a cold first answer can take longer than
   * the page waits for it (INITIAL_DATA_TIMEOUT_MS): that page goes out without the block, by
   * design, while the answers go on into the read cache, so a few more requests are allowed. A
   * page that never carries the block still fails.
   */
  const blockOf = async (pathname: string) => {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${base}${pathname}`);
      expect(response.status).toBe(200);
      const text = load(await response.text())(`#${INITIAL_DATA_ELEMENT_ID}`).text();
      if (text) return JSON.parse(text) as InitialEntry[];
      if (attempt === 5) return null;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  /** What the tRPC API answers for the same query. */
  const viaApi = async (entry: InitialEntry) => {
    const input =
      entry.input === undefined
        ? ''
        : `?input=${encodeURIComponent(JSON.stringify(transformer.serialize(entry.input)))}`;
    const body = (await (await fetch(`${base}/trpc/${entry.path}${input}`)).json()) as {
      result: { data: Parameters<typeof transformer.deserialize>[0] };
    };
    return transformer.deserialize(body.result.data);
  };

  it('carries the dashboard’s first answers, equal to the API’s', async () => {
    const entries = await blockOf('/');
    expect(entries?.map((e) => e.path)).toEqual(initialQueries('/', '').map((q) => q.path));
    for (const entry of entries!) {
      expect(transformer.deserialize(entry.data as Parameters<typeof transformer.deserialize>[0]), entry.path).toEqual(
        await viaApi(entry),
      );
    }
    const dashboard = entries!.find((e) => e.path === 'prices.dashboard');
    expect((transformer.deserialize(dashboard!.data as never) as { items: unknown[] }).items.length).toBeGreaterThan(0);
  });

  it('carries the compare page’s comparison', async () => {
    const entries = await blockOf('/compare/organic');
    const comparison = entries?.find((e) => e.path === 'compare.byType');
    expect(comparison?.input).toEqual({ eggType: 'organic', page: 1, pageSize: 4 });
    expect(transformer.deserialize(comparison!.data as never)).toEqual(await viaApi(comparison!));
  });

  it('follows new prices', async () => {
    const before = await blockOf('/');
    await db.sql`update price_entries set price = price + 1`;
    // A notification from the database drops the cache in production; the test drops it itself.
    server.cache.invalidate();
    const after = await blockOf('/');
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
  });
});

describe('index.html with the database out of reach', () => {
  // Nothing listens on port 1: every connection is refused, as while PostgreSQL is stopped.
  const down = createSql('postgres://eggwatch@127.0.0.1:1/eggwatch', { max: 2 });
  let dist: string;
  let app: ReturnType<typeof buildApp>['app'];
  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-initial-down-'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>EggWatch</title></head><body><div id="root"></div></body></html>',
    );
    ({ app } = buildApp({ sql: down, logLevel: 'silent', distDir: dist }));
  });
  afterAll(async () => {
    await app.close();
    await down.end({ timeout: 1 });
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('goes out without its data, and the page fetches it itself', async () => {
    const response = await app.inject('/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root">');
    expect(response.body).not.toContain(INITIAL_DATA_ELEMENT_ID);
  });
});
