// A retailer's egress in the admin area (Data Scrapers and Coverage tabs): how its requests leave
// (tiers of proxies by host and port, transport, pace, daily budget), the tier in use, its last 24
// hours by tier, and Test connection: one locator call and one product-list call for a ZIP code
// through that egress, run by the worker, each request shown with its tier, proxy, transport,
// status, wall and time. Polled every 2 s while a test runs. Words come from egressView.ts.
import {
  Badge,
  Box,
  Button,
  Card,
  Field,
  Flex,
  Heading,
  HStack,
  Input,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { LuPlugZap } from 'react-icons/lu';
import { egressTestInput, testSummary } from '#shared/egress.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { ACTIVE_POLL_MS, STATUS_POLL_MS } from '#client/components/scrapers/useScrapers.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { formatWhen } from '#client/lib/dateTime.ts';
import { trpc } from '#client/lib/trpc.ts';
import {
  attemptOutcome,
  budgetText,
  paceText,
  STEP_LABELS,
  testActive,
  tierInUseText,
  tierText,
  type EgressTestView,
  type RetailerEgressView,
} from './egressView.ts';

const n = (value: number) => value.toLocaleString('en-US');

function useEgress() {
  return trpc.egress.overview.useQuery(undefined, {
    refetchInterval: (query) => (query.state.data?.some((r) => testActive(r)) ? ACTIVE_POLL_MS : STATUS_POLL_MS),
    refetchIntervalInBackground: false,
  });
}

export function EgressCard({ store, picker }: { store: StoreId; picker?: ReactNode }) {
  const egress = useEgress();
  const view = egress.data?.find((r) => r.store === store);
  return (
    <Card.Root variant="outline" as="section" aria-label={`${SCRAPER_NAMES[store]} egress`}>
      <Card.Header>
        <HStack justify="space-between" wrap="wrap" gap="3" align="flex-start">
          <Box>
            <Heading as="h3" size="md">
              Egress and Test connection
            </Heading>
            <Text textStyle="sm" color="fg.muted">
              How {SCRAPER_NAMES[store]}'s requests leave this server, set in the environment (.env): proxies are shown
              by host and port only.
            </Text>
          </Box>
          {picker}
        </HStack>
      </Card.Header>
      <Card.Body>
        {egress.isError ? (
          <ErrorCard
            title="Egress unavailable"
            message={failureMessage(egress.error, 'Unable to load the egress settings.')}
            onRetry={() => void egress.refetch()}
          />
        ) : !view ? (
          <Stack gap="3" role="status" aria-label="Loading egress">
            <Skeleton height="16" />
            <Skeleton height="24" />
          </Stack>
        ) : (
          <EgressView view={view} />
        )}
      </Card.Body>
    </Card.Root>
  );
}

function EgressView({ view }: { view: RetailerEgressView }) {
  return (
    <Stack gap="5">
      <Box
        as="dl"
        display="grid"
        gridTemplateColumns={{ base: '1fr', sm: 'max-content 1fr' }}
        columnGap="4"
        rowGap="1.5"
      >
        <Text as="dt" textStyle="sm" color="fg.muted">
          Transport
        </Text>
        <Text as="dd" textStyle="sm">
          <Badge colorPalette="gray" variant="subtle">
            {view.transport}
          </Badge>
        </Text>
        <Text as="dt" textStyle="sm" color="fg.muted">
          Pace
        </Text>
        <Text as="dd" textStyle="sm">
          {paceText(view)}
        </Text>
        <Text as="dt" textStyle="sm" color="fg.muted">
          Requests
        </Text>
        <Text as="dd" textStyle="sm">
          {budgetText(view)}
        </Text>
        <Text as="dt" textStyle="sm" color="fg.muted">
          Tiers
        </Text>
        <Box as="dd" textStyle="sm">
          <Stack as="ol" gap="0.5" ps="4" listStyleType="decimal">
            {view.tiers.map((tier) => (
              <Text as="li" key={tier.name} overflowWrap="anywhere">
                {tierText(tier)}
              </Text>
            ))}
          </Stack>
        </Box>
      </Box>
      <Text textStyle="sm" aria-live="polite">
        {tierInUseText(view, (iso) => formatWhen(iso, '—'))}
      </Text>
      <LastDay view={view} />
      <TestConnection view={view} />
    </Stack>
  );
}

function LastDay({ view }: { view: RetailerEgressView }) {
  const total = view.lastDay.reduce((sum, row) => sum + row.requests, 0);
  return (
    <Box as="section" aria-label="Last 24 hours by tier">
      <Heading as="h4" size="sm" mb="1.5">
        Last 24 hours by tier
      </Heading>
      {total === 0 ? (
        <Text textStyle="sm" color="fg.muted">
          No request in the last 24 hours.
        </Text>
      ) : (
        <Box overflowX="auto" tabIndex={0}>
          <Table.Root size="sm" aria-label={`${view.name} requests in the last 24 hours by tier`}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Tier</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Requests</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Walls</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Failures</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {view.lastDay.map((row) => (
                <Table.Row key={row.tier}>
                  <Table.Cell>
                    {row.tier}
                    {!row.configured && (
                      <Text as="span" color="fg.muted">
                        {' '}
                        (no longer configured)
                      </Text>
                    )}
                  </Table.Cell>
                  <Table.Cell textAlign="end">{n(row.requests)}</Table.Cell>
                  <Table.Cell textAlign="end" fontWeight={row.walls ? 'semibold' : undefined}>
                    {n(row.walls)}
                  </Table.Cell>
                  <Table.Cell textAlign="end" fontWeight={row.failures ? 'semibold' : undefined}>
                    {n(row.failures)}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
    </Box>
  );
}

const TEST_STATUS: Record<EgressTestView['status'], { label: string; palette: string }> = {
  queued: { label: 'Queued', palette: 'gray' },
  running: { label: 'Running', palette: 'blue' },
  succeeded: { label: 'Connected', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
};

function TestConnection({ view }: { view: RetailerEgressView }) {
  const [zip, setZip] = useState(view.latestTest?.zipCode ?? '10001');
  const [touched, setTouched] = useState(false);
  const utils = trpc.useUtils();
  const start = trpc.egress.test.useMutation({
    onSuccess: () => void utils.egress.overview.invalidate(),
    onError: (error) =>
      toaster.create({
        type: 'error',
        title: 'Test not started',
        description: failureMessage(error, `Failed to start the ${view.name} connection test.`),
        duration: 6000,
      }),
  });
  const check = egressTestInput.shape.zipCode.safeParse(zip);
  const valid = check.success;
  const busy = testActive(view);
  const test = view.latestTest;
  return (
    <Box as="section" aria-label="Test connection">
      <Heading as="h4" size="sm" mb="1.5">
        Test connection
      </Heading>
      <Flex
        as="form"
        gap="2"
        align={{ base: 'stretch', sm: 'flex-end' }}
        direction={{ base: 'column', sm: 'row' }}
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (valid) start.mutate({ store: view.store, zipCode: zip.trim() });
        }}
      >
        <Field.Root invalid={touched && !valid} width={{ base: 'full', sm: '40' }}>
          <Field.Label>ZIP code</Field.Label>
          <Input
            value={zip}
            inputMode="numeric"
            maxLength={5}
            onChange={(event) => setZip(event.target.value)}
            onBlur={() => setTouched(true)}
          />
          <Field.ErrorText>{check.error?.issues[0]?.message}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" colorPalette="brand" loading={start.isPending || busy} loadingText="Testing...">
          <LuPlugZap aria-hidden />
          Test connection
        </Button>
      </Flex>
      <Text textStyle="xs" color="fg.muted" mt="1.5">
        One store-locator call and one product-list call through the configured egress; they count like any other
        request.
      </Text>
      {test ? (
        <TestResult test={test} />
      ) : (
        <Text textStyle="sm" color="fg.muted" mt="3">
          No connection test yet.
        </Text>
      )}
    </Box>
  );
}

function TestResult({ test }: { test: EgressTestView }) {
  const status = TEST_STATUS[test.status];
  const result = test.result;
  return (
    <Stack gap="2" mt="3" textStyle="sm" aria-live="polite">
      <HStack gap="2" wrap="wrap">
        <Badge colorPalette={status.palette} variant="subtle">
          {status.label}
        </Badge>
        <Text color="fg.muted">
          {test.zipCode} · {formatWhen(test.finishedAt ?? test.createdAt, '—')}
        </Text>
      </HStack>
      {test.message && <Text overflowWrap="anywhere">{test.message}</Text>}
      {result && (
        <>
          <Text>{testSummary(result)}</Text>
          {result.store && (
            <Text color="fg.muted">
              Store {result.store.id ?? '—'}
              {result.store.name ? `, ${result.store.name}` : ''}
              {result.store.zip ? ` (${result.store.zip})` : ''}
            </Text>
          )}
          <Box overflowX="auto" tabIndex={0}>
            <Table.Root size="sm" aria-label="Requests of the connection test">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Call</Table.ColumnHeader>
                  <Table.ColumnHeader>Tier</Table.ColumnHeader>
                  <Table.ColumnHeader>Proxy</Table.ColumnHeader>
                  <Table.ColumnHeader>Transport</Table.ColumnHeader>
                  <Table.ColumnHeader>Answer</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Time</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {result.attempts.map((attempt, i) => (
                  <Table.Row key={i}>
                    <Table.Cell>
                      {STEP_LABELS[attempt.step]}
                      <Text as="span" display="block" color="fg.muted" textStyle="xs">
                        {attempt.host}
                        {attempt.path}
                      </Text>
                    </Table.Cell>
                    <Table.Cell>{attempt.tier}</Table.Cell>
                    <Table.Cell>{attempt.proxy ?? 'none'}</Table.Cell>
                    <Table.Cell>{attempt.transport}</Table.Cell>
                    <Table.Cell fontWeight={attempt.wall || attempt.error ? 'semibold' : undefined}>
                      {attemptOutcome(attempt)}
                    </Table.Cell>
                    <Table.Cell textAlign="end">{n(attempt.ms)} ms</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        </>
      )}
    </Stack>
  );
}
