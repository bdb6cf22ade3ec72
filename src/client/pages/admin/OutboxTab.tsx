// The admin Outbox tab: every email the app queued, newest first (recipient, subject, status and
// time), and one email in a dialog: without RESEND_API_KEY the rendered email, whose links work
// and open in a new tab, and its text, so a newcomer follows the demo's emails without psql.
// The email's HTML runs in a sandboxed frame with no scripts.
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Code,
  DataList,
  EmptyState,
  Heading,
  HStack,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { useState } from 'react';
import { LuInbox, LuMail } from 'react-icons/lu';
import { EMAIL_STATUS_LABELS, emailPreviewDocument, type EmailStatus } from '#shared/outbox.ts';
import { pageCount } from '#shared/pagination.ts';
import { DetailsDialog } from '#client/components/DetailsDialog.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { Pagination } from '#client/components/Pagination.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { formatWhen } from '#client/lib/dateTime.ts';
import { trpc } from '#client/lib/trpc.ts';
import { useIsMobile } from '#client/lib/useViewportWidth.ts';

/** Queued emails are sent within seconds: the list refreshes while one is waiting. */
const PENDING_POLL_MS = 3_000;

function StatusBadge({ status }: { status: EmailStatus }) {
  const { label, palette, hint } = EMAIL_STATUS_LABELS[status];
  return (
    <Badge colorPalette={palette} variant="subtle" title={hint}>
      {label}
    </Badge>
  );
}

