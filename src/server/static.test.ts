// The client build as the web process serves it: fingerprinted assets cached for a year, and the
// pre-compressed .br / .gz copies the build writes (scripts/compress-assets.ts) sent to browsers
// that accept them, the plain file to others; client routes get index.html. And the API's JSON
// compressed on the way out (compress.ts).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { compressAssets } from '../../scripts/compress-assets.ts';
import { createServer } from './app.ts';
import { negotiateEncoding } from './compress.ts';

let db: TestDatabase;
let server: ReturnType<typeof createServer>;
let base: string;
let dist: string;
const script = `export const answer = ${JSON.stringify('egg '.repeat(600))};\n`;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><title>EggWatch</title></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(
    path.join(dist, 'route-preloads.json'),
    JSON.stringify({ '/compare/:eggType': ['assets/app-abc123.js'], '*': [] }),
  );
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), script);
  fs.writeFileSync(path.join(dist, 'assets', 'tiny-abc123.js'), 'export {};\n');
  fs.mkdirSync(path.join(dist, 'logos'));
  fs.copyFileSync(path.resolve('public/logos/walmart.svg'), path.join(dist, 'logos', 'walmart.svg'));
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await compressAssets(dist);
  db = await createTestDatabase();
  server = createServer({ sql: db.sql, port: 0, logLevel: 'silent', distDir: dist });
  base = await server.start();
});
afterAll(async () => {
  await server.stop();
  await db.drop();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The raw answer (node:http, since fetch decodes compressed bodies itself). */
function get(pathname: string, acceptEncoding = 'identity', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${base}${pathname}`, { headers: { 'accept-encoding': acceptEncoding, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe('the client build', () => {
  it('writes brotli and gzip copies of text assets above 1 kB only', () => {
    expect(fs.existsSync(path.join(dist, 'assets', 'app-abc123.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'assets', 'app-abc123.js.gz'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'assets', 'tiny-abc123.js.br'))).toBe(false);
  });

  it('sends the brotli copy to browsers that accept it, cached for a year', async () => {
    const { status, headers } = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(status).toBe(200);
    expect(headers['content-encoding']).toBe('br');
    expect(headers['content-type']).toMatch(/javascript/);
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(headers['vary']).toMatch(/accept-encoding/i);
  });

  it('sends gzip when brotli is not accepted, and the plain file otherwise', async () => {
    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body.toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'))).toString()).toBe(script);
    const tiny = await get('/assets/tiny-abc123.js', 'br');
    expect(tiny.status).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
  });

  it('serves the store logos from the site, cached for a year like the fingerprinted assets', async () => {
    const logo = await get('/logos/walmart.svg', 'gzip, br');
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(logo.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(logo.body.toString()).toContain('<svg');
    // Other files outside assets/ keep their names across builds, so they are revalidated.
    expect((await get('/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('answers client routes with index.html, not cached', async () => {
    const { status, headers, body } = await get('/compare/organic');
    expect(status).toBe(200);
    expect(headers['cache-control']).toBe('no-cache');
    expect(body.toString()).toContain('<div id="root">');
    // The build's route-preloads.json: the compare page's chunks are announced up front.
    expect(body.toString()).toContain('<link rel="modulepreload" crossorigin href="/assets/app-abc123.js">');
    expect((await get('/somewhere-else')).body.toString()).not.toContain('modulepreload');
  });

  it("answers a path no client route matches with 404 and the app's own page (its not-found page)", async () => {
    for (const pathname of ['/no/such/page', '/somewhere-else', '/store/aldi/extra', '/compare']) {
      const { status, headers, body } = await get(pathname);
      expect(status, pathname).toBe(404);
      expect(headers['content-type']).toMatch(/^text\/html/);
      expect(body.toString()).toContain('<div id="root">');
    }
    for (const pathname of ['/', '/store/aldi', '/STORE/aldi', '/notifications/manage', '/admin']) {
      expect((await get(pathname)).status, pathname).toBe(200);
    }
  });
});

describe('compressed answers', () => {
  it('negotiates brotli, then gzip, honouring q=0', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('*')).toBe('br');
  });

  it('sends JSON of the API compressed to browsers that accept it, the same JSON otherwise', async () => {
    const plain = await get('/api/egg-prices');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    const br = await get('/api/egg-prices', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
    const gz = await get('/api/egg-prices', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(plain.body.toString());
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('compresses a cached tRPC answer, and keeps its ETag for revalidation', async () => {
    const url = '/trpc/prices.list';
    const first = await get(url, 'br');
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    const again = await get(url, 'br');
    expect(again.body.equals(first.body)).toBe(true);
    const etag = first.headers['etag']!;
    const revalidated = await get(url, 'br', { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
  });
});
