// Immediate price alerts after a scrape run has committed (queued by stores__scrape in the same
// transaction that finishes the run). Idempotent: alert_deliveries remembers every price event
// already alerted to each subscription.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { DEFAULT_ALERTS, type WorkerDeps } from '../deps.ts';
import { deliverImmediate } from '../alerts.ts';
import type { ImmediateSource } from '#server/queries/alerts.ts';

/** A ZIP scrape run, or one chunk of a coverage visit day. */
const payloadSchema = z.union([
  z.object({ runId: z.number().int().positive() }),
  z.object({ coverageRunId: z.number().int().positive(), chunk: z.number().int().min(0) }),
]);

export function alertsImmediate(deps: WorkerDeps): Task {
  const { publicUrl } = deps.alerts ?? DEFAULT_ALERTS;
  return async (payload, helpers) => {
    const parsed = payloadSchema.parse(payload);
    const source: ImmediateSource = 'runId' in parsed ? { runId: parsed.runId } : { coverageRunId: parsed.coverageRunId, chunk: parsed.chunk };
    const report = await deliverImmediate(deps.sql, publicUrl, source);
    const what = 'runId' in source ? `scrape run ${source.runId}` : `visit day ${source.coverageRunId}, chunk ${source.chunk}`;
    helpers.logger.info(`immediate alerts for ${what}: ${report.emails} email(s) to ${report.subscriptions} matching subscription(s)${report.claimedBefore ? `; ${report.claimedBefore} price event(s) were already alerted` : ''}`);
  };
}
