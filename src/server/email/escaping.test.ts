// Every email's HTML escapes what users and retailers typed, for any string: rendered with
// arbitrary text (markup, quotes, ampersands, unicode edge cases) in each user-supplied place,
// the parsed document has exactly the elements and attributes it has with plain text there, and
// its text shows the string as typed. HOSTILE_RUNS raises the runs (npm run bench:hostile).
import * as cheerio from 'cheerio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUNS, SQL_AND_HTML, TIMEOUT, UNICODE } from '../../../test/hostile.ts';
import { accountExistsEmail, escapeHtml, passwordResetEmail, verificationEmail } from './templates.ts';
import {
  confirmSubscriptionEmail,
  dailyDigestEmail,
  describeSubscription,
  immediateAlertEmail,
  weeklySummaryEmail,
  type AlertListing,
} from './alerts.ts';
import type { EmailMessage } from './outbox.ts';

/** Markup-heavy strings: every HTML metacharacter, tags, attributes, entities, comments, CDATA. */
const userText = fc.oneof(
  fc.constantFrom(
    ...SQL_AND_HTML,
    ...UNICODE,
    '<!-- x -->',
    '<![CDATA[x]]>',
    '&lt;b&gt;',
    '"\'><a href=x>',
    '<a href="javascript:alert(1)">x</a>',
    '</p></body></html><script>x</script>',
  ),
  fc.string({
    unit: fc.constantFrom(
      '<',
      '>',
      '&',
      '"',
      "'",
      '/',
      '=',
      ' ',
      'a',
      'b',
      'i',
      'm',
      'g',
      's',
      'c',
      'r',
      'p',
      't',
      '!',
      '-',
      '#',
      ';',
      'x',
    ),
    minLength: 1,
    maxLength: 60,
  }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
);

/** The document's shape: each element with its attribute names, in order. */
function shape(html: string): string[] {
  const $ = cheerio.load(html);
  return $('*')
    .toArray()
    .map((el) => ('attribs' in el ? `${el.tagName}[${Object.keys(el.attribs).sort().join(',')}]` : el.type));
}

const readable = (text: string) => text.replace(/\r\n?/g, '\n').replaceAll('\u0000', '').replaceAll('\uFFFD', '');

function textOf(html: string): string {
  return cheerio.load(html).root().text();
}

const listing = (text: string): AlertListing => ({
  store_id: 'aldi',
  store_name: `Aldi ${text}`,
  region: 'west',
  egg_type: 'organic',
  count: 12,
  price: 4.5,
  title: `Eggs ${text}`,
  reference_price: 5,
});
const scope = {
  region: 'west' as const,
  egg_type: 'organic' as const,
  preferred_stores: ['aldi' as const],
  price_threshold: 4,
  notification_frequency: 'daily' as const,
};
const links = { publicUrl: 'http://eggwatch.test', token: 'tok' };

/** Each email with the user's text in every place one can reach, and where the text must show. */
const emails: Record<string, (text: string) => EmailMessage> = {
  verification: (text) => verificationEmail('a@b.test', text, 'http://eggwatch.test/verify?token=t'),
  'password reset': (text) => passwordResetEmail('a@b.test', 'http://eggwatch.test/reset?token=t', text),
  'subscription confirmation': (text) =>
    confirmSubscriptionEmail(
      'a@b.test',
      describeSubscription(scope, { aldi: text }),
      'http://eggwatch.test/confirm?token=t',
      links,
    ),
  'immediate alert': (text) => immediateAlertEmail('a@b.test', scope, [listing(text), listing(text)], links, text),
  'daily digest': (text) =>
    dailyDigestEmail('a@b.test', scope, { matches: [listing(text)], cheapest: [listing(text)] }, links, text, text),
  'weekly summary': (text) =>
    weeklySummaryEmail(
      'a@b.test',
      scope,
      {
        lowest: { ...listing(text), per_dozen: 4 },
        average: 4.2,
        previousAverage: 4.4,
        cheapestStore: { store_name: text, per_dozen: 4 },
        underThreshold: [listing(text)],
      },
      links,
      text,
      text,
    ),
};

describe('emails escape user-supplied text', () => {
  for (const [name, render] of Object.entries(emails)) {
    it(
      `${name}: no injected element or attribute, and the text reads as typed`,
      () => {
        const plain = shape(render('plain').html);
        fc.assert(
          fc.property(userText, (text) => {
            const { html } = render(text);
            expect(shape(html)).toEqual(plain);
            // The HTML parser normalises CR LF and drops or replaces NUL; compare what a reader sees.
            expect(readable(textOf(html))).toContain(readable(text));
          }),
          { numRuns: RUNS * 25 },
        );
      },
      TIMEOUT,
    );
  }

  it('the account-exists email carries no user text and keeps its links', () => {
    const { html } = accountExistsEmail(
      'a@b.test',
      'http://eggwatch.test/auth',
      'http://eggwatch.test/forgot-password',
    );
    const $ = cheerio.load(html);
    expect(
      $('a')
        .toArray()
        .map((a) => a.attribs.href),
    ).toEqual(['http://eggwatch.test/auth', 'http://eggwatch.test/forgot-password']);
  });

  it(
    'escapeHtml leaves no metacharacter and decodes back to the input',
    () => {
      fc.assert(
        fc.property(userText, (text) => {
          const escaped = escapeHtml(text);
          expect(escaped).not.toMatch(/[<>"']/);
          expect(escaped.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
          const $ = cheerio.load(`<p title="${escaped}">${escaped}</p>`);
          expect($('p').length).toBe(1);
          expect(readable($('p').attr('title')!)).toBe(readable(text));
          expect(readable($('p').text())).toBe(readable(text));
        }),
        { numRuns: RUNS * 50 },
      );
    },
    TIMEOUT,
  );
});
