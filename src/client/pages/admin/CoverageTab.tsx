// The admin dashboard's Coverage tab: one retailer at a time (the one last chosen is remembered),
// its store directory in figures, the running or latest discovery and visit day with live counts
// (polled every 2 s while one runs), the plan form (CoveragePlanCard.tsx), the next planned chunk,
// a US map of the share of stores visited in 24 hours with a table alternative, and the failing
// stores with their reasons. Words and numbers come from coverageView.ts.
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  EmptyState,
  Field,
  Flex,
  Heading,
  HStack,
  NativeSelect,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { lazy, useState } from 'react';
import { LuCalendarClock, LuMap, LuPlay, LuTable } from 'react-icons/lu';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { failureMessage } from '#client/components/auth/errors.ts';
import { ChartSlot, CHART_LOAD_ERROR } from '#client/components/charts/lazyCharts.tsx';
import { toaster } from '#client/components/Toaster.tsx';
import { formatWhen } from '#client/lib/dateTime.ts';
import { useStoredChoice } from '#client/lib/storedChoice.ts';
import { trpc } from '#client/lib/trpc.ts';
import { ACTIVE_POLL_MS, STATUS_POLL_MS } from '#client/components/scrapers/useScrapers.ts';
import {
  anyRunActive,
  failureKindText,
  inScopeLabel,
  mapLabel,
  nextChunkText,
  nothingDueText,
  progressValueText,
  reasonText,
  runProgressText,
  runProgressValue,
  SHARE_COLORS,
  SHARE_LEGEND,
  stateRows,
  statusWord,
  visitNowBlocker,
  type CoverageRun,
  type RetailerCoverage,
} from './coverageView.ts';
import { PlanCard, useCoverageMutationDone } from './CoveragePlanCard.tsx';
import { EgressCard } from './EgressCard.tsx';

/** The retailer the Coverage tab shows is remembered in this browser. */
export const COVERAGE_STORE_KEY = 'eggwatch.admin.coverageStore';

const CoverageMap = lazy(() =>
  import('./CoverageMap.tsx').catch(() => {
    throw new Error(CHART_LOAD_ERROR);
  }),
);

const n = (value: number) => value.toLocaleString('en-US');

function useCoverage() {
  return trpc.coverage.overview.useQuery(undefined, {
    refetchInterval: (query) => (anyRunActive(query.state.data) ? ACTIVE_POLL_MS : STATUS_POLL_MS),
    refetchIntervalInBackground: false,
  });
}

