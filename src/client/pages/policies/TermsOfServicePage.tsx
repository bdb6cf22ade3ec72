// The Terms of Service (the footer's link): what the service is and is not, the use of the REST
// API within the limits the server enforces (read from this deployment's settings), and the
// rules of accounts.
import { Center, Link, Spinner } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ACCOUNT_LIMIT_NAMES, type AccountLimitName, type PolicySettings } from '#shared/privacy.ts';
import { Bullets, Contact, P, PolicyDocument, formatWindow, type PolicySection } from './PolicyDocument.tsx';
import { usePolicySettings } from './usePolicySettings.ts';

/** What each enforced limit counts, in words. */
const LIMIT_WORDS: Record<AccountLimitName, string> = {
  loginPerIp: 'log-in attempts from one address',
  loginPerAccount: 'log-in attempts to one account',
  registerPerIp: 'sign-ups from one address',
  resetPerIp: 'password reset requests from one address',
  resetPerAccount: 'password reset requests for one account',
  subscribePerIp: 'price alert sign-ups from one address',
  subscribePerEmail: 'price alert sign-ups for one email address',
};

const internal = (to: string, label: string) => (
  <Link asChild colorPalette="brand" variant="underline">
    <RouterLink to={to}>{label}</RouterLink>
  </Link>
);

function apiLimit(settings: PolicySettings | undefined): string {
  if (!settings)
    return 'The public API limits the requests each address may make a minute; every answer says the limit in its RateLimit-Limit header.';
  if (settings.publicApiRequestsPerMinute === 0)
    return 'This site sets no request limit on the public API today; keep to a few requests a second all the same.';
  return `The public API takes at most ${settings.publicApiRequestsPerMinute.toLocaleString('en-US')} requests a minute from one address (an IPv6 address counts with its whole /64 network). Beyond that it answers 429 with a Retry-After header; every answer says where you stand in its RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers.`;
}

export function termsSections(settings: PolicySettings | undefined): PolicySection[] {
  return [
    {
      id: 'the-service',
      title: 'The service',
      body: (
        <>
          <P>
            EggWatch shows the prices of eggs at US grocery stores: prices observed on retailers&apos; public web pages,
            beside figures from official sources such as the US Bureau of Labor Statistics. It is free to use, with or
            without an account.
          </P>
          <Bullets
            items={[
              'Prices may be wrong, outdated or missing: a retailer may change a price after we read it, show another price in its store or for another location, or change its pages so that we read them wrongly. Check the price at the store before you rely on it.',
              'EggWatch is not affiliated with, endorsed by or sponsored by any retailer or agency it shows. Store names and logos belong to their owners and are used only to say where a price was seen.',
              'The service is provided "as is", without warranty of any kind, and may change, pause or stop at any time. To the extent the law allows, the site operator is not liable for any loss that comes from using it or relying on its figures.',
            ]}
          />
        </>
      ),
    },
    {
      id: 'api',
      title: 'Using the REST API',
      body: (
        <>
          <P>
            The price data is open: the public read-only API under /api needs no key, and its reference is at /api/docs.
            You may use it, and republish what it gives, on these conditions:
          </P>
          <Bullets
            items={[
              apiLimit(settings),
              'Stay within the limits. Do not spread requests over many addresses or accounts to get around them, and do not read the web pages automatically in place of the API.',
              'Ask no more often than the data changes: prices are updated daily, and answers carry ETag headers, so a repeated request with If-None-Match costs you nothing.',
              'Say where the data comes from: name EggWatch, and the retailer or the official source of each figure, and do not present it as more accurate or more recent than it is.',
              'Do not use the API, or the site, to harm it or others: no attempts to break in, to overload it, or to reach data that is not yours.',
            ]}
          />
          <P>
            Account actions have limits of their own, counted per address or per account
            {settings ? ':' : '; going over one answers "Too many attempts" until its window ends.'}
          </P>
          {settings && (
            <Bullets
              items={ACCOUNT_LIMIT_NAMES.map((name) => {
                const limit = settings.accountLimits[name];
                return `${limit.max} ${LIMIT_WORDS[name]} in ${formatWindow(limit.windowSeconds)}`;
              })}
            />
          )}
        </>
      ),
    },
    {
      id: 'accounts',
      title: 'Accounts and price alerts',
      body: (
        <Bullets
          items={[
            'An account is for one person. Give an email address you can receive mail at, and keep your password to yourself: you are responsible for what is done with your account.',
            'Subscribe only addresses that are yours. An alert for an address you have not confirmed starts only once its owner follows the link we email to it.',
            'The site operator may suspend or delete an account, or stop an alert, that breaks these terms or harms the service or others.',
            <>
              You may stop any alert with the link in its emails, and delete your account at any time under{' '}
              {internal('/profile', 'My Account')}. The {internal('/privacy', 'Privacy Policy')} says what we keep about
              you and for how long.
            </>,
          ]}
        />
      ),
    },
    {
      id: 'changes',
      title: 'Changes and contact',
      body: (
        <P>
          We may change these terms; the date at the top says when they last changed, and using the service after a
          change means accepting the new terms. Questions go to <Contact email={settings?.contactEmail} />.
        </P>
      ),
    },
  ];
}

export function TermsOfService({ settings }: { settings: PolicySettings | undefined }) {
  return (
    <PolicyDocument
      title="Terms of Service"
      intro={<P>These terms apply to everyone who uses EggWatch: its web pages, its price alerts and its REST API.</P>}
      sections={termsSections(settings)}
    />
  );
}

export default function TermsOfServicePage() {
  const { settings, loading } = usePolicySettings();
  if (loading)
    return (
      <Center py="24" role="status" aria-label="Loading the Terms of Service">
        <Spinner size="lg" color="brand.solid" />
      </Center>
    );
  return <TermsOfService settings={settings} />;
}
