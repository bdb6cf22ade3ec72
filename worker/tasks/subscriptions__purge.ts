// Daily: deletes the price alerts made without an account that have been stopped or unconfirmed
// for STOPPED_GUEST_ALERT_RETENTION_DAYS, the time the Privacy Policy gives. Idempotent.
import type { Task } from 'graphile-worker';
import { STOPPED_GUEST_ALERT_RETENTION_DAYS } from '#shared/privacy.ts';
import { purgeStoppedGuestSubscriptions } from '#server/queries/retention.ts';
import type { WorkerDeps } from '../deps.ts';

export function subscriptionsPurge(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const deleted = await purgeStoppedGuestSubscriptions(deps.sql, STOPPED_GUEST_ALERT_RETENTION_DAYS);
    helpers.logger.info(
      `subscriptions: ${deleted} stopped or unconfirmed alert(s) without an account deleted after ${STOPPED_GUEST_ALERT_RETENTION_DAYS} days`,
    );
  };
}
