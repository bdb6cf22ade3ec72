// Immediate price alerts after a scrape run has committed (queued by stores__scrape in the same
// transaction that finishes the run), or for the visits of a visit day that no batch has matched
// yet (queued by coverage__visit as a chunk commits, one job per run and window). Idempotent:
// alert_deliveries remembers every price event already alerted to each subscription, so a batch
// retried after its emails were written sends nothing twice.
import { createHash } from 'node:crypto';
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { DEFAULT_ALERTS, type WorkerDeps } from '../deps.ts';
import { markVisitsAlerted, visitsAwaitingAlerts } from '#server/queries/coverage-visits.ts';
import { deliverImmediate } from '../alerts.ts';

/** A ZIP scrape run; a visit day (its visits not matched yet); or one chunk of it (jobs queued before batches). */
const payloadSchema = z.union([
  z.object({ runId: z.number().int().positive() }),
  z.object({ coverageRunId: z.number().int().positive(), chunk: z.number().int().min(0).optional() }),
]);

export function alertsImmediate(deps: WorkerDeps): Task {
  const { publicUrl } = deps.alerts ?? DEFAULT_ALERTS;
  return async (payload, helpers) => {
    const parsed = payloadSchema.parse(payload);
    const { sql } = deps;
    if ('runId' in parsed) {
      const report = await deliverImmediate(sql, publicUrl, { runId: parsed.runId });
      helpers.logger.info(`immediate alerts for scrape run ${parsed.runId}: ${describe(report)}`);
      return;
    }
    const runId = parsed.coverageRunId;
    const locationIds = await visitsAwaitingAlerts(sql, runId, parsed.chunk);
    if (locationIds.length === 0) return;
    // The batch is named by its visits: a retry of the same batch has the same emails' keys, and a
    // retry that finds more visits is another batch.
    const batch = createHash('sha256').update(locationIds.join(',')).digest('hex').slice(0, 16);
    const report = await deliverImmediate(
      sql,
      publicUrl,
      { coverageRunId: runId, locationIds },
      `coverage:${runId}:${batch}`,
    );
    await markVisitsAlerted(sql, runId, locationIds);
    helpers.logger.info(
      `immediate alerts for visit day ${runId} (${locationIds.length} store(s)): ${describe(report)}`,
    );
  };
}

function describe(report: { emails: number; subscriptions: number; claimedBefore: number }): string {
  return `${report.emails} email(s) to ${report.subscriptions} matching subscription(s)${report.claimedBefore ? `; ${report.claimedBefore} price event(s) were already alerted` : ''}`;
}
