// A retailer's egress against real proxy servers on this machine (test/egress/proxies.ts) and the
// retailer stand-in, which walls the addresses it is told to, as the real sites wall datacenter
// addresses: tiers escalate when walled and step back down after their cool-off, a session retires
// at its first wall and its proxy rests, proxies that refuse (407, no connection, no answer) are
// skipped, every proxy form works with both transports, and no credential reaches a message.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseEgressSettings, TRANSPORTS, type TransportName } from '#shared/egress.ts';
import { startStandIn, type StandInServer } from '../../test/retailers/server.ts';
import {
  EGRESS_ADDRESSES,
  hangingProxy,
  refusingProxy,
  startProxy,
  type TestProxy,
} from '../../test/egress/proxies.ts';
import { RetailerHttp, type AttemptTrace } from '../scrapers/http.ts';
import { walmart } from '../scrapers/walmart.ts';
import { ScrapeError, type ScrapeContext } from '../scrapers/types.ts';
import { egressRules, RetailerEgress } from './egress.ts';

const USER = 'egress-user';
const PASSWORD = 'pr0xy-S3cret!';
const MINUTE = 60_000;

let standIn: StandInServer;
let datacenter: TestProxy;
let residential: TestProxy;
let residentialSocks: TestProxy;
let residentialHttps: TestProxy;
let wrongPassword: TestProxy;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  standIn = await startStandIn();
  datacenter = await startProxy({ username: USER, password: PASSWORD, egressAddress: EGRESS_ADDRESSES.datacenter });
  residential = await startProxy({ username: USER, password: PASSWORD, egressAddress: EGRESS_ADDRESSES.residential });
  residentialSocks = await startProxy({
    username: USER,
    password: PASSWORD,
    egressAddress: EGRESS_ADDRESSES.residential,
    kind: 'socks5',
  });
  residentialHttps = await startProxy({
    username: USER,
    password: PASSWORD,
    egressAddress: EGRESS_ADDRESSES.residential,
    kind: 'https',
  });
  // A real proxy that takes other credentials than the ones configured: it answers 407.
  wrongPassword = await startProxy({
    username: USER,
    password: 'another-password',
    egressAddress: EGRESS_ADDRESSES.residential,
  });
});
afterAll(async () => {
  for (const close of closers) await close();
  for (const proxy of [datacenter, residential, residentialSocks, residentialHttps, wrongPassword])
    await proxy?.close();
  await standIn.close();
});
beforeEach(() => {
  standIn.reset();
  // Walmart walls this machine's own address and the datacenter proxy's, and serves the residential one.
  standIn.setWalls({ walmart: [EGRESS_ADDRESSES.direct, EGRESS_ADDRESSES.datacenter] });
});
afterEach(() => standIn.setWalls({}));

/** A retailer's egress from the variables an operator sets, with a clock the test moves. */
function egressOf(vars: Record<string, string>, clock = { now: Date.now() }) {
  const { settings, errors } = parseEgressSettings(vars);
  if (!settings) throw new Error(errors.join('; '));
  const egress = new RetailerEgress(
    'walmart',
    settings.retailers.walmart,
    egressRules(settings),
    null,
    () => clock.now,
  );
  return { egress, clock };
}

function contextOf(egress: RetailerEgress, transport: TransportName, timeoutMs = 5000) {
  const events: string[] = [];
  const attempts: AttemptTrace[] = [];
  const http = new RetailerHttp(walmart.storeName, walmart.origins, {
    originOverride: standIn.url,
    delayMs: 0,
    retries: 1,
    backoffBaseMs: 1,
    backoffCapMs: 5,
    timeoutMs,
    transport,
    egress,
    onEvent: (event) => events.push(event),
    onAttempt: (attempt) => attempts.push(attempt),
  });
  const ctx: ScrapeContext = { http, maxPages: 2, term: 'eggs', credentials: {} };
  return { http, ctx, events, attempts };
}

async function readZip(ctx: ScrapeContext, zip = '10001') {
  const location = await walmart.locate(zip, ctx);
  let listings = 0;
  for await (const page of walmart.listings(location!, zip, ctx)) listings += page.listings.length;
  return { location, listings };
}

const secretsIn = (texts: string[]) => texts.filter((text) => text.includes(PASSWORD) || text.includes(USER));

