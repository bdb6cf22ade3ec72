// The retailer HTTP client: one request at a time, delays, retries with backoff and jitter,
// Retry-After, bot walls and the origin override, with a scripted transport and a recorded clock.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  isBotWall,
  parseJsonBody,
  parseRetryAfter,
  RetailerHttp,
  routeUrl,
  type HttpResponse,
  type Transport,
} from './http.ts';
import { ScrapeError, StructureError } from './types.ts';

const ORIGINS = ['https://www.walmart.com', 'https://api.example-retailer.com'];

function scripted(responses: Array<Partial<HttpResponse> | Error>) {
  const calls: Array<{ url: string; headers: Record<string, string> | undefined; at: number }> = [];
  // A recorded clock that starts at some moment (not 0) and moves only when the client sleeps.
  let clock = Date.UTC(2026, 0, 5);
  const sleeps: number[] = [];
  const transport: Transport = async (request) => {
    calls.push({ url: request.url, headers: request.headers, at: clock });
    const next = responses.shift();
    if (!next) throw new Error('no scripted response left');
    if (next instanceof Error) throw next;
    return { status: 200, headers: {}, body: '{}', url: request.url, ...next };
  };
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    clock += ms;
  };
  return { calls, sleeps, transport, sleep, now: () => clock };
}

const networkError = (code: string) => Object.assign(new Error(`connect ${code}`), { code, name: 'RequestError' });

describe('RetailerHttp spacing', () => {
  it("spaced from its start, the first request waits the delay as well (a job following another of the retailer's queue)", async () => {
    // On the recorded clock, however long the machine takes between making the client and its
    // first request.
    const spaced = scripted([{ status: 200 }]);
    await new RetailerHttp('Walmart', ORIGINS, {
      transport: spaced.transport,
      sleep: spaced.sleep,
      now: spaced.now,
      delayMs: 1000,
      spacedFromStart: true,
    }).request({ url: 'https://www.walmart.com/x' });
    expect(spaced.sleeps).toEqual([1000]);
    const plain = scripted([{ status: 200 }]);
    await new RetailerHttp('Walmart', ORIGINS, {
      transport: plain.transport,
      sleep: plain.sleep,
      now: plain.now,
      delayMs: 1000,
    }).request({ url: 'https://www.walmart.com/x' });
    expect(plain.sleeps).toEqual([]);
  });
});

