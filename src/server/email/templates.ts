// Email bodies. Everything a user typed is escaped before it goes into HTML.
import type { EmailMessage } from './outbox.ts';

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 18px;background:#15803d;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p><p style="color:#555;font-size:13px">Or open this link: ${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111"><h2>${escapeHtml(title)}</h2>${paragraphs.map((p) => `<p>${p}</p>`).join('')}${button}<p style="color:#777;font-size:12px">EggWatch: egg prices compared.</p></body></html>`;
}

export function verificationEmail(to: string, username: string, url: string): EmailMessage {
  return {
    to,
    subject: 'Confirm your EggWatch email address',
    html: layout(
      'Confirm your email',
      [`Hi ${escapeHtml(username)}, please confirm that this is your email address. The link works for 24 hours.`],
      { label: 'Confirm email', url },
    ),
    text: `Hi ${username},\n\nPlease confirm your EggWatch email address (the link works for 24 hours):\n${url}\n`,
  };
}

export function passwordResetEmail(to: string, url: string, token: string): EmailMessage {
  return {
    to,
    subject: 'Reset your EggWatch password',
    html: layout(
      'Reset your password',
      [
        'Someone asked to reset the password of your EggWatch account. If it was you, use the link below within 30 minutes. If not, ignore this email; your password stays as it is.',
        `Reset token: <code>${escapeHtml(token)}</code>`,
      ],
      { label: 'Choose a new password', url },
    ),
    text: `Someone asked to reset the password of your EggWatch account. If it was you, open this link within 30 minutes:\n${url}\n\nReset token: ${token}\n\nIf not, ignore this email.`,
  };
}

export function accountExistsEmail(to: string, loginUrl: string, resetUrl: string): EmailMessage {
  return {
    to,
    subject: 'You already have an EggWatch account',
    html:
      layout(
        'You already have an account',
        [
          'Someone tried to register a new EggWatch account with this email address, which already has one. If it was you, log in or reset your password. If not, you can ignore this email.',
        ],
        { label: 'Log in', url: loginUrl },
      ) + `<p>Forgot your password? <a href="${escapeHtml(resetUrl)}">Reset it</a>.</p>`,
    text: `Someone tried to register a new EggWatch account with this email address, which already has one.\nLog in: ${loginUrl}\nReset your password: ${resetUrl}\nIf it was not you, ignore this email.`,
  };
}
