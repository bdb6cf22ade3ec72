// How long the app keeps what it stores about a person. The server and the worker enforce these
// figures and the Privacy Policy page prints them, so the page cannot say one thing while the
// code does another (docs/features/accounts-and-security.md, "What is kept and for how long").

/** The date the Privacy Policy and Terms of Service were last changed (YYYY-MM-DD). */
export const POLICIES_LAST_UPDATED = '2026-11-29';

/** A "remember me" session lasts this many days from its last use (lucia refreshes it). */
export const REMEMBERED_SESSION_DAYS = 30;
/** Any other session lasts this many hours, and its cookie ends with the browser. */
export const BROWSER_SESSION_HOURS = 12;

/**
 * A copy of every email sent (the outbox) is kept this many days, then deleted by the worker's
 * email_outbox__purge task.
 */
export const EMAIL_OUTBOX_RETENTION_DAYS = 30;

/**
 * A price alert made without an account that is stopped (unsubscribed or paused) or was never
 * confirmed is deleted by the worker's subscriptions__purge task this many days after its last
 * change. An account's alerts stay until the account deletes them or is deleted.
 */
export const STOPPED_GUEST_ALERT_RETENTION_DAYS = 30;

/**
 * Rate-limit counters (an address or an email address with a count of attempts) are deleted by the
 * daily maintenance__prune task once their window started more than this many hours ago.
 */
export const RATE_LIMIT_COUNTER_RETENTION_HOURS = 24;

/** A password-reset link works this many minutes (only the latest one). */
export const PASSWORD_RESET_LINK_MINUTES = 30;
/** A link confirming an account's email address works this many hours. */
export const EMAIL_VERIFICATION_LINK_HOURS = 24;

/** Password-reset and email-verification tokens, used or expired, are deleted a day after they expire. */
export const EXPIRED_TOKEN_RETENTION_HOURS = 24;

/**
 * The address of a sender such as `EggWatch <alerts@example.com>` or `alerts@example.com`; null
 * when it holds none.
 */
export function mailboxAddress(from: string): string | null {
  const address = (/<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from).trim();
  return /^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(address) ? address : null;
}

/** What the policies say about this deployment, from its configuration (the policies.settings procedure). */
export interface PolicySettings {
  /** The operator's address; null: the pages say "the site operator". */
  contactEmail: string | null;
  /** Email goes out through Resend, or is only kept in the outbox (no provider). */
  emailTransport: 'resend' | 'outbox';
  /** Requests a minute per address to the public /api GETs (0: no limit). */
  publicApiRequestsPerMinute: number;
  /** The account actions' limits as enforced: attempts per window. */
  accountLimits: Record<AccountLimitName, { max: number; windowSeconds: number }>;
}

export const ACCOUNT_LIMIT_NAMES = [
  'loginPerIp',
  'loginPerAccount',
  'registerPerIp',
  'resetPerIp',
  'resetPerAccount',
  'subscribePerIp',
  'subscribePerEmail',
] as const;
export type AccountLimitName = (typeof ACCOUNT_LIMIT_NAMES)[number];