describe.each(TRANSPORTS)('egress through real proxies with %s', (transport) => {
  it('reads a retailer walled direct and at the datacenter tier through the residential tier', async () => {
    const { egress } = egressOf({
      SCRAPER_PROXY_TIERS_WALMART: `direct; datacenter=${datacenter.url}; residential=${residential.url}`,
    });
    const { ctx, events, attempts } = contextOf(egress, transport);
    const { location, listings } = await readZip(ctx);
    expect(location?.retailerLocationId).toBeTruthy();
    expect(listings).toBeGreaterThan(0);

    // The first request met the wall direct, then at the datacenter proxy, and went on through the residential one.
    expect(attempts.slice(0, 3).map((a) => [a.tier, a.proxy, a.wall, a.transport])).toEqual([
      ['direct', null, 'PerimeterX', transport],
      ['datacenter', datacenter.label, 'PerimeterX', transport],
      ['residential', residential.label, null, transport],
    ]);
    expect(attempts.slice(3).every((a) => a.tier === 'residential' && a.status === 200)).toBe(true);
    // The stand-in saw where each request came from: the walls went to the walled addresses.
    const froms = standIn.requests.map((r) => [r.from, r.status]);
    expect(froms.slice(0, 2)).toEqual([
      [EGRESS_ADDRESSES.direct, 200],
      [EGRESS_ADDRESSES.datacenter, 200],
    ]);
    expect(standIn.requests.slice(2).every((r) => r.from === EGRESS_ADDRESSES.residential)).toBe(true);
    expect(egress.tier.name).toBe('residential');
    expect(events.join('\n')).toContain(
      'walled by PerimeterX at the direct tier; moving to the datacenter tier for 30 min',
    );
    expect(secretsIn(events)).toEqual([]);
  });

  it('steps back down one tier at a time once each cool-off has passed', async () => {
    const { egress, clock } = egressOf({
      SCRAPER_PROXY_TIERS_WALMART: `direct; datacenter=${datacenter.url}; residential=${residential.url}`,
    });
    const { http, attempts } = contextOf(egress, transport);
    const get = () => http.request({ url: 'https://www.walmart.com/search?q=eggs' });
    await get();
    expect(egress.tier.name).toBe('residential');

    // Within the cool-off the retailer stays up.
    clock.now += 29 * MINUTE;
    await get();
    expect(attempts.at(-1)!.tier).toBe('residential');

    // The cool-off passed: one step down, to a tier that walls still: up again.
    clock.now += 2 * MINUTE;
    attempts.length = 0;
    await get();
    expect(attempts.map((a) => [a.tier, a.wall])).toEqual([
      ['datacenter', 'PerimeterX'],
      ['residential', null],
    ]);

    // The datacenter address is served now: after the cool-off the retailer stays there, then
    // comes back to direct after the next, where this machine is served too.
    standIn.setWalls({});
    clock.now += 31 * MINUTE;
    attempts.length = 0;
    await get();
    expect(attempts.map((a) => [a.tier, a.status])).toEqual([['datacenter', 200]]);
    clock.now += 31 * MINUTE;
    await get();
    expect(attempts.at(-1)).toMatchObject({ tier: 'direct', proxy: null, status: 200 });
    expect(egress.tier.name).toBe('direct');
  });

  it('keeps a session (proxy, cookies, browser) until its first wall, then rests the walled proxy', async () => {
    // One tier of two proxies: the first leaves from a walled address.
    const { egress } = egressOf({
      SCRAPER_PROXY_URLS_WALMART: `${datacenter.url},${residential.url}`,
      SCRAPER_SESSION_MAX_USES: '3',
    });
    const { http, attempts } = contextOf(egress, transport);
    const get = () => http.request({ url: 'https://www.walmart.com/search?q=eggs' });
    for (let i = 0; i < 5; i++) await get();
    // The first session met the wall at once and retired; the next took the other proxy, kept it
    // for 3 requests, and its successor skipped the resting proxy.
    expect(attempts.map((a) => [a.proxy, a.wall])).toEqual([
      [datacenter.label, 'PerimeterX'],
      [residential.label, null],
      [residential.label, null],
      [residential.label, null],
      [residential.label, null],
      [residential.label, null],
    ]);
    // One browser per session: the three requests of the second session carried one user agent.
    const agents = standIn.requests.slice(1).map((r) => r.userAgent);
    expect(new Set(agents.slice(0, 3)).size).toBe(1);
    expect(agents[0]).toMatch(/Mozilla\/5\.0/);
  });

  it('skips a proxy that answers 407, one that refuses and one that hangs, and goes on', async () => {
    const refusing = await refusingProxy(USER, PASSWORD);
    const hanging = await hangingProxy(USER, PASSWORD);
    closers.push(hanging.close);
    const { egress } = egressOf({
      SCRAPER_PROXY_URLS_WALMART: [
        wrongPassword.url.replace('another-password', encodeURIComponent(PASSWORD)),
        refusing.url,
        hanging.url,
        residential.url,
      ].join(','),
    });
    const { http, attempts, events } = contextOf(egress, transport, 1500);
    const answer = await http.request({ url: 'https://www.walmart.com/search?q=eggs' });
    expect(answer.status).toBe(200);
    expect(attempts.map((a) => [a.proxy, a.status, a.error])).toEqual([
      [wrongPassword.label, 407, 'the proxy refused the credentials (407)'],
      [refusing.label, null, 'ECONNREFUSED'],
      [hanging.label, null, 'timed out'],
      [residential.label, 200, null],
    ]);
    expect(wrongPassword.refusedCredentials).toBeGreaterThan(0);
    // Every one was sent (and counted); the refusing ones are skipped for the next request.
    expect(http.requests).toBe(4);
    attempts.length = 0;
    await http.request({ url: 'https://www.walmart.com/search?q=eggs' });
    expect(attempts.map((a) => a.proxy)).toEqual([residential.label]);
    expect(events.join('\n')).toContain(`proxy ${refusing.label} (proxy) refused the connection; trying the next`);
    expect(secretsIn(events)).toEqual([]);
  });

  it('goes through a SOCKS5 proxy with credentials', async () => {
    const { egress } = egressOf({ SCRAPER_PROXY_URLS_WALMART: residentialSocks.url });
    const { ctx, attempts } = contextOf(egress, transport);
    const before = residentialSocks.carried;
    const { listings } = await readZip(ctx);
    expect(listings).toBeGreaterThan(0);
    expect(attempts.every((a) => a.proxy === residentialSocks.label && a.status === 200)).toBe(true);
    expect(residentialSocks.carried).toBeGreaterThan(before);
    expect(standIn.requests.every((r) => r.from === EGRESS_ADDRESSES.residential)).toBe(true);
  });

  it('goes through an HTTPS proxy (impit only trusts a certificate of the public roots)', async () => {
    const { egress } = egressOf({ SCRAPER_PROXY_URLS_WALMART: `${residentialHttps.url},${residential.url}` });
    const { http, attempts } = contextOf(egress, transport);
    await http.request({ url: 'https://www.walmart.com/search?q=eggs' });
    if (transport === 'got-scraping') {
      // got-scraping does not check an HTTPS proxy's certificate: the test proxy's own one serves.
      expect(attempts.map((a) => [a.proxy, a.status])).toEqual([[residentialHttps.label, 200]]);
      expect(standIn.requests.at(-1)!.from).toBe(EGRESS_ADDRESSES.residential);
    } else {
      // impit checks it against the public roots, which the test proxy's self-signed one is not
      // among: the proxy is refused like any other that cannot be used, and the next one serves.
      expect(attempts.map((a) => [a.proxy, a.status])).toEqual([
        [residentialHttps.label, null],
        [residential.label, 200],
      ]);
    }
  });

  it('fails as blocked when no route is left, and never writes a credential into the error', async () => {
    const { egress } = egressOf({ SCRAPER_PROXY_URLS_WALMART: datacenter.url });
    const { http, events } = contextOf(egress, transport);
    const error = await http.request({ url: 'https://www.walmart.com/search?q=eggs' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScrapeError);
    expect((error as ScrapeError).message).toBe(
      `blocked by Walmart's bot protection (PerimeterX) through ${datacenter.label} (proxy)`,
    );
    expect(secretsIn([...events, (error as Error).message, String((error as Error).stack)])).toEqual([]);
  });
});

describe('daily budget', () => {
  it('stops the retailer for the UTC day once its budget is spent, every attempt counted', async () => {
    standIn.setWalls({});
    const { egress } = egressOf({ SCRAPER_DAILY_BUDGET_WALMART: '3' });
    const { http } = contextOf(egress, 'got-scraping');
    for (let i = 0; i < 3; i++) await http.request({ url: 'https://www.walmart.com/search?q=eggs' });
    await expect(http.request({ url: 'https://www.walmart.com/search?q=eggs' })).rejects.toMatchObject({
      kind: 'rate-limited',
      message: "Walmart's daily request budget (3 requests) is spent; requests go on after midnight UTC",
    });
    expect(standIn.requests).toHaveLength(3);
  });
});
