// The writes of an alert delivery batch (worker/alerts.ts), all inside the batch's transaction:
// its claims on alert_deliveries (a claim that exists already yields nothing, so nothing is sent
// twice), its emails in the outbox, each claim's email, and the emails' send_email jobs.
import type { TxSql } from '../db.ts';
import type { EmailMessage } from '../email/outbox.ts';

export interface DeliveryClaim {
  subscriptionId: number;
  periodKey: string;
  kind: 'immediate' | 'daily' | 'weekly';
  productId: number | null;
  locationId: number | null;
  price: number | null;
}

/** Claims the rows not claimed yet; answers the claims this transaction won. */
export async function claimDeliveries(
  tx: TxSql,
  rows: DeliveryClaim[],
): Promise<Array<{ subscription_id: number; period_key: string }>> {
  const col = <T>(pick: (r: (typeof rows)[number]) => T) => rows.map(pick);
  return tx<Array<{ subscription_id: number; period_key: string }>>`
    insert into alert_deliveries (subscription_id, period_key, kind, product_id, location_id, price)
    select * from unnest(${tx.array(col((r) => r.subscriptionId))}::int[], ${tx.array(col((r) => r.periodKey))}::text[],
                         ${tx.array(col((r) => r.kind))}::text[], ${tx.array(col((r) => r.productId))}::int[],
                         ${tx.array(col((r) => r.locationId))}::int[], ${tx.array(col((r) => r.price))}::numeric[])
    on conflict (subscription_id, period_key) do nothing
    returning subscription_id, period_key`;
}

/**
 * Writes the emails to the outbox in one INSERT with a parameter per value (no array literal of
 * the bodies to build, escape and parse again); answers their ids with their idempotency keys.
 */
export async function insertAlertEmails(
  tx: TxSql,
  messages: Array<{ message: EmailMessage; key: string; subscriptionId: number }>,
): Promise<Array<{ id: number; idempotency_key: string }>> {
  return tx<Array<{ id: number; idempotency_key: string }>>`
    insert into email_outbox ${tx(
      messages.map((m) => ({
        to_address: m.message.to,
        subject: m.message.subject,
        html: m.message.html,
        text: m.message.text,
        headers: m.message.headers ?? {},
        idempotency_key: m.key,
        subscription_id: m.subscriptionId,
      })),
    )}
    returning id, idempotency_key`;
}

/** Records on each claim (a subscription's period keys) the email it went out in (emailIds, in order). */
export async function linkDeliveriesToEmails(
  tx: TxSql,
  messages: Array<{ subscriptionId: number; periodKeys: string[] }>,
  emailIds: number[],
): Promise<void> {
  await tx`
    update alert_deliveries d set email_id = m.email_id
    from unnest(${tx.array(messages.flatMap((m) => m.periodKeys.map(() => m.subscriptionId)))}::int[],
                ${tx.array(messages.flatMap((m) => m.periodKeys))}::text[],
                ${tx.array(messages.flatMap((m, i) => m.periodKeys.map(() => emailIds[i]!)))}::int[]) as m(subscription_id, period_key, email_id)
    where d.subscription_id = m.subscription_id and d.period_key = m.period_key`;
}

/** Queues a send_email job for each of these outbox emails. */
export async function queueEmailSends(tx: TxSql, emailIds: number[]): Promise<void> {
  await tx`
    select graphile_worker.add_jobs(array(
      select row('send_email', json_build_object('id', id), null, null, 8, null, null, null)::graphile_worker.job_spec
      from unnest(${tx.array(emailIds)}::int[]) as id))`;
}
