// The admin dashboard's Data Scrapers tab (SPEC §2): a shared ZIP code list, one card per store
// with its Run button, status box, live progress and freshness, and the last 10 runs of a store.
import { Badge, Box, Card, EmptyState, Field, Heading, HStack, Input, NativeSelect, SimpleGrid, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuHistory } from 'react-icons/lu';
import { DEFAULT_SCRAPE_ZIPS, SCRAPER_NAMES, type RunStatus, type ScrapeRun } from '#shared/scrape.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import { parseZipList } from '#shared/zip.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { ScraperCard } from '#client/components/scrapers/ScraperCard.tsx';
import { Freshness } from '#client/components/scrapers/ScraperStatusBox.tsx';
import { ACTIVE_POLL_MS, formatDuration, STATUS_POLL_MS, useAllScraperStatus } from '#client/components/scrapers/useScrapers.ts';
import { formatWhen } from '#client/lib/dateTime.ts';
import { trpc } from '#client/lib/trpc.ts';

const STATUS_LABELS: Record<RunStatus, { label: string; palette: string }> = {
  queued: { label: 'Queued', palette: 'gray' },
  running: { label: 'Running', palette: 'blue' },
  succeeded: { label: 'Succeeded', palette: 'green' },
  partial: { label: 'Partly failed', palette: 'orange' },
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
  const rejected = Object.values(run.rejected).reduce((a, b) => a + b, 0);
  const skipped = Object.values(run.skipped).reduce((a, b) => a + b, 0);
  return `${skipped} skipped (not shell eggs), ${rejected} rejected`;
}

function RunHistory({ store, active }: { store: StoreId; active: boolean }) {
  const runs = trpc.scrape.runs.useQuery({ store, limit: 10 }, { refetchInterval: active ? ACTIVE_POLL_MS : STATUS_POLL_MS });
  if (runs.isError) return <ErrorCard title="Run history unavailable" message={failureMessage(runs.error, 'Unable to load the runs. Please try again.')} onRetry={() => void runs.refetch()} />;
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
  return (
    <Table.ScrollArea borderWidth="1px" borderRadius="md">
      <Table.Root size="sm" aria-label={`Recent ${SCRAPER_NAMES[store]} runs`}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Started</Table.ColumnHeader>
            <Table.ColumnHeader>Duration</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">ZIPs</Table.ColumnHeader>
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
                {formatWhen(run.startedAt ?? run.createdAt, '—')}
                {run.trigger === 'schedule' && (
                  <Text as="span" textStyle="xs" color="fg.muted">
                    {' '}
                    (daily)
                  </Text>
                )}
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDuration(run.durationMs)}</Table.Cell>
              <Table.Cell textAlign="end">
                {run.progress}/{run.total}
              </Table.Cell>
              <Table.Cell textAlign="end">{run.listingsSeen}</Table.Cell>
              <Table.Cell textAlign="end">{run.observationsWritten}</Table.Cell>
              <Table.Cell>
                <HStack gap="1">
                  <RunStatusBadge status={run.status} />
                  {run.demo && (
                    <Badge colorPalette="gray" variant="outline" title="Read from the retailer stand-in, shown as sample data">
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
  );
}

export function ScrapersTab() {
  const [zips, setZips] = useState(DEFAULT_SCRAPE_ZIPS.join(', '));
  const [historyStore, setHistoryStore] = useState<StoreId>('walmart');
  const statuses = useAllScraperStatus();
  const zipCodes = parseZipList(zips);

  return (
    <Stack gap="6">
      <Field.Root maxW="2xl">
        <Field.Label>ZIP codes for every scraper</Field.Label>
        <Input value={zips} onChange={(event) => setZips(event.target.value)} placeholder={DEFAULT_SCRAPE_ZIPS.slice(0, 3).join(', ')} inputMode="numeric" autoComplete="off" />
        <Field.HelperText>Comma-separated, up to 25. Each scraper finds its store nearest each ZIP code.</Field.HelperText>
      </Field.Root>
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
        {STORE_IDS.map((store) => (
          <ScraperCard
            key={store}
            store={store}
            zipCodes={zipCodes}
            activeStyle="active-idle"
            status={statuses.data?.[store]}
            statusFailed={statuses.isError}
            onRetryStatus={() => void statuses.refetch()}
            footer={statuses.data ? <Freshness status={statuses.data[store]} /> : null}
          />
        ))}
      </SimpleGrid>
      <Card.Root variant="outline">
        <Card.Header>
          <HStack justify="space-between" wrap="wrap" gap="3">
            <Box>
              <Heading as="h3" size="md">
                Recent runs
              </Heading>
              <Text textStyle="sm" color="fg.muted">
                The last 10 runs of a store, newest first.
              </Text>
            </Box>
            <NativeSelect.Root size="sm" width="auto">
              <NativeSelect.Field aria-label="Store" value={historyStore} onChange={(event) => setHistoryStore(event.target.value as StoreId)}>
                {STORE_IDS.map((store) => (
                  <option key={store} value={store}>
                    {SCRAPER_NAMES[store]}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </HStack>
        </Card.Header>
        <Card.Body>
          <RunHistory store={historyStore} active={statuses.data?.[historyStore].active ?? false} />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
