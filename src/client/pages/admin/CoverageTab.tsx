// The admin dashboard's Coverage tab: one retailer at a time (the one last chosen is remembered),
// its store directory in figures, the running or latest discovery and visit day with live counts
// (polled every 2 s while one runs), the plan form with its cost before saving, the next planned
// chunk, a US map of the share of stores visited in 24 hours with a table alternative, and the
// failing stores with their reasons. Words and numbers come from coverageView.ts.
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  EmptyState,
  Field,
  Fieldset,
  Flex,
  Heading,
  HStack,
  Input,
  NativeSelect,
  Progress,
  SegmentGroup,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { lazy, useEffect, useMemo, useState } from 'react';
import { LuCalendarClock, LuMap, LuPlay, LuSave, LuSearch, LuTable } from 'react-icons/lu';
import { MAX_REVISIT_DAYS, type CoverageScope } from '#shared/coverage.ts';
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
  checkBudget,
  checkRevisitDays,
  costLines,
  draftScope,
  failureKindText,
  mapLabel,
  nextChunkText,
  pausedText,
  planForm,
  reasonText,
  runProgressText,
  runProgressValue,
  SHARE_COLORS,
  SHARE_LEGEND,
  STATE_CHOICES,
  STATE_NAMES,
  stateRows,
  statusWord,
  type CoverageRun,
  type PlanForm,
  type RetailerCoverage,
} from './coverageView.ts';

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
      <Flex gap="3" justify="space-between" align={{ base: 'stretch', sm: 'flex-end' }} direction={{ base: 'column', sm: 'row' }}>
        <Box>
          <Heading as="h2" size="lg">
            Store coverage
          </Heading>
          <Text textStyle="sm" color="fg.muted" maxW="2xl">
            Each retailer's known stores, how many were visited, and the plan that visits them. Each retailer's requests go one at a time, whatever the number of workers.
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
        <ErrorCard title="Coverage unavailable" message={failureMessage(coverage.error, 'Unable to load the coverage figures.')} onRetry={() => void coverage.refetch()} />
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
          <Alert.Title>{retailer.name} is inactive: activate it in the Stores tab before discovering or visiting its stores.</Alert.Title>
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
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

