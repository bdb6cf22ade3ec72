// Creates the single-use tokens behind email links and queues the emails, inside the caller's
// transaction.
import type { Db } from '../db.ts';
import { queueEmail } from '../email/outbox.ts';
import { passwordResetEmail, verificationEmail } from '../email/templates.ts';
import { EMAIL_VERIFICATION_LINK_HOURS, PASSWORD_RESET_LINK_MINUTES } from '#shared/privacy.ts';
import { newToken } from './tokens.ts';

export async function sendVerification(
  sql: Db,
  publicUrl: string,
  user: { id: string; email: string; username: string },
): Promise<void> {
  const { token, hash } = newToken();
  await sql`
    insert into email_verification_tokens (token_hash, user_id, email, expires_at)
    values (${hash}, ${user.id}, ${user.email}, now() + ${EMAIL_VERIFICATION_LINK_HOURS} * interval '1 hour')`;
  await queueEmail(
    sql,
    verificationEmail(user.email, user.username, `${publicUrl}/verify-email?token=${encodeURIComponent(token)}`),
  );
}

/** Issues a reset token (earlier unused ones stop working) and emails it; returns the token. */
export async function sendPasswordReset(
  sql: Db,
  publicUrl: string,
  user: { id: string; email: string; role: string },
): Promise<string> {
  const { token, hash } = newToken();
  await sql`update password_reset_tokens set used_at = now() where user_id = ${user.id} and used_at is null`;
  await sql`
    insert into password_reset_tokens (token_hash, user_id, expires_at)
    values (${hash}, ${user.id}, now() + ${PASSWORD_RESET_LINK_MINUTES} * interval '1 minute')`;
  const page = user.role === 'admin' ? '/admin/reset-password' : '/reset-password';
  await queueEmail(
    sql,
    passwordResetEmail(user.email, `${publicUrl}${page}?token=${encodeURIComponent(token)}`, token),
  );
  return token;
}
