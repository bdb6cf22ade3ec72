// Subscriptions: create (with double opt-in), read, update, confirm, and manage or unsubscribe by
// the token of an email's links.
import type { Subscription, SubscriptionValues } from '#shared/subscriptions.ts';
import { CONFIRMATION_DAYS } from '#shared/subscriptions.ts';
import type { Db } from '../db.ts';
import { hashToken, newToken } from '../auth/tokens.ts';

export const SUBSCRIPTION_COLUMNS = `id, email, region, egg_type, preferred_stores, notification_frequency, notification_channel,
  price_threshold, active, confirmed_at, created_at`;

interface Row {
  id: number;
  email: string;
  region: Subscription['region'];
  egg_type: Subscription['egg_type'];
  preferred_stores: Subscription['preferred_stores'];
  notification_frequency: Subscription['notification_frequency'];
  notification_channel: 'email';
  price_threshold: number | null;
  active: boolean;
  confirmed_at: Date | null;
  created_at: Date;
  user_id?: string | null;
}

export function toSubscription(row: Row): Subscription {
  return {
    id: row.id,
    email: row.email,
    region: row.region,
    egg_type: row.egg_type,
    preferred_stores: row.preferred_stores,
    notification_frequency: row.notification_frequency,
    notification_channel: row.notification_channel,
    price_threshold: row.price_threshold,
    active: row.active,
    confirmed_at: row.confirmed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

export async function activeCountFor(sql: Db, email: string, exceptId?: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from subscriptions
    where lower(email) = lower(${email}) and active ${exceptId ? sql`and id <> ${exceptId}` : sql``}`;
  return row!.n;
}

/** Serialises the subscriptions of one address until the transaction ends, so its limit holds, and no alert is added twice,
 * under concurrent requests (the address in lower case). */
export async function lockSubscriptionsOf(tx: Db, email: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext(${`subscriptions:${email.toLowerCase()}`}))`;
}

export async function deleteSubscription(sql: Db, id: number): Promise<void> {
  await sql`delete from subscriptions where id = ${id}`;
}

/**
 * The address's subscription with exactly these settings (region, egg type, the same stores in
 * any order, frequency, channel, threshold), with its owner, or null: subscribing twice to the
 * same alert is one subscription.
 */
export async function sameSubscription(
  sql: Db,
  values: SubscriptionValues,
): Promise<(Subscription & { user_id: string | null }) | null> {
  const [row] = await sql<Row[]>`
    select ${sql.unsafe(SUBSCRIPTION_COLUMNS)}, user_id from subscriptions
    where lower(email) = lower(${values.email})
      and region is not distinct from ${values.region}
      and egg_type is not distinct from ${values.egg_type}
      and notification_frequency = ${values.notification_frequency}
      and notification_channel = ${values.notification_channel}
      and price_threshold is not distinct from ${values.price_threshold}::numeric
      and array(select unnest(preferred_stores) order by 1) = array(select unnest(${sql.array(values.preferred_stores)}::text[]) order by 1)
    order by active desc, confirmed_at is null, id
    limit 1`;
  return row ? { ...toSubscription(row), user_id: row.user_id ?? null } : null;
}

/** A new confirmation token for a pending subscription: the token to mail, its hash stored. */
export async function issueConfirmation(sql: Db, id: number): Promise<string> {
  const { token, hash } = newToken();
  await sql`
    update subscriptions set confirm_token_hash = ${hash}, confirm_expires_at = now() + ${CONFIRMATION_DAYS} * interval '1 day'
    where id = ${id}`;
  return token;
}

export async function insertSubscription(
  sql: Db,
  values: SubscriptionValues,
  owner: { userId: string | null; confirmed: boolean },
): Promise<Subscription> {
  const [row] = await sql<Row[]>`
    insert into subscriptions (user_id, email, region, egg_type, preferred_stores, notification_frequency, notification_channel,
                               price_threshold, active, confirmed_at)
    values (${owner.userId}, ${values.email}, ${values.region}, ${values.egg_type}, ${sql.array(values.preferred_stores)}::text[],
            ${values.notification_frequency}, ${values.notification_channel}, ${values.price_threshold}, ${values.active},
            ${owner.confirmed ? sql`now()` : null})
    returning ${sql.unsafe(SUBSCRIPTION_COLUMNS)}`;
  return toSubscription(row!);
}

export async function subscriptionById(
  sql: Db,
  id: number,
): Promise<(Subscription & { user_id: string | null }) | null> {
  const [row] = await sql<
    Row[]
  >`select ${sql.unsafe(SUBSCRIPTION_COLUMNS)}, user_id from subscriptions where id = ${id}`;
  return row ? { ...toSubscription(row), user_id: row.user_id ?? null } : null;
}

export async function updateSubscription(
  sql: Db,
  id: number,
  values: SubscriptionValues,
  confirmed: boolean | 'keep',
): Promise<Subscription> {
  const [row] = await sql<Row[]>`
    update subscriptions set
      email = ${values.email}, region = ${values.region}, egg_type = ${values.egg_type},
      preferred_stores = ${sql.array(values.preferred_stores)}::text[], notification_frequency = ${values.notification_frequency},
      notification_channel = ${values.notification_channel}, price_threshold = ${values.price_threshold}, active = ${values.active},
      confirmed_at = ${confirmed === 'keep' ? sql`confirmed_at` : confirmed ? sql`coalesce(confirmed_at, now())` : null},
      confirm_token_hash = ${confirmed === 'keep' || confirmed ? sql`confirm_token_hash` : null},
      unsubscribed_at = case when ${values.active} then null else unsubscribed_at end,
      updated_at = now()
    where id = ${id}
    returning ${sql.unsafe(SUBSCRIPTION_COLUMNS)}`;
  return toSubscription(row!);
}

/** What a confirmation link did: confirmed the subscription now, or found it confirmed before. */
export interface ConfirmResult {
  outcome: 'confirmed' | 'already-confirmed';
  subscription: Subscription;
}

/**
 * Follows a confirmation link. A pending subscription is confirmed once, before the link expires,
 * and joins the account of its address when that account's email is verified. The hash stays, so
 * the same link opened again finds the subscription already confirmed. Null when the token is
 * unknown, or the subscription is still pending and the link has expired. Only the holder of the
 * emailed token learns anything, so no answer says whether an address exists.
 */
export async function confirmByToken(sql: Db, token: string): Promise<ConfirmResult | null> {
  const hash = hashToken(token);
  const [confirmed] = await sql<Row[]>`
    update subscriptions s set confirmed_at = now(), confirm_expires_at = null, updated_at = now(),
      user_id = coalesce(s.user_id, (select u.id from users u where lower(u.email) = lower(s.email) and u.email_verified))
    where confirm_token_hash = ${hash} and confirmed_at is null and confirm_expires_at > now()
    returning ${sql.unsafe(SUBSCRIPTION_COLUMNS)}`;
  if (confirmed) return { outcome: 'confirmed', subscription: toSubscription(confirmed) };
  const [before] = await sql<Row[]>`
    select ${sql.unsafe(SUBSCRIPTION_COLUMNS)} from subscriptions where confirm_token_hash = ${hash} and confirmed_at is not null`;
  return before ? { outcome: 'already-confirmed', subscription: toSubscription(before) } : null;
}

/**
 * A new token for the manage and unsubscribe links of one email of a subscription: the token to
 * put in the email, its hash stored (in the caller's transaction, with the email).
 */
export async function issueLinkToken(sql: Db, subscriptionId: number): Promise<string> {
  const { token, hash } = newToken();
  await sql`insert into subscription_link_tokens (token_hash, subscription_id) values (${hash}, ${subscriptionId})`;
  return token;
}

/** Stores the hashes of many emails' link tokens at once (the alert batches). */
export async function storeLinkTokens(sql: Db, tokens: Array<{ hash: string; subscriptionId: number }>): Promise<void> {
  if (tokens.length === 0) return;
  await sql`
    insert into subscription_link_tokens (token_hash, subscription_id)
    select * from unnest(${sql.array(tokens.map((t) => t.hash))}::text[], ${sql.array(tokens.map((t) => t.subscriptionId))}::int[])`;
}

/** The subscription an email's link token belongs to (the manage and unsubscribe pages). */
export async function subscriptionByLinkToken(sql: Db, token: string): Promise<Subscription | null> {
  const [row] = await sql<Row[]>`
    select ${sql.unsafe(SUBSCRIPTION_COLUMNS)} from subscriptions
    where id = (select subscription_id from subscription_link_tokens where token_hash = ${hashToken(token)})`;
  return row ? toSubscription(row) : null;
}

/** Stops every email of the subscription at once. Idempotent; null for an unknown token. */
export async function unsubscribeByToken(sql: Db, token: string): Promise<Subscription | null> {
  const [row] = await sql<Row[]>`
    update subscriptions set active = false, unsubscribed_at = coalesce(unsubscribed_at, now()), updated_at = now()
    where id = (select subscription_id from subscription_link_tokens where token_hash = ${hashToken(token)})
    returning ${sql.unsafe(SUBSCRIPTION_COLUMNS)}`;
  return row ? toSubscription(row) : null;
}
