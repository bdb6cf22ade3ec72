// Every REST path over real HTTP against the web process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { createServer } from './app.ts';
import { refreshRollups } from './queries/rollups.ts';
import type { PriceEntry, Stats, Store } from '../shared/types.ts';

let db: TestDatabase;
let server: ReturnType<typeof createServer>;
let base: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await refreshRollups(db.sql);
  server = createServer({ sql: db.sql, port: 0, logLevel: 'silent', distDir: '/nonexistent' });
  base = await server.start();
});
afterAll(async () => {
  await server.stop();
  await db.drop();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

describe('GET /api/egg-prices', () => {
  it('lists entries with their documented field names and cache headers', async () => {
    const { status, body, headers } = await get('/api/egg-prices');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/application\/json/);
    expect(headers.get('etag')).toBeTruthy();
    const entries = body as PriceEntry[];
    expect(entries.length).toBeGreaterThan(100);
    expect(entries[0]).toMatchObject({
      id: expect.any(Number),
      store_id: expect.any(String),
      price: expect.any(Number),
      count: expect.any(Number),
    });
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get('/api/egg-prices?store=aldi');
    const again = await fetch(`${base}/api/egg-prices?store=aldi`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('filters and pages', async () => {
    const { body } = await get('/api/egg-prices?store=Kroger&region=midwest&egg_type=pasture_raised&count=12');
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ store_id: 'kroger', region: 'midwest', egg_type: 'pasture_raised', count: 12 });
    const page = await get('/api/egg-prices?limit=3&offset=2');
    expect(page.body).toHaveLength(3);
  });

  it('answers 400 with a message for malformed parameters', async () => {
    for (const query of [
      'limit=-1',
      'limit=abc',
      'egg_type=brown',
      'region=atlantis',
      'count=1.5',
      'unknown=1',
      'store=%20',
    ]) {
      const { status, body } = await get(`/api/egg-prices?${query}`);
      expect(status, query).toBe(400);
      expect(typeof body.message, query).toBe('string');
      expect(body.message.length, query).toBeGreaterThan(3);
    }
  });

  it('serves fresh data after prices change (the cache follows the database)', async () => {
    const path = '/api/egg-prices?store=walmart&region=northeast&egg_type=standard&count=12';
    const before = (await get(path)).body[0] as PriceEntry;
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${before.product_id}, ${before.location_id}, 9.99, now(), utc_day(now()), 'scrape')
      on conflict (product_id, location_id, observed_on) do update set price = excluded.price, source = excluded.source`;
    await expect.poll(async () => (await get(path)).body[0]?.price, { timeout: 5000 }).toBe(9.99);
  });
});

describe('stores', () => {
  it('GET /api/stores lists stores', async () => {
    const { status, body } = await get('/api/stores');
    expect(status).toBe(200);
    expect((body as Store[]).map((s) => s.id)).toContain('whole-foods');
  });

  it('GET /api/stores/{storeId} reads one and 404s an unknown one', async () => {
    expect((await get('/api/stores/target')).body).toMatchObject({ id: 'target', store_name: 'Target' });
    const missing = await get('/api/stores/costco');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/costco/);
    expect((await get('/api/stores/bad%20id')).status).toBe(400);
  });

  it("GET /api/stores/{storeId}/prices lists that store's entries", async () => {
    const { status, body } = await get('/api/stores/aldi/prices?egg_type=organic');
    expect(status).toBe(200);
    expect((body as PriceEntry[]).every((e) => e.store_id === 'aldi' && e.egg_type === 'organic')).toBe(true);
    expect((await get('/api/stores/nowhere/prices')).status).toBe(404);
    expect((await get('/api/stores/aldi/prices?count=zero')).status).toBe(400);
  });
});

describe('GET /api/stats', () => {
  it('serves statistics computed from the data', async () => {
    const { status, body } = await get('/api/stats');
    expect(status).toBe(200);
    const stats = body as Stats;
    expect(stats.national_average.price_per_dozen).toBeGreaterThan(0);
    expect(stats.trends['30d'].days).toHaveLength(30);
    expect(stats.lowest_price?.store_id).toBeTruthy();
  });
});

describe('GET /api/market-prices', () => {
  it('serves the BLS series', async () => {
    const { status, body } = await get('/api/market-prices?region=national&from=2025-01');
    expect(status).toBe(200);
    expect(body[0].points[0]).toEqual({ period: '2025-01', price: 4.953 });
  });
});

describe('the adapter', () => {
  it('answers JSON 404 for unknown /api paths and methods', async () => {
    for (const path of ['/api/nope', '/api', '/api/stores/walmart/unknown']) {
      const { status, body, headers } = await get(path);
      expect(status, path).toBe(404);
      expect(headers.get('content-type')).toMatch(/application\/json/);
      expect(body.message).toBeTruthy();
    }
    const post = await fetch(`${base}/api/stores`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(post.status).toBeGreaterThanOrEqual(400);
    expect(post.status).toBeLessThan(500);
    expect(await post.json()).toHaveProperty('message');
  });

  it('describes its paths in /api/openapi.json', async () => {
    const { status, body } = await get('/api/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/api/egg-prices',
        '/api/stores',
        '/api/stores/{storeId}',
        '/api/stores/{storeId}/prices',
        '/api/stats',
      ]),
    );
    const params = body.paths['/api/egg-prices'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['store', 'region', 'egg_type', 'count', 'limit', 'offset']));
  });

  it('sends security headers', async () => {
    const { headers } = await get('/api/stores');
    expect(headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves tRPC under /trpc', async () => {
    const response = await fetch(`${base}/trpc/stores.list`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.result.data.json.length).toBe(6);
  });

  it('answers public tRPC queries from its byte cache exactly as tRPC would, and follows the data', async () => {
    const input = { 0: { json: { filters: { store: 'aldi' }, page: 1, pageSize: 9 } }, 1: { json: undefined } };
    const path = `/trpc/prices.dashboard,stats.get?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
    const first = await fetch(`${base}${path}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const [dashboard, stats] = (await first.json()) as Array<{
      result: { data: { json: { items?: PriceEntry[]; national_average?: unknown } } };
    }>;
    expect(dashboard!.result.data.json.items!.map((e) => e.store_id)).toEqual(['aldi']);
    expect(stats!.result.data.json).toHaveProperty('national_average');
    expect((await fetch(`${base}${path}`, { headers: { 'if-none-match': etag! } })).status).toBe(304);

    // Bad input falls through to tRPC's own error answer.
    const bad = await fetch(
      `${base}/trpc/prices.dashboard?input=${encodeURIComponent(JSON.stringify({ json: { pageSize: 0 } }))}`,
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.json.message).toMatch(/pageSize/);

    const price = dashboard!.result.data.json.items![0]!;
    await db.sql`
      insert into price_observations (product_id, location_id, price, observed_at, observed_on, source)
      values (${price.product_id}, ${price.location_id}, 1.11, now(), utc_day(now()), 'scrape')
      on conflict (product_id, location_id, observed_on) do update set price = excluded.price, source = excluded.source`;
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${base}${path}`)).json()) as (typeof dashboard)[])[0]!.result.data.json.items![0]!
            .price,
        { timeout: 5000 },
      )
      .toBe(1.11);
  });
});
