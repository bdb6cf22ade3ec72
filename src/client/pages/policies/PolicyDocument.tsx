// The frame of the Privacy Policy and Terms of Service: the title, the date the text last changed
// (a constant, never today's date), a list of the sections linking to their headings, and the
// sections, in a column narrow enough to read on a phone.
import { Box, Heading, Link, List, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { POLICIES_LAST_UPDATED } from '#shared/privacy.ts';

export interface PolicySection {
  /** The heading's id, the target of its link in "On this page". */
  id: string;
  title: string;
  body: ReactNode;
}

/** 'November 29, 2026' for '2026-11-29' (a calendar date, so read in UTC). */
export function formatPolicyDate(isoDate: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}

export function PolicyDocument(props: { title: string; intro: ReactNode; sections: PolicySection[] }) {
  const headingId = `${props.sections[0]?.id ?? 'policy'}-title`;
  return (
    <Stack as="article" aria-labelledby={headingId} gap={{ base: '6', md: '8' }} maxW="3xl" mx="auto">
      <Stack gap="2">
        <Heading as="h1" id={headingId} size={{ base: '2xl', md: '3xl' }}>
          {props.title}
        </Heading>
        <Text color="fg.muted" textStyle="sm">
          Last updated: <time dateTime={POLICIES_LAST_UPDATED}>{formatPolicyDate(POLICIES_LAST_UPDATED)}</time>
        </Text>
      </Stack>
      <Box textStyle="md">{props.intro}</Box>
      <Box as="nav" aria-label="On this page" borderWidth="1px" borderColor="border" rounded="l2" p="4" bg="bg.subtle">
        <Text fontWeight="semibold" mb="2">
          On this page
        </Text>
        <List.Root as="ol" gap="1.5" ps="5" listStyleType="decimal">
          {props.sections.map((section) => (
            <List.Item key={section.id}>
              <Link href={`#${section.id}`} color="fg.muted" _hover={{ color: 'fg' }}>
                {section.title}
              </Link>
            </List.Item>
          ))}
        </List.Root>
      </Box>
      {props.sections.map((section) => (
        <Stack as="section" key={section.id} aria-labelledby={section.id} gap="3">
          {/* The sticky header would cover a heading scrolled to the top. */}
          <Heading as="h2" id={section.id} size={{ base: 'lg', md: 'xl' }} scrollMarginTop="28">
            {section.title}
          </Heading>
          {section.body}
        </Stack>
      ))}
    </Stack>
  );
}

/** A paragraph of a policy. */
export function P({ children }: { children: ReactNode }) {
  return <Text lineHeight="tall">{children}</Text>;
}

/** A bulleted list of a policy. */
export function Bullets({ items }: { items: ReactNode[] }) {
  return (
    <List.Root gap="2" ps="5" lineHeight="tall" listStyleType="disc">
      {items.map((item, index) => (
        <List.Item key={index}>{item}</List.Item>
      ))}
    </List.Root>
  );
}

/** The operator's address as a mail link, or "the site operator" when none is configured. */
export function Contact({ email }: { email: string | null | undefined }) {
  return email ? (
    <>
      the site operator at{' '}
      <Link href={`mailto:${email}`} colorPalette="brand" variant="underline">
        {email}
      </Link>
    </>
  ) : (
    <>the site operator</>
  );
}

/** '15 minutes', 'an hour', '2 hours' for a rate limit's window in seconds. */
export function formatWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'an hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'a minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** 'in a window of 15 minutes or an hour' from the limits' windows. */
export function windowsOf(limits: Array<{ windowSeconds: number }>): string {
  const windows = [...new Set(limits.map((limit) => limit.windowSeconds))].sort((a, b) => a - b).map(formatWindow);
  if (windows.length === 0) return 'in a short window';
  return `in a window of ${windows.length === 1 ? windows[0] : `${windows.slice(0, -1).join(', ')} or ${windows.at(-1)}`}`;
}
