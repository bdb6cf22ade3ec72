// The official sources' HTTP client: never through the retailers' proxies (nor the environment's
// HTTP(S)_PROXY), even with SCRAPER_PROXY_URLS set; Retry-After honoured; the daily limit counted
// in the database before a request is sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '#server/env.ts';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { officialConfigFromEnv } from './config.ts';
import { NotBefore, OfficialHttp, retryAfterMs } from './http.ts';

let db: TestDatabase;
let standIn: http.Server;
let proxy: http.Server;
let standInUrl = '';
let proxyUrl = '';
const hits = { standIn: 0, proxy: 0 };
let nextAnswer: { status: number; headers?: Record<string, string>; body: string } = { status: 200, body: '{}' };
const saved = { HTTP_PROXY: process.env.HTTP_PROXY, HTTPS_PROXY: process.env.HTTPS_PROXY };

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  db = await createTestDatabase({ seeded: false });
  standIn = http.createServer((req, res) => {
    hits.standIn += 1;
    res.writeHead(nextAnswer.status, { 'content-type': 'application/json', ...nextAnswer.headers });
    res.end(nextAnswer.body);
  });
  // A forward proxy that answers everything itself, counting what reaches it (plain and CONNECT).
  proxy = http.createServer((req, res) => {
    hits.proxy += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"via":"proxy"}');
  });
  proxy.on('connect', (_req, socket) => {
    hits.proxy += 1;
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  standInUrl = await listen(standIn);
  proxyUrl = await listen(proxy);
  process.env.HTTP_PROXY = proxyUrl;
  process.env.HTTPS_PROXY = proxyUrl;
});
afterAll(async () => {
  process.env.HTTP_PROXY = saved.HTTP_PROXY;
  process.env.HTTPS_PROXY = saved.HTTPS_PROXY;
  if (saved.HTTP_PROXY === undefined) delete process.env.HTTP_PROXY;
  if (saved.HTTPS_PROXY === undefined) delete process.env.HTTPS_PROXY;
  await new Promise((resolve) => standIn.close(resolve));
  await new Promise((resolve) => proxy.close(resolve));
  await db.drop();
});

describe('official HTTP client', () => {
  it('goes straight to the source even when SCRAPER_PROXY_URLS (and HTTP_PROXY) name a proxy', async () => {
    const env = parseEnv({ SCRAPER_PROXY_URLS: proxyUrl, BLS_API_ORIGIN: standInUrl, HTTP_PROXY: proxyUrl });
    // (the retailers' egress does have the proxy: the setting is live)
    expect(JSON.stringify(env.egress)).toContain(new URL(proxyUrl).port);
    const config = officialConfigFromEnv(env);
    const client = new OfficialHttp({ sql: db.sql, source: 'bls', dailyLimit: 100 });
    nextAnswer = { status: 200, body: '{"status":"REQUEST_SUCCEEDED"}' };
    const before = { ...hits };
    const response = await client.request({
      url: `${config.bls.origin}/publicAPI/v2/timeseries/data/`,
      method: 'POST',
      json: {},
    });
    expect(response.body).toBe('{"status":"REQUEST_SUCCEEDED"}');
    expect(hits.standIn - before.standIn).toBe(1);
    expect(hits.proxy - before.proxy).toBe(0);
  });

  it('honours Retry-After on a 429 and a 503', async () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const client = new OfficialHttp({ sql: db.sql, source: 'usda_retail', dailyLimit: 100, now: () => now });
    nextAnswer = { status: 429, headers: { 'retry-after': '120' }, body: 'slow down' };
    const error = await client.request({ url: `${standInUrl}/x` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotBefore);
    expect((error as NotBefore).until.toISOString()).toBe('2026-11-29T12:02:00.000Z');
    nextAnswer = { status: 503, headers: { 'retry-after': 'Sun, 29 Nov 2026 13:00:00 GMT' }, body: '' };
    const error2 = (await client.request({ url: `${standInUrl}/x` }).catch((e: unknown) => e)) as NotBefore;
    expect(error2.until.toISOString()).toBe('2026-11-29T13:00:00.000Z');
    // (a 500 without Retry-After is an answer for the caller to judge)
    nextAnswer = { status: 500, body: 'oops' };
    expect((await client.request({ url: `${standInUrl}/x` })).status).toBe(500);
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it('stops at the daily limit without sending the request', async () => {
    const client = new OfficialHttp({ sql: db.sql, source: 'aphis_hpai', dailyLimit: 2 });
    nextAnswer = { status: 200, body: 'ok' };
    await client.request({ url: `${standInUrl}/a` });
    await client.request({ url: `${standInUrl}/a` });
    const before = hits.standIn;
    const error = await client.request({ url: `${standInUrl}/a` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotBefore);
    expect(hits.standIn).toBe(before);
  });
});
