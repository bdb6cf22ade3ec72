// The Data Scrapers tab's Recent runs: a store's last 10 runs (when, how long, how many of its ZIP
// codes succeeded, listings, prices, status, message), and one run's details: each ZIP code with
// its store location, outcome, counts, requests, retries and rate-limit waits.
import { Badge, Box, Button, EmptyState, Flex, HStack, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuHistory, LuListTree } from 'react-icons/lu';
import {
  reasonCountsText,
  runZipSummary,
  SCRAPER_NAMES,
  zipRetriesText,
  type RunStatus,
  type ScrapeRun,
  type ZipResult,
} from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { DetailsDialog } from '#client/components/DetailsDialog.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { ACTIVE_POLL_MS, formatDuration, STATUS_POLL_MS } from '#client/components/scrapers/useScrapers.ts';
import { formatWhen } from '#client/lib/dateTime.ts';
import { trpc } from '#client/lib/trpc.ts';
import { plural } from '#shared/format.ts';

const STATUS_LABELS: Record<RunStatus, { label: string; palette: string }> = {
  queued: { label: 'Queued', palette: 'gray' },
  running: { label: 'Running', palette: 'blue' },
  succeeded: { label: 'Succeeded', palette: 'green' },
  partial: { label: 'Partly failed', palette: 'orange' },
  failed: { label: 'Failed', palette: 'red' },
};

const ZIP_STATUS: Record<ZipResult['status'], { label: string; palette: string }> = {
  succeeded: { label: 'Succeeded', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
};

function RunStatusBadge({ status }: { status: RunStatus }) {
  const { label, palette } = STATUS_LABELS[status];
  return (
    <Badge colorPalette={palette} variant="subtle">
      {label}
    </Badge>
  );
}

function runMessage(run: ScrapeRun): string {
  if (run.message) return run.message;
  const failed = run.zips.filter((z) => z.status === 'failed');
  if (failed.length > 0) return failed.map((z) => `${z.zip}: ${z.message ?? 'failed'}`).join('; ');
  return reasonCountsText(run);
}

function ZipOutcome({ zip, result, runActive }: { zip: string; result: ZipResult | undefined; runActive: boolean }) {
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" borderRadius="md" p="3" aria-label={`ZIP code ${zip}`}>
      <Flex gap="2" align="center" wrap="wrap">
        <Text fontWeight="semibold">{zip}</Text>
        {result ? (
          <Badge colorPalette={ZIP_STATUS[result.status].palette} variant="subtle">
            {ZIP_STATUS[result.status].label}
          </Badge>
        ) : (
          <Badge colorPalette="gray" variant="outline">
            {runActive ? 'Waiting' : 'Not scraped'}
          </Badge>
        )}
        {result?.locationName && (
          <Text textStyle="sm" color="fg.muted" overflowWrap="anywhere">
            {result.locationName}
          </Text>
        )}
      </Flex>
      {result && (
        <Stack gap="0.5" mt="1.5" textStyle="sm">
          {result.message && (
            <Text color={result.status === 'failed' ? 'fg.error' : 'fg.muted'} overflowWrap="anywhere">
              {result.message}
            </Text>
          )}
          <Text>
            {plural(result.listingsSeen, 'listing')} seen · {plural(result.accepted, 'egg price')} ·{' '}
            {plural(result.observations, 'price')} written
          </Text>
          {result.status === 'succeeded' && <Text color="fg.muted">{reasonCountsText(result)}</Text>}
          <Text color="fg.muted">
            {plural(result.requests, 'request')}: {zipRetriesText(result)} · finished{' '}
            {formatWhen(result.finishedAt, '—')}
          </Text>
        </Stack>
      )}
    </Box>
  );
}

