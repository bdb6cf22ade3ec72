// Cached reads answered by the first hook (cached-reads.ts): over real HTTP, the early answer of a
// cached URL has the status, headers and bytes the full pipeline gave it the first time, for every
// encoding a client may ask for; it is counted by the public rate limit like any public read; and
// what it must not answer (conditional requests, HEAD, a URL over the limit) still goes the usual way.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { buildApp } from './app.ts';
import type { CachedRead } from './cached-reads.ts';
import { compressedForm, negotiateEncoding } from './compress.ts';
import { addressKey, PublicRateLimit } from './public-rate-limit.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject)
      .end();
  });
}

/** An app whose requests that get past the early answer are counted by a hook of its own. */
async function start(options: { publicApiRateLimit?: number } = {}) {
  const { app, cache } = buildApp({ sql: db.sql, logLevel: 'silent', distDir: '/nonexistent', ...options });
  const reachedPipeline: string[] = [];
  app.addHook('onRequest', (req, _reply, done) => {
    reachedPipeline.push(req.url);
    done();
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, cache, base, reachedPipeline };
}

const dashboardUrl = `/trpc/prices.dashboard?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: { page: 1, pageSize: 9 } } }))}`;
const URLS = [
  '/api/stats',
  '/api/egg-prices?store=walmart&limit=3',
  '/api/egg-prices/near.csv?zip=50309',
  '/api/stores/walmart',
  '/api/ticker',
  dashboardUrl,
];
const ENCODINGS: Array<Record<string, string>> = [
  { 'accept-encoding': 'br' },
  { 'accept-encoding': 'gzip' },
  {},
  { 'accept-encoding': 'gzip, br;q=0' },
];
/** Headers that differ between any two answers. */
const PER_ANSWER = new Set(['date', 'ratelimit-remaining', 'ratelimit-reset', 'connection', 'keep-alive']);
const comparable = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name)));

describe('a cached read answered early', () => {
  it('has the same status, headers and bytes as the full pipeline gave it, in every encoding', async () => {
    const { app, cache, base, reachedPipeline } = await start();
    try {
      for (const url of URLS) {
        for (const headers of ENCODINGS) {
          const first = await get(base, url, headers);
          expect(first.status, url).toBe(200);
          // A compressed form is made on the first request that wants it, off the event loop: the
          // early answer sends it once it is made.
          const encoding = negotiateEncoding(headers['accept-encoding']);
          const cached = cache.peek<CachedRead>(url);
          expect(cached, `${url} is cached after its first answer`).toBeDefined();
          if (encoding) await compressedForm(cached!.body, encoding);
          reachedPipeline.length = 0;
          const early = await get(base, url, headers);
          expect(reachedPipeline, `${url} ${JSON.stringify(headers)} went through the pipeline`).toEqual([]);
          expect(early.status).toBe(200);
          expect(comparable(early.headers), `${url} ${JSON.stringify(headers)}`).toEqual(comparable(first.headers));
          expect(early.body.equals(first.body), `${url} ${JSON.stringify(headers)}: the bytes differ`).toBe(true);
        }
      }
    } finally {
      await app.close();
    }
  });

  it('is counted by the public rate limit, and over it the route answers the 429 without counting it twice', async () => {
    const { app, base, reachedPipeline } = await start({ publicApiRateLimit: 3 });
    try {
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++)
        remaining.push(String((await get(base, '/api/stats')).headers['ratelimit-remaining']));
      expect(remaining).toEqual(['2', '1', '0']);
      expect(reachedPipeline).toEqual(['/api/stats']);
      const limited = await get(base, '/api/stats', { origin: 'https://integrator.example' });
      expect(limited.status).toBe(429);
      expect(JSON.parse(limited.body.toString()).message).toMatch(
        /^Too many requests: at most 3 a minute from one address to the public API\. Try again in \d+ seconds?\.$/,
      );
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      expect(limited.headers['access-control-allow-origin']).toBe('*');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // tRPC reads are not the public API: never limited.
      for (let i = 0; i < 5; i++) expect((await get(base, dashboardUrl)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('leaves conditional requests and HEAD to the pipeline, which answers them as before', async () => {
    const { app, base, reachedPipeline } = await start();
    try {
      const first = await get(base, '/api/stats');
      reachedPipeline.length = 0;
      const conditional = await get(base, '/api/stats', { 'if-none-match': String(first.headers.etag) });
      expect(conditional.status).toBe(304);
      const head = await get(base, '/api/stats', {}, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers.etag).toBe(first.headers.etag);
      expect(reachedPipeline).toEqual(['/api/stats', '/api/stats']);
    } finally {
      await app.close();
    }
  });
});

describe('the public rate limit', () => {
  it('counts an address per minute, IPv6 per /64 network and IPv4-mapped IPv6 as IPv4', () => {
    const limit = new PublicRateLimit(2, 60_000);
    expect(limit.take('192.0.2.1', 0)).toEqual({ limit: 2, remaining: 1, resetS: 60, exceeded: false });
    expect(limit.take('::ffff:192.0.2.1', 30_000)).toEqual({ limit: 2, remaining: 0, resetS: 30, exceeded: false });
    expect(limit.take('192.0.2.1', 59_999).exceeded).toBe(true);
    // A new window a minute after the first request.
    expect(limit.take('192.0.2.1', 60_000)).toEqual({ limit: 2, remaining: 1, resetS: 60, exceeded: false });
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('forgets the oldest window when it tracks too many addresses', () => {
    const limit = new PublicRateLimit(1, 60_000, 2);
    limit.take('192.0.2.1', 0);
    limit.take('192.0.2.2', 1);
    limit.take('192.0.2.3', 2);
    expect(limit.take('192.0.2.1', 3).exceeded).toBe(false);
    expect(limit.take('192.0.2.3', 4).exceeded).toBe(true);
  });
});
