// A daily digest or weekly summary run for one period (queued by alerts__schedule with a job key
// per period). Idempotent: alert_deliveries holds one row per subscription and period, written
// with its email, so a retried, doubled or resumed run sends each due email once.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { DEFAULT_ALERTS, type WorkerDeps } from '../deps.ts';
import { deliverDaily, deliverWeekly } from '../alerts.ts';

const payloadSchema = z.object({ kind: z.enum(['daily', 'weekly']), period: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) });

export function alertsDigest(deps: WorkerDeps): Task {
  const { publicUrl } = deps.alerts ?? DEFAULT_ALERTS;
  return async (payload, helpers) => {
    const { kind, period } = payloadSchema.parse(payload);
    const report =
      kind === 'daily'
        ? await deliverDaily(deps.sql, publicUrl, period)
        : await deliverWeekly(deps.sql, publicUrl, period);
    helpers.logger.info(
      `${kind} ${kind === 'daily' ? 'digest' : 'summary'} ${period}: ${report.emails} email(s) written${report.claimedBefore ? `; ${report.claimedBefore} already sent earlier` : ''}`,
    );
  };
}
