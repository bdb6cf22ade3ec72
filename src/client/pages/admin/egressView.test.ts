import { describe, expect, it } from 'vitest';
import { attemptOutcome, budgetText, paceText, tierInUseText, tierText } from './egressView.ts';

describe('egress card words', () => {
  it('says the pace and where it comes from, and the budget spent today', () => {
    expect(paceText({ requestsPerMinute: 40, paceSource: 'delay' })).toBe('40 requests a minute (the scrapers’ delay)');
    expect(paceText({ requestsPerMinute: 1, paceSource: 'retailer' })).toBe('1 request a minute');
    expect(budgetText({ requestsToday: 1234, dailyBudget: 9000 })).toBe('1,234 of 9,000 today (UTC)');
    expect(budgetText({ requestsToday: 0, dailyBudget: null })).toBe('0 today, no daily cap');
  });

  it('names each tier with its proxies by host and port', () => {
    expect(tierText({ name: 'direct', proxies: [] })).toBe('direct: no proxy');
    expect(
      tierText({
        name: 'residential',
        proxies: [
          { label: 'gw.example.com:7777', protocol: 'http', authenticated: true },
          { label: '10.0.0.2:1080', protocol: 'socks5', authenticated: false },
        ],
      }),
    ).toBe('residential: 2 proxies, gw.example.com:7777 (http, with credentials), 10.0.0.2:1080 (socks5)');
  });

  it('says until when an escalated tier holds', () => {
    const when = (iso: string) => iso.slice(11, 16);
    expect(tierInUseText({ tierInUse: { name: 'direct', coolUntil: null, reason: null } }, when)).toBe(
      'Requests go through the direct tier.',
    );
    expect(
      tierInUseText(
        {
          tierInUse: {
            name: 'residential',
            coolUntil: '2026-11-29T10:30:00.000Z',
            reason: 'walled by PerimeterX at direct',
          },
        },
        when,
      ),
    ).toBe(
      'Requests go through the residential tier until 10:30 (walled by PerimeterX at direct), then one tier down.',
    );
  });

  it('words a request by its answer: an error, a wall, or the status', () => {
    const base = {
      step: 'locator' as const,
      host: 'www.walmart.com',
      path: '/search',
      tier: 'direct',
      proxy: null,
      transport: 'impit' as const,
      ms: 12,
    };
    expect(attemptOutcome({ ...base, status: 200, wall: 'PerimeterX', error: null })).toBe(
      'HTTP 200: walled by PerimeterX',
    );
    expect(attemptOutcome({ ...base, status: null, wall: null, error: 'timed out' })).toBe('timed out');
    expect(attemptOutcome({ ...base, status: 200, wall: null, error: null })).toBe('HTTP 200');
  });
});
