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
