import { TRPCError } from '@trpc/server';

/** True for PostgreSQL's unique_violation on the given constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint_name?: string } | null;
  return e?.code === '23505' && e.constraint_name === constraint;
}

/**
 * A refusal the caller can act on, with its HTTP status (400 bad input, 404 unknown, 409 a
 * conflict with what is running or saved). A TRPCError, so a procedure that lets it through
 * answers that status with the message; other callers (the worker's scheduler) read `status`.
 */
export class AppError extends TRPCError {
  readonly status: 400 | 404 | 409;
  constructor(status: 400 | 404 | 409, message: string) {
    super({ code: status === 400 ? 'BAD_REQUEST' : status === 404 ? 'NOT_FOUND' : 'CONFLICT', message });
    this.status = status;
  }
}
