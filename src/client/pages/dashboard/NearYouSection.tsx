// The dashboard's "Near you" section: the cheapest eggs at the store locations around a ZIP code,
// ranked by price per dozen (prices.near). Without a ZIP code in the URL, the one saved in
// Preferences is searched at once; another is applied on submit; the radius, egg type and pack
// size apply at once. All four live in the
// URL (useNearState). When nothing is within the radius the answer says how far it went instead,
// and the label above the rows says so. A chunk of its own: the dashboard's first paint has none
// of it (NearYouSlot loads it).
import {
  Alert,
  Box,
  Button,
  Card,
  EmptyState,
  Field,
  HStack,
  Heading,
  Input,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { LuMapPin, LuRotateCcw, LuSearch, LuSearchX } from 'react-icons/lu';
import type { NearRadius, NearResult } from '#shared/near.ts';
import { BREAKPOINTS } from '#shared/pagination.ts';
import { EGG_TYPES, EGG_TYPE_LABELS, EGG_TYPE_SLUGS, parseEggType } from '#shared/vocabulary.ts';
import { DownloadLink } from '#client/components/DownloadLink.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { FilterSelect } from '#client/components/FilterSelect.tsx';
import { errorCode, failureMessage } from '#client/components/auth/errors.ts';
import { downloadHref } from '#client/lib/links.ts';
import { trpc } from '#client/lib/trpc.ts';
import { useViewportWidth } from '#client/lib/useViewportWidth.ts';
import { NearPrompt } from './NearPrompt.tsx';
import { NearResults } from './NearResults.tsx';
import { AdvertisedNote } from './AdvertisedNote.tsx';
import { NEAR_COUNTS, RADII, ZIP_FORMAT_MESSAGE, parseZip, savedZip, type NearState } from './nearUrlState.ts';
import { scopeNote } from './nearView.ts';
import { useNearState } from './useNearState.ts';

/** Rows shown at first, and added by each "Show more". */
const STEP = 10;

const RADIUS_OPTIONS = RADII.map((radius) => ({ value: String(radius), label: `${radius} miles` }));
const TYPE_OPTIONS = [
  { value: '', label: 'All Egg Types' },
  ...EGG_TYPES.map((type) => ({ value: EGG_TYPE_SLUGS[type], label: EGG_TYPE_LABELS[type] })),
];
const COUNT_OPTIONS = [
  { value: '', label: 'Any Count' },
  ...NEAR_COUNTS.map((count) => ({ value: String(count), label: `${count} eggs` })),
];

/** The API's query for a state (the same for prices.near and the CSV download). */
function apiQuery(state: NearState & { zip: string }) {
  return {
    zip: state.zip,
    radius: state.radius,
    egg_type: state.eggType === 'all' ? undefined : state.eggType,
    count: state.count ?? undefined,
  };
}

function LoadingRows() {
  return (
    <Stack gap="2" role="status" aria-label="Loading prices near you">
      <Skeleton height="5" width="72" maxW="full" />
      {Array.from({ length: 4 }, (_, index) => (
        <Skeleton key={index} height="14" borderRadius="l2" />
      ))}
    </Stack>
  );
}

function Results({
  data,
  state,
  busy,
  table,
  onClearFilters,
}: {
  data: NearResult;
  state: NearState & { zip: string };
  busy: boolean;
  table: boolean;
  onClearFilters: () => void;
}) {
  const [shown, setShown] = useState(STEP);
  const stores = trpc.stores.list.useQuery();
  const logos = useMemo(
    () => new Map((stores.data ?? []).map((store) => [store.id, store.store_logo_url])),
    [stores.data],
  );
  const note = scopeNote(data);
  const csv = downloadHref('/api/egg-prices/near.csv', apiQuery(state));
  const filtered = state.eggType !== 'all' || state.count !== null;

  if (note.kind === 'none' || note.kind === 'far') {
    return (
      <EmptyState.Root size="sm" borderWidth="1px" borderStyle="dashed" borderRadius="l2" aria-busy={busy || undefined}>
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuSearchX />
          </EmptyState.Indicator>
          <EmptyState.Title as="h3" textStyle="md">
            {note.title}
          </EmptyState.Title>
          <EmptyState.Description>{note.text}</EmptyState.Description>
          {filtered && note.kind === 'none' && (
            <Button size="sm" variant="outline" colorPalette="gray" onClick={onClearFilters}>
              <LuRotateCcw aria-hidden />
              Any egg type and pack size
            </Button>
          )}
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }

  const entries = data.entries.slice(0, shown);
  const label = `Egg prices near ${data.zip}, cheapest per dozen first`;
  return (
    <Stack gap="3" aria-busy={busy || undefined} opacity={busy ? 0.6 : 1} transition="opacity 0.2s">
      <HStack justify="space-between" align="flex-start" gap="3" wrap="wrap">
        {note.kind === 'radius' ? (
          <Text color="fg.muted" role="status">
            {note.text}
          </Text>
        ) : (
          <Alert.Root status="info" role="status" flex="1" minW={{ base: 'full', md: 'md' }} size="sm">
            <Alert.Indicator />
            <Alert.Title>{note.text}</Alert.Title>
          </Alert.Root>
        )}
        <DownloadLink href={csv} context={`of the egg prices near ${data.zip}`} />
      </HStack>
      <NearResults entries={entries} logos={logos} label={label} table={table} />
      <AdvertisedNote region={data.region} eggType={state.eggType === 'all' ? 'standard' : state.eggType} />
      <HStack justify="space-between" gap="3" wrap="wrap" textStyle="sm" color="fg.muted">
        <Text>
          Showing {entries.length} of {data.total} {data.total === 1 ? 'price' : 'prices'}
          {data.total > data.entries.length &&
            ` (the cheapest ${data.entries.length} can be shown here; the CSV download has more)`}
        </Text>
        {data.entries.length > shown && (
          <Button size="sm" variant="outline" colorPalette="gray" onClick={() => setShown((current) => current + STEP)}>
            Show more
          </Button>
        )}
      </HStack>
    </Stack>
  );
}

export function NearYouSection() {
  const { state, applyZip, setRadius, setEggType, setCount } = useNearState();
  const width = useViewportWidth();
  const headingId = useId();
  const zipId = useId();
  const zipInput = useRef<HTMLInputElement>(null);

  // The ZIP code searched: the URL's, else the one saved in Preferences (read once).
  const [saved] = useState(savedZip);
  const zip = state.zip ?? saved;
  // The box shows the ZIP searched; one applied by navigating (Back, a shared link) replaces what
  // was typed.
  const [draft, setDraft] = useState(zip ?? '');
  const [appliedSeen, setAppliedSeen] = useState(zip);
  if (appliedSeen !== zip) {
    setAppliedSeen(zip);
    if (zip !== null) setDraft(zip);
  }
  const [formatError, setFormatError] = useState<string | null>(null);

  const applied = zip === null ? null : { ...state, zip };
  const near = trpc.prices.near.useQuery(applied ? apiQuery(applied) : { zip: '' }, {
    enabled: applied !== null,
    placeholderData: keepPreviousData,
    // Its own request, so a refused ZIP answers 400 alone and never fails a batch of others.
    trpc: { context: { unbatched: true } },
  });
  // The previous answer stays up (dimmed) while the radius or a filter changes, not for another ZIP.
  const data = near.data && applied && near.data.zip === applied.zip ? near.data : undefined;
  const refused = near.isError && errorCode(near.error) === 'BAD_REQUEST';
  // The server's message for the applied ZIP, shown while the box still holds it.
  const zipError =
    formatError ??
    (refused && parseZip(draft) === zip ? failureMessage(near.error, 'This ZIP code was not recognised.') : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = parseZip(draft);
    if (typed === null) {
      setFormatError(ZIP_FORMAT_MESSAGE);
      zipInput.current?.focus();
      return;
    }
    setFormatError(null);
    if (typed === state.zip) {
      if (near.isError) void near.refetch();
      return;
    }
    // Also the saved ZIP code, searched already: Find puts it in the URL, to keep or share.
    applyZip(typed);
  };

  let results: ReactNode;
  if (!applied || refused) {
    results = <NearPrompt />;
  } else if (near.isError && !data) {
    results = (
      <ErrorCard
        title="Unable to load prices near you"
        message={near.error.message}
        onRetry={() => void near.refetch()}
      />
    );
  } else if (!data) {
    results = <LoadingRows />;
  } else {
    results = (
      <Results
        // A new search starts again from the first rows.
        key={JSON.stringify(apiQuery(applied))}
        data={data}
        state={applied}
        busy={near.isFetching && near.isPlaceholderData}
        table={width >= BREAKPOINTS.desktop}
        onClearFilters={() => {
          setEggType('all');
          setCount(null);
        }}
      />
    );
  }

  return (
    <Card.Root as="section" aria-labelledby={headingId} variant="outline">
      <Card.Header pb="3">
        <Heading as="h2" size="lg" id={headingId}>
          <HStack gap="2">
            <LuMapPin aria-hidden />
            Near you
          </HStack>
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          Where a dozen is cheapest around a ZIP code today, and how each price moved since yesterday.
        </Text>
      </Card.Header>
      <Card.Body pt="0" gap="4">
        <form role="search" aria-label="Find egg prices near a ZIP code" onSubmit={submit} noValidate>
          <SimpleGrid columns={{ base: 2, lg: 4 }} gap={{ base: '3', md: '4' }} alignItems="start">
            <Field.Root invalid={zipError !== null} gridColumn={{ base: 'span 2', lg: 'auto' }}>
              <Field.Label fontSize="sm" color="fg.muted" htmlFor={zipId}>
                ZIP code
              </Field.Label>
              <HStack gap="2" width="full">
                <Input
                  id={zipId}
                  ref={zipInput}
                  size="sm"
                  bg="bg"
                  value={draft}
                  onChange={(event) => {
                    setDraft(event.currentTarget.value);
                    setFormatError(null);
                  }}
                  inputMode="numeric"
                  autoComplete="postal-code"
                  maxLength={10}
                  placeholder="e.g. 10001"
                />
                <Button
                  type="submit"
                  size="sm"
                  colorPalette="brand"
                  flexShrink={0}
                  loading={near.isFetching && !data && applied !== null && !refused}
                >
                  <LuSearch aria-hidden />
                  Find
                </Button>
              </HStack>
              {zipError !== null && <Field.ErrorText role="alert">{zipError}</Field.ErrorText>}
            </Field.Root>
            <FilterSelect
              label="Radius"
              value={String(state.radius)}
              options={RADIUS_OPTIONS}
              onChange={(value) => setRadius(Number(value) as NearRadius)}
            />
            <FilterSelect
              label="Pack size"
              value={state.count === null ? '' : String(state.count)}
              options={COUNT_OPTIONS}
              onChange={(value) => setCount(value ? Number(value) : null)}
            />
            <Box gridColumn={{ base: 'span 2', lg: 'auto' }}>
              <FilterSelect
                label="Egg type"
                value={state.eggType === 'all' ? '' : EGG_TYPE_SLUGS[state.eggType]}
                options={TYPE_OPTIONS}
                onChange={(value) => setEggType(parseEggType(value) ?? 'all')}
              />
            </Box>
          </SimpleGrid>
        </form>
        {results}
      </Card.Body>
    </Card.Root>
  );
}
