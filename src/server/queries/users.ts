import type { PublicUser } from '#shared/auth.ts';
import type { Subscription } from '#shared/subscriptions.ts';
import type { Db } from '../db.ts';

export async function userByEmail(sql: Db, email: string): Promise<(PublicUser & { password_hash: string }) | null> {
  const [user] = await sql<Array<PublicUser & { password_hash: string }>>`
    select id, username, email, first_name, last_name, email_verified, role, password_hash
    from users where lower(email) = lower(${email})`;
  return user ?? null;
}

export async function userById(sql: Db, id: string): Promise<PublicUser | null> {
  const [user] = await sql<PublicUser[]>`
    select id, username, email, first_name, last_name, email_verified, role
    from users where id = ${id}`;
  return user ?? null;
}

export async function passwordHashOf(sql: Db, id: string): Promise<string | null> {
  const [row] = await sql<{ password_hash: string }[]>`select password_hash from users where id = ${id}`;
  return row?.password_hash ?? null;
}

export async function adminExists(sql: Db): Promise<boolean> {
  const [row] = await sql<{ present: boolean }[]>`select exists (select 1 from users where role = 'admin') as present`;
  return row!.present;
}

export async function subscriptionsOf(sql: Db, userId: string): Promise<Subscription[]> {
  return sql<Subscription[]>`
    select id, email, region, egg_type, preferred_stores, notification_frequency, notification_channel,
           price_threshold, active, confirmed_at::text, created_at::text
    from subscriptions where user_id = ${userId}
    order by created_at desc, id desc`;
}

/** Counts for the admin overview: every user, the administrators, every price-alert subscription. */
export async function userCounts(sql: Db): Promise<{ users: number; admins: number; subscriptions: number }> {
  const [row] = await sql<{ users: number; admins: number; subscriptions: number }[]>`
    select (select count(*)::int from users) as users,
           (select count(*)::int from users where role = 'admin') as admins,
           (select count(*)::int from subscriptions) as subscriptions`;
  return row!;
}

const ADMIN_SETUP_LOCK = 7_345_113;

/** Serialises concurrent admin setups until the transaction ends: exactly one can create the first admin. */
export async function lockAdminSetup(tx: Db): Promise<void> {
  await tx`select pg_advisory_xact_lock(${ADMIN_SETUP_LOCK})`;
}

export async function usernameTaken(sql: Db, username: string): Promise<boolean> {
  const [taken] = await sql`select 1 from users where lower(username) = lower(${username})`;
  return taken !== undefined;
}

/** A new account; an administrator's address counts as verified. Breaks users_username_key or users_email_key when taken. */
export async function insertUser(
  sql: Db,
  user: {
    id: string;
    username: string;
    email: string;
    passwordHash: string;
    firstName?: string | null;
    lastName?: string | null;
    role?: 'user' | 'admin';
  },
): Promise<void> {
  if (user.role === 'admin') {
    await sql`
      insert into users (id, username, email, password_hash, role, email_verified)
      values (${user.id}, ${user.username}, ${user.email}, ${user.passwordHash}, 'admin', true)`;
    return;
  }
  await sql`
    insert into users (id, username, email, password_hash, first_name, last_name)
    values (${user.id}, ${user.username}, ${user.email}, ${user.passwordHash}, ${user.firstName ?? null}, ${user.lastName ?? null})`;
}

/** The profile's fields; email_verified is given (false when the address changed). */
export async function updateProfile(
  sql: Db,
  id: string,
  profile: {
    username: string;
    email: string;
    first_name: string | null;
    last_name: string | null;
    emailVerified: boolean;
  },
): Promise<void> {
  await sql`
    update users set username = ${profile.username}, email = ${profile.email},
           first_name = ${profile.first_name}, last_name = ${profile.last_name},
           email_verified = ${profile.emailVerified}, updated_at = now()
    where id = ${id}`;
}

