// Calling procedures by their dotted path, shared by the REST adapter and the tRPC byte cache.
import { appRouter } from './routers/_app.ts';
import { createCallerFactory } from './trpc.ts';
import type { Context } from './context.ts';

const createCaller = createCallerFactory(appRouter);

/**
 * Public reads whose answer depends only on their input and the data: cached per URL until the
 * database announces a change (cache.ts). Never list a procedure that reads the session.
 */
export const CACHEABLE_QUERIES = new Set([
  'prices.list',
  'prices.dashboard',
  'prices.lookup',
  'prices.count',
  'prices.near',
  'prices.history',
  'prices.byState',
  'prices.stateCheapest',
  'stores.list',
  'stores.byId',
  'stores.prices',
  'stores.insights',
  'stores.filterOptions',
  'stores.locationFigures',
  'stats.get',
  'market.series',
  'compare.byType',
  'news.ticker',
]);

export function procedureFor(ctx: Context, path: string): (input: unknown) => Promise<unknown> {
  let target: unknown = createCaller(ctx);
  for (const key of path.split('.')) {
    target = (target as Record<string, unknown> | undefined)?.[key];
  }
  if (typeof target !== 'function') throw new Error(`No procedure ${path}`);
  return target as (input: unknown) => Promise<unknown>;
}
