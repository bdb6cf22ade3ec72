// Daily: deletes the outbox's copies of emails older than EMAIL_OUTBOX_RETENTION_DAYS, the time
// the Privacy Policy gives. Idempotent.
import type { Task } from 'graphile-worker';
import { EMAIL_OUTBOX_RETENTION_DAYS } from '#shared/privacy.ts';
import { purgeEmailOutbox } from '#server/queries/retention.ts';
import type { WorkerDeps } from '../deps.ts';

export function emailOutboxPurge(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    const deleted = await purgeEmailOutbox(deps.sql, EMAIL_OUTBOX_RETENTION_DAYS);
    helpers.logger.info(`email outbox: ${deleted} email(s) older than ${EMAIL_OUTBOX_RETENTION_DAYS} days deleted`);
  };
}
