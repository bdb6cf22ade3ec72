// Delivers one outbox email: through Resend when RESEND_API_KEY is set, otherwise the local
// transport marks it 'logged' and logs it (the outbox is then the mailbox). Idempotent: an email
// already sent or logged is left alone, so a retried job never sends twice.
import type { Task } from 'graphile-worker';
import { Resend } from 'resend';
import { z } from 'zod';
import type { WorkerDeps } from '../deps.ts';

const payloadSchema = z.object({ id: z.number().int().positive() });

export function sendEmail(deps: WorkerDeps): Task {
  const resend = deps.email.resendApiKey
    ? new Resend(deps.email.resendApiKey, deps.email.resendBaseUrl ? { baseUrl: deps.email.resendBaseUrl } : undefined)
    : null;
  return async (payload, helpers) => {
    const { id } = payloadSchema.parse(payload);
    const [email] = await deps.sql<
      Array<{
        to_address: string;
        subject: string;
        html: string;
        text: string;
        headers: Record<string, string>;
        status: string;
        idempotency_key: string | null;
        stopped: boolean;
      }>
    >`
      select o.to_address, o.subject, o.html, o.text, o.headers, o.status, o.idempotency_key,
             (o.subscription_id is not null and not exists (select 1 from subscriptions s where s.id = o.subscription_id and s.active)) as stopped
      from email_outbox o where o.id = ${id}`;
    if (!email || email.status !== 'pending') return;
    // An alert whose subscription was stopped (unsubscribed) after it was queued is not sent.
    if (email.stopped) {
      await deps.sql`update email_outbox set status = 'failed', error = 'not sent: the subscription was stopped' where id = ${id} and status = 'pending'`;
      return;
    }

    if (!resend) {
      await deps.sql`update email_outbox set status = 'logged', sent_at = now() where id = ${id} and status = 'pending'`;
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
      await deps.sql`update email_outbox set error = ${error.message}, status = ${final ? 'failed' : 'pending'} where id = ${id}`;
      throw new Error(`Resend refused email ${id}: ${error.message}`);
    }
    await deps.sql`update email_outbox set status = 'sent', sent_at = now(), provider_id = ${data?.id ?? null}, error = null where id = ${id}`;
  };
}
