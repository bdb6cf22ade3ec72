// The email outbox as the admin Outbox tab reads it: recent emails, newest first, and one email.
import type { EmailStatus, OutboxEmail, OutboxEmailSummary } from '#shared/outbox.ts';
import type { Db } from '../db.ts';

interface Row {
  id: number;
  to_address: string;
  subject: string;
  status: EmailStatus;
  error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

function toSummary(row: Row): OutboxEmailSummary {
  return {
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    status: row.status,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    sentAt: row.sent_at?.toISOString() ?? null,
  };
}

export async function listOutbox(
  sql: Db,
  page: { limit: number; offset: number },
): Promise<{ emails: OutboxEmailSummary[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    sql<Row[]>`
      select id, to_address, subject, status, error, created_at, sent_at from email_outbox
      order by id desc limit ${page.limit} offset ${page.offset}`,
    sql<{ n: number }[]>`select count(*)::int as n from email_outbox`,
  ]);
  return { emails: rows.map(toSummary), total: count!.n };
}

/** One email; its bodies only when `withBodies`. */
export async function outboxEmailById(sql: Db, id: number, withBodies: boolean): Promise<OutboxEmail | null> {
  const [row] = await sql<Array<Row & { html: string; text: string }>>`
    select id, to_address, subject, status, error, created_at, sent_at,
           ${withBodies ? sql`html, text` : sql`null as html, null as text`}
    from email_outbox where id = ${id}`;
  return row ? { ...toSummary(row), html: row.html, text: row.text } : null;
}

/** An outbox email as the sender reads it; `stopped`: an alert's email whose subscription is no longer active. */
export interface EmailToSend {
  to_address: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  status: string;
  idempotency_key: string | null;
  stopped: boolean;
}

export async function emailToSend(sql: Db, id: number): Promise<EmailToSend | null> {
  const [email] = await sql<EmailToSend[]>`
    select o.to_address, o.subject, o.html, o.text, o.headers, o.status, o.idempotency_key,
           (o.subscription_id is not null and not exists (select 1 from subscriptions s where s.id = o.subscription_id and s.active)) as stopped
    from email_outbox o where o.id = ${id}`;
  return email ?? null;
}

/** A pending email is not sent: failed, with why. */
export async function markEmailNotSent(sql: Db, id: number, error: string): Promise<void> {
  await sql`update email_outbox set status = 'failed', error = ${error} where id = ${id} and status = 'pending'`;
}

/** A pending email kept in the outbox by the local transport, which logs it instead of sending it. */
export async function markEmailLogged(sql: Db, id: number): Promise<void> {
  await sql`update email_outbox set status = 'logged', sent_at = now() where id = ${id} and status = 'pending'`;
}

/** The provider refused the email: its error, and failed when no attempt is left (else still pending). */
export async function markEmailRefused(sql: Db, id: number, error: string, final: boolean): Promise<void> {
  await sql`update email_outbox set error = ${error}, status = ${final ? 'failed' : 'pending'} where id = ${id}`;
}

export async function markEmailSent(sql: Db, id: number, providerId: string | null): Promise<void> {
  await sql`update email_outbox set status = 'sent', sent_at = now(), provider_id = ${providerId}, error = null where id = ${id}`;
}
