// Delivers one outbox email: through Resend when RESEND_API_KEY is set, otherwise the local
// transport marks it 'logged' and logs it (the outbox is then the mailbox). Idempotent: an email
// already sent or logged is left alone, so a retried job never sends twice.
import type { Task } from 'graphile-worker';
import { Resend } from 'resend';
import { z } from 'zod';
import {
  emailToSend,
  markEmailLogged,
  markEmailNotSent,
  markEmailRefused,
  markEmailSent,
} from '#server/queries/outbox.ts';
import type { WorkerDeps } from '../deps.ts';

const payloadSchema = z.object({ id: z.number().int().positive() });

export function sendEmail(deps: WorkerDeps): Task {
  const resend = deps.email.resendApiKey
    ? new Resend(deps.email.resendApiKey, deps.email.resendBaseUrl ? { baseUrl: deps.email.resendBaseUrl } : undefined)
    : null;
  return async (payload, helpers) => {
    const { id } = payloadSchema.parse(payload);
    const email = await emailToSend(deps.sql, id);
    if (!email || email.status !== 'pending') return;
    // An alert whose subscription was stopped (unsubscribed) after it was queued is not sent.
    if (email.stopped) {
      await markEmailNotSent(deps.sql, id, 'not sent: the subscription was stopped');
      return;
    }

    if (!resend) {
      await markEmailLogged(deps.sql, id);
      helpers.logger.info(
        `email ${id} to ${email.to_address}: "${email.subject}" (no RESEND_API_KEY: kept in email_outbox; read it in the admin dashboard's Outbox tab)`,
      );
      return;
    }
    // The idempotency key makes Resend deliver a retried send (after a crash between its answer and
    // our update below) only once.
    const { data, error } = await resend.emails.send(
      {
        from: deps.email.from,
        to: email.to_address,
        subject: email.subject,
        html: email.html,
        text: email.text,
        headers: email.headers,
      },
      { idempotencyKey: email.idempotency_key ?? `eggwatch-email-${id}` },
    );
    if (error) {
      const final = helpers.job.attempts >= helpers.job.max_attempts;
      await markEmailRefused(deps.sql, id, error.message, final);
      throw new Error(`Resend refused email ${id}: ${error.message}`);
    }
    await markEmailSent(deps.sql, id, data?.id ?? null);
  };
}
