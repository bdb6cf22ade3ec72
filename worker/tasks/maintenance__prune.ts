// Daily clean-up of short-lived rows: expired sessions, used or expired tokens, old rate-limit
// windows. Idempotent.
import type { Task } from 'graphile-worker';
import { pruneRateLimits } from '#server/auth/rate-limit.ts';
import type { WorkerDeps } from '../deps.ts';

export function maintenancePrune(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const sessions = await deps.sql`delete from user_sessions where expires_at < now()`;
    const resets = await deps.sql`delete from password_reset_tokens where expires_at < now() - interval '1 day'`;
    const verifications =
      await deps.sql`delete from email_verification_tokens where expires_at < now() - interval '1 day'`;
    const limits = await pruneRateLimits(deps.sql);
    helpers.logger.info(
      `pruned ${sessions.count} sessions, ${resets.count + verifications.count} tokens, ${limits} rate-limit windows`,
    );
  };
}
