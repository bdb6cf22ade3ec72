// Deletes what the app keeps about people once its time is up (the figures are in
// src/shared/privacy.ts; the Privacy Policy page prints them). Each is one statement, so each
// runs in a transaction of its own and may run twice.
import type { Db } from '../db.ts';

/** Deletes the outbox's copies of emails created more than `days` ago; returns how many. */
export async function purgeEmailOutbox(sql: Db, days: number): Promise<number> {
  const result = await sql`delete from email_outbox where created_at < now() - ${days} * interval '1 day'`;
  return result.count;
}

/**
 * Deletes the price alerts made without an account that are stopped (unsubscribed or paused) or
 * were never confirmed, and have not changed for `days` days: nobody can reach them but the holder
 * of an old email's link. Their link tokens, deliveries and emails go with them (on delete cascade).
 * An account's alerts stay until the account deletes them or is deleted.
 */
export async function purgeStoppedGuestSubscriptions(sql: Db, days: number): Promise<number> {
  const result = await sql`
    delete from subscriptions
    where user_id is null and (not active or confirmed_at is null)
      and updated_at < now() - ${days} * interval '1 day'`;
  return result.count;
}
