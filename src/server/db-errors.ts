// A database that cannot be reached (stopped, restarting, a network cut) is a passing condition
// of the service, not a bug: callers answer 503 with a message, and load balancers take the
// process out through /readyz until the database is back.
import { TRPCError } from '@trpc/server';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The service is briefly unavailable: its database cannot be reached. Try again in a few seconds.';

/** Node socket errors and postgres.js connection errors. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED',
]);
/** PostgreSQL SQLSTATEs of a server that is shutting down, starting up or lost the connection. */
const UNAVAILABLE_SQLSTATES = /^(08|57P0[1-3])/;

/** Whether the error, or any error in its cause chain, says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    const { code, errors } = current as { code?: unknown; errors?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.test(code))) return true;
    // Node's AggregateError (a connection tried on IPv4 and IPv6) holds the socket errors.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The same error as a 503 for tRPC and REST when it is an unreachable database, else as it is. */
export function asServiceUnavailable(error: unknown): unknown {
  if (error instanceof TRPCError && error.code === 'SERVICE_UNAVAILABLE') return error;
  return isDatabaseUnavailable(error) ? new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE, cause: error }) : error;
}
