// The Privacy Policy (the footer's link): what EggWatch stores about a person, for how long, who
// receives it and how to delete it. Every period is read from src/shared/privacy.ts, the figures
// the server and the worker enforce (docs/features/accounts-and-security.md).
import { Box, Center, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  BROWSER_SESSION_HOURS,
  EMAIL_OUTBOX_RETENTION_DAYS,
  EMAIL_VERIFICATION_LINK_HOURS,
  EXPIRED_TOKEN_RETENTION_HOURS,
  PASSWORD_RESET_LINK_MINUTES,
  RATE_LIMIT_COUNTER_RETENTION_HOURS,
  REMEMBERED_SESSION_DAYS,
  STOPPED_GUEST_ALERT_RETENTION_DAYS,
  type PolicySettings,
} from '#shared/privacy.ts';
import { plural } from '#shared/format.ts';
import { CONFIRMATION_DAYS } from '#shared/subscriptions.ts';
import { Bullets, Contact, P, PolicyDocument, windowsOf, type PolicySection } from './PolicyDocument.tsx';
import { usePolicySettings } from './usePolicySettings.ts';

/** One kind of data: what it is, how long it stays and what removes it. */
function Kept(props: { title: string; what: ReactNode; kept: ReactNode }) {
  return (
    <Box borderWidth="1px" borderColor="border" rounded="l2" p={{ base: '3', md: '4' }}>
      <Text as="h3" fontWeight="semibold" mb="1.5">
        {props.title}
      </Text>
      <Stack gap="1.5" textStyle="sm" lineHeight="tall">
        <Text>{props.what}</Text>
        <Text>
          <Text as="span" fontWeight="semibold">
            Kept:{' '}
          </Text>
          {props.kept}
        </Text>
      </Stack>
    </Box>
  );
}

const internal = (to: string, label: string) => (
  <Link asChild colorPalette="brand" variant="underline">
    <RouterLink to={to}>{label}</RouterLink>
  </Link>
);

