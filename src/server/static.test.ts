// The client build as the web process serves it: fingerprinted assets cached for a year, and the
// pre-compressed .br / .gz copies the build writes (scripts/compress-assets.ts) sent to browsers
// that accept them, the plain file to others; client routes get index.html.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { compressAssets } from '../../scripts/compress-assets.ts';
import { createServer } from './app.ts';

let db: TestDatabase;
let server: ReturnType<typeof createServer>;
let base: string;
let dist: string;
const script = `export const answer = ${JSON.stringify('egg '.repeat(600))};\n`;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'eggwatch-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>EggWatch</title><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), script);
  fs.writeFileSync(path.join(dist, 'assets', 'tiny-abc123.js'), 'export {};\n');
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

/** Node's fetch decodes bodies itself, so the raw bytes are read with the encoding header kept. */
async function get(pathname: string, acceptEncoding?: string) {
  const response = await fetch(`${base}${pathname}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : { 'accept-encoding': 'identity' } });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

describe('the client build', () => {
  it('writes brotli and gzip copies of text assets above 1 kB only', () => {
    expect(fs.existsSync(path.join(dist, 'assets', 'app-abc123.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'assets', 'app-abc123.js.gz'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'assets', 'tiny-abc123.js.br'))).toBe(false);
  });

  it('sends the brotli copy to browsers that accept it, cached for a year', async () => {
    const { response } = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
  });

  it('sends gzip when brotli is not accepted, and the plain file otherwise', async () => {
    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.response.headers.get('content-encoding')).toBe('gzip');
    const plain = await get('/assets/app-abc123.js');
    expect(plain.response.headers.get('content-encoding')).toBeNull();
    expect(plain.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.body.toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'))).toString()).toBe(script);
    const tiny = await get('/assets/tiny-abc123.js', 'br');
    expect(tiny.response.status).toBe(200);
    expect(tiny.response.headers.get('content-encoding')).toBeNull();
  });

  it('answers client routes with index.html, not cached', async () => {
    const { response, body } = await get('/compare/organic');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(body.toString()).toContain('<div id="root">');
  });
});
