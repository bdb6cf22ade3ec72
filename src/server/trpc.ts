// tRPC is initialised here, once. Permission levels are separate procedures: handlers never
// check roles themselves, and a cached public read is one too (cachedProcedure). Errors keep
// zod's field errors for forms; unexpected errors reach the client as a generic message and are
// logged in full by the adapters.
import { initTRPC, TRPCError } from '@trpc/server';
import { z, ZodError } from 'zod';
import { transformer } from '#shared/transformer.ts';
import type { Context } from './context.ts';
import type { DataSource } from './data-sources.ts';
import { asServiceUnavailable, containsNul, isDatabaseUnavailable, NUL_MESSAGE } from './db-errors.ts';

/** A readable one-line message from zod issues, e.g. "limit: Too big: expected number to be <=1000". */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** What a procedure declares about itself beyond its input: what a cached read is computed from. */
export interface ProcedureMeta {
  /** Set by cachedProcedure: the data its answer is computed from (data-sources.ts). */
  reads?: readonly DataSource[];
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    transformer,
    errorFormatter({ shape, error }) {
      const zodError = error.cause instanceof ZodError ? error.cause : null;
      return {
        ...shape,
        message: zodError
          ? describeZodError(zodError)
          : error.code === 'INTERNAL_SERVER_ERROR'
            ? 'Internal server error'
            : shape.message,
        data: {
          ...shape.data,
          stack: undefined,
          fieldErrors: zodError ? zodError.flatten().fieldErrors : undefined,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/**
 * Every procedure: input with a NUL character answers 400 before any statement sees it (the
 * database would refuse it with an error, a 500), and a database out of reach answers 503 with
 * a message, not a 500.
 */
const base = t.procedure.use(async ({ getRawInput, next }) => {
  if (containsNul(await getRawInput())) throw new TRPCError({ code: 'BAD_REQUEST', message: NUL_MESSAGE });
  const result = await next();
  if (!result.ok && isDatabaseUnavailable(result.error)) throw asServiceUnavailable(result.error);
  return result;
});

export const publicProcedure = base;

export const userProcedure = base.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Authentication required' });
  return next({ ctx: { ...ctx, user: ctx.user, session: ctx.session } });
});

export const adminProcedure = userProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'admin')
    throw new TRPCError({ code: 'FORBIDDEN', message: 'You do not have administrator privileges' });
  return next();
});

/**
 * Calls about one account (`id` in the input): only that user or an admin. Others get NOT_FOUND
 * rather than FORBIDDEN, so ids of other accounts cannot be probed.
 */
export const accountProcedure = userProcedure
  .input(z.object({ id: z.string().trim().min(1, 'User id is required').max(64) }))
  .use(({ ctx, input, next }) => {
    if (input.id !== ctx.user.id && ctx.user.role !== 'admin')
      throw new TRPCError({ code: 'NOT_FOUND', message: 'User not found' });
    return next();
  });

/**
 * Its answer is cached per input until the data it reads changes (cache.ts), under its path and
 * its parsed input, so two spellings of the same input share one answer. An error is never kept.
 */
const cacheAnswer = t.middleware(async ({ ctx, path, input, meta, next }) => {
  const key = input === undefined ? path : `${path}:${JSON.stringify(input)}`;
  return ctx.cache.get(
    key,
    async () => {
      const result = await next();
      if (!result.ok) throw result.error;
      return result;
    },
    meta?.reads,
  );
});

type InputBuilder<TParser extends z.ZodType> = ReturnType<typeof publicProcedure.input<TParser>>;

/**
 * A public read whose answer depends only on its input and the data it `reads`: answered from
 * the read cache (cache.ts) until one of those sources changes. Its declaration is the only list
 * of what is cached: the REST and tRPC byte caches and the page's inlined data find the cached
 * procedures, and what each reads, in the router (procedures.ts). Never for a procedure that
 * reads the session.
 */
export function cachedProcedure(reads: readonly DataSource[]): typeof publicProcedure;
export function cachedProcedure<TParser extends z.ZodType>(
  reads: readonly DataSource[],
  input: TParser,
): InputBuilder<TParser>;
export function cachedProcedure(reads: readonly DataSource[], input?: z.ZodType) {
  return (input ? publicProcedure.input(input) : publicProcedure).meta({ reads }).use(cacheAnswer);
}
