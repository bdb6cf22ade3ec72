// The dashboard's Filters panel and 'Egg Prices' list: grid cards or a table, page by
// page at the screen's page size, with loading skeletons, the empty state and an error card.
// The applied filters, page and view live in the URL (useDashboardState); filters taken from the
// saved preferences are said so above the list. The list is sorted by the observed prices it
// lists; a card re-priced from its menus keeps its place and its Estimate badge.
import { cheapestHeading } from '#shared/cheapest.ts';
import {
  Alert,
  Box,
  Button,
  ButtonGroup,
  EmptyState,
  Flex,
  HStack,
  Heading,
  NativeSelect,
  SimpleGrid,
  Spinner,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { keepPreviousData } from '@tanstack/react-query';
import { memo, useCallback, useDeferredValue, useId, useRef, useState, useTransition } from 'react';
import { LuEgg, LuHand, LuLayoutGrid, LuList, LuRotateCcw } from 'react-icons/lu';
import type { FilterSelection } from '#shared/filters.ts';
import { EGG_TYPE_LABELS, REGION_LABELS, type SortOption } from '#shared/vocabulary.ts';
import type { PreferenceFilters } from '#client/lib/savedPreferences.ts';
import { BREAKPOINTS, pageSizeForWidth } from '#shared/pagination.ts';
import { DownloadLink } from '#client/components/DownloadLink.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { Pagination } from '#client/components/Pagination.tsx';
import { FiltersPanel } from '#client/components/filters/FiltersPanel.tsx';
import { activeFilterCount } from '#client/components/filters/draft.ts';
import { storeOptions } from '#client/components/filters/filterOptions.ts';
import { PriceCard, PriceCardSkeleton } from '#client/components/price-card/PriceCard.tsx';
import { PriceRow, priceTableColumns } from '#client/components/price-card/PriceRow.tsx';
import { downloadHref } from '#client/lib/links.ts';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';
import { useViewportWidth } from '#client/lib/useViewportWidth.ts';
import { useDashboardState } from './useDashboardState.ts';
import type { ViewMode } from './urlState.ts';

export const EMPTY_TEXT = 'No prices available for the selected filters.';

/** Phones (below Chakra's sm breakpoint, 480 px) always get grid cards. */
export const PHONE_MAX_WIDTH = 480;

const VIEW_LABELS: Record<ViewMode, string> = { grid: 'Grid View', list: 'List View' };

function ViewToggle({ view, onChange, width }: { view: ViewMode; onChange: (view: ViewMode) => void; width: number }) {
  if (width < PHONE_MAX_WIDTH) return null;
  if (width < BREAKPOINTS.mobile) {
    return (
      <NativeSelect.Root size="sm" width="36">
        <NativeSelect.Field
          aria-label="View"
          value={view}
          onChange={(event) => onChange(event.currentTarget.value as ViewMode)}
        >
          <option value="grid">{VIEW_LABELS.grid}</option>
          <option value="list">{VIEW_LABELS.list}</option>
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    );
  }
  return (
    <ButtonGroup size="sm" variant="outline" attached role="group" aria-label="View">
      {(['grid', 'list'] as const).map((mode) => {
        const active = mode === view;
        const ModeIcon = mode === 'grid' ? LuLayoutGrid : LuList;
        return (
          <Button
            key={mode}
            variant={active ? 'solid' : 'outline'}
            colorPalette={active ? 'brand' : 'gray'}
            aria-pressed={active}
            aria-label={VIEW_LABELS[mode]}
            onClick={() => onChange(mode)}
          >
            <ModeIcon aria-hidden />
            {mode === 'grid' ? 'Grid' : 'List'}
          </Button>
        );
      })}
    </ButtonGroup>
  );
}

const GRID_COLUMNS = { base: 1, md: 2, lg: 3 } as const;

/**
 * /api/egg-prices.csv with the applied filters the API knows (store, region, egg type, pack
 * size): every current price they match, where the list shows one per store.
 */
export function eggPricesCsvHref(filters: FilterSelection): string {
  return downloadHref('/api/egg-prices.csv', {
    store: filters.store,
    region: filters.region,
    egg_type: filters.eggType,
    count: filters.countRange,
  });
}

/**
 * What the list is sorted by. Price sorts go by the prices the list holds, all observed: a card
 * re-priced from its menus keeps its place, with its Estimate badge when it shows one.
 */
export const SORT_DESCRIPTIONS: Record<SortOption, string> = {
  price: 'Cheapest first by observed price per dozen',
  'unit-price': 'Cheapest first by observed price per egg',
  freshness: 'Most recently updated first',
  trend: 'Biggest 7-day change first',
};

/** 'Organic · Midwest · 12 eggs': the filters saved preferences apply. */
export function describePreferenceFilters(applied: PreferenceFilters): string {
  return [
    applied.eggType ? EGG_TYPE_LABELS[applied.eggType] : null,
    applied.region ? REGION_LABELS[applied.region] : null,
    applied.countRange ? `${applied.countRange} eggs` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Says which applied filters come from the saved preferences, with a way to see every price. */
function PreferencesNote({ applied, onShowAll }: { applied: PreferenceFilters; onShowAll: () => void }) {
  return (
    <Alert.Root status="info" size="sm" variant="subtle" mb="4">
      <Alert.Indicator />
      <Alert.Content>
        <Flex gap="2" align="center" justify="space-between" wrap="wrap">
          <Alert.Description flex="1" minW="56">
            Filtered by your saved preferences: {describePreferenceFilters(applied)}.
          </Alert.Description>
          <HStack gap="2">
            <Button size="xs" variant="outline" colorPalette="gray" onClick={onShowAll}>
              Show all prices
            </Button>
            <Button asChild size="xs" variant="ghost" colorPalette="gray">
              <RouterLink to="/preferences">Change preferences</RouterLink>
            </Button>
          </HStack>
        </Flex>
      </Alert.Content>
    </Alert.Root>
  );
}

interface PriceListProps {
  data: RouterOutputs['prices']['dashboard'] | undefined;
  error: { message: string } | null;
  onRetry: () => void;
  filters: FilterSelection;
  onClearFilters: () => void;
  pageSize: number;
  view: ViewMode;
  wide: boolean;
}

/**
 * The list itself: skeletons, the error card, the empty state, the table or the cards. Memoised,
 * so a render that changes only the section's pending state (Apply Filters) leaves the cards be.
 */
const PriceList = memo(function PriceList({
  data,
  error,
  onRetry,
  filters,
  onClearFilters,
  pageSize,
  view,
  wide,
}: PriceListProps) {
  if (data === undefined && !error) {
    return (
      <SimpleGrid columns={GRID_COLUMNS} gap="4" role="status" aria-label="Loading prices">
        {Array.from({ length: pageSize }, (_, i) => (
          <PriceCardSkeleton key={i} />
        ))}
      </SimpleGrid>
    );
  }
  if (error && !data) return <ErrorCard title="Unable to load prices" message={error.message} onRetry={onRetry} />;
  if (!data || data.total === 0) {
    return (
      <EmptyState.Root borderWidth="1px" borderColor="border" borderRadius="l3">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuEgg />
          </EmptyState.Indicator>
          <EmptyState.Description color="fg">{EMPTY_TEXT}</EmptyState.Description>
          {activeFilterCount(filters) > 0 && (
            <Button size="sm" variant="outline" colorPalette="gray" onClick={onClearFilters}>
              <LuRotateCcw aria-hidden />
              Clear filters
            </Button>
          )}
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  if (view === 'list') {
    const columns = priceTableColumns(filters.showRegion, wide);
    return (
      <Stack gap="2">
        {!wide && (
          <HStack gap="1.5" textStyle="sm" color="fg.muted">
            <LuHand aria-hidden />
            <Text>Swipe the table sideways to see every column.</Text>
          </HStack>
        )}
        <Table.ScrollArea borderWidth="1px" borderColor="border" borderRadius="l2">
          <Table.Root size="sm" interactive>
            <Table.Caption srOnly>Egg prices, one row per store</Table.Caption>
            <Table.Header>
              <Table.Row bg="bg.subtle">
                {columns.map((column) => (
                  <Table.ColumnHeader key={column.key} whiteSpace="nowrap">
                    {column.label}
                  </Table.ColumnHeader>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {data.items.map((entry) => (
                <PriceRow key={entry.id} entry={entry} showRegion={filters.showRegion} wide={wide} />
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      </Stack>
    );
  }
  return (
    <SimpleGrid as="ul" columns={GRID_COLUMNS} gap="4" listStyleType="none" aria-label="Egg prices">
      {data.items.map((entry) => (
        <li key={entry.id}>
          <PriceCard entry={entry} showRegion={filters.showRegion} />
        </li>
      ))}
    </SimpleGrid>
  );
});

export function EggPricesSection() {
  const { state, fromPreferences, apply, setPage, setView } = useDashboardState();
  const width = useViewportWidth();
  const pageSize = pageSizeForWidth(width);
  const mobile = width < BREAKPOINTS.mobile;
  const wide = width >= BREAKPOINTS.desktop;
  const view: ViewMode = width < PHONE_MAX_WIDTH ? 'grid' : state.view;
  const headingId = useId();
  const listTop = useRef<HTMLDivElement>(null);

  const stores = trpc.stores.list.useQuery();
  const prices = trpc.prices.dashboard.useQuery(
    { filters: state.filters, page: state.page, pageSize },
    { placeholderData: keepPreviousData },
  );

  // Applying filters re-renders much of the page (all of it reads the URL), which takes a slow
  // phone a second or more. As a transition, the list and the Apply button say at once that it
  // is under way (a quick render: the list itself is memoised), and go on saying so until the new
  // page of prices has arrived.
  const [applying, startApplying] = useTransition();
  const [applied, setApplied] = useState(false);
  const applyFilters = (filters: FilterSelection) => {
    setApplied(true);
    startApplying(() => apply(filters));
  };

  const goToPage = (page: number) => {
    setPage(page);
    // Bring the top of the list back into view; the new page replaces the one being read.
    const top = listTop.current;
    if (top && top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: 'start' });
  };

  // The cards render in a background render React slices into short tasks (the skeletons, or the
  // page being replaced, stay up meanwhile), not in one long task when the data arrives.
  const data = useDeferredValue(prices.data);
  // Until the new cards are drawn: the filters applying, the new page on its way, then drawn.
  const updating =
    applying || (prices.isFetching && prices.isPlaceholderData) || (data !== undefined && data !== prices.data);
  // The Apply button is busy for an apply's update, not for a new page of the same filters.
  if (applied && !updating) setApplied(false);
  const { refetch } = prices;
  const onRetry = useCallback(() => void refetch(), [refetch]);
  const onClearFilters = useCallback(
    () => apply({ ...state.filters, eggType: 'all', store: 'all', region: 'all', countRange: null }),
    [apply, state.filters],
  );
  const content = (
    <PriceList
      data={data}
      error={prices.error}
      onRetry={onRetry}
      filters={state.filters}
      onClearFilters={onClearFilters}
      pageSize={pageSize}
      view={view}
      wide={wide}
    />
  );

  return (
    <Stack gap="4">
      {!mobile && (
        <FiltersPanel
          applied={state.filters}
          onApply={applyFilters}
          storeOptions={storeOptions(stores.data)}
          mobile={false}
          applying={applied && updating}
        />
      )}
      <Box as="section" aria-labelledby={headingId} ref={listTop} scrollMarginTop="24">
        <HStack justify="space-between" gap="3" mb="4" wrap="wrap">
          <HStack gap="3" align="flex-start">
            <Box>
              <Heading as="h2" size="lg" id={headingId}>
                Egg Prices
              </Heading>
              <Text textStyle="sm" color="fg.muted">
                {state.filters.sortBy === 'price'
                  ? cheapestHeading(state.filters.countRange)
                  : SORT_DESCRIPTIONS[state.filters.sortBy]}
              </Text>
            </Box>
            <Box role="status" aria-live="polite" pt="1.5">
              {updating && (
                <HStack gap="1.5" textStyle="sm" color="fg.muted">
                  <Spinner size="sm" color="brand.solid" />
                  Updating prices...
                </HStack>
              )}
            </Box>
          </HStack>
          <HStack gap="3" wrap="wrap">
            <DownloadLink
              href={eggPricesCsvHref(state.filters)}
              context="of every current price matching the filters"
            />
            {mobile && (
              <FiltersPanel
                applied={state.filters}
                onApply={applyFilters}
                storeOptions={storeOptions(stores.data)}
                mobile
                applying={applied && updating}
              />
            )}
            <ViewToggle view={view} onChange={setView} width={width} />
          </HStack>
        </HStack>
        {Object.keys(fromPreferences).length > 0 && (
          <PreferencesNote
            applied={fromPreferences}
            onShowAll={() =>
              applyFilters({
                ...state.filters,
                ...(fromPreferences.eggType ? { eggType: 'all' } : {}),
                ...(fromPreferences.region ? { region: 'all' } : {}),
                ...(fromPreferences.countRange ? { countRange: null } : {}),
              })
            }
          />
        )}
        <Box
          aria-busy={updating || prices.isFetching || undefined}
          opacity={updating ? 0.6 : 1}
          transition="opacity 0.2s"
        >
          {content}
        </Box>
        {data && data.total > 0 && (
          <Box mt="6">
            <Pagination
              page={data.page}
              pageCount={data.pageCount}
              pageSize={data.pageSize}
              total={data.total}
              onPageChange={goToPage}
              mobile={mobile}
              label="Egg prices pages"
            />
          </Box>
        )}
      </Box>
    </Stack>
  );
}
