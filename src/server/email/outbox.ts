// Every email is written to email_outbox and handed to the worker's send_email task in the same
// transaction as the change that caused it: nothing is sent from inside a request, and no email
// is lost or sent for a change that rolled back.
import type { Db } from '../db.ts';

export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
}

export async function queueEmail(sql: Db, message: EmailMessage): Promise<number> {
  const [row] = await sql<{ id: number }[]>`
    insert into email_outbox (to_address, subject, html, text, headers)
    values (${message.to}, ${message.subject}, ${message.html}, ${message.text}, ${sql.json(message.headers ?? {})})
    returning id`;
  await sql`select graphile_worker.add_job('send_email', json_build_object('id', ${row!.id}::int), max_attempts := 8)`;
  return row!.id;
}
