// Every email of a subscription (its confirmation, an immediate alert, a daily digest, a weekly
// summary) carries the manage and the unsubscribe link of its own token, in the HTML and the text,
// and the RFC 8058 one-click headers.
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import {
  confirmSubscriptionEmail,
  dailyDigestEmail,
  immediateAlertEmail,
  weeklySummaryEmail,
  type AlertListing,
} from './alerts.ts';
import type { EmailMessage } from './outbox.ts';

const links = { publicUrl: 'https://eggwatch.test', token: 'tok_en-123' };
const manage = 'https://eggwatch.test/notifications/manage?token=tok_en-123';
const unsubscribe = 'https://eggwatch.test/notifications/unsubscribe?token=tok_en-123';
const scope = {
  region: 'west' as const,
  egg_type: 'organic' as const,
  preferred_stores: [],
  price_threshold: 4,
  notification_frequency: 'daily' as const,
};
const listing: AlertListing = {
  store_id: 'aldi',
  store_name: 'Aldi',
  region: 'west',
  egg_type: 'organic',
  count: 12,
  price: 3.5,
  title: 'Organic Eggs, 12 ct',
  reference_price: 4,
};

const emails: Record<string, EmailMessage> = {
  confirmation: confirmSubscriptionEmail(
    'a@b.test',
    'West · Organic eggs',
    'https://eggwatch.test/notifications/confirm?token=c',
    links,
  ),
  'immediate alert': immediateAlertEmail('a@b.test', scope, [listing], links, 'West · Organic eggs'),
  'daily digest': dailyDigestEmail(
    'a@b.test',
    scope,
    { matches: [listing], cheapest: [listing] },
    links,
    'West · Organic eggs',
    '2026-11-23',
  ),
  'weekly summary': weeklySummaryEmail(
    'a@b.test',
    scope,
    {
      lowest: { ...listing, per_dozen: 3.5 },
      average: 3.9,
      previousAverage: 4.1,
      cheapestStore: { store_name: 'Aldi', per_dozen: 3.5 },
      underThreshold: [listing],
    },
    links,
    'West · Organic eggs',
    '2026-11-23',
  ),
};

describe('subscription emails', () => {
  for (const [name, email] of Object.entries(emails)) {
    it(`${name}: a manage and an unsubscribe link in the HTML and the text, and one-click headers`, () => {
      const $ = cheerio.load(email.html);
      expect(
        $('a')
          .filter((_, a) => $(a).text() === 'Manage this alert')
          .attr('href'),
      ).toBe(manage);
      expect(
        $('a')
          .filter((_, a) => $(a).text() === 'Unsubscribe')
          .attr('href'),
      ).toBe(unsubscribe);
      expect(email.text).toContain(`Manage this alert: ${manage}`);
      expect(email.text).toContain(`Unsubscribe: ${unsubscribe}`);
      expect(email.headers).toEqual({
        'List-Unsubscribe': `<${unsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
    });
  }

  it('the confirmation keeps its confirm link and says what the alert watches', () => {
    const email = emails.confirmation!;
    expect(cheerio.load(email.html)('a').first().attr('href')).toBe(
      'https://eggwatch.test/notifications/confirm?token=c',
    );
    expect(email.text).toContain('Your alert: West · Organic eggs.');
  });
});
