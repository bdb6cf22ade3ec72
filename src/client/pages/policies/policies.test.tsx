import { ChakraProvider } from '@chakra-ui/react';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { system } from '#client/theme.ts';
import { Footer } from '#client/components/layout/Footer.tsx';
import {
  BROWSER_SESSION_HOURS,
  EMAIL_OUTBOX_RETENTION_DAYS,
  REMEMBERED_SESSION_DAYS,
  STOPPED_GUEST_ALERT_RETENTION_DAYS,
  type PolicySettings,
} from '#shared/privacy.ts';
import { PrivacyPolicy } from './PrivacyPolicyPage.tsx';
import { TermsOfService } from './TermsOfServicePage.tsx';

const render = (element: ReactElement) =>
  renderToStaticMarkup(
    <ChakraProvider value={system}>
      <MemoryRouter>{element}</MemoryRouter>
    </ChakraProvider>,
  );

/** The visible text, tags dropped and entities read. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const SETTINGS: PolicySettings = {
  contactEmail: 'privacy@eggwatch.example',
  emailTransport: 'resend',
  publicApiRequestsPerMinute: 1200,
  accountLimits: {
    loginPerIp: { max: 20, windowSeconds: 900 },
    loginPerAccount: { max: 8, windowSeconds: 900 },
    registerPerIp: { max: 10, windowSeconds: 3600 },
    resetPerIp: { max: 10, windowSeconds: 3600 },
    resetPerAccount: { max: 5, windowSeconds: 3600 },
    subscribePerIp: { max: 20, windowSeconds: 3600 },
    subscribePerEmail: { max: 10, windowSeconds: 3600 },
  },
};

/** The h2 headings' ids, and the ids the "On this page" list links to, in order. */
function navigation(html: string) {
  const headings = [...html.matchAll(/<h2[^>]*\sid="([^"]+)"/g)].map((m) => m[1]);
  const nav = /<nav[^>]*aria-label="On this page"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  const links = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
  return { headings, links };
}

describe('Privacy Policy', () => {
  it('is dated from the constant, with one h1 and a list linking to every section heading', () => {
    const html = render(<PrivacyPolicy settings={SETTINGS} />);
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(textOf(html)).toContain('Last updated: November 29, 2026');
    expect(html).toContain('dateTime="2026-11-29"');
    const { headings, links } = navigation(html);
    expect(headings.length).toBeGreaterThanOrEqual(5);
    expect(links).toEqual(headings);
  });

  it('gives each retention period the code enforces, and how to delete', () => {
    const text = textOf(render(<PrivacyPolicy settings={SETTINGS} />));
    expect(text).toContain(`at most ${REMEMBERED_SESSION_DAYS} days after your last visit`);
    expect(text).toContain(`otherwise at most ${BROWSER_SESSION_HOURS} hours`);
    expect(text).toContain(
      `Copies of emails sent Each email's address, subject, content and delivery status. Kept: ${EMAIL_OUTBOX_RETENTION_DAYS} days`,
    );
    expect(text).toContain(`it is deleted ${STOPPED_GUEST_ALERT_RETENTION_DAYS} days after its last change`);
    expect(text).toContain('a count of attempts in a window of 15 minutes or an hour');
    expect(text).toContain('choose Delete Account');
    expect(text).toContain('unsubscribe link');
    expect(text).toContain('We do not sell your data');
  });

  it('names the email provider and the contact from the settings, or neither when there are none', () => {
    const configured = render(<PrivacyPolicy settings={SETTINGS} />);
    expect(textOf(configured)).toContain('Our email provider, Resend, receives');
    expect(configured).toContain('href="mailto:privacy@eggwatch.example"');

    const bare = textOf(
      render(<PrivacyPolicy settings={{ ...SETTINGS, contactEmail: null, emailTransport: 'outbox' }} />),
    );
    expect(bare).toContain('This site sends no email through an email provider');
    expect(bare).toContain('contact the site operator.');
    expect(bare).not.toContain('Resend');
    // Unread settings (an error): the page still says everything, without a contact address.
    expect(textOf(render(<PrivacyPolicy settings={undefined} />))).toContain('contact the site operator.');
  });
});

describe('Terms of Service', () => {
  it('states the API limit and the account limits as enforced', () => {
    const html = render(<TermsOfService settings={SETTINGS} />);
    const text = textOf(html);
    expect(text).toContain('Last updated: November 29, 2026');
    expect(text).toContain('at most 1,200 requests a minute from one address');
    expect(text).toContain('20 log-in attempts from one address in 15 minutes');
    expect(text).toContain('10 price alert sign-ups for one email address in an hour');
    expect(text).toContain('not affiliated with');
    expect(text).toContain('without warranty');
    const { headings, links } = navigation(html);
    expect(links).toEqual(headings);
    expect(html).toContain('href="/privacy"');
  });

  it('says when the public API has no limit, and falls back to the headers when the settings are unread', () => {
    expect(textOf(render(<TermsOfService settings={{ ...SETTINGS, publicApiRequestsPerMinute: 0 }} />))).toContain(
      'sets no request limit on the public API',
    );
    expect(textOf(render(<TermsOfService settings={undefined} />))).toContain('RateLimit-Limit header');
  });
});

describe('Footer', () => {
  it('links Privacy Policy and Terms of Service to their pages; Data Sources stays a placeholder', () => {
    const html = render(<Footer />);
    expect(html).toMatch(/<a[^>]*href="\/privacy"[^>]*>Privacy Policy<\/a>/);
    expect(html).toMatch(/<a[^>]*href="\/terms"[^>]*>Terms of Service<\/a>/);
    expect(html).toMatch(/<button[^>]*>Data Sources<\/button>/);
  });
});