/** Sets a new password; the user's sessions end, all but `keepSessionId` (the one that changed it). */
export async function setPassword(
  tx: Db,
  userId: string,
  passwordHash: string,
  keepSessionId: string | null = null,
): Promise<void> {
  await tx`update users set password_hash = ${passwordHash}, updated_at = now() where id = ${userId}`;
  if (keepSessionId === null) await tx`delete from user_sessions where user_id = ${userId}`;
  else await tx`delete from user_sessions where user_id = ${userId} and id <> ${keepSessionId}`;
}

/** The user's unused password reset links stop working. */
export async function expireResetTokens(sql: Db, userId: string): Promise<void> {
  await sql`update password_reset_tokens set used_at = now() where user_id = ${userId} and used_at is null`;
}

/** The role of the user an unused, unexpired reset token is for (null: no such token). */
export async function resetTokenRole(sql: Db, tokenHash: string): Promise<string | null> {
  const [row] = await sql<{ role: string }[]>`
    select u.role from password_reset_tokens t join users u on u.id = t.user_id
    where t.token_hash = ${tokenHash} and t.used_at is null and t.expires_at > now()`;
  return row?.role ?? null;
}

/** Uses an unused, unexpired reset token: its user's id, or null when there is no such token. */
export async function claimResetToken(tx: Db, tokenHash: string): Promise<string | null> {
  const [row] = await tx<{ user_id: string }[]>`
    update password_reset_tokens set used_at = now()
    where token_hash = ${tokenHash} and used_at is null and expires_at > now()
    returning user_id`;
  return row?.user_id ?? null;
}

/**
 * Uses an unused, unexpired email verification token and verifies its user's address, only if it
 * is still the address the link was sent to. True when an address was verified.
 */
export async function verifyEmailByToken(tx: Db, tokenHash: string): Promise<boolean> {
  const [token] = await tx<{ user_id: string; email: string }[]>`
    update email_verification_tokens set used_at = now()
    where token_hash = ${tokenHash} and used_at is null and expires_at > now()
    returning user_id, email`;
  if (!token) return false;
  const updated = await tx`
    update users set email_verified = true, updated_at = now()
    where id = ${token.user_id} and lower(email) = lower(${token.email})`;
  return updated.count === 1;
}

/**
 * Deletes the account and everything of it: sessions and tokens (by cascade) and its subscriptions
 * (also those made for its address without logging in); the email outbox forgets its address and
 * the confirmation emails of its alerts to other addresses (tied to no subscription; the alerts'
 * own emails go with the alerts); scrape runs it started stay, without their requester. False when
 * there is no such user. Call in a transaction.
 */
export async function deleteUser(tx: Db, id: string): Promise<boolean> {
  const [user] = await tx<{ email: string }[]>`select email from users where id = ${id} for update`;
  if (!user) return false;
  const addresses = await tx<{ email: string }[]>`
    select distinct lower(email) as email from subscriptions where user_id = ${id}
    union select lower(${user.email})`;
  await tx`delete from subscriptions where user_id = ${id} or lower(email) = lower(${user.email})`;
  await tx`
    delete from email_outbox
    where lower(to_address) = lower(${user.email})
       or (subscription_id is null and lower(to_address) = any(${tx.array(addresses.map((a) => a.email))}::text[]))`;
  await tx`delete from users where id = ${id}`;
  return true;
}

/**
 * Deletes expired sessions, and reset and verification tokens `tokenRetentionHours` past their
 * expiry. Answers how many of each went.
 */
export async function pruneExpiredAuth(
  sql: Db,
  tokenRetentionHours: number,
): Promise<{ sessions: number; tokens: number }> {
  const sessions = await sql`delete from user_sessions where expires_at < now()`;
  const resets =
    await sql`delete from password_reset_tokens where expires_at < now() - ${tokenRetentionHours} * interval '1 hour'`;
  const verifications =
    await sql`delete from email_verification_tokens where expires_at < now() - ${tokenRetentionHours} * interval '1 hour'`;
  return { sessions: sessions.count, tokens: resets.count + verifications.count };
}
