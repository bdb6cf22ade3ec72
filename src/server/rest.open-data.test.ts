// The open-data side of the REST adapter over real HTTP: Near you and history paths, CSV downloads
// (parsed back with csv-parse), the API reference at /api/docs, CORS, paging headers, the public
// rate limit and the OpenAPI document.
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { TestDatabase } from '../../test/db.ts';
import { addListing, type Listing } from '../../test/listings.ts';
import { restServer } from '../../test/rest.ts';
import { createServer } from './app.ts';
import type { HistoryResult, NearResult } from '../shared/near.ts';
import type { PriceEntry } from '../shared/types.ts';

const rest = restServer();
const { get } = rest;
let db: TestDatabase;
let tricky: Listing;
let formula: Listing;

const TRICKY_TITLE = 'Farm "Fresh", Large\nBrown Eggs, 12 ct';

beforeAll(async () => {
  db = rest.db;
  tricky = await addListing(db.sql, {
    store: 'walmart',
    zip: '50265',
    price: 3.49,
    previous: 3.69,
    title: TRICKY_TITLE,
    brand: 'Great, "Value"',
  });
  formula = await addListing(db.sql, {
    store: 'aldi',
    zip: '50316',
    count: 18,
    price: 4.99,
    title: '=HYPERLINK("http://evil.example","eggs")',
    brand: '-Goldhen',
  });
});

