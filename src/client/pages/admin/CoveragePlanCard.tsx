// The Coverage tab's plan form: the scope (nationwide, states, or ZIP codes with a radius), how
// often each store is visited and the daily request budget, with what the plan costs shown before
// saving (the scope's known stores counted by the server, the arithmetic of coverageView.ts), the
// discovery of the scope, and a paused plan's reason with its way to resume (saving). What is
// typed and not saved is kept in this browser, so a reload keeps the draft until it is saved or
// discarded.
import {
  Alert,
  Box,
  Button,
  Card,
  Checkbox,
  Field,
  Fieldset,
  Flex,
  Heading,
  Input,
  SegmentGroup,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { LuSave, LuSearch } from 'react-icons/lu';
import { MAX_REVISIT_DAYS, type CoverageScope } from '#shared/coverage.ts';
import { failureMessage } from '#client/components/auth/errors.ts';
import { toaster } from '#client/components/Toaster.tsx';
import { formatWhen } from '#client/lib/dateTime.ts';
import { trpc } from '#client/lib/trpc.ts';
import {
  checkBudget,
  checkRevisitDays,
  clearPlanDraft,
  costLines,
  draftScope,
  pausedText,
  planForm,
  readPlanDraft,
  writePlanDraft,
  STATE_CHOICES,
  STATE_NAMES,
  type PlanForm,
  type RetailerCoverage,
} from './coverageView.ts';

const n = (value: number) => value.toLocaleString('en-US');

/** After a start or a save: the figures again at once. */
export function useCoverageMutationDone() {
  const utils = trpc.useUtils();
  return () => void utils.coverage.invalidate();
}

/** This browser's storage, or null where it is disabled (privacy modes). */
function draftStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function PlanCard({ retailer }: { retailer: RetailerCoverage }) {
  const saved = useMemo(() => planForm(retailer), [retailer]);
  // An unsaved draft kept from before a reload wins over the saved plan until saved or discarded.
  const [restored] = useState(() => readPlanDraft(draftStorage(), retailer.store));
  const [form, setForm] = useState<PlanForm>(restored ?? saved);
  const [touched, setTouched] = useState(restored !== null);
  // A saved plan (or another admin's) replaces the form until it is edited.
  useEffect(() => {
    if (!touched) setForm(saved);
  }, [saved, touched]);
  const edit = (patch: Partial<PlanForm>) => {
    setTouched(true);
    setForm((current) => {
      const next = { ...current, ...patch };
      writePlanDraft(draftStorage(), retailer.store, next);
      return next;
    });
  };
  const discardDraft = () => {
    clearPlanDraft(draftStorage(), retailer.store);
    setTouched(false);
    setForm(saved);
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
  const size = trpc.coverage.scopeSize.useQuery(
    { store: retailer.store, scope: debouncedScope ?? { kind: 'nationwide' } },
    { enabled: debouncedScope !== null },
  );
  // A discovery that finds or closes stores changes every scope's count.
  const utils = trpc.useUtils();
  useEffect(() => {
    void utils.coverage.scopeSize.invalidate();
  }, [retailer.known, utils]);
  const done = useCoverageMutationDone();
  const savePlan = trpc.coverage.savePlan.useMutation({
    onSuccess: (plan) => {
      toaster.create({
        type: 'success',
        title: 'Plan saved',
        description: `${retailer.name}: ${plan.scopeText}, every ${plan.revisitDays === 1 ? 'day' : `${plan.revisitDays} days`}, ${n(plan.dailyRequestBudget)} requests a day.`,
        duration: 5000,
      });
      clearPlanDraft(draftStorage(), retailer.store);
      setTouched(false);
      done();
    },
    onError: (error) =>
      toaster.create({
        type: 'error',
        title: 'Plan not saved',
        description: failureMessage(error, 'Failed to save the plan.'),
        duration: 6000,
      }),
  });
  const discover = trpc.coverage.discover.useMutation({
    onSuccess: (data) => {
      toaster.create({ type: 'success', title: 'Discovery started', description: data.message, duration: 5000 });
      done();
    },
    onError: (error) =>
      toaster.create({
        type: 'error',
        title: 'Discovery not started',
        description: failureMessage(error, `Failed to start the ${retailer.name} discovery.`),
        duration: 6000,
      }),
  });
  const [showErrors, setShowErrors] = useState(false);
  const sizeReady = scope.ok && size.data !== undefined && JSON.stringify(debouncedScope) === scopeKey;
  const cost =
    sizeReady && revisit.ok && budget.ok
      ? costLines({
          storesInScope: size.data.storesInScope,
          perVisit: retailer.requestsPerVisit,
          revisitDays: revisit.value,
          dailyRequestBudget: budget.value,
          delayMs: retailer.delayMs,
        })
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
          {plan
            ? `Saved ${formatWhen(plan.updatedAt, '—')}: ${plan.scopeText}, every ${plan.revisitDays === 1 ? 'day' : `${plan.revisitDays} days`}.`
            : 'No plan saved yet.'}
        </Text>
      </Card.Header>
      <Card.Body gap="4">
        {touched && (
          <Flex gap="2" align="center" wrap="wrap" textStyle="sm" role="status">
            <Text color="fg.muted">Unsaved changes{plan ? ' to the saved plan' : ''}, kept in this browser.</Text>
            <Button size="xs" variant="outline" colorPalette="gray" onClick={discardDraft}>
              Discard changes
            </Button>
          </Flex>
        )}
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
          <SegmentGroup.Root
            size="sm"
            value={form.kind}
            onValueChange={(details) => details.value && edit({ kind: details.value as PlanForm['kind'] })}
            aria-label="Scope"
            alignSelf="flex-start"
          >
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
                {form.states.length === 0
                  ? 'Choose the states to cover.'
                  : `${form.states.length} chosen: ${[...form.states].sort().join(', ')}`}
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
                    onCheckedChange={(details) =>
                      edit({
                        states: details.checked ? [...form.states, state] : form.states.filter((s) => s !== state),
                      })
                    }
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
                <Input
                  value={form.zipCodes}
                  onChange={(event) => edit({ zipCodes: event.target.value })}
                  placeholder="84101, 02903"
                  inputMode="numeric"
                />
                <Field.HelperText>Comma-separated, up to 100.</Field.HelperText>
              </Field.Root>
              <Field.Root width={{ base: 'full', sm: '32' }}>
                <Field.Label>Radius (miles)</Field.Label>
                <Input
                  value={form.radiusMiles}
                  onChange={(event) => edit({ radiusMiles: event.target.value })}
                  inputMode="numeric"
                />
              </Field.Root>
            </Flex>
          )}
          {!scope.ok && (showErrors || form.kind !== 'nationwide') && (
            <Fieldset.ErrorText>{scope.error}</Fieldset.ErrorText>
          )}
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
            <Input
              value={form.revisitDays}
              onChange={(event) => edit({ revisitDays: event.target.value })}
              inputMode="numeric"
            />
            {revisit.ok ? (
              <Field.HelperText>1 to {MAX_REVISIT_DAYS}; 1 is every day.</Field.HelperText>
            ) : (
              <Field.ErrorText>{revisit.error}</Field.ErrorText>
            )}
          </Field.Root>
          <Field.Root invalid={!budget.ok}>
            <Field.Label>Daily request budget</Field.Label>
            <Input
              value={form.dailyRequestBudget}
              onChange={(event) => edit({ dailyRequestBudget: event.target.value })}
              inputMode="numeric"
            />
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
        <Box
          as="section"
          aria-label="Plan cost"
          borderWidth="1px"
          borderRadius="md"
          p="3"
          bg="bg.subtle"
          aria-busy={scope.ok && !cost && size.isFetching}
        >
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
              <Text fontWeight="semibold" color={cost.fits ? 'green.fg' : 'red.fg'}>
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
            if (scope.ok && revisit.ok && budget.ok)
              savePlan.mutate({
                store: retailer.store,
                scope: scope.value,
                revisitDays: revisit.value,
                dailyRequestBudget: budget.value,
              });
          }}
        >
          <LuSave aria-hidden />
          {plan?.pausedAt ? 'Save and resume' : 'Save plan'}
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
