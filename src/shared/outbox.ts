// The admin Outbox (docs/features/alerts.md): the emails the app queued, newest first, and how one
// of them is shown. Without RESEND_API_KEY nothing leaves the machine, so the rendered email with
// its working links is the only way to follow it; with Resend the body went to a real person and
// stays out of the admin screens.
import { z } from 'zod';

export const OUTBOX_PAGE_SIZE = 20;

export const EMAIL_STATUSES = ['pending', 'sent', 'logged', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const EMAIL_STATUS_LABELS: Record<EmailStatus, { label: string; palette: string; hint: string }> = {
  pending: { label: 'Queued', palette: 'blue', hint: 'Waiting for the worker to send it.' },
  sent: { label: 'Sent', palette: 'green', hint: 'Delivered to Resend.' },
  logged: { label: 'Kept here', palette: 'gray', hint: 'Not sent (no RESEND_API_KEY): this outbox is its mailbox.' },
  failed: { label: 'Failed', palette: 'red', hint: 'Not sent.' },
};

export const outboxListInput = z
  .object({
    page: z.coerce
      .number({ message: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page must be at least 1')
      .max(100_000, 'page is too large')
      .optional()
      .default(1),
  })
  .strict();

export const outboxEmailInput = z
  .object({ id: z.coerce.number({ message: 'id must be a number' }).int().positive().max(2_147_483_647) })
  .strict();

export interface OutboxEmailSummary {
  id: number;
  to: string;
  subject: string;
  status: EmailStatus;
  /** Why it failed, or why it was not sent. */
  error: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface OutboxEmail extends OutboxEmailSummary {
  /** The bodies, or null when they went out through Resend (a real person's mail). */
  html: string | null;
  text: string | null;
}

/**
 * The email's HTML as the preview frame's document: links open in a new tab (the frame is
 * sandboxed without scripts, so its own navigation would go nowhere useful).
 */
export function emailPreviewDocument(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  const root = /<html(\s[^>]*)?>/i.exec(html);
  if (root)
    return `${html.slice(0, root.index + root[0].length)}<head>${base}</head>${html.slice(root.index + root[0].length)}`;
  return `${base}${html}`;
}