async function getJson(path: string) {
  const { status, headers, text } = await get(path);
  return { status, headers, body: JSON.parse(text) };
}
const csvRecords = (text: string) =>
  parse(text, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;

describe('GET /api/egg-prices/near', () => {
  it('answers the ranked entries around a ZIP code', async () => {
    const { status, headers, body } = await getJson('/api/egg-prices/near?zip=50309&radius=10');
    expect(status).toBe(200);
    expect(headers.get('etag')).toBeTruthy();
    const near = body as NearResult;
    expect(near).toMatchObject({
      zip: '50309',
      state: 'IA',
      region: 'midwest',
      scope: 'radius',
      radius_used: 10,
      total: 2,
    });
    expect(near.entries.map((e) => e.product_id)).toEqual([formula.productId, tricky.productId]);
    expect(near.entries[1]).toMatchObject({ title: TRICKY_TITLE, previous_price: 3.69, change: -0.2 });
    expect(headers.get('x-total-count')).toBe('2');
  });

  it('answers 400 with a message for malformed and unknown ZIP codes', async () => {
    const malformed = await getJson('/api/egg-prices/near?zip=abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/zip must be a 5-digit US ZIP code/);
    const unknown = await getJson('/api/egg-prices/near?zip=99999');
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Unknown ZIP code 99999' } });
    const territory = await getJson('/api/egg-prices/near?zip=00601');
    expect(territory).toMatchObject({ status: 400, body: { message: 'Unknown ZIP code 00601' } });
    const radius = await getJson('/api/egg-prices/near?zip=50309&radius=15');
    expect(radius.status).toBe(400);
    expect(radius.body.message).toMatch(/radius must be one of 5, 10, 25, 50/);
  });
});

describe('GET /api/products/{id}/history', () => {
  it("answers a product's history at a location", async () => {
    const { status, body } = await getJson(
      `/api/products/${tricky.productId}/history?location=${tricky.locationId}&days=30`,
    );
    expect(status).toBe(200);
    const history = body as HistoryResult;
    expect(history.product.title).toBe(TRICKY_TITLE);
    expect(history.points.map((p) => p.price)).toEqual([3.69, 3.49]);
    expect(history.change).toMatchObject({ value: -0.2 });
    expect(history.bls.length).toBeGreaterThan(0);
  });

  it('answers 404 without a price there and 400 for bad input', async () => {
    const missing = await getJson(`/api/products/${tricky.productId}/history?location=${formula.locationId}`);
    expect(missing).toMatchObject({
      status: 404,
      body: { message: `No price history for product ${tricky.productId} at location ${formula.locationId}` },
    });
    expect(
      (await getJson(`/api/products/${tricky.productId}/history?location=${tricky.locationId}&days=7`)).body.message,
    ).toMatch(/days must be one of 30, 90, 365/);
  });
});

describe('CSV downloads', () => {
  it('/api/egg-prices.csv: a header row, one row per entry, as an attachment', async () => {
    const { status, headers, text } = await get('/api/egg-prices.csv');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('content-disposition')).toBe('attachment; filename="egg-prices.csv"');
    expect(text.split('\r\n')[0]).toBe(
      'id,store_id,store_name,region,zip,location_id,product_id,title,brand,egg_type,count,size_grade,price,regular_price,unit_price,in_stock,trend_value,trend_direction,last_updated,source,source_url',
    );
    const rows = csvRecords(text);
    const json = (await getJson('/api/egg-prices')).body as PriceEntry[];
    expect(rows).toHaveLength(json.length);
    expect(rows.map((r) => Number(r.id))).toEqual(json.map((e) => e.id));
    expect(rows[0]).toMatchObject({
      store_id: json[0]!.store_id,
      price: String(json[0]!.price),
      last_updated: json[0]!.last_updated,
    });
  });

  it('round-trips a title with a comma, a quote and a line break', async () => {
    const rows = csvRecords((await get('/api/egg-prices.csv?store=walmart&region=midwest')).text);
    const row = rows.find((r) => Number(r.product_id) === tricky.productId);
    expect(row).toMatchObject({
      title: TRICKY_TITLE,
      brand: 'Great, "Value"',
      price: '3.49',
      count: '12',
      egg_type: 'standard',
      source: 'scrape',
    });
  });

  it('neutralises spreadsheet formulas in text cells and keeps numbers numbers', async () => {
    const { text } = await get('/api/egg-prices/near.csv?zip=50309&radius=10');
    const rows = csvRecords(text);
    const aldi = rows.find((r) => Number(r.product_id) === formula.productId)!;
    expect(aldi.title).toBe(`'=HYPERLINK("http://evil.example","eggs")`);
    expect(aldi.brand).toBe(`'-Goldhen`);
    const walmart = rows.find((r) => Number(r.product_id) === tricky.productId)!;
    expect(walmart.change).toBe('-0.2');
    expect(walmart.previous_price).toBe('3.69');
    expect(aldi.change).toBe('');
    // The raw text: the formula starts with the apostrophe inside its quoted cell.
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""eggs"")"`);
  });

  it('applies the same filters as the JSON list', async () => {
    const path = '/api/egg-prices?store=aldi&egg_type=organic&region=northeast';
    const json = (await getJson(path)).body as PriceEntry[];
    expect(json.length).toBeGreaterThan(0);
    const rows = csvRecords((await get(path.replace('/api/egg-prices', '/api/egg-prices.csv'))).text);
    expect(rows.map((r) => Number(r.id))).toEqual(json.map((e) => e.id));
    expect(rows.every((r) => r.store_id === 'aldi' && r.egg_type === 'organic' && r.region === 'northeast')).toBe(true);
    const paged = csvRecords((await get('/api/egg-prices.csv?limit=3&offset=1')).text);
    const all = (await getJson('/api/egg-prices')).body as PriceEntry[];
    expect(paged.map((r) => Number(r.id))).toEqual(all.slice(1, 4).map((e) => e.id));
  });

  it('answers only the header row when nothing matches', async () => {
    const { status, text } = await get('/api/egg-prices.csv?count=360');
    expect(status).toBe(200);
    expect(text.trim().split('\r\n')).toHaveLength(1);
    expect(text.startsWith('id,store_id,')).toBe(true);
  });

  it('/api/egg-prices/near.csv, /api/stores/{id}/prices.csv and the history', async () => {
    const near = await get('/api/egg-prices/near.csv?zip=50309&radius=10');
    expect(near.headers.get('content-disposition')).toBe('attachment; filename="egg-prices-near-50309.csv"');
    expect(csvRecords(near.text).map((r) => [r.store_id, r.distance_miles !== '', r.price_per_dozen])).toEqual([
      ['aldi', true, '3.33'],
      ['walmart', true, '3.49'],
    ]);

    const store = await get('/api/stores/Aldi/prices.csv?egg_type=organic');
    expect(store.status).toBe(200);
    expect(store.headers.get('content-disposition')).toBe('attachment; filename="aldi-prices.csv"');
    const storeRows = csvRecords(store.text);
    expect(storeRows.length).toBeGreaterThan(0);
    expect(storeRows.every((r) => r.store_id === 'aldi' && r.egg_type === 'organic')).toBe(true);

    const history = await get(`/api/products/${tricky.productId}/history.csv?location=${tricky.locationId}&days=30`);
    expect(history.headers.get('content-disposition')).toBe(
      `attachment; filename="product-${tricky.productId}-location-${tricky.locationId}-history-30d.csv"`,
    );
    const historyRows = csvRecords(history.text);
    expect(historyRows.map((r) => [r.title, r.price, r.price_per_dozen])).toEqual([
      [TRICKY_TITLE, '3.69', '3.69'],
      [TRICKY_TITLE, '3.49', '3.49'],
    ]);
    expect(Object.keys(historyRows[0]!)).toEqual([
      'day',
      'store_id',
      'location_id',
      'zip',
      'product_id',
      'title',
      'egg_type',
      'count',
      'price',
      'price_per_dozen',
      'bls_national_per_dozen',
    ]);
  });

  it('/api/market-prices.csv: one row per series and month', async () => {
    const json = (await getJson('/api/market-prices?from=2025-01')).body as Array<{
      series_id: string;
      points: unknown[];
    }>;
    const { headers, text } = await get('/api/market-prices.csv?from=2025-01');
    expect(headers.get('content-disposition')).toBe('attachment; filename="market-prices.csv"');
    const rows = csvRecords(text);
    expect(rows).toHaveLength(json.reduce((sum, series) => sum + series.points.length, 0));
    expect(rows).toContainEqual({
      series_id: 'APU0000708111',
      region: 'national',
      item: 'Eggs, grade A, large, per doz.',
      grade: 'A',
      period: '2025-01',
      price: '4.953',
    });
    const national = csvRecords((await get('/api/market-prices.csv?region=national')).text);
    expect(new Set(national.map((r) => r.region))).toEqual(new Set(['national']));
  });

  it('answers bad input with the JSON error of the JSON route', async () => {
    for (const [path, status] of [
      ['/api/egg-prices.csv?limit=abc', 400],
      ['/api/egg-prices.csv?egg_type=brown', 400],
      ['/api/egg-prices/near.csv?zip=abc', 400],
      ['/api/egg-prices/near.csv?zip=99999', 400],
      [`/api/products/${tricky.productId}/history.csv?location=${tricky.locationId}&days=7`, 400],
      [`/api/products/abc/history.csv?location=${tricky.locationId}`, 400],
      [`/api/products/999999/history.csv?location=${tricky.locationId}`, 404],
      ['/api/market-prices.csv?from=2020', 400],
      ['/api/stores/nowhere/prices.csv', 404],
      ['/api/stores/aldi/prices.csv?count=zero', 400],
    ] as const) {
      const { status: got, headers, text } = await get(path);
      expect(got, path).toBe(status);
      expect(headers.get('content-type'), path).toMatch(/application\/json/);
      expect(JSON.parse(text).message.length, path).toBeGreaterThan(3);
    }
  });

  it('is cached like the JSON answers, with ETag revalidation', async () => {
    const first = await get('/api/egg-prices.csv?store=target');
    const again = await fetch(`${rest.base}/api/egg-prices.csv?store=target`, {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});

describe('bad input on every new path', () => {
  it('answers 4xx JSON with a message', async () => {
    for (const path of [
      '/api/egg-prices/near',
      '/api/egg-prices/near?zip=1234',
      '/api/egg-prices/near?zip=00000',
      '/api/egg-prices/near?zip=50309&radius=abc',
      '/api/egg-prices/near?zip=50309&egg_type=blue',
      '/api/egg-prices/near?zip=50309&count=-1',
      '/api/egg-prices/near?zip=50309&limit=0',
      '/api/egg-prices/near?zip=50309&page=2',
      `/api/products/${tricky.productId}/history`,
      `/api/products/0/history?location=${tricky.locationId}`,
      `/api/products/${tricky.productId}/history?location=abc`,
      `/api/products/${tricky.productId}/history?location=${tricky.locationId}&days=31`,
      `/api/products/${tricky.productId}/history?location=${tricky.locationId}&from=2020`,
      '/api/products/99999999999/history?location=1',
    ]) {
      const { status, headers, text } = await get(path);
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(status, path).toBeLessThan(500);
      expect(headers.get('content-type'), path).toMatch(/application\/json/);
      expect(JSON.parse(text).message, path).toEqual(expect.any(String));
    }
  });
});

describe('paging headers', () => {
  it('sends X-Total-Count and RFC 8288 links on a paged /api/egg-prices', async () => {
    const all = (await getJson('/api/egg-prices?store=walmart')).body as PriceEntry[];
    const total = all.length;
    expect(total).toBeGreaterThan(12);
    const { headers, body } = await getJson('/api/egg-prices?store=walmart&limit=5&offset=5');
    expect(body).toHaveLength(5);
    expect(headers.get('x-total-count')).toBe(String(total));
    const last = Math.floor((total - 1) / 5) * 5;
    expect(headers.get('link')).toBe(
      [
        '</api/egg-prices?store=walmart&limit=5&offset=0>; rel="first"',
        '</api/egg-prices?store=walmart&limit=5&offset=0>; rel="prev"',
        '</api/egg-prices?store=walmart&limit=5&offset=10>; rel="next"',
        `</api/egg-prices?store=walmart&limit=5&offset=${last}>; rel="last"`,
      ].join(', '),
    );
    const first = await getJson('/api/egg-prices?store=walmart&limit=5');
    expect(first.headers.get('link')).not.toMatch(/rel="prev"/);
    const final = await getJson(`/api/egg-prices?store=walmart&limit=5&offset=${last}`);
    expect(final.headers.get('link')).not.toMatch(/rel="next"/);
    expect(final.body).toHaveLength(total - last);
  });

  it('counts with the same filters, and without paging counts the list', async () => {
    const filtered = await getJson('/api/egg-prices?region=west&egg_type=organic&limit=1');
    const all = (await getJson('/api/egg-prices?region=west&egg_type=organic')).body as PriceEntry[];
    expect(filtered.headers.get('x-total-count')).toBe(String(all.length));
    expect((await getJson('/api/egg-prices?region=west&egg_type=organic')).headers.get('x-total-count')).toBe(
      String(all.length),
    );
    expect((await get('/api/egg-prices.csv?region=west&limit=2')).headers.get('x-total-count')).toBe(
      String(((await getJson('/api/egg-prices?region=west')).body as unknown[]).length),
    );
  });
});

describe('CORS', () => {
  it('lets any origin read the public GETs, without credentials', async () => {
    for (const path of [
      '/api/egg-prices?limit=1',
      '/api/egg-prices.csv?limit=1',
      '/api/egg-prices/near?zip=50309',
      '/api/stores',
      '/api/openapi.json',
    ]) {
      const { headers } = await get(path, { origin: 'https://integrator.example' });
      expect(headers.get('access-control-allow-origin'), path).toBe('*');
      expect(headers.get('access-control-allow-credentials'), path).toBeNull();
      const exposed = headers.get('access-control-expose-headers')?.split(/,\s*/) ?? [];
      expect(exposed, path).toEqual(
        expect.arrayContaining([
          'ETag',
          'X-Total-Count',
          'Link',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
          'Retry-After',
        ]),
      );
    }
  });

  it('answers the preflight of a public GET', async () => {
    const response = await fetch(`${rest.base}/api/egg-prices/near.csv?zip=50309`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://integrator.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(response.headers.get('access-control-allow-headers')).toBe('if-none-match');
  });

  it('sends nothing on authenticated and mutating paths', async () => {
    const verify = await get('/api/auth/verify', { origin: 'https://integrator.example' });
    expect(verify.status).toBe(401);
    expect(verify.headers.get('access-control-allow-origin')).toBeNull();
    for (const [path, method] of [
      ['/api/auth/verify', 'GET'],
      ['/api/subscribers', 'POST'],
      ['/api/auth/login', 'POST'],
      ['/api/egg-prices', 'POST'],
      ['/api/scrape/walmart', 'POST'],
    ] as const) {
      const preflight = await fetch(`${rest.base}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://integrator.example', 'access-control-request-method': method },
      });
      expect(preflight.headers.get('access-control-allow-origin'), `${method} ${path}`).toBeNull();
      expect(preflight.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
    }
    const post = await fetch(`${rest.base}/api/subscribers`, {
      method: 'POST',
      headers: { origin: 'https://integrator.example', 'content-type': 'application/json' },
      body: '{}',
    });
    await post.arrayBuffer();
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("keeps an unsubscribe link's address (personal data) from other sites", async () => {
    const info = await get('/api/subscribers/unsubscribe?token=x', { origin: 'https://integrator.example' });
    expect(info.status).toBe(400);
    expect(info.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${rest.base}/api/subscribers/unsubscribe?token=x`, {
      method: 'OPTIONS',
      headers: { origin: 'https://integrator.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the API reference at /api/docs', () => {
  it('serves Swagger UI over the OpenAPI document under a strict script policy', async () => {
    const page = await get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('<div id="swagger-ui">');
    expect(page.text).toContain('EggWatch API reference');
    // A phone lays it out at its own width (not 980 px), with the reference's narrow-screen style.
    expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    const style = await get('/api/docs/static/theme/phone.css');
    expect(style.headers.get('content-type')).toMatch(/text\/css/);
    expect(style.text).toMatch(/@media \(max-width: 600px\)/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const csp = page.headers.get('content-security-policy') ?? '';
    const scriptSrc =
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('script-src ')) ?? '';
    expect(scriptSrc).toBe("script-src 'self'");
    expect(csp).toMatch(/default-src 'self'/);
    // Its scripts are files of this server, and its document is /api/openapi.json's.
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(3);
    for (const src of scripts) {
      const script = await fetch(new URL(src, `${rest.base}/api/docs`));
      expect(script.status, src).toBe(200);
      expect(script.headers.get('content-type'), src).toMatch(/javascript/);
    }
    const initializer = await get('/api/docs/static/swagger-initializer.js');
    expect(initializer.text).toContain('validatorUrl: null');
    expect((await getJson('/api/docs/json')).body).toEqual((await getJson('/api/openapi.json')).body);
  });
});

describe('the OpenAPI document', () => {
  it('lists the new paths, their CSV siblings and their headers', async () => {
    const { body } = await getJson('/api/openapi.json');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/api/egg-prices/near',
        '/api/products/{id}/history',
        '/api/egg-prices.csv',
        '/api/egg-prices/near.csv',
        '/api/products/{id}/history.csv',
        '/api/market-prices.csv',
        '/api/stores/{storeId}/prices.csv',
      ]),
    );
    const near = body.paths['/api/egg-prices/near'].get;
    expect(near.parameters.map((p: { name: string }) => p.name)).toEqual([
      'zip',
      'radius',
      'egg_type',
      'count',
      'limit',
      'offset',
    ]);
    expect(Object.keys(near.responses['200'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['scope', 'radius_used', 'total', 'entries']),
    );
    const history = body.paths['/api/products/{id}/history'].get;
    expect(history.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'query:location',
      'query:days',
    ]);
    expect(Object.keys(history.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '429']));
    const csv = body.paths['/api/egg-prices.csv'].get;
    expect(Object.keys(csv.responses['200'].content)).toEqual(['text/csv']);
    expect(Object.keys(csv.responses['200'].headers)).toEqual(
      expect.arrayContaining(['X-Total-Count', 'Link', 'RateLimit-Remaining', 'Content-Disposition']),
    );
    expect(body.paths['/api/auth/verify'].get.responses['200'].headers).toBeUndefined();
  });
});

describe('the public rate limit', () => {
  it('sends RateLimit headers on the public GETs only', async () => {
    const first = await get('/api/stores');
    expect(first.headers.get('ratelimit-limit')).toBe('1200');
    const remaining = Number(first.headers.get('ratelimit-remaining'));
    expect(remaining).toBeLessThan(1200);
    expect(Number((await get('/api/stores')).headers.get('ratelimit-remaining'))).toBe(remaining - 1);
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect((await get('/api/auth/verify')).headers.get('ratelimit-limit')).toBeNull();
  });

  it('answers 429 with Retry-After beyond the limit, per address, for all the public GETs together', async () => {
    const tiny = createServer({
      sql: db.sql,
      port: 0,
      logLevel: 'silent',
      distDir: '/nonexistent',
      publicApiRateLimit: 3,
    });
    const url = await tiny.start();
    try {
      const statuses: number[] = [];
      for (const path of ['/api/stores', '/api/egg-prices.csv?limit=1', '/api/openapi.json']) {
        const response = await fetch(`${url}${path}`);
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200]);
      const limited = await fetch(`${url}/api/egg-prices/near?zip=50309`, {
        headers: { origin: 'https://integrator.example' },
      });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('content-type')).toMatch(/application\/json/);
      expect((await limited.json()).message).toMatch(/Too many requests: at most 3 a minute/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
      // A browser on another site can read the 429 and its Retry-After.
      expect(limited.headers.get('access-control-allow-origin')).toBe('*');
      // Other paths are not counted against it.
      const verify = await fetch(`${url}/api/auth/verify`);
      await verify.arrayBuffer();
      expect(verify.status).toBe(401);
    } finally {
      await tiny.stop();
    }
  });

  it('counts and limits reads answered from the cache as it does the first, with the same headers', async () => {
    const tiny = createServer({
      sql: db.sql,
      port: 0,
      logLevel: 'silent',
      distDir: '/nonexistent',
      publicApiRateLimit: 3,
    });
    const url = await tiny.start();
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${url}/api/stats`, { headers: { origin: 'https://integrator.example' } });
        answers.push({
          status: response.status,
          body: await response.text(),
          headers: Object.fromEntries(response.headers),
        });
      }
      // The first computes the answer; the others come from the read cache.
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(answers.map((a) => a.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
      for (const name of [
        'etag',
        'cache-control',
        'content-type',
        'access-control-allow-origin',
        'access-control-expose-headers',
        'vary',
        'content-security-policy',
      ]) {
        expect(new Set(answers.map((a) => a.headers[name])), name).toEqual(new Set([answers[0]!.headers[name]]));
        expect(answers[0]!.headers[name], name).toBeTruthy();
      }
      const limited = await fetch(`${url}/api/stats`, { headers: { origin: 'https://integrator.example' } });
      expect(limited.status).toBe(429);
      expect((await limited.json()).message).toMatch(/Too many requests: at most 3 a minute/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('access-control-allow-origin')).toBe('*');
      // A conditional request from the cache answers 304, and is counted too.
      const again = await fetch(`${url}/api/stats`, { headers: { 'if-none-match': answers[0]!.headers.etag! } });
      expect(again.status).toBe(429);
    } finally {
      await tiny.stop();
    }
  });

  it('behind one trusted proxy, counts the address that proxy saw, whatever a client puts in front of it', async () => {
    const proxied = createServer({
      sql: db.sql,
      port: 0,
      logLevel: 'silent',
      distDir: '/nonexistent',
      publicApiRateLimit: 2,
      trustProxy: 1,
    });
    const url = await proxied.start();
    try {
      const from = async (forwarded: string) => {
        const response = await fetch(`${url}/api/stores`, { headers: { 'x-forwarded-for': forwarded } });
        await response.arrayBuffer();
        return response;
      };
      // The same client (203.0.113.7, as the proxy appends it) with a new made-up address each time.
      expect((await from('198.51.100.1, 203.0.113.7')).status).toBe(200);
      expect((await from('198.51.100.2, 203.0.113.7')).status).toBe(200);
      expect((await from('198.51.100.3, 203.0.113.7')).status).toBe(429);
      // Another client behind the same proxy has its own count.
      expect((await from('203.0.113.8')).status).toBe(200);
    } finally {
      await proxied.stop();
    }
  });

  it('scales with rateLimitScale and turns off at 0', async () => {
    const scaled = createServer({
      sql: db.sql,
      port: 0,
      logLevel: 'silent',
      distDir: '/nonexistent',
      publicApiRateLimit: 2,
      auth: { publicUrl: 'http://x.test', adminSetupKey: 'k'.repeat(20), rateLimitScale: 10 },
    });
    const off = createServer({
      sql: db.sql,
      port: 0,
      logLevel: 'silent',
      distDir: '/nonexistent',
      publicApiRateLimit: 0,
    });
    const [scaledUrl, offUrl] = [await scaled.start(), await off.start()];
    try {
      const scaledAnswer = await fetch(`${scaledUrl}/api/stores`);
      await scaledAnswer.arrayBuffer();
      expect(scaledAnswer.headers.get('ratelimit-limit')).toBe('20');
      const unlimited = await fetch(`${offUrl}/api/stores`);
      await unlimited.arrayBuffer();
      expect(unlimited.status).toBe(200);
      expect(unlimited.headers.get('ratelimit-limit')).toBeNull();
    } finally {
      await scaled.stop();
      await off.stop();
    }
  });
});
