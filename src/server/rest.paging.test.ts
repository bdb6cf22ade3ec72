// The REST lists at nationwide size: a JSON list asked without a limit answers its first 1,000
// entries with X-Total-Count and a Link to the next page, a limit above 5,000 is refused with a
// 400 naming it, and a CSV download streams every matching row in keyset batches.
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { parse } from 'csv-parse/sync';
import type { TestDatabase } from '../../test/db.ts';
import { restServer } from '../../test/rest.ts';
import { createServer } from './app.ts';
import { listPriceEntries, priceEntryBatches } from './queries/prices.ts';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from '../shared/inputs.ts';
import type { PriceEntry } from '../shared/types.ts';

let db: TestDatabase;
let total: number;

const rest = restServer({
  async prepare(database) {
    db = database;
    // 5,600 more Kroger entries in the Midwest: 280 locations x 20 products, one price each today.
    await db.sql`
      insert into store_locations (store_id, zip, region, retailer_location_id, name)
      select 'kroger', lpad((46000 + n)::text, 5, '0'), 'midwest', 'paging-' || n, 'Kroger ' || n from generate_series(1, 280) n`;
    await db.sql`
      insert into products (store_id, retailer_product_id, title, egg_type, count)
      select 'kroger', 'paging-' || n, 'Kroger Grade A Large Eggs ' || n, 'standard', 12 from generate_series(1, 20) n`;
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      select p.id, l.id, 3 + (l.id % 100) / 100.0, now(), utc_day(now()), 'scrape'
      from store_locations l cross join products p
      where l.retailer_location_id like 'paging-%' and p.retailer_product_id like 'paging-%'`;
    // (the Midwest's sample prices are hidden now that it has scraped ones)
    total = (await listPriceEntries(db.sql, { store: 'kroger' })).length;
    expect(total).toBeGreaterThan(MAX_LIST_LIMIT);
  },
  timeout: 60_000,
});
const { get } = rest;

describe('JSON lists', () => {
  it('answer the first 1,000 entries without a limit, with the total and a link to the next page', async () => {
    const { status, headers, text } = await get('/api/egg-prices?store=kroger');
    expect(status).toBe(200);
    const entries = JSON.parse(text) as PriceEntry[];
    expect(entries).toHaveLength(DEFAULT_LIST_LIMIT);
    expect(headers.get('x-total-count')).toBe(String(total));
    expect(headers.get('link')).toContain('</api/egg-prices?store=kroger&limit=1000&offset=1000>; rel="next"');
    const next = JSON.parse((await get('/api/egg-prices?store=kroger&limit=1000&offset=1000')).text) as PriceEntry[];
    expect(next[0]!.id).toBeGreaterThan(entries.at(-1)!.id);
  });

  it('answer a page of 5,000 at most, and refuse a larger limit with a 400 naming the maximum', async () => {
    const { status, headers, text } = await get(`/api/egg-prices?store=kroger&limit=${MAX_LIST_LIMIT}`);
    expect(status).toBe(200);
    expect(JSON.parse(text)).toHaveLength(MAX_LIST_LIMIT);
    expect(headers.get('link')).toContain('limit=5000&offset=5000>; rel="next"');
    for (const path of [
      '/api/egg-prices?store=kroger&limit=5001',
      '/api/egg-prices?limit=9999999999',
      '/api/egg-prices.csv?limit=50000',
      '/api/stores/kroger/prices?limit=5001',
    ]) {
      const refused = await get(path);
      expect(refused.status, path).toBe(400);
      expect(JSON.parse(refused.text).message, path).toMatch(/limit must be at most 5000/);
    }
    expect((await get('/api/egg-prices?limit=0')).status).toBe(400);
    expect((await get('/api/egg-prices?limit=lots')).status).toBe(400);
  });

  it("page a store's prices the same way", async () => {
    const { status, headers, text } = await get('/api/stores/kroger/prices?limit=3&offset=3');
    expect(status).toBe(200);
    expect(JSON.parse(text)).toHaveLength(3);
    expect(headers.get('x-total-count')).toBe(String(total));
    expect(headers.get('link')).toContain('rel="prev"');
    expect(JSON.parse((await get('/api/stores/kroger/prices')).text)).toHaveLength(DEFAULT_LIST_LIMIT);
    expect((await get('/api/stores/nowhere/prices?limit=3')).status).toBe(404);
  });
});

describe('CSV downloads', () => {
  it('stream every matching row, more than any JSON page holds', async () => {
    const { status, headers, text } = await get('/api/egg-prices.csv?store=kroger');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('x-total-count')).toBe(String(total));
    const rows = parse(text, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
    expect(text.match(/^id,store_id,/gm)).toHaveLength(1);
    // The same rows as the list, in id order.
    const ids = rows.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('keep limit and offset, and revalidate by ETag without a query', async () => {
    // The ETag names the minute too (the cache's own expiry): a download and its revalidation
    // on either side of a minute's turn are asked again.
    const url = '/api/egg-prices.csv?store=kroger&limit=2500&offset=10';
    const minute = () => Math.floor(Date.now() / 60_000);
    let paged: Awaited<ReturnType<typeof get>>;
    let again: Awaited<ReturnType<typeof get>>;
    for (let tries = 1; ; tries++) {
      const started = minute();
      paged = await get(url);
      again = await get(url, { 'if-none-match': paged.headers.get('etag')! });
      if (minute() === started || tries === 3) break;
    }
    expect(parse(paged.text, { columns: true })).toHaveLength(2500);
    expect(paged.headers.get('link')).toContain('rel="next"');
    const etag = paged.headers.get('etag')!;
    expect(again.status).toBe(304);
    // New prices, a new data version: the download is sent again.
    await db.sql`update price_observations set price = price + 0.01 where id = (select max(id) from price_observations)`;
    // Each answer's body is read to its end: a 200's download left unread would hold its
    // connection (and the server's stream) open, and the server's close would wait for it.
    const revalidated = async () =>
      (await get('/api/egg-prices.csv?store=kroger&limit=2500&offset=10', { 'if-none-match': etag })).status;
    await expect.poll(revalidated, { timeout: 10_000 }).toBe(200);
  });

  it('answer bad input and unknown stores before any row', async () => {
    const bad = await get('/api/egg-prices.csv?egg_type=brown');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).message).toMatch(/egg_type/);
    expect((await get('/api/stores/nowhere/prices.csv')).status).toBe(404);
    const empty = await get('/api/egg-prices.csv?store=kroger&count=360');
    expect(empty.status).toBe(200);
    expect(empty.text.trim()).toMatch(/^id,store_id,[^\n]*$/);
  });
});

describe('priceEntryBatches', () => {
  it('reads the list in keyset batches: the same entries as one query, from an offset, up to a limit', async () => {
    const all = await listPriceEntries(db.sql, { store: 'kroger' });
    const batches: PriceEntry[][] = [];
    for await (const batch of priceEntryBatches(db.sql, { store: 'kroger' }, {}, 997)) batches.push(batch);
    expect(batches.slice(0, -1).every((b) => b.length === 997)).toBe(true);
    expect(batches.flat()).toEqual(all);
    const window: PriceEntry[] = [];
    for await (const batch of priceEntryBatches(db.sql, { store: 'kroger' }, { offset: 5, limit: 2001 }, 1000))
      window.push(...batch);
    expect(window).toEqual(all.slice(5, 2006));
  });
});

describe('stopping the web process', () => {
  it('does not wait for ever on a client that stopped reading a download', async () => {
    const own = createServer({ sql: db.sql, port: 0, logLevel: 'silent', distDir: '/nonexistent' });
    const url = new URL('/api/egg-prices.csv?store=kroger', await own.start());
    // Several copies at once, none read: more than the sockets' buffers hold, so the server's
    // streams stall with rows still to send.
    const requests = Array.from({ length: 6 }, () => {
      const request = http.get(url, (response) => response.pause());
      request.on('error', () => {});
      return request;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const stopped = await Promise.race([
      own.stop({ graceMs: 500 }).then(() => 'stopped'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 15_000)),
    ]);
    for (const request of requests) request.destroy();
    expect(stopped).toBe('stopped');
  }, 30_000);
});