export function privacySections(settings: PolicySettings | undefined): PolicySection[] {
  const resend = settings?.emailTransport === 'resend';
  return [
    {
      id: 'what-we-store',
      title: 'What we store about you',
      body: (
        <>
          <P>
            You can compare prices without an account and without giving us anything. We store personal data only when
            you create an account, subscribe to price alerts, or use a form that we protect against abuse:
          </P>
          <Bullets
            items={[
              'Your account: username, email address, first and last name if you give them, whether your address is confirmed, and when the account was created. Your password is never stored: only a hash of it (argon2id), from which it cannot be read back.',
              'Your sessions: a random session id for each device you are signed in on, and when it expires.',
              'Your price alert subscriptions: the email address they go to, the region, egg type, stores, frequency and price threshold you chose, whether the alert is confirmed and active, and a record of each alert sent (so none is sent twice).',
              'Copies of the emails we send you (the outbox): address, subject, content and whether delivery succeeded.',
              'Rate-limit counters: your IP address, or the email address typed into the log-in, password reset or price alert form, with the number of attempts in a short window.',
            ]}
          />
          <P>
            Your preferences (ZIP code, region, egg type, pack size, favorite stores) are kept in your browser only.
            When you look for prices near a ZIP code, the ZIP code travels with that request to find the stores near it;
            we do not store it. The server does not log each request; its logs record errors
            {resend ? '' : ", and, since this site sends no email through a provider, each email's address and subject"}
            .
          </P>
        </>
      ),
    },
    {
      id: 'how-long',
      title: 'How long we keep it',
      body: (
        <Stack gap="3">
          <Kept
            title="Your account"
            what="Username, email address, names, password hash."
            kept="until you delete your account."
          />
          <Kept
            title="Sessions"
            what="The random id that keeps you signed in, and its expiry."
            kept={`at most ${plural(REMEMBERED_SESSION_DAYS, 'day')} after your last visit if you chose "Remember me", otherwise at most ${plural(BROWSER_SESSION_HOURS, 'hour')}, and its cookie ends when you close the browser. Signing out ends the session at once; expired sessions are deleted by a daily clean-up.`}
          />
          <Kept
            title="Links we email you"
            what="Password reset and address confirmation links, stored only as hashes."
            kept={`a reset link works for ${plural(PASSWORD_RESET_LINK_MINUTES, 'minute')} and a confirmation link for ${plural(EMAIL_VERIFICATION_LINK_HOURS, 'hour')}; each is deleted ${plural(EXPIRED_TOKEN_RETENTION_HOURS, 'hour')} after it expires.`}
          />
          <Kept
            title="Price alert subscriptions"
            what="The address an alert goes to, your choices, and the record of alerts sent."
            kept={`an alert of your account stays until you delete it or your account. An alert made without an account stays while it is active; once you unsubscribe or pause it, or if it was never confirmed (a confirmation link works for ${plural(CONFIRMATION_DAYS, 'day')}), it is deleted ${plural(STOPPED_GUEST_ALERT_RETENTION_DAYS, 'day')} after its last change.`}
          />
          <Kept
            title="Copies of emails sent"
            what="Each email's address, subject, content and delivery status."
            kept={`${plural(EMAIL_OUTBOX_RETENTION_DAYS, 'day')}, then deleted by a daily clean-up.`}
          />
          <Kept
            title="Rate-limit counters"
            what={`An IP address, or an email address typed into a form, with a count of attempts ${windowsOf(Object.values(settings?.accountLimits ?? {}))}.`}
            kept={`deleted by a daily clean-up once their window began more than ${plural(RATE_LIMIT_COUNTER_RETENTION_HOURS, 'hour')} ago, so at most about two days. The public API's limit counts addresses in the web server's memory for one minute and never writes them down.`}
          />
        </Stack>
      ),
    },
    {
      id: 'sharing',
      title: 'Who we share it with',
      body: (
        <>
          <P>We do not sell your data, and we do not use advertising or analytics trackers.</P>
          <Bullets
            items={[
              resend
                ? 'Our email provider, Resend, receives the address and content of each email we send you, in order to deliver it.'
                : 'This site sends no email through an email provider: the emails it writes stay in its own outbox.',
              'Retailers receive nothing about you: we read their public web pages ourselves, on our own schedule.',
              'We disclose data to others only where the law requires it.',
            ]}
          />
        </>
      ),
    },
    {
      id: 'browser',
      title: 'Cookies and browser storage',
      body: (
        <P>
          We set one cookie, the session cookie, when you sign in; it lasts no longer than the session above. Your
          browser also keeps, in its local storage, your saved preferences, and whether you are signed in with your
          account's id. Nothing here tracks you on other sites. Signing out ends the session and removes the cookie;
          clearing this site&apos;s data in your browser removes everything it keeps.
        </P>
      ),
    },
    {
      id: 'delete',
      title: 'How to delete your data',
      body: (
        <Bullets
          items={[
            <>
              Delete your account: sign in, open {internal('/profile', 'My Account')} and choose Delete Account. This
              removes at once your account, your sessions and emailed links, your price alerts (also those made for your
              address without signing in), and the copies of emails to your address and of the confirmation emails of
              your alerts. Copies of emails sent to an address you used earlier are deleted with the rest after{' '}
              {plural(EMAIL_OUTBOX_RETENTION_DAYS, 'day')}.
            </>,
            'Stop an alert: every alert email has an unsubscribe link that stops it at once, and a link to change it. With an account, you can also delete each alert under My Account.',
            'Rate-limit counters are not linked to your account, so deleting it leaves them; they expire by themselves within about two days, as above.',
            <>
              For anything else, or to ask what we hold about you, contact <Contact email={settings?.contactEmail} />.
            </>,
          ]}
        />
      ),
    },
    {
      id: 'contact',
      title: 'Contact and changes',
      body: (
        <P>
          EggWatch is run by the site operator. Questions about this policy go to{' '}
          <Contact email={settings?.contactEmail} />. When this policy changes, the date at the top changes with it.
        </P>
      ),
    },
  ];
}

export function PrivacyPolicy({ settings }: { settings: PolicySettings | undefined }) {
  return (
    <PolicyDocument
      title="Privacy Policy"
      intro={
        <P>
          This policy says what EggWatch stores about you, for how long, who receives it and how to delete it. The
          periods below are the ones the site enforces.
        </P>
      }
      sections={privacySections(settings)}
    />
  );
}

export default function PrivacyPolicyPage() {
  const { settings, loading } = usePolicySettings();
  if (loading)
    return (
      <Center py="24" role="status" aria-label="Loading the Privacy Policy">
        <Spinner size="lg" color="brand.solid" />
      </Center>
    );
  return <PrivacyPolicy settings={settings} />;
}