describe('RetailerHttp retries', () => {
  it('retries 5xx and network errors with doubling, jittered backoff, then succeeds', async () => {
    const s = scripted([{ status: 503 }, networkError('ECONNRESET'), { status: 200, body: '{"ok":true}' }]);
    const client = new RetailerHttp('Walmart', ORIGINS, {
      transport: s.transport,
      sleep: s.sleep,
      delayMs: 0,
      backoffBaseMs: 100,
      random: () => 0.5,
    });
    await expect(client.json({ url: 'https://www.walmart.com/x' })).resolves.toEqual({ ok: true });
    expect(s.calls).toHaveLength(3);
    // Equal jitter: half of the step plus a random half (0.5 here): 75 then 150.
    expect(s.sleeps).toEqual([75, 150]);
    expect(client.requests).toBe(3);
    // Counted for the run's details: two retries, no rate-limit wait.
    expect({ retries: client.retries, waits: client.rateLimitWaits, waitMs: client.rateLimitWaitMs }).toEqual({
      retries: 2,
      waits: 0,
      waitMs: 0,
    });
  });

  it('gives up after the configured retries with a message naming the status', async () => {
    const s = scripted([{ status: 500 }, { status: 502 }, { status: 500 }]);
    const client = new RetailerHttp('Target', ORIGINS, {
      transport: s.transport,
      sleep: s.sleep,
      delayMs: 0,
      retries: 2,
      backoffBaseMs: 1,
    });
    await expect(client.request({ url: 'https://www.walmart.com/x' })).rejects.toMatchObject({
      kind: 'http',
      message: 'Target answered HTTP 500 after 3 attempts',
    });
  });

  it('caps the backoff', async () => {
    const s = scripted([{ status: 500 }, { status: 500 }, { status: 500 }, { status: 200 }]);
    const client = new RetailerHttp('Aldi', ORIGINS, {
      transport: s.transport,
      sleep: s.sleep,
      delayMs: 0,
      backoffBaseMs: 1000,
      backoffCapMs: 1500,
      random: () => 1,
    });
    await client.request({ url: 'https://www.walmart.com/x' });
    expect(s.sleeps).toEqual([1000, 1500, 1500]);
  });

  it('a timeout is retried and reported as such', async () => {
    const timeout = Object.assign(new Error('Timeout awaiting request'), { name: 'TimeoutError', code: 'ETIMEDOUT' });
    const s = scripted([timeout, timeout]);
    const client = new RetailerHttp('Kroger', ORIGINS, {
      transport: s.transport,
      sleep: s.sleep,
      delayMs: 0,
      retries: 1,
      backoffBaseMs: 1,
    });
    await expect(client.request({ url: 'https://www.walmart.com/x' })).rejects.toMatchObject({
      kind: 'http',
      message: 'Kroger did not answer (timed out) after 2 attempts',
    });
  });

  it('does not retry a programming error', async () => {
    const s = scripted([new TypeError('boom')]);
    const client = new RetailerHttp('Kroger', ORIGINS, { transport: s.transport, sleep: s.sleep, delayMs: 0 });
    await expect(client.request({ url: 'https://www.walmart.com/x' })).rejects.toThrow(TypeError);
    expect(s.calls).toHaveLength(1);
  });
});

