// Accounts for tests, written straight to the database (tests of the login screens log in for real).
import crypto from 'node:crypto';
import type { Sql } from '../src/server/db.ts';
import { hashPassword } from '../src/server/auth/password.ts';
import { createSessions } from '../src/server/auth/lucia.ts';
import type { SessionUser } from '../src/server/context.ts';

export interface TestAccount {
  user: SessionUser;
  password: string;
  token: string;
  session: { id: string; expiresAt: Date };
}

export async function createAccount(
  sql: Sql,
  options: { role?: 'user' | 'admin'; password?: string; email?: string } = {},
): Promise<TestAccount> {
  const id = crypto.randomBytes(8).toString('hex');
  const password = options.password ?? 'Passw0rd!x';
  const user: SessionUser = {
    id,
    username: `user_${id}`,
    email: options.email ?? `${id}@example.test`,
    role: options.role ?? 'user',
    email_verified: true,
    first_name: null,
    last_name: null,
  };
  await sql`
    insert into users (id, username, email, password_hash, role, email_verified)
    values (${id}, ${user.username}, ${user.email}, ${await hashPassword(password)}, ${user.role}, true)`;
  const session = await createSessions(sql, { secure: false }).create(id, false);
  return { user, password, token: session.id, session: { id: session.id, expiresAt: session.expiresAt } };
}

export async function newestEmail(sql: Sql, to: string) {
  const [email] = await sql<{ subject: string; text: string; html: string; status: string }[]>`
    select subject, text, html, status from email_outbox where lower(to_address) = lower(${to}) order by id desc limit 1`;
  return email ?? null;
}

export function linkToken(text: string): string {
  const match = /token=([A-Za-z0-9_%-]+)/.exec(text);
  if (!match) throw new Error(`no token link in: ${text}`);
  return decodeURIComponent(match[1]!);
}

/** The token of the email's link to a path, e.g. '/notifications/manage'. */
export function linkTokenTo(text: string, path: string): string {
  const at = text.indexOf(`${path}?token=`);
  if (at < 0) throw new Error(`no ${path} link in: ${text}`);
  return linkToken(text.slice(at));
}
