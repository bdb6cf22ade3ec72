// A database that cannot be reached (stopped, restarting, a network cut) is a passing condition
// of the service, not a bug: callers answer 503 with a message, and load balancers take the
// process out through /readyz until the database is back.
import { TRPCError } from '@trpc/server';

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable: its database cannot be reached. Try again in a few seconds.';

/** Node socket errors and postgres.js connection errors. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);
/**
 * PostgreSQL SQLSTATEs of a server that refuses or lost the connection: connection exceptions
 * (08), too many connections (53300, server-wide or for the role or database), a configuration
 * limit (53400), a server shutting down, crashed or starting up (57P01-57P03), a database dropped
 * or gone (57P04, 3D000).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|53300|53400|57P0[1-4]|3D000)$/;
/** A database whose connections are switched off (ALLOW_CONNECTIONS false) answers 55000 with this. */
const NOT_ACCEPTING = /is not currently accepting connections/;

/** Whether the error, or any error in its cause chain, says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    const { code, errors } = current as { code?: unknown; errors?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
    if (code === '55000' && NOT_ACCEPTING.test(String((current as { message?: unknown }).message))) return true;
    // Node's AggregateError (a connection tried on IPv4 and IPv6) holds the socket errors.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A lost connection, as graphile-worker's pg pool or postgres.js report it: the database refusing
 * or ending connections, or a socket cut. postgres.js also rejects promises that no query awaits
 * when a connection is cut (the processes treat those as lost connections, not as crashes).
 */
export function isConnectionLoss(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /Connection terminated|not queryable|Cannot use a pool after calling end|CONNECTION_(CLOSED|ENDED|DESTROYED)|ECONNREFUSED|ECONNRESET/.test(
    message,
  );
}

/** The same error as a 503 for tRPC and REST when it is an unreachable database, else as it is. */
export function asServiceUnavailable(error: unknown): unknown {
  if (error instanceof TRPCError && error.code === 'SERVICE_UNAVAILABLE') return error;
  return isDatabaseUnavailable(error)
    ? new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE, cause: error })
    : error;
}

/** Text PostgreSQL cannot store (U+0000 in a text value): a request's fault, answered 400. */
export const NUL_MESSAGE = 'Text must not contain the NUL character (\\u0000)';

/** Whether a string anywhere in the value (keys included) holds U+0000. */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/** Whether PostgreSQL refused a value as text it cannot hold (invalid byte sequence, 0x00). */
export function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05';
}