function EmailView({ id }: { id: number }) {
  const email = trpc.outbox.byId.useQuery({ id });
  if (email.isError)
    return (
      <ErrorCard
        title="Email unavailable"
        message={failureMessage(email.error, 'Unable to load the email. Please try again.')}
        onRetry={() => void email.refetch()}
      />
    );
  if (email.isPending) {
    return (
      <Stack gap="3" role="status" aria-label="Loading the email">
        <Skeleton height="5" width="60%" />
        <Skeleton height="5" width="40%" />
        <Skeleton height="64" />
      </Stack>
    );
  }
  const e = email.data;
  return (
    <Stack gap="4">
      <DataList.Root orientation="horizontal" size="sm" gap="1.5">
        <DataList.Item>
          <DataList.ItemLabel>To</DataList.ItemLabel>
          <DataList.ItemValue overflowWrap="anywhere">{e.to}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Status</DataList.ItemLabel>
          <DataList.ItemValue>
            <HStack gap="2" wrap="wrap">
              <StatusBadge status={e.status} />
              <Text textStyle="xs" color="fg.muted">
                {e.error ?? EMAIL_STATUS_LABELS[e.status].hint}
              </Text>
            </HStack>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Queued</DataList.ItemLabel>
          <DataList.ItemValue>{formatWhen(e.createdAt, '—')}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{e.status === 'logged' ? 'Kept' : 'Sent'}</DataList.ItemLabel>
          <DataList.ItemValue>{formatWhen(e.sentAt, 'Not yet')}</DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      {e.html === null || e.text === null ? (
        <Alert.Root status="info" size="sm">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>
              This email goes out through Resend to a real person, so its body and links are not shown here.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : (
        <>
          <Box borderWidth="1px" borderRadius="md" overflow="hidden" bg="white">
            <iframe
              title={`Email: ${e.subject}`}
              // No scripts and an opaque origin; links open in a new tab (emailPreviewDocument).
              sandbox="allow-popups allow-popups-to-escape-sandbox"
              referrerPolicy="no-referrer"
              srcDoc={emailPreviewDocument(e.html)}
              style={{ display: 'block', width: '100%', height: 'min(60vh, 520px)', border: 0 }}
            />
          </Box>
          <Stack gap="1">
            <Heading as="h3" size="sm">
              Plain text
            </Heading>
            <Code
              as="pre"
              tabIndex={0}
              colorPalette="gray"
              display="block"
              whiteSpace="pre-wrap"
              overflowWrap="anywhere"
              p="3"
              textStyle="xs"
              maxH="64"
              overflowY="auto"
              aria-label="Plain text of the email"
            >
              {e.text}
            </Code>
          </Stack>
        </>
      )}
    </Stack>
  );
}

export function OutboxTab() {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<{ id: number; subject: string } | null>(null);
  const mobile = useIsMobile();
  const outbox = trpc.outbox.list.useQuery(
    { page },
    {
      placeholderData: (previous) => previous,
      refetchInterval: (query) =>
        query.state.data?.emails.some((e) => e.status === 'pending') ? PENDING_POLL_MS : false,
    },
  );

  if (outbox.isError)
    return (
      <ErrorCard
        title="Outbox unavailable"
        message={failureMessage(outbox.error, 'Unable to load the outbox. Please try again.')}
        onRetry={() => void outbox.refetch()}
      />
    );

  const data = outbox.data;
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h2" size="md">
          Outbox
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          {!data
            ? 'Loading the emails...'
            : data.transport === 'outbox'
              ? 'No RESEND_API_KEY: emails are not sent. Each one stays here; open it to read it and follow its links.'
              : 'Emails go out through Resend. Their bodies are not shown here.'}
        </Text>
      </Card.Header>
      <Card.Body>
        {!data ? (
          <Stack gap="2" role="status" aria-label="Loading emails">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} height="9" />
            ))}
          </Stack>
        ) : data.total === 0 ? (
          <EmptyState.Root size="sm">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <LuInbox />
              </EmptyState.Indicator>
              <EmptyState.Title>No emails yet</EmptyState.Title>
              <EmptyState.Description>
                Confirmations, alerts, and account emails appear here as soon as they are queued.
              </EmptyState.Description>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Stack gap="4">
            <Table.ScrollArea borderWidth="1px" borderRadius="md">
              <Table.Root
                size="sm"
                aria-label="Recent emails"
                aria-busy={outbox.isFetching && outbox.isPlaceholderData}
              >
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader hideBelow="md">Queued</Table.ColumnHeader>
                    <Table.ColumnHeader hideBelow="md">To</Table.ColumnHeader>
                    <Table.ColumnHeader>Subject</Table.ColumnHeader>
                    <Table.ColumnHeader hideBelow="md">Status</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {data.emails.map((email) => (
                    <Table.Row key={email.id}>
                      <Table.Cell hideBelow="md" whiteSpace="nowrap" textStyle="xs">
                        {formatWhen(email.createdAt, '—')}
                      </Table.Cell>
                      <Table.Cell hideBelow="md" overflowWrap="anywhere">
                        {email.to}
                      </Table.Cell>
                      <Table.Cell minW={{ base: '0', md: '48' }}>
                        <Button
                          variant="plain"
                          colorPalette="brand"
                          size="sm"
                          px="0"
                          height="auto"
                          textAlign="start"
                          whiteSpace="normal"
                          onClick={() => setOpen({ id: email.id, subject: email.subject })}
                        >
                          <LuMail aria-hidden />
                          {email.subject}
                        </Button>
                        {/* Phones show the recipient, the time and the status here instead of in columns of their own. */}
                        <Box
                          display={{ base: 'block', md: 'none' }}
                          textStyle="xs"
                          color="fg.muted"
                          overflowWrap="anywhere"
                        >
                          <Text>{email.to}</Text>
                          <HStack gap="2" mt="1">
                            <Text>{formatWhen(email.createdAt, '—')}</Text>
                            <StatusBadge status={email.status} />
                          </HStack>
                        </Box>
                      </Table.Cell>
                      <Table.Cell hideBelow="md">
                        <StatusBadge status={email.status} />
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
            <Pagination
              page={data.page}
              pageCount={pageCount(data.total, data.pageSize)}
              pageSize={data.pageSize}
              total={data.total}
              onPageChange={setPage}
              mobile={mobile}
              label="Outbox pages"
            />
          </Stack>
        )}
      </Card.Body>
      <DetailsDialog
        open={open !== null}
        onClose={() => setOpen(null)}
        size="xl"
        title={open?.subject}
        wrapTitle
        closeLabel="Close the email"
      >
        {open && <EmailView id={open.id} />}
      </DetailsDialog>
    </Card.Root>
  );
}