function RunDetails({ run }: { run: ScrapeRun }) {
  const results = new Map(run.zips.map((z) => [z.zip, z]));
  const active = run.status === 'queued' || run.status === 'running';
  return (
    <Stack gap="4">
      <Stack gap="1" textStyle="sm">
        <HStack gap="2" wrap="wrap">
          <RunStatusBadge status={run.status} />
          <Text fontWeight="medium">{runZipSummary(run)}</Text>
        </HStack>
        <Text color="fg.muted">
          Started {formatWhen(run.startedAt ?? run.createdAt, '—')}
          {run.finishedAt ? `, finished ${formatWhen(run.finishedAt, '—')}` : ''} · {formatDuration(run.durationMs)}
          {run.trigger === 'schedule' ? ' · daily schedule' : ''}
        </Text>
        {run.message && <Text overflowWrap="anywhere">{run.message}</Text>}
      </Stack>
      <Stack as="ul" gap="2" aria-label="ZIP codes of the run">
        {run.zipCodes.map((zip) => (
          <ZipOutcome key={zip} zip={zip} result={results.get(zip)} runActive={active} />
        ))}
      </Stack>
    </Stack>
  );
}

export function RunHistory({ store, active }: { store: StoreId; active: boolean }) {
  const runs = trpc.scrape.runs.useQuery(
    { store, limit: 10 },
    { refetchInterval: active ? ACTIVE_POLL_MS : STATUS_POLL_MS },
  );
  const [openId, setOpenId] = useState<number | null>(null);
  if (runs.isError)
    return (
      <ErrorCard
        title="Run history unavailable"
        message={failureMessage(runs.error, 'Unable to load the runs. Please try again.')}
        onRetry={() => void runs.refetch()}
      />
    );
  if (runs.isPending) {
    return (
      <Stack gap="2" role="status" aria-label="Loading runs">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} height="8" />
        ))}
      </Stack>
    );
  }
  if (runs.data.length === 0) {
    return (
      <EmptyState.Root size="sm">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuHistory />
          </EmptyState.Indicator>
          <EmptyState.Title>No {SCRAPER_NAMES[store]} runs yet</EmptyState.Title>
          <EmptyState.Description>Runs appear here once the scraper has been started.</EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  // The open run follows the polls, so its details fill in while it runs.
  const open = runs.data.find((run) => run.id === openId) ?? null;
  return (
    <>
      <Table.ScrollArea borderWidth="1px" borderRadius="md">
        <Table.Root size="sm" aria-label={`Recent ${SCRAPER_NAMES[store]} runs`}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Started</Table.ColumnHeader>
              <Table.ColumnHeader>Duration</Table.ColumnHeader>
              <Table.ColumnHeader>ZIP codes</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Listings</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Prices</Table.ColumnHeader>
              <Table.ColumnHeader>Status</Table.ColumnHeader>
              <Table.ColumnHeader minW="64">Message</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {runs.data.map((run) => (
              <Table.Row key={run.id}>
                <Table.Cell whiteSpace="nowrap">
                  <Button
                    variant="plain"
                    colorPalette="brand"
                    size="sm"
                    px="0"
                    height="auto"
                    onClick={() => setOpenId(run.id)}
                    aria-label={`Details of the run of ${formatWhen(run.startedAt ?? run.createdAt, '—')}`}
                  >
                    <LuListTree aria-hidden />
                    {formatWhen(run.startedAt ?? run.createdAt, '—')}
                  </Button>
                  {run.trigger === 'schedule' && (
                    <Text as="span" textStyle="xs" color="fg.muted">
                      {' '}
                      (daily)
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatDuration(run.durationMs)}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{runZipSummary(run)}</Table.Cell>
                <Table.Cell textAlign="end">{run.listingsSeen}</Table.Cell>
                <Table.Cell textAlign="end">{run.observationsWritten}</Table.Cell>
                <Table.Cell>
                  <HStack gap="1">
                    <RunStatusBadge status={run.status} />
                    {run.demo && (
                      <Badge
                        colorPalette="gray"
                        variant="outline"
                        title="Read from the retailer stand-in, shown as sample data"
                      >
                        Demo
                      </Badge>
                    )}
                  </HStack>
                </Table.Cell>
                <Table.Cell textStyle="xs" overflowWrap="anywhere">
                  {runMessage(run)}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <DetailsDialog
        open={open !== null}
        onClose={() => setOpenId(null)}
        size="lg"
        title={open ? `${SCRAPER_NAMES[open.store]} run details` : 'Run details'}
        closeLabel="Close the run details"
      >
        {open && <RunDetails run={open} />}
      </DetailsDialog>
    </>
  );
}
