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
