// Daily clean-up of short-lived rows: expired sessions, used or expired tokens, old rate-limit
// windows. Idempotent.
import type { Task } from 'graphile-worker';
import { pruneRateLimits } from '#server/auth/rate-limit.ts';
import { pruneExpiredAuth } from '#server/queries/users.ts';
import { EXPIRED_TOKEN_RETENTION_HOURS } from '#shared/privacy.ts';
import type { WorkerDeps } from '../deps.ts';

export function maintenancePrune(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const { sessions, tokens } = await pruneExpiredAuth(deps.sql, EXPIRED_TOKEN_RETENTION_HOURS);
    const limits = await pruneRateLimits(deps.sql);
    helpers.logger.info(`pruned ${sessions} sessions, ${tokens} tokens, ${limits} rate-limit windows`);
  };
}
