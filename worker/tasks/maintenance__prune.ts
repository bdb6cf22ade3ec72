// Daily clean-up of short-lived rows: expired sessions, used or expired tokens, old rate-limit
// windows. Idempotent.
import type { Task } from 'graphile-worker';
import { pruneRateLimits } from '#server/auth/rate-limit.ts';
import { EXPIRED_TOKEN_RETENTION_HOURS } from '#shared/privacy.ts';
import type { WorkerDeps } from '../deps.ts';

export function maintenancePrune(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const sessions = await deps.sql`delete from user_sessions where expires_at < now()`;
    const hours = EXPIRED_TOKEN_RETENTION_HOURS;
    const resets =
      await deps.sql`delete from password_reset_tokens where expires_at < now() - ${hours} * interval '1 hour'`;
    const verifications =
      await deps.sql`delete from email_verification_tokens where expires_at < now() - ${hours} * interval '1 hour'`;
    const limits = await pruneRateLimits(deps.sql);
    helpers.logger.info(
      `pruned ${sessions.count} sessions, ${resets.count + verifications.count} tokens, ${limits} rate-limit windows`,
    );
  };
}