export function CoverageTab() {
  const [store, setStore] = useStoredChoice<StoreId>(COVERAGE_STORE_KEY, STORE_IDS, 'walmart');
  const coverage = useCoverage();
  const retailer = coverage.data?.find((r) => r.store === store);
  return (
    <Stack gap="6">
      <Flex
        gap="3"
        justify="space-between"
        align={{ base: 'stretch', sm: 'flex-end' }}
        direction={{ base: 'column', sm: 'row' }}
      >
        <Box>
          <Heading as="h2" size="lg">
            Store coverage
          </Heading>
          <Text textStyle="sm" color="fg.muted" maxW="2xl">
            Each retailer's known stores, how many were visited, and the plan that visits them. Each retailer's requests
            go one at a time, whatever the number of workers.
          </Text>
        </Box>
        <Field.Root width={{ base: 'full', sm: 'auto' }}>
          <Field.Label>Retailer</Field.Label>
          <NativeSelect.Root size="sm" width={{ base: 'full', sm: '48' }}>
            <NativeSelect.Field value={store} onChange={(event) => setStore(event.target.value as StoreId)}>
              {STORE_IDS.map((id) => (
                <option key={id} value={id}>
                  {SCRAPER_NAMES[id]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </Flex>
      {coverage.isError ? (
        <ErrorCard
          title="Coverage unavailable"
          message={failureMessage(coverage.error, 'Unable to load the coverage figures.')}
          onRetry={() => void coverage.refetch()}
        />
      ) : !retailer ? (
        <Stack gap="4" role="status" aria-label="Loading coverage">
          <Skeleton height="24" />
          <Skeleton height="48" />
          <Skeleton height="64" />
        </Stack>
      ) : (
        <RetailerView key={retailer.store} retailer={retailer} />
      )}
    </Stack>
  );
}

function RetailerView({ retailer }: { retailer: RetailerCoverage }) {
  return (
    <Stack gap="5">
      {!retailer.active && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>
            {retailer.name} is inactive: activate it in the Stores tab before discovering or visiting its stores.
          </Alert.Title>
        </Alert.Root>
      )}
      <Figures retailer={retailer} />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5" alignItems="start">
        <Stack gap="5">
          <Activity retailer={retailer} />
          <PlanCard retailer={retailer} />
        </Stack>
        <Stack gap="5">
          <MapCard retailer={retailer} />
          <FailingCard retailer={retailer} />
          <EgressCard store={retailer.store} />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

function Figures({ retailer }: { retailer: RetailerCoverage }) {
  const items: Array<{ label: string; value: string; tone?: string }> = [
    { label: 'Stores known', value: n(retailer.known) },
    { label: inScopeLabel(retailer), value: n(retailer.inScope) },
    { label: 'Visited in 24 hours', value: n(retailer.visitedDay) },
    { label: 'Visited in 7 days', value: n(retailer.visitedWeek) },
    { label: 'Never visited', value: n(retailer.neverVisited) },
    { label: 'Failing', value: n(retailer.failing), ...(retailer.failing ? { tone: 'fg.error' } : {}) },
    { label: 'Blocked', value: n(retailer.blocked), ...(retailer.blocked ? { tone: 'fg.error' } : {}) },
  ];
  return (
    <SimpleGrid
      as="dl"
      columns={{ base: 2, sm: 4, xl: 7 }}
      gap={{ base: '2', md: '3' }}
      aria-label={`${retailer.name} coverage figures`}
    >
      {items.map((item) => (
        <Box key={item.label} borderWidth="1px" borderRadius="md" px="3" py="2.5" bg="bg.panel">
          <Text as="dt" textStyle="xs" color="fg.muted">
            {item.label}
          </Text>
          <Box as="dd" textStyle={{ base: 'lg', md: 'xl' }} fontWeight="semibold" color={item.tone ?? 'fg'}>
            {item.value}
          </Box>
        </Box>
      ))}
    </SimpleGrid>
  );
}

const RUN_PALETTE: Record<CoverageRun['status'], string> = {
  queued: 'gray',
  running: 'blue',
  succeeded: 'green',
  partial: 'orange',
  failed: 'red',
  paused: 'orange',
};

function RunLine({ title, run, empty }: { title: string; run: CoverageRun | null; empty: string }) {
  const progress = run ? runProgressValue(run) : null;
  return (
    <Box as="section" aria-label={title}>
      <HStack gap="2" wrap="wrap">
        <Heading as="h4" size="sm">
          {title}
        </Heading>
        {run && (
          <Badge colorPalette={RUN_PALETTE[run.status]} variant="subtle">
            {statusWord(run.status)}
          </Badge>
        )}
        {run?.demo && (
          <Badge colorPalette="gray" variant="outline">
            Stand-in
          </Badge>
        )}
      </HStack>
      {run ? (
        <Stack gap="1.5" mt="1.5" textStyle="sm">
          <Text aria-live="polite">{runProgressText(run)}</Text>
          {run.active && (
            <Progress.Root
              value={progress ? progress.value : null}
              max={progress ? progress.max : 100}
              size="sm"
              colorPalette="brand"
            >
              <Progress.Track
                aria-label={`${title} progress`}
                aria-valuetext={progress ? progressValueText(progress) : statusWord(run.status)}
              >
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
          )}
          <Text color="fg.muted">
            {run.scopeText} · started {formatWhen(run.startedAt ?? run.createdAt, '—')}
            {run.finishedAt ? ` · finished ${formatWhen(run.finishedAt, '—')}` : ''}
          </Text>
        </Stack>
      ) : (
        <Text textStyle="sm" color="fg.muted" mt="1">
          {empty}
        </Text>
      )}
    </Box>
  );
}

function Activity({ retailer }: { retailer: RetailerCoverage }) {
  const done = useCoverageMutationDone();
  const blocker = visitNowBlocker(retailer);
  const blockerId = `coverage-${retailer.store}-visit-blocker`;
  const visit = trpc.coverage.visit.useMutation({
    onSuccess: (data) => {
      toaster.create({ type: 'success', title: 'Visit day started', description: data.message, duration: 5000 });
      done();
    },
    onError: (error) =>
      toaster.create({
        type: 'error',
        title: 'Visit day not started',
        description: failureMessage(error, `Failed to start the ${retailer.name} visit day.`),
        duration: 6000,
      }),
  });
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h3" size="md">
          Discovery and visits
        </Heading>
      </Card.Header>
      <Card.Body gap="4">
        <RunLine
          title="Discovery"
          run={retailer.discovery}
          empty="No discovery yet: choose a scope below and discover its stores."
        />
        <Stack gap="1.5">
          <RunLine title="Visit day" run={retailer.visit} empty="No visit day yet." />
          {retailer.nothingDue && (
            <Text textStyle="sm">{nothingDueText(retailer.nothingDue, new Date().toISOString().slice(0, 10))}</Text>
          )}
        </Stack>
        <Box as="section" aria-label="Next planned chunk">
          <Heading as="h4" size="sm">
            Next planned chunk
          </Heading>
          <Text textStyle="sm" mt="1">
            {nextChunkText(retailer, (iso) => formatWhen(iso, '—'))}
          </Text>
        </Box>
        <Stack gap="1" align="flex-start">
          <Button
            colorPalette="brand"
            loading={visit.isPending}
            loadingText="Starting..."
            disabled={blocker !== null}
            aria-describedby={blocker ? blockerId : undefined}
            onClick={() => visit.mutate({ store: retailer.store })}
          >
            <LuPlay aria-hidden />
            Visit now
          </Button>
          {blocker && (
            <Text id={blockerId} textStyle="sm" color="fg.muted">
              {blocker}
            </Text>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function MapCard({ retailer }: { retailer: RetailerCoverage }) {
  const [view, setView] = useState<'map' | 'table'>('map');
  const rows = stateRows(retailer.states);
  const label = mapLabel(retailer.name, rows);
  return (
    <Card.Root variant="outline" as="section" aria-label="Stores visited by state">
      <Card.Header>
        <Flex justify="space-between" gap="3" wrap="wrap" align="center">
          <Box>
            <Heading as="h3" size="md">
              Visited in 24 hours by state
            </Heading>
            <Text textStyle="sm" color="fg.muted">
              Share of each state's known {retailer.name} stores visited in the last 24 hours.
            </Text>
          </Box>
          <HStack gap="1" role="group" aria-label="Show as">
            <Button
              size="xs"
              variant={view === 'map' ? 'solid' : 'outline'}
              colorPalette="gray"
              aria-pressed={view === 'map'}
              onClick={() => setView('map')}
            >
              <LuMap aria-hidden />
              Map
            </Button>
            <Button
              size="xs"
              variant={view === 'table' ? 'solid' : 'outline'}
              colorPalette="gray"
              aria-pressed={view === 'table'}
              onClick={() => setView('table')}
            >
              <LuTable aria-hidden />
              Table
            </Button>
          </HStack>
        </Flex>
      </Card.Header>
      <Card.Body gap="3">
        {rows.length === 0 ? (
          <EmptyState.Root size="sm">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <LuMap />
              </EmptyState.Indicator>
              <EmptyState.Title>No known stores yet</EmptyState.Title>
              <EmptyState.Description>Discover {retailer.name}'s stores to see them by state.</EmptyState.Description>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : view === 'map' ? (
          <>
            <ChartSlot height={{ base: '52', md: '72' }} resetKeys={[retailer.store]}>
              <CoverageMap rows={rows} label={label} />
            </ChartSlot>
            <HStack as="ul" gap="3" wrap="wrap" textStyle="xs" aria-label="Map legend">
              {SHARE_LEGEND.map((text, i) => (
                <HStack as="li" key={text} gap="1.5" listStyleType="none">
                  <Box
                    width="3"
                    height="3"
                    borderRadius="sm"
                    bg={SHARE_COLORS[i]}
                    borderWidth="1px"
                    borderColor="border"
                    aria-hidden
                  />
                  {text}
                </HStack>
              ))}
              <HStack as="li" gap="1.5" listStyleType="none">
                <Box
                  width="3"
                  height="3"
                  borderRadius="sm"
                  bg="#cbd5e1"
                  borderWidth="1px"
                  borderColor="border"
                  aria-hidden
                />
                No known stores
              </HStack>
            </HStack>
          </>
        ) : (
          <Box maxH="96" overflowY="auto">
            <Table.Root
              size="sm"
              stickyHeader
              aria-label={`${retailer.name} stores visited in the last 24 hours by state`}
            >
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>State</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Known</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Visited</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Share</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((row) => (
                  <Table.Row key={row.state}>
                    <Table.Cell>{row.name}</Table.Cell>
                    <Table.Cell textAlign="end">{n(row.known)}</Table.Cell>
                    <Table.Cell textAlign="end">{n(row.visitedDay)}</Table.Cell>
                    <Table.Cell textAlign="end">{row.shareText}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/** A block is the retailer refusing us (red); other failures are ours or the page's (orange). */
const failurePalette = (kind: string | null) => (kind === 'blocked' ? 'red' : 'orange');

function FailingCard({ retailer }: { retailer: RetailerCoverage }) {
  const total = retailer.failing + retailer.blocked;
  return (
    <Card.Root variant="outline" as="section" aria-label="Failing stores">
      <Card.Header>
        <Heading as="h3" size="md">
          Failing stores
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          {total === 0
            ? 'No store failed its last visit.'
            : `${n(total)} store${total === 1 ? '' : 's'} failed ${total === 1 ? 'its' : 'their'} last visit${retailer.failingStores.length < total ? `; the ${retailer.failingStores.length} most recent are listed` : ''}.`}
        </Text>
      </Card.Header>
      {total > 0 && (
        <Card.Body gap="4">
          <Box as="section" aria-label="Reasons">
            <Heading as="h4" size="sm" mb="1">
              Reasons
            </Heading>
            <Stack as="ul" gap="1" textStyle="sm">
              {retailer.reasons.map((reason) => (
                <Text as="li" key={`${reason.kind}:${reason.message}`} listStyleType="none" overflowWrap="anywhere">
                  {reasonText(reason)}
                </Text>
              ))}
            </Stack>
          </Box>
          <Stack as="ul" gap="2" aria-label="Failing stores, most recent first">
            {retailer.failingStores.map((store) => (
              <Box
                as="li"
                key={store.id}
                listStyleType="none"
                borderWidth="1px"
                borderRadius="md"
                p="2.5"
                textStyle="sm"
              >
                <Flex gap="2" align="center" wrap="wrap">
                  <Text fontWeight="semibold" overflowWrap="anywhere">
                    {store.name ?? `Store ${store.retailerId}`}
                  </Text>
                  <Badge colorPalette={failurePalette(store.kind)} variant="subtle">
                    {failureKindText(store.kind)}
                  </Badge>
                </Flex>
                <Text color="fg.muted" overflowWrap="anywhere">
                  {[store.address, store.city, store.state, store.zip].filter(Boolean).join(', ')} · store{' '}
                  {store.retailerId}
                </Text>
                {store.message && <Text overflowWrap="anywhere">{store.message}</Text>}
                <HStack gap="1" color="fg.muted">
                  <LuCalendarClock aria-hidden />
                  <Text>
                    Last visit {formatWhen(store.lastVisitAt, '—')}
                    {store.lastPricedAt ? ` · last priced ${formatWhen(store.lastPricedAt, '—')}` : ' · never priced'}
                  </Text>
                </HStack>
              </Box>
            ))}
          </Stack>
        </Card.Body>
      )}
    </Card.Root>
  );
}
