// The read cache across a data change: the first request after a change waits for the new answer;
// requests that come while it is rebuilt get the previous one, for a bounded time only.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataCache, currentUtcDay } from './cache.ts';

/** A computation that finishes when told to. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('DataCache after a change', () => {
  it('serves the previous answer to requests that come during the rebuild, and the new one to the request that started it', async () => {
    const cache = new DataCache({ serveStaleMs: 2000 });
    expect(await cache.get('k', async () => 'old')).toBe('old');
    cache.invalidate();
    const rebuild = deferred<string>();
    const first = cache.get('k', () => rebuild.promise);
    expect(await cache.get('k', async () => 'unused')).toBe('old');
    rebuild.resolve('new');
    expect(await first).toBe('new');
    expect(await cache.get('k', async () => 'unused')).toBe('new');
  });

  it('makes requests wait for the rebuild once the change is older than serveStaleMs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new DataCache({ serveStaleMs: 2000 });
    await cache.get('k', async () => 'old');
    cache.invalidate();
    vi.setSystemTime(Date.now() + 2001);
    const rebuild = deferred<string>();
    const first = cache.get('k', () => rebuild.promise);
    const second = cache.get('k', async () => 'unused');
    rebuild.resolve('new');
    expect(await first).toBe('new');
    expect(await second).toBe('new');
  });

  it('never serves a previous answer when serveStaleMs is 0', async () => {
    const cache = new DataCache({ serveStaleMs: 0 });
    await cache.get('k', async () => 'old');
    cache.invalidate();
    const rebuild = deferred<string>();
    const first = cache.get('k', () => rebuild.promise);
    const second = cache.get('k', async () => 'unused');
    rebuild.resolve('new');
    expect(await Promise.all([first, second])).toEqual(['new', 'new']);
  });

  it('keeps an answer computed for a version that changed meanwhile as the previous one', async () => {
    const cache = new DataCache({ serveStaleMs: 2000 });
    const slow = deferred<string>();
    const started = cache.get('k', () => slow.promise);
    cache.invalidate();
    slow.resolve('computed before the change');
    expect(await started).toBe('computed before the change');
    const rebuild = deferred<string>();
    const first = cache.get('k', () => rebuild.promise);
    expect(await cache.get('k', async () => 'unused')).toBe('computed before the change');
    rebuild.resolve('new');
    expect(await first).toBe('new');
  });
});

describe('DataCache.peek', () => {
  it('answers only what get has cached for the current data, without computing', async () => {
    const cache = new DataCache({ ttlMs: 60_000 });
    expect(cache.peek('k')).toBeUndefined();
    await expect(cache.get('k', async () => 'one')).resolves.toBe('one');
    expect(cache.peek('k')).toBe('one');
    cache.invalidate();
    // A changed version is never a hit, even while its previous answer may still serve a rebuild.
    expect(cache.peek('k')).toBeUndefined();
    await expect(cache.get('k', async () => 'two')).resolves.toBe('two');
    expect(cache.peek('k')).toBe('two');
    expect(new DataCache({ enabled: false }).peek('k')).toBeUndefined();
  });

  it('never answers an entry past its time to live', async () => {
    vi.useFakeTimers();
    const cache = new DataCache({ ttlMs: 1000 });
    await cache.get('k', async () => 'one');
    vi.advanceTimersByTime(999);
    expect(cache.peek('k')).toBe('one');
    vi.advanceTimersByTime(1);
    expect(cache.peek('k')).toBeUndefined();
  });
});

describe('DataCache lifetimes and eviction', () => {
  it('serves no answer past the end of the UTC day it was computed on, nor as a previous answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 24, 23, 59, 59, 0));
    const cache = new DataCache({ ttlMs: 300_000, serveStaleMs: 60_000 });
    await cache.get('k', async () => 'monday');
    vi.setSystemTime(Date.UTC(2026, 10, 24, 23, 59, 59, 999));
    expect(cache.peek('k')).toBe('monday');
    vi.setSystemTime(Date.UTC(2026, 10, 25, 0, 0, 0, 0));
    expect(cache.peek('k')).toBeUndefined();
    // Nor does a change just after midnight offer it to the rebuild's concurrent requests.
    cache.invalidate();
    const rebuild = deferred<string>();
    const first = cache.get('k', () => rebuild.promise);
    const second = cache.get('k', async () => 'unused');
    rebuild.resolve('tuesday');
    expect(await Promise.all([first, second])).toEqual(['tuesday', 'tuesday']);
  });

  it('evicts the least recently used entry when full, keeping entries that were read', async () => {
    const cache = new DataCache({ maxEntries: 8 });
    for (let i = 0; i < 8; i++) await cache.get(`k${i}`, async () => i);
    // k0 and k1 are read after the others were made: the next two entries evict k2 and k3.
    expect(cache.peek('k0')).toBe(0);
    expect(cache.peek('k1')).toBe(1);
    await cache.get('k8', async () => 8);
    await cache.get('k9', async () => 9);
    expect(['k0', 'k1', 'k2', 'k3', 'k4'].map((key) => cache.peek(key))).toEqual([0, 1, undefined, undefined, 4]);
  });
});

describe('DataCache sources', () => {
  it('drops on a change only the answers computed from what changed', async () => {
    const cache = new DataCache();
    await cache.get('prices.list:{}', async () => 'list', ['prices']);
    await cache.get('stats.get', async () => 'stats', ['prices', 'rollups']);
    await cache.get('market.series:{}', async () => 'bls', []);
    await cache.get('/api/egg-prices?limit=5', async () => 'page', ['prices']);
    await cache.get('html:/', async () => 'page with everything');
    cache.invalidate('rollups');
    expect(
      ['prices.list:{}', 'stats.get', 'market.series:{}', '/api/egg-prices?limit=5', 'html:/'].map((key) =>
        cache.peek(key),
      ),
    ).toEqual(['list', undefined, 'bls', 'page', undefined]);
    cache.invalidate('prices');
    expect(['prices.list:{}', 'market.series:{}', '/api/egg-prices?limit=5'].map((key) => cache.peek(key))).toEqual([
      undefined,
      'bls',
      undefined,
    ]);
    cache.invalidate();
    expect(cache.peek('market.series:{}')).toBeUndefined();
  });
});

describe('currentUtcDay', () => {
  it('is the UTC date of the moment, across midnight and when the clock goes back', () => {
    const noon = Date.UTC(2026, 10, 24, 12);
    expect(currentUtcDay(noon)).toBe('2026-11-24');
    expect(currentUtcDay(Date.UTC(2026, 10, 24, 23, 59, 59, 999))).toBe('2026-11-24');
    expect(currentUtcDay(Date.UTC(2026, 10, 25))).toBe('2026-11-25');
    expect(currentUtcDay(noon)).toBe('2026-11-24');
    expect(currentUtcDay(Date.UTC(2027, 0, 1, 0, 0, 0, 1))).toBe('2027-01-01');
  });
});
