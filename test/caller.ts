import { appRouter } from '../src/server/routers/_app.ts';
import { createCallerFactory } from '../src/server/trpc.ts';
import { createContextInner, type ContextInner } from '../src/server/context.ts';

const createCaller = createCallerFactory(appRouter);

/** A tRPC caller with the given context parts (an anonymous visitor by default). */
export function callerFor(inner: ContextInner) {
  return createCaller(createContextInner(inner));
}
