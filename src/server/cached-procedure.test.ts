// A cached procedure is declared once (cachedProcedure): its answer is kept under its path and
// parsed input until a source it reads changes, and the lists the byte caches and the page's
// inlined data consult are read from the router, so none can name a procedure that does not exist.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DataCache } from './cache.ts';
import { createContextInner, type AppConfig } from './context.ts';
import { CACHED_QUERIES, isCachedQuery, sourcesOf } from './procedures.ts';
import { appRouter } from './routers/_app.ts';
import { cachedProcedure, createCallerFactory, router } from './trpc.ts';
import { eggTypeSchema } from '#shared/schemas.ts';

/** A router of the test's own: each call counts, so a cached answer shows as a call not made. */
function counted() {
  const calls: string[] = [];
  const testRouter = router({
    prices: cachedProcedure(['prices'], z.object({ egg_type: eggTypeSchema })).query(({ input }) => {
      calls.push(input.egg_type);
      if (input.egg_type === 'organic' && calls.filter((c) => c === 'organic').length === 1)
        throw new Error('the first organic answer fails');
      return { egg_type: input.egg_type, call: calls.length };
    }),
    stores: cachedProcedure([]).query(() => {
      calls.push('stores');
      return calls.length;
    }),
  });
  const cache = new DataCache();
  // The procedures of this router read nothing of the database.
  const ctx = createContextInner({ sql: undefined as never, cache, config: {} as AppConfig });
  return { calls, cache, caller: createCallerFactory(testRouter)(ctx) };
}

describe('cachedProcedure', () => {
  it('keeps an answer under its path and parsed input: two spellings of one input share it', async () => {
    const { calls, cache, caller } = counted();
    const first = await caller.prices({ egg_type: 'cage-free' });
    expect(await caller.prices({ egg_type: 'Cage_Free' })).toBe(first);
    expect(calls).toEqual(['cage_free']);
    expect(cache.peek('prices:{"egg_type":"cage_free"}')).toBeDefined();
    await caller.stores();
    expect(cache.peek('stores')).toBeDefined();
    expect(calls).toEqual(['cage_free', 'stores']);
  });

  it('keeps no error, and drops an answer only when a source it reads changes', async () => {
    const { calls, cache, caller } = counted();
    await expect(caller.prices({ egg_type: 'organic' })).rejects.toThrow('the first organic answer fails');
    expect(await caller.prices({ egg_type: 'organic' })).toMatchObject({ egg_type: 'organic' });
    await caller.stores();
    cache.invalidate('rollups');
    await caller.prices({ egg_type: 'organic' });
    await caller.stores();
    expect(calls).toEqual(['organic', 'organic', 'stores']);
    cache.invalidate('prices');
    await caller.prices({ egg_type: 'organic' });
    await caller.stores();
    expect(calls).toEqual(['organic', 'organic', 'stores', 'organic']);
    await expect(caller.prices({ egg_type: 'blue' })).rejects.toThrow(/Unknown egg type 'blue'/);
  });
});

describe('the cached procedures, as the router declares them', () => {
  const procedures = (appRouter._def as unknown as { procedures: Record<string, { _def: { type: string } }> })
    .procedures;

  it('are queries of the router, each with what it reads', () => {
    expect(CACHED_QUERIES.size).toBeGreaterThan(10);
    for (const [path, reads] of CACHED_QUERIES) {
      expect(procedures[path]?._def.type, path).toBe('query');
      expect(
        reads.every((source) => source === 'prices' || source === 'rollups' || source === 'official'),
        path,
      ).toBe(true);
    }
    expect(CACHED_QUERIES.get('prices.list')).toEqual(['prices']);
    expect(CACHED_QUERIES.get('stats.get')).toEqual(['prices', 'rollups']);
    expect(CACHED_QUERIES.get('market.series')).toEqual(['official']);
  });

  it('leave out every procedure that reads a session or changes anything', () => {
    for (const path of ['auth.verify', 'users.alerts', 'scrape.status', 'alerts.create', 'stores.locations'])
      expect(isCachedQuery(path), path).toBe(false);
    // What a read not declared cached depends on is unknown: everything that changes.
    expect(sourcesOf('stores.list', 'auth.verify')).toEqual(['prices', 'rollups', 'official']);
    expect(sourcesOf('stores.list', 'market.series')).toEqual(['official']);
  });
});