describe('429 and Retry-After', () => {
  it('waits as long as Retry-After asks, then retries', async () => {
    const s = scripted([{ status: 429, headers: { 'retry-after': '7' } }, { status: 200 }]);
    const client = new RetailerHttp('Target', ORIGINS, {
      transport: s.transport,
      sleep: s.sleep,
      delayMs: 0,
      backoffBaseMs: 1,
    });
    await client.request({ url: 'https://www.walmart.com/x' });
    expect(s.sleeps).toEqual([7000]);
    // A wait out of Retry-After is counted as such, not as a retry.
    expect({ retries: client.retries, waits: client.rateLimitWaits, waitMs: client.rateLimitWaitMs }).toEqual({
      retries: 0,
      waits: 1,
      waitMs: 7000,
    });
  });

  it('fails the ZIP as rate limited when Retry-After is longer than allowed', async () => {
    const s = scripted([{ status: 429, headers: { 'retry-after': '3600' } }]);
    const client = new RetailerHttp('Target', ORIGINS, {
      transport: s.transport,
      sleep: s.sleep,
      delayMs: 0,
      maxRetryAfterMs: 60_000,
    });
    await expect(client.request({ url: 'https://www.walmart.com/x' })).rejects.toMatchObject({
      kind: 'rate-limited',
      message: 'rate limited by Target (HTTP 429; retry after 3600 s)',
    });
    expect(s.sleeps).toEqual([]);
  });

  it('parses seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(30_000);
    expect(parseRetryAfter(undefined)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('bot walls', () => {
  it.each([
    [
      'Walmart "Robot or human?" served with 200',
      200,
      '<html><h1>Robot or human?</h1><div id="px-captcha"></div></html>',
      'PerimeterX',
    ],
    [
      'Akamai Access Denied',
      403,
      '<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>Reference #18.1</BODY></HTML>',
      'Akamai',
    ],
    [
      'Cloudflare challenge',
      403,
      '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/x"></script></body></html>',
      'Cloudflare',
    ],
    ['Imperva', 200, '<html><head><title>Pardon Our Interruption</title></head></html>', 'Imperva'],
    ['412 from the GraphQL endpoints', 412, '{}', null],
    ['435, the RedSky block', 435, '', 'PerimeterX'],
    ['a JSON captcha', 200, '{"captchaRelativeURL":"/captcha?x=1"}', 'Akamai'],
  ])('%s fails the ZIP as blocked, naming the wall', async (_name, status, body, wall) => {
    const s = scripted([{ status, body }]);
    const client = new RetailerHttp('Walmart', ORIGINS, { transport: s.transport, sleep: s.sleep, delayMs: 0 });
    const error = await client.request({ url: 'https://www.walmart.com/search?q=eggs' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScrapeError);
    expect(error).toMatchObject({
      kind: 'blocked',
      message: `blocked by Walmart's bot protection${wall ? ` (${wall})` : ''}`,
    });
    // A block is not retried when there is no other route: retries only prolong it.
    expect(s.calls).toHaveLength(1);
  });

  it('does not take a normal page that loads Imperva and Cloudflare scripts for a wall', async () => {
    const scripts =
      '<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3&ns=1&cb=1742981214" async></script>' +
      '<script>(function(){var a=document.createElement("script");a.src="/cdn-cgi/challenge-platform/scripts/jsd/main.js";document.head.appendChild(a);})();</script>';
    const tiles = Array.from(
      { length: 400 },
      (_, i) =>
        `<li class="tile"><a href="/shop/product-details.${960000000 + i}.html">Lucerne Large Eggs - 18 Count</a><span>$4.99</span></li>`,
    ).join('');
    const page = `<!DOCTYPE html><html><head><title>Albertsons | Grocery Delivery, Pickup &amp; Weekly Ad</title>${scripts}</head><body><ul>${tiles}</ul></body></html>`;
    expect(page.length).toBeGreaterThan(40_000);
    expect(isBotWall(200, page)).toBe(false);

    const s = scripted([{ status: 200, body: page }]);
    const client = new RetailerHttp('Albertsons', ORIGINS, { transport: s.transport, sleep: s.sleep, delayMs: 0 });
    await expect(client.request({ url: 'https://www.walmart.com/' })).resolves.toMatchObject({
      status: 200,
      body: page,
    });
  });

  it('does not take a short page with page data and those scripts for a wall', () => {
    const scripts =
      '<script src="/_Incapsula_Resource?SWJIYLWA=7&ns=1"></script><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>';
    expect(
      isBotWall(
        200,
        `<html><head><title>Albertsons</title><script>var SWY = SWY || {}; SWY.CONFIGSERVICE = {"searchConfig":{}};</script>${scripts}</head></html>`,
      ),
    ).toBe(false);
    expect(
      isBotWall(
        200,
        `<html><head><title>Eggs : Target</title>${scripts}</head><body><script id="__NEXT_DATA__">{}</script></body></html>`,
      ),
    ).toBe(false);
    expect(
      isBotWall(
        200,
        `<html><head><title>Eggs</title><script type="application/ld+json">{}</script><script src="https://js.datadome.co/tags.js"></script></head></html>`,
      ),
    ).toBe(false);
  });

  it('takes a wall title for a wall however large the page, and a short page with a marker and no page data', () => {
    const filler = `<script>${'var x = 1;'.repeat(5000)}</script>`;
    for (const title of [
      'Robot or human?',
      'Access Denied',
      'Just a moment...',
      'Attention Required! | Cloudflare',
      'Pardon Our Interruption',
    ]) {
      expect(
        isBotWall(
          200,
          `<!DOCTYPE html><html><head><title>${title}</title></head><body>${filler}<script id="__NEXT_DATA__">{}</script></body></html>`,
        ),
      ).toBe(true);
    }
    expect(
      isBotWall(
        200,
        '<html><head><title>eggs</title></head><body><iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe></body></html>',
      ),
    ).toBe(true);
    expect(
      isBotWall(
        200,
        '<html><body><script src="/_Incapsula_Resource?SWJIYLWA=7"></script>Request unsuccessful. Incapsula incident ID: 1-2</body></html>',
      ),
    ).toBe(true);
  });

  it('does not mistake a product titled like a wall text in JSON for a wall', () => {
    expect(isBotWall(200, '{"name":"Access Denied: The Novel"}')).toBe(false);
    expect(isBotWall(200, '<html><title>Eggs - Walmart.com</title></html>')).toBe(false);
  });
});

describe('politeness', () => {
  it('sends one request at a time, with the delay between them', async () => {
    let inFlight = 0;
    let most = 0;
    const starts: number[] = [];
    const transport: Transport = async (request) => {
      inFlight++;
      most = Math.max(most, inFlight);
      starts.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return { status: 200, headers: {}, body: '{}', url: request.url };
    };
    const client = new RetailerHttp('Aldi', ORIGINS, { transport, delayMs: 40 });
    await Promise.all([1, 2, 3].map((n) => client.request({ url: `https://www.walmart.com/${n}` })));
    expect(most).toBe(1);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(38);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(38);
  });

  it('stops waiting when the worker shuts down', async () => {
    const controller = new AbortController();
    const s = scripted([{ status: 503 }]);
    const client = new RetailerHttp('Aldi', ORIGINS, {
      transport: s.transport,
      delayMs: 0,
      backoffBaseMs: 60_000,
      signal: controller.signal,
    });
    const pending = client.request({ url: 'https://www.walmart.com/x' });
    setTimeout(() => controller.abort(), 10);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });
});

describe('origin override', () => {
  it('sends every host of the retailer to the stand-in with the real path and query', () => {
    expect(routeUrl('https://api.example-retailer.com/v1/x?a=1&b=2', ORIGINS, 'http://127.0.0.1:4599')).toEqual({
      target: 'http://127.0.0.1:4599/v1/x?a=1&b=2',
      host: 'api.example-retailer.com',
    });
    expect(routeUrl('https://www.walmart.com/search?q=eggs', ORIGINS, undefined)).toEqual({
      target: 'https://www.walmart.com/search?q=eggs',
      host: 'www.walmart.com',
    });
  });

  it('refuses a host that is not the retailer’s', () => {
    expect(() => routeUrl('https://evil.example/x', ORIGINS, undefined)).toThrow(/not one of this retailer's origins/);
  });

  describe('through got-scraping to a local server', () => {
    let server: http.Server;
    let origin: string;
    const seen: Array<{ url: string; host: string | undefined; cookie: string | undefined; ua: string | undefined }> =
      [];
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        seen.push({
          url: req.url ?? '',
          host: req.headers['x-forwarded-host'] as string | undefined,
          cookie: req.headers.cookie,
          ua: req.headers['user-agent'],
        });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ path: req.url }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('requests the stand-in with browser headers, cookies and the real host', async () => {
      const client = new RetailerHttp('Walmart', ORIGINS, { originOverride: origin, delayMs: 0 });
      const body = await client.json({
        url: 'https://www.walmart.com/search?q=eggs&page=2',
        cookies: { assortmentStoreId: '3081', hasLocData: '1' },
      });
      expect(body).toEqual({ path: '/search?q=eggs&page=2' });
      expect(seen.at(-1)).toMatchObject({
        url: '/search?q=eggs&page=2',
        host: 'www.walmart.com',
        cookie: 'assortmentStoreId=3081; hasLocData=1',
      });
      expect(seen.at(-1)!.ua).toMatch(/Mozilla\/5\.0/);
    });
  });
});

describe('parseJsonBody', () => {
  it('names what was expected when a body is HTML or does not match', () => {
    expect(() => parseJsonBody('<html></html>', undefined, 'Kroger products')).toThrow(
      new StructureError('expected JSON (Kroger products), got an HTML page').message,
    );
    expect(() => parseJsonBody('{"data":1}', z.object({ data: z.array(z.unknown()) }), 'Kroger products')).toThrow(
      /page structure not recognised \(Kroger products: data /,
    );
    expect(() => parseJsonBody('{"data":', undefined)).toThrow(/unreadable text/);
  });
});