function Figures({ retailer }: { retailer: RetailerCoverage }) {
  const items: Array<{ label: string; value: string; tone?: string }> = [
    { label: 'Stores known', value: n(retailer.known) },
    { label: "In the plan's scope", value: retailer.inScope === null ? 'No plan' : n(retailer.inScope) },
    { label: 'Visited in 24 hours', value: n(retailer.visitedDay) },
    { label: 'Visited in 7 days', value: n(retailer.visitedWeek) },
    { label: 'Never visited', value: n(retailer.neverVisited) },
    { label: 'Failing', value: n(retailer.failing), ...(retailer.failing ? { tone: 'fg.error' } : {}) },
    { label: 'Blocked', value: n(retailer.blocked), ...(retailer.blocked ? { tone: 'fg.error' } : {}) },
  ];
  return (
    <SimpleGrid as="dl" columns={{ base: 2, sm: 4, xl: 7 }} gap={{ base: '2', md: '3' }} aria-label={`${retailer.name} coverage figures`}>
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

const RUN_PALETTE: Record<CoverageRun['status'], string> = { queued: 'gray', running: 'blue', succeeded: 'green', partial: 'orange', failed: 'red', paused: 'orange' };

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
            <Progress.Root value={progress ? progress.value : null} max={progress ? progress.max : 100} size="sm" colorPalette="brand">
              <Progress.Track aria-label={`${title} progress`} aria-valuetext={progress ? `${progress.value} of ${progress.max}` : statusWord(run.status)}>
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

function useCoverageMutationDone() {
  const utils = trpc.useUtils();
  return () => void utils.coverage.invalidate();
}

function Activity({ retailer }: { retailer: RetailerCoverage }) {
  const done = useCoverageMutationDone();
  const visit = trpc.coverage.visit.useMutation({
    onSuccess: (data) => {
      toaster.create({ type: 'success', title: 'Visit day started', description: data.message, duration: 5000 });
      done();
    },
    onError: (error) => toaster.create({ type: 'error', title: 'Visit day not started', description: failureMessage(error, `Failed to start the ${retailer.name} visit day.`), duration: 6000 }),
  });
  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h3" size="md">
          Discovery and visits
        </Heading>
      </Card.Header>
      <Card.Body gap="4">
        <RunLine title="Discovery" run={retailer.discovery} empty="No discovery yet: choose a scope below and discover its stores." />
        <RunLine title="Visit day" run={retailer.visit} empty="No visit day yet." />
        <Box as="section" aria-label="Next planned chunk">
          <Heading as="h4" size="sm">
            Next planned chunk
          </Heading>
          <Text textStyle="sm" mt="1">
            {nextChunkText(retailer, (iso) => formatWhen(iso, '—'))}
          </Text>
        </Box>
        <Button
          alignSelf="flex-start"
          colorPalette="brand"
          loading={visit.isPending}
          loadingText="Starting..."
          disabled={retailer.visit?.active === true}
          onClick={() => visit.mutate({ store: retailer.store })}
        >
          <LuPlay aria-hidden />
          Visit now
        </Button>
      </Card.Body>
    </Card.Root>
  );
}

function PlanCard({ retailer }: { retailer: RetailerCoverage }) {
  const saved = useMemo(() => planForm(retailer), [retailer]);
  const [form, setForm] = useState<PlanForm>(saved);
  const [touched, setTouched] = useState(false);
  // A saved plan (or another admin's) replaces the form until it is edited.
  useEffect(() => {
    if (!touched) setForm(saved);
  }, [saved, touched]);
  const edit = (patch: Partial<PlanForm>) => {
    setTouched(true);
    setForm((current) => ({ ...current, ...patch }));
  };
  const scope = draftScope(form);
  const revisit = checkRevisitDays(form.revisitDays);
  const budget = checkBudget(form.dailyRequestBudget);
  const [debouncedScope, setDebouncedScope] = useState<CoverageScope | null>(scope.ok ? scope.value : null);
  const scopeKey = scope.ok ? JSON.stringify(scope.value) : '';
  useEffect(() => {
    const timer = setTimeout(() => setDebouncedScope(scopeKey ? (JSON.parse(scopeKey) as CoverageScope) : null), 300);
    return () => clearTimeout(timer);
  }, [scopeKey]);
  const size = trpc.coverage.scopeSize.useQuery({ store: retailer.store, scope: debouncedScope ?? { kind: 'nationwide' } }, { enabled: debouncedScope !== null });
  // A discovery that finds or closes stores changes every scope's count.
  const utils = trpc.useUtils();
  useEffect(() => {
    void utils.coverage.scopeSize.invalidate();
  }, [retailer.known, utils]);
  const done = useCoverageMutationDone();
  const savePlan = trpc.coverage.savePlan.useMutation({
    onSuccess: (plan) => {
      toaster.create({ type: 'success', title: 'Plan saved', description: `${retailer.name}: ${plan.scopeText}, every ${plan.revisitDays === 1 ? 'day' : `${plan.revisitDays} days`}, ${n(plan.dailyRequestBudget)} requests a day.`, duration: 5000 });
      setTouched(false);
      done();
    },
    onError: (error) => toaster.create({ type: 'error', title: 'Plan not saved', description: failureMessage(error, 'Failed to save the plan.'), duration: 6000 }),
  });
  const discover = trpc.coverage.discover.useMutation({
    onSuccess: (data) => {
      toaster.create({ type: 'success', title: 'Discovery started', description: data.message, duration: 5000 });
      done();
    },
    onError: (error) => toaster.create({ type: 'error', title: 'Discovery not started', description: failureMessage(error, `Failed to start the ${retailer.name} discovery.`), duration: 6000 }),
  });
  const [showErrors, setShowErrors] = useState(false);
  const sizeReady = scope.ok && size.data !== undefined && JSON.stringify(debouncedScope) === scopeKey;
  const cost =
    sizeReady && revisit.ok && budget.ok
      ? costLines({ storesInScope: size.data.storesInScope, perVisit: retailer.requestsPerVisit, revisitDays: revisit.value, dailyRequestBudget: budget.value, delayMs: retailer.delayMs })
      : null;
  const plan = retailer.plan;
  const fieldId = (name: string) => `coverage-${retailer.store}-${name}`;

  return (
    <Card.Root variant="outline" as="section" aria-labelledby={fieldId('plan-title')}>
      <Card.Header>
        <Heading as="h3" size="md" id={fieldId('plan-title')}>
          Coverage plan
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          {plan ? `Saved ${formatWhen(plan.updatedAt, '—')}: ${plan.scopeText}, every ${plan.revisitDays === 1 ? 'day' : `${plan.revisitDays} days`}.` : 'No plan saved yet.'}
        </Text>
      </Card.Header>
      <Card.Body gap="4">
        {plan?.pausedAt && (
          <Alert.Root status="warning" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Paused since {formatWhen(plan.pausedAt, '—')}</Alert.Title>
              <Alert.Description>{pausedText(plan.pausedReason)}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        <Fieldset.Root invalid={showErrors && !scope.ok}>
          <Fieldset.Legend>Scope</Fieldset.Legend>
          <SegmentGroup.Root size="sm" value={form.kind} onValueChange={(details) => details.value && edit({ kind: details.value as PlanForm['kind'] })} aria-label="Scope" alignSelf="flex-start">
            <SegmentGroup.Indicator />
            <SegmentGroup.Items
              items={[
                { value: 'nationwide', label: 'Nationwide' },
                { value: 'states', label: 'States' },
                { value: 'zips', label: 'ZIP codes' },
              ]}
            />
          </SegmentGroup.Root>
          {form.kind === 'states' && (
            <Box>
              <Text textStyle="sm" color="fg.muted" mb="1.5" id={fieldId('states-help')}>
                {form.states.length === 0 ? 'Choose the states to cover.' : `${form.states.length} chosen: ${[...form.states].sort().join(', ')}`}
              </Text>
              <SimpleGrid
                columns={{ base: 3, sm: 5, md: 6 }}
                gap="1.5"
                maxH="56"
                overflowY="auto"
                borderWidth="1px"
                borderRadius="md"
                p="2"
                role="group"
                aria-label="States"
                aria-describedby={fieldId('states-help')}
              >
                {STATE_CHOICES.map((state) => (
                  <Checkbox.Root
                    key={state}
                    size="sm"
                    checked={form.states.includes(state)}
                    onCheckedChange={(details) => edit({ states: details.checked ? [...form.states, state] : form.states.filter((s) => s !== state) })}
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    {/* The code on screen, the state's name to a screen reader. */}
                    <Checkbox.Label title={STATE_NAMES[state]}>
                      <span aria-hidden>{state}</span>
                      <VisuallyHidden>{STATE_NAMES[state]}</VisuallyHidden>
                    </Checkbox.Label>
                  </Checkbox.Root>
                ))}
              </SimpleGrid>
            </Box>
          )}
          {form.kind === 'zips' && (
            <Flex gap="3" direction={{ base: 'column', sm: 'row' }}>
              <Field.Root flex="1">
                <Field.Label>ZIP codes</Field.Label>
                <Input value={form.zipCodes} onChange={(event) => edit({ zipCodes: event.target.value })} placeholder="84101, 02903" inputMode="numeric" />
                <Field.HelperText>Comma-separated, up to 100.</Field.HelperText>
              </Field.Root>
              <Field.Root width={{ base: 'full', sm: '32' }}>
                <Field.Label>Radius (miles)</Field.Label>
                <Input value={form.radiusMiles} onChange={(event) => edit({ radiusMiles: event.target.value })} inputMode="numeric" />
              </Field.Root>
            </Flex>
          )}
          {!scope.ok && (showErrors || form.kind !== 'nationwide') && <Fieldset.ErrorText>{scope.error}</Fieldset.ErrorText>}
        </Fieldset.Root>
        <Button
          alignSelf="flex-start"
          variant="outline"
          colorPalette="brand"
          size="sm"
          loading={discover.isPending}
          loadingText="Starting..."
          disabled={retailer.discovery?.active === true}
          onClick={() => {
            setShowErrors(true);
            if (scope.ok) discover.mutate({ store: retailer.store, scope: scope.value });
          }}
        >
          <LuSearch aria-hidden />
          Discover stores in this scope
        </Button>
        <Flex gap="3" direction={{ base: 'column', sm: 'row' }}>
          <Field.Root invalid={!revisit.ok}>
            <Field.Label>Visit each store every (days)</Field.Label>
            <Input value={form.revisitDays} onChange={(event) => edit({ revisitDays: event.target.value })} inputMode="numeric" />
            {revisit.ok ? <Field.HelperText>1 to {MAX_REVISIT_DAYS}; 1 is every day.</Field.HelperText> : <Field.ErrorText>{revisit.error}</Field.ErrorText>}
          </Field.Root>
          <Field.Root invalid={!budget.ok}>
            <Field.Label>Daily request budget</Field.Label>
            <Input value={form.dailyRequestBudget} onChange={(event) => edit({ dailyRequestBudget: event.target.value })} inputMode="numeric" />
            {budget.ok ? (
              <Field.HelperText>
                {retailer.name}'s default: {n(retailer.defaultBudget)}
                {retailer.store === 'kroger' ? " (under Kroger's 10,000 API calls a day)" : ''}.
              </Field.HelperText>
            ) : (
              <Field.ErrorText>{budget.error}</Field.ErrorText>
            )}
          </Field.Root>
        </Flex>
        <Box as="section" aria-label="Plan cost" borderWidth="1px" borderRadius="md" p="3" bg="bg.subtle" aria-busy={scope.ok && !cost && size.isFetching}>
          <Heading as="h4" size="sm" mb="1.5">
            What this plan costs
          </Heading>
          {size.isError ? (
            <Text textStyle="sm" color="fg.error">
              {failureMessage(size.error, 'Unable to count the stores in this scope.')}
            </Text>
          ) : cost ? (
            <Stack gap="1" textStyle="sm">
              <Text>{cost.stores}</Text>
              <Text>{cost.requests}</Text>
              <Text>{cost.time}</Text>
              <Text fontWeight="semibold" color={cost.fits ? 'fg.success' : 'fg.error'}>
                {cost.verdict}
              </Text>
            </Stack>
          ) : !scope.ok || !revisit.ok || !budget.ok ? (
            <Text textStyle="sm" color="fg.muted">
              Complete the plan to see its cost.
            </Text>
          ) : (
            <Stack gap="1.5" role="status" aria-label="Counting the stores in scope">
              <Skeleton height="4" />
              <Skeleton height="4" width="80%" />
            </Stack>
          )}
        </Box>
        <Button
          alignSelf="flex-start"
          colorPalette="brand"
          loading={savePlan.isPending}
          loadingText="Saving..."
          onClick={() => {
            setShowErrors(true);
            if (scope.ok && revisit.ok && budget.ok) savePlan.mutate({ store: retailer.store, scope: scope.value, revisitDays: revisit.value, dailyRequestBudget: budget.value });
          }}
        >
          <LuSave aria-hidden />
          {plan?.pausedAt ? 'Save and resume' : 'Save plan'}
        </Button>
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
            <Button size="xs" variant={view === 'map' ? 'solid' : 'outline'} colorPalette="gray" aria-pressed={view === 'map'} onClick={() => setView('map')}>
              <LuMap aria-hidden />
              Map
            </Button>
            <Button size="xs" variant={view === 'table' ? 'solid' : 'outline'} colorPalette="gray" aria-pressed={view === 'table'} onClick={() => setView('table')}>
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
                  <Box width="3" height="3" borderRadius="sm" bg={SHARE_COLORS[i]} borderWidth="1px" borderColor="border" aria-hidden />
                  {text}
                </HStack>
              ))}
              <HStack as="li" gap="1.5" listStyleType="none">
                <Box width="3" height="3" borderRadius="sm" bg="#cbd5e1" borderWidth="1px" borderColor="border" aria-hidden />
                No known stores
              </HStack>
            </HStack>
          </>
        ) : (
          <Box maxH="96" overflowY="auto">
            <Table.Root size="sm" stickyHeader aria-label={`${retailer.name} stores visited in the last 24 hours by state`}>
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
              <Box as="li" key={store.id} listStyleType="none" borderWidth="1px" borderRadius="md" p="2.5" textStyle="sm">
                <Flex gap="2" align="center" wrap="wrap">
                  <Text fontWeight="semibold" overflowWrap="anywhere">
                    {store.name ?? `Store ${store.retailerId}`}
                  </Text>
                  <Badge colorPalette={failurePalette(store.kind)} variant="subtle">
                    {failureKindText(store.kind)}
                  </Badge>
                </Flex>
                <Text color="fg.muted" overflowWrap="anywhere">
                  {[store.address, store.city, store.state, store.zip].filter(Boolean).join(', ')} · store {store.retailerId}
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
