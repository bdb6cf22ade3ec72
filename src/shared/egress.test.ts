import { describe, expect, it } from 'vitest';
import {
  DIRECT_TIER,
  escalateTier,
  FIRST_TIER,
  parseEgressSettings,
  parseProxyUrl,
  PROXY_TIER,
  redact,
  redactRetailerEgress,
  settleTier,
  spacingMs,
} from './egress.ts';

describe('parseProxyUrl', () => {
  it('reads every proxy form with its credentials and labels it by host and port', () => {
    const http = parseProxyUrl('http://user-42:p%40ss@proxy.example.com:8000', 'X');
    expect(http).toMatchObject({
      protocol: 'http',
      host: 'proxy.example.com',
      port: 8000,
      label: 'proxy.example.com:8000',
      username: 'user-42',
      password: 'p@ss',
    });
    expect(http.url).toBe('http://user-42:p%40ss@proxy.example.com:8000');
    expect(parseProxyUrl('https://gw.example.net', 'X')).toMatchObject({ port: 443, username: '', password: '' });
    expect(parseProxyUrl('socks5://u:p@10.0.0.9', 'X')).toMatchObject({ protocol: 'socks5', port: 1080 });
    expect(parseProxyUrl(' socks5h://10.0.0.9:9050 ', 'X').label).toBe('10.0.0.9:9050');
  });

  it('refuses what is not a proxy address, naming the variable and never the value', () => {
    const cases = [
      'ftp://user:hunter22@host:21',
      'http://user:hunter22@host:8000/path',
      'http://user:hunter22@host:8000?x=1',
      'user:hunter22@host',
    ];
    for (const value of cases) {
      let message = '';
      try {
        parseProxyUrl(value, 'SCRAPER_PROXY_URLS (proxy 1)');
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^SCRAPER_PROXY_URLS \(proxy 1\)/);
      expect(message).not.toContain('hunter22');
    }
  });
});

describe('parseEgressSettings', () => {
  it('leaves every retailer direct through got-scraping when nothing is set, Kroger capped under its API limit', () => {
    const { settings, errors } = parseEgressSettings({});
    expect(errors).toEqual([]);
    expect(settings!.retailers.walmart).toEqual({
      tiers: [{ name: DIRECT_TIER, proxies: [] }],
      transport: 'got-scraping',
      requestsPerMinute: null,
      dailyBudget: null,
    });
    expect(settings!.retailers.kroger.dailyBudget).toBe(9000);
  });

  it('gives the shared list to every retailer, a retailer list instead, and none to keep one direct', () => {
    const { settings } = parseEgressSettings({
      SCRAPER_PROXY_URLS: 'http://a:b@shared.example:8000, http://a:b@shared2.example:8000',
      SCRAPER_PROXY_URLS_WALMART: 'socks5://w:x@walmart-only.example:1080',
      SCRAPER_PROXY_URLS_KROGER: 'none',
    });
    const labels = (store: 'target' | 'walmart' | 'kroger') =>
      settings!.retailers[store].tiers.map((t) => [t.name, t.proxies.map((p) => p.label)]);
    expect(labels('target')).toEqual([[PROXY_TIER, ['shared.example:8000', 'shared2.example:8000']]]);
    expect(labels('walmart')).toEqual([[PROXY_TIER, ['walmart-only.example:1080']]]);
    expect(labels('kroger')).toEqual([[DIRECT_TIER, []]]);
  });

  it('reads tiers in order: direct, inline lists, and a bare name taking the retailer list', () => {
    const { settings, errors } = parseEgressSettings({
      SCRAPER_PROXY_URLS_TARGET: 'http://t:t@pool.example:3128',
      SCRAPER_PROXY_TIERS_TARGET:
        'direct; datacenter=http://d:d@dc1.example:8000,http://d:d@dc2.example:8000; residential',
      SCRAPER_TRANSPORT_TARGET: 'IMPIT',
      SCRAPER_REQUESTS_PER_MINUTE_TARGET: '12',
      SCRAPER_DAILY_BUDGET_TARGET: '5000',
    });
    expect(errors).toEqual([]);
    const target = settings!.retailers.target;
    expect(target.tiers.map((t) => [t.name, t.proxies.map((p) => p.label)])).toEqual([
      ['direct', []],
      ['datacenter', ['dc1.example:8000', 'dc2.example:8000']],
      ['residential', ['pool.example:3128']],
    ]);
    expect(target).toMatchObject({ transport: 'impit', requestsPerMinute: 12, dailyBudget: 5000 });
  });

  it('names every variable it cannot read, without echoing a secret', () => {
    const { settings, errors } = parseEgressSettings({
      SCRAPER_PROXY_URLS_ALDI: 'http://u:topsecret@host:8000/x',
      SCRAPER_PROXY_TIERS_WALMART: 'direct; residential',
      SCRAPER_PROXY_TIERS_TARGET: 'direct=http://u:topsecret@host:1; direct',
      SCRAPER_TRANSPORT_KROGER: 'curl',
      SCRAPER_REQUESTS_PER_MINUTE_WHOLE_FOODS: '0',
      SCRAPER_DAILY_BUDGET_ALBERTSONS: 'lots',
    });
    expect(settings).toBeNull();
    expect(errors).toHaveLength(6);
    expect(errors).toEqual(
      expect.arrayContaining([
        "SCRAPER_PROXY_URLS_ALDI (proxy 1) must be a proxy's address alone, without a path or query",
        expect.stringMatching(/^SCRAPER_PROXY_TIERS_WALMART \(tier 2\): the tier residential has no proxy/),
        'SCRAPER_PROXY_TIERS_TARGET (tier 1): the direct tier uses no proxy, so it takes no URLs',
        'SCRAPER_TRANSPORT_KROGER must be one of got-scraping, impit',
        'SCRAPER_DAILY_BUDGET_ALBERTSONS must be a whole number from 1 to 1,000,000',
        'SCRAPER_REQUESTS_PER_MINUTE_WHOLE_FOODS must be a whole number from 1 to 600',
      ]),
    );
    expect(errors.join('\n')).not.toContain('topsecret');
  });
});

