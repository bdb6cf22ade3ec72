// Ticks every hour: at the digest hour (ALERT_DIGEST_HOUR_UTC) it queues the day's daily digest,
// and on Mondays the weekly summary of the week before, each under a job key of its period so
// several workers ticking queue it once.
import type { Task } from 'graphile-worker';
import { DEFAULT_ALERTS, type WorkerDeps } from '../deps.ts';

export function alertsSchedule(deps: WorkerDeps): Task {
  const { digestHourUtc } = deps.alerts ?? DEFAULT_ALERTS;
  return async (payload, helpers) => {
    const given = (payload as { now?: unknown } | null)?.now;
    const now = typeof given === 'string' ? new Date(given) : new Date();
    if (now.getUTCHours() !== digestHourUtc) return;
    const day = now.toISOString().slice(0, 10);
    await helpers.addJob(
      'alerts__digest',
      { kind: 'daily', period: day },
      { jobKey: `alerts:daily:${day}`, jobKeyMode: 'preserve_run_at', maxAttempts: 10 },
    );
    if (now.getUTCDay() === 1) {
      await helpers.addJob(
        'alerts__digest',
        { kind: 'weekly', period: day },
        { jobKey: `alerts:weekly:${day}`, jobKeyMode: 'preserve_run_at', maxAttempts: 10 },
      );
    }
    helpers.logger.info(`alert digests queued for ${day}${now.getUTCDay() === 1 ? ' (daily and weekly)' : ''}`);
  };
}
