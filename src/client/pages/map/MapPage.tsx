// The shoppers' map of egg prices by state (/map): the egg type (in the URL, standard by default),
// a choropleth of today's median price of a dozen in the 50 states and DC with its legend, the
// cheapest stores of a chosen state (?state=, chosen on the map or in the table), and the table of
// every state as the map's keyboard- and screen-reader-friendly alternative; below, bird-flu
// detections in layer flocks by state (APHIS).
import {
  Badge,
  Box,
  Button,
  Card,
  Flex,
  Grid,
  HStack,
  Heading,
  Link,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { ChartSkeleton } from '#client/components/charts/lazyCharts.tsx';
import { keepPreviousData } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { LuArrowDown, LuArrowUp } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { EGG_TYPES, EGG_TYPE_LABELS, type EggType } from '#shared/vocabulary.ts';
import { DownloadLink } from '#client/components/DownloadLink.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { FilterSelect } from '#client/components/FilterSelect.tsx';
import { SampleBadge } from '#client/components/SampleBadge.tsx';
import { useSearchParam } from '#client/lib/useSearchParam.ts';
import { trpc } from '#client/lib/trpc.ts';
import {
  anySample,
  mapAspect,
  priceMapCsvHref,
  cheapestRows,
  eggTypeWords,
  parseMapEggType,
  stateName,
  stateRows,
  type SortKey,
} from './mapView.ts';
import { BirdFluByState } from './BirdFluByState.tsx';
import { PriceMap } from './PriceMapParts.tsx';

const TYPE_OPTIONS = EGG_TYPES.map((t) => ({ value: t, label: EGG_TYPE_LABELS[t] }));

function CheapestStores({ state, eggType }: { state: string; eggType: EggType }) {
  const query = trpc.prices.mapCheapest.useQuery({ state, egg_type: eggType });
  const name = stateName(state);
  return (
    <Card.Root as="section" aria-labelledby="cheapest-heading" variant="outline">
      <Card.Header pb="2">
        <Heading as="h2" size="md" id="cheapest-heading" tabIndex={-1}>
          Cheapest in {name} today
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {EGG_TYPE_LABELS[eggType]} eggs, cheapest per dozen first
        </Text>
      </Card.Header>
      <Card.Body pt="2" aria-live="polite" aria-busy={query.isLoading}>
        {query.isError ? (
          <ErrorCard
            title="Unable to load the stores"
            message={query.error.message}
            onRetry={() => void query.refetch()}
          />
        ) : !query.data ? (
          <Stack gap="2" role="status" aria-label={`Loading the cheapest stores in ${name}`}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height="14" borderRadius="l2" />
            ))}
          </Stack>
        ) : query.data.entries.length === 0 ? (
          <Text color="fg.muted">
            No {eggTypeWords(eggType)} prices in {name} today.
          </Text>
        ) : (
          <Stack as="ol" gap="3" listStyleType="none" aria-label={`Cheapest stores in ${name}`}>
            {cheapestRows(query.data).map((row) => (
              <Box as="li" key={row.key} borderBottomWidth="1px" pb="2">
                <Flex justify="space-between" gap="3" align="baseline">
                  <Text fontWeight="semibold">{row.store}</Text>
                  <Text fontWeight="semibold" whiteSpace="nowrap">
                    {row.perDozenText}{' '}
                    <Text as="span" fontWeight="normal" fontSize="sm" color="fg.muted">
                      a dozen
                    </Text>
                  </Text>
                </Flex>
                <Flex justify="space-between" gap="3" fontSize="sm" color="fg.muted" wrap="wrap">
                  <Text>
                    {row.city} · {row.priceText}
                  </Text>
                  {row.sample && <SampleBadge size="sm" />}
                </Flex>
                <Link asChild fontSize="sm" color="brand.fg">
                  <RouterLink to={row.historyHref}>
                    Price history<Box as="span" srOnly>{` of ${row.title} at ${row.store}, ${row.city}`}</Box>
                  </RouterLink>
                </Link>
              </Box>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function SortButton({
  label,
  sortKey,
  sort,
  onSort,
}: {
  label: string;
  sortKey: SortKey;
  sort: SortKey;
  onSort: (key: SortKey) => void;
}) {
  const active = sort === sortKey;
  return (
    <Button
      variant="plain"
      size="xs"
      px="0"
      h="auto"
      minH="6"
      whiteSpace="normal"
      fontWeight="semibold"
      onClick={() => onSort(sortKey)}
    >
      {label}
      {active && (sortKey === 'name' ? <LuArrowDown aria-hidden /> : <LuArrowUp aria-hidden />)}
    </Button>
  );
}

export default function MapPage() {
  const [params, setFilter] = useSearchParam();
  const eggType = parseMapEggType(params.get('type'));
  const selected = params.get('state')?.toUpperCase() ?? null;
  const [sort, setSort] = useState<SortKey>('name');
  const query = trpc.prices.map.useQuery({ egg_type: eggType }, { placeholderData: keepPreviousData });
  const data = query.data;
  const panelRef = useRef<HTMLDivElement>(null);
  const validSelected = selected && data?.states.some((s) => s.state === selected) ? selected : null;

  const choose = (state: string, fromTable: boolean) => {
    setFilter('state', state);
    if (fromTable) {
      // The stores appear beside the map; bring them into view and move focus to their heading.
      requestAnimationFrame(() => {
        panelRef.current?.scrollIntoView({ block: 'nearest' });
        panelRef.current?.querySelector<HTMLElement>('#cheapest-heading')?.focus();
      });
    }
  };

  const rows = data ? stateRows(data.states, sort) : [];
  const priced = rows.filter((r) => r.median !== null).length;

  return (
    <Stack gap={{ base: '5', md: '6' }}>
      <Box>
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          Egg prices by state
        </Heading>
        <Text color="fg.muted" mt="1">
          Today's median price of a dozen eggs in each state, from the stores we check. Choose a state to see its
          cheapest stores.
        </Text>
      </Box>

      <Flex gap="4" align={{ base: 'stretch', md: 'flex-end' }} direction={{ base: 'column', md: 'row' }} wrap="wrap">
        <Box minW={{ md: '60' }}>
          <FilterSelect
            label="Egg type"
            value={eggType}
            options={TYPE_OPTIONS}
            onChange={(v) => setFilter('type', v === 'standard' ? '' : v)}
          />
        </Box>
        <HStack gap="3" wrap="wrap">
          {data && anySample(data.states) && <SampleBadge figure />}
          {query.isFetching && query.isPlaceholderData && (
            <Badge variant="subtle" role="status">
              Updating…
            </Badge>
          )}
          <DownloadLink href={priceMapCsvHref(eggType)} context={`of the ${eggTypeWords(eggType)} prices by state`} />
        </HStack>
      </Flex>

      {query.isError ? (
        <ErrorCard
          title="Unable to load prices by state"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : !data ? (
        <Stack gap="4" role="status" aria-label="Loading prices by state">
          <ChartSkeleton aspect={mapAspect()} />
          <Skeleton height="64" borderRadius="l3" />
        </Stack>
      ) : (
        <>
          <Grid
            templateColumns={{ base: '1fr', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }}
            gap={{ base: '5', lg: '6' }}
            alignItems="start"
          >
            <Card.Root as="section" aria-labelledby="map-heading" variant="outline">
              <Card.Header pb="2">
                <Heading as="h2" size="md" id="map-heading">
                  {EGG_TYPE_LABELS[eggType]} eggs, median price of a dozen
                </Heading>
                <Text fontSize="sm" color="fg.muted">
                  {priced === 0
                    ? `No state has ${eggTypeWords(eggType)} prices today.`
                    : `${priced} of ${rows.length} states have prices today. Hover a state for its change since last week; click it for its cheapest stores.`}
                </Text>
              </Card.Header>
              <Card.Body pt="2">
                <PriceMap data={data} onStateClick={(state) => choose(state, false)} />
              </Card.Body>
            </Card.Root>
            <Box ref={panelRef}>
              {validSelected ? (
                <CheapestStores state={validSelected} eggType={eggType} />
              ) : (
                <Card.Root variant="subtle">
                  <Card.Body>
                    <Text color="fg.muted">
                      Choose a state on the map or in the table below to see its cheapest stores today.
                    </Text>
                  </Card.Body>
                </Card.Root>
              )}
            </Box>
          </Grid>

          <Card.Root as="section" aria-labelledby="states-table-heading" variant="outline">
            <Card.Header pb="2">
              <Heading as="h2" size="md" id="states-table-heading">
                Every state
              </Heading>
            </Card.Header>
            <Card.Body pt="2" px={{ base: '2', md: '6' }}>
              <Table.ScrollArea>
                <Table.Root size="sm" aria-labelledby="states-table-heading">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader aria-sort={sort === 'name' ? 'ascending' : 'none'}>
                        <SortButton label="State" sortKey="name" sort={sort} onSort={setSort} />
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end" aria-sort={sort === 'price' ? 'ascending' : 'none'}>
                        <SortButton label="Median a dozen" sortKey="price" sort={sort} onSort={setSort} />
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end" hideBelow="md">
                        Range
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end" whiteSpace="normal">
                        Since last week
                      </Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end" hideBelow="md">
                        Stores
                      </Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {rows.map((row) => (
                      <Table.Row
                        key={row.state}
                        aria-current={row.state === validSelected ? 'true' : undefined}
                        bg={row.state === validSelected ? 'bg.subtle' : undefined}
                        fontWeight={row.state === validSelected ? 'semibold' : undefined}
                      >
                        <Table.Cell>
                          {row.median === null ? (
                            <Text as="span">{row.name}</Text>
                          ) : (
                            <Button
                              variant="plain"
                              size="sm"
                              px="0"
                              color="brand.fg"
                              textDecoration="underline"
                              onClick={() => choose(row.state, true)}
                              aria-label={`${row.name}: show the cheapest stores`}
                            >
                              {row.name}
                            </Button>
                          )}
                          {row.sample && (
                            <Box as="span" ms="2" hideBelow="md">
                              <SampleBadge figure size="sm" />
                            </Box>
                          )}
                        </Table.Cell>
                        <Table.Cell
                          textAlign="end"
                          fontWeight={row.median === null ? 'normal' : 'semibold'}
                          color={row.median === null ? 'fg.muted' : undefined}
                        >
                          {row.medianText}
                        </Table.Cell>
                        <Table.Cell textAlign="end" hideBelow="md">
                          {row.rangeText}
                        </Table.Cell>
                        <Table.Cell textAlign="end" title={row.changeText}>
                          {row.changeShort}
                        </Table.Cell>
                        <Table.Cell textAlign="end" hideBelow="md">
                          {row.storesText}
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            </Card.Body>
          </Card.Root>
        </>
      )}
      <BirdFluByState />
    </Stack>
  );
}
