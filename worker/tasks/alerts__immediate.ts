// Immediate price alerts after a scrape run has committed (queued by stores__scrape in the same
// transaction that finishes the run). Idempotent: alert_deliveries remembers every price event
// already alerted to each subscription.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { DEFAULT_ALERTS, type WorkerDeps } from '../deps.ts';
import { deliverImmediate } from '../alerts.ts';

const payloadSchema = z.object({ runId: z.number().int().positive() });

export function alertsImmediate(deps: WorkerDeps): Task {
  const { publicUrl } = deps.alerts ?? DEFAULT_ALERTS;
  return async (payload, helpers) => {
    const { runId } = payloadSchema.parse(payload);
    const report = await deliverImmediate(deps.sql, publicUrl, runId);
    helpers.logger.info(`immediate alerts for scrape run ${runId}: ${report.emails} email(s) to ${report.subscriptions} matching subscription(s)${report.claimedBefore ? `; ${report.claimedBefore} price event(s) were already alerted` : ''}`);
  };
}
