// Calling procedures by their dotted path, shared by the REST adapter, the tRPC byte cache and the
// page's inlined data; and which of them are cached reads, as the router declares them.
import { appRouter } from './routers/_app.ts';
import { createCallerFactory, type ProcedureMeta } from './trpc.ts';
import type { Context } from './context.ts';
import { ALL_SOURCES, type DataSource } from './data-sources.ts';

const createCaller = createCallerFactory(appRouter);

type ProcedureDefs = Record<string, { _def: { type: string; meta?: ProcedureMeta } }>;

/**
 * Every cached procedure (cachedProcedure in trpc.ts) by its dotted path, with the data its answer
 * is computed from. Their answers are public and depend only on their input and that data, so the
 * REST and tRPC byte caches may keep them per URL.
 */
export const CACHED_QUERIES: ReadonlyMap<string, readonly DataSource[]> = new Map(
  Object.entries((appRouter._def as unknown as { procedures: ProcedureDefs }).procedures).flatMap(
    ([path, procedure]): Array<[string, readonly DataSource[]]> => {
      const reads = procedure._def.meta?.reads;
      return reads && procedure._def.type === 'query' ? [[path, reads]] : [];
    },
  ),
);

export const isCachedQuery = (path: string): boolean => CACHED_QUERIES.has(path);

/** What answers of these procedures are computed from together; a procedure not cached reads everything. */
export function sourcesOf(...paths: string[]): readonly DataSource[] {
  const sources = new Set<DataSource>();
  for (const path of paths) for (const source of CACHED_QUERIES.get(path) ?? ALL_SOURCES) sources.add(source);
  return [...sources];
}

export function procedureFor(ctx: Context, path: string): (input: unknown) => Promise<unknown> {
  let target: unknown = createCaller(ctx);
  for (const key of path.split('.')) {
    target = (target as Record<string, unknown> | undefined)?.[key];
  }
  if (typeof target !== 'function') throw new Error(`No procedure ${path}`);
  return target as (input: unknown) => Promise<unknown>;
}