describe('redact', () => {
  const proxy = parseProxyUrl('http://customer-7781-session-x9:S3cr%3Ft!pw@gw.example.com:7777', 'X');

  it('removes the user and password of every URL and every configured secret in a text', () => {
    const text =
      'connect failed via http://customer-7781-session-x9:S3cr%3Ft!pw@gw.example.com:7777 (auth S3cr?t!pw for customer-7781-session-x9); other socks5://a:b@h:1';
    const out = redact(text, [proxy]);
    expect(out).toBe(
      'connect failed via http://gw.example.com:7777 (auth [redacted] for [redacted]); other socks5://h:1',
    );
  });

  it('shows the configuration by host and port only', () => {
    const view = redactRetailerEgress({
      tiers: [{ name: 'residential', proxies: [proxy] }],
      transport: 'impit',
      requestsPerMinute: null,
      dailyBudget: null,
    });
    expect(JSON.stringify(view)).not.toMatch(/customer|S3cr/);
    expect(view.tiers[0]!.proxies).toEqual([{ label: 'gw.example.com:7777', protocol: 'http', authenticated: true }]);
  });
});

describe('tier arithmetic', () => {
  const coolOff = 30 * 60_000;
  it('escalates one tier when walled and holds it for the cool-off', () => {
    const up = escalateTier(FIRST_TIER, 3, 1000, coolOff);
    expect(up).toEqual({ index: 1, coolUntil: 1000 + coolOff });
    expect(escalateTier(up!, 3, 2000, coolOff)).toEqual({ index: 2, coolUntil: 2000 + coolOff });
    expect(escalateTier({ index: 2, coolUntil: 5 }, 3, 2000, coolOff)).toBeNull();
  });

  it('steps down one tier at a time once each cool-off has passed', () => {
    const top = { index: 2, coolUntil: 10_000 };
    expect(settleTier(top, 9_999, coolOff)).toBe(top);
    const middle = settleTier(top, 10_000, coolOff);
    expect(middle).toEqual({ index: 1, coolUntil: 10_000 + coolOff });
    expect(settleTier(middle, 10_000 + coolOff, coolOff)).toEqual(FIRST_TIER);
    expect(settleTier(FIRST_TIER, 1e12, coolOff)).toBe(FIRST_TIER);
  });

  it('spaces requests evenly for a number a minute', () => {
    expect(spacingMs(40)).toBe(1500);
    expect(spacingMs(7)).toBe(8572);
  });
});
