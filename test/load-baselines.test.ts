// The load benchmark's response baseline replays the path's own headers, and only those: the
// transport's and the ones every answer of the process carries (set again by the process) are left out.
import { describe, expect, it } from 'vitest';
import { pathOwnHeaders } from '../bench/reliability/load.ts';

describe('pathOwnHeaders', () => {
  it('keeps the path’s CORS, rate limit, ETag and cache headers, its content type and its own Vary values', () => {
    const path = {
      'content-security-policy': "default-src 'self'",
      'x-content-type-options': 'nosniff',
      vary: 'Origin, Accept-Encoding',
      'access-control-allow-origin': '*',
      'ratelimit-remaining': '99',
      etag: '"abc"',
      'cache-control': 'public, max-age=60',
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'br',
      'content-length': '417',
      date: 'Tue, 24 Nov 2026 01:54:35 GMT',
      connection: 'keep-alive',
      'keep-alive': 'timeout=72',
    };
    const memory = {
      'content-security-policy': "default-src 'self'",
      'x-content-type-options': 'nosniff',
      vary: 'Accept-Encoding',
      'content-type': 'application/json',
      'content-encoding': 'br',
      'content-length': '417',
      date: 'Tue, 24 Nov 2026 01:54:35 GMT',
    };
    expect(pathOwnHeaders(path, memory)).toEqual({
      vary: 'Origin',
      'access-control-allow-origin': '*',
      'ratelimit-remaining': '99',
      etag: '"abc"',
      'cache-control': 'public, max-age=60',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(pathOwnHeaders({ vary: 'Accept-Encoding', 'content-type': 'application/json' }, {})).toEqual({
      'content-type': 'application/json',
    });
  });
});
