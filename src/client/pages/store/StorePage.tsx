// The store page: the store's logo, name and regions, filters built from
// the values in its prices (stores.filterOptions), and the Price Data, Price Trends and
// Competitive Analysis tabs. Price Data pages its cards, cheapest per dozen first, at the
// dashboard's page sizes with its pagination. The filters and the page live in the URL
// (?region=&type=&count=&page=), so a view can be shared and survives a reload.
import { Box, Button, HStack, Heading, Link, SimpleGrid, Skeleton, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { LuArrowLeft, LuStore } from 'react-icons/lu';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useUrlSearch } from '#client/lib/useSearchParam.ts';
import { useViewportWidth } from '#client/lib/useViewportWidth.ts';
import { BREAKPOINTS, pageSizeForWidth } from '#shared/pagination.ts';
import { Pagination } from '#client/components/Pagination.tsx';
import {
  EGG_TYPES,
  EGG_TYPE_LABELS,
  EGG_TYPE_SLUGS,
  REGIONS,
  REGION_LABELS,
  parseEggType,
  parseRegion,
} from '#shared/vocabulary.ts';
import { DownloadLink } from '#client/components/DownloadLink.tsx';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { FilterSelect, type FilterOption } from '#client/components/FilterSelect.tsx';
import { PriceCardGrid } from '#client/components/PriceCardGrid.tsx';
import { StoreLogo } from '#client/components/StoreLogo.tsx';
import { downloadHref } from '#client/lib/links.ts';
import { trpc } from '#client/lib/trpc.ts';
import { CompetitiveAnalysis, PriceTrends } from './StoreTabs.tsx';
import { StoreLocationFigures } from './StoreLocationFigures.tsx';

export const NO_STORE_ID_MESSAGE = 'Store ID not provided';

function BackToDashboard() {
  return (
    <Link asChild color="fg.muted" fontSize="sm" _hover={{ color: 'fg' }} alignSelf="flex-start">
      <RouterLink to="/">
        <LuArrowLeft aria-hidden />
        Back to Dashboard
      </RouterLink>
    </Link>
  );
}

function Message({ title, text }: { title: string; text?: string }) {
  return (
    <Stack gap="4" align="center" textAlign="center" py={{ base: '10', md: '16' }}>
      <Box color="fg.subtle" fontSize="4xl" aria-hidden>
        <LuStore />
      </Box>
      <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
        {title}
      </Heading>
      {text && <Text color="fg.muted">{text}</Text>}
      <Button asChild variant="solid" mt="2">
        <RouterLink to="/">
          <LuArrowLeft aria-hidden />
          Back to Dashboard
        </RouterLink>
      </Button>
    </Stack>
  );
}

/** The values present in the store's prices (stores.filterOptions), in the vocabulary's order. */
function filterOptions(
  present: { regions: readonly string[]; egg_types: readonly string[]; counts: readonly number[] } | undefined,
) {
  const regions = REGIONS.filter((r) => present?.regions.includes(r));
  const types = EGG_TYPES.filter((t) => present?.egg_types.includes(t));
  const counts = [...new Set(present?.counts ?? [])].sort((a, b) => a - b);
  return {
    region: [
      { value: '', label: 'All Regions' },
      ...regions.map((r) => ({ value: r, label: REGION_LABELS[r] })),
    ] as FilterOption[],
    type: [
      { value: '', label: 'All Egg Types' },
      ...types.map((t) => ({ value: EGG_TYPE_SLUGS[t], label: EGG_TYPE_LABELS[t] })),
    ] as FilterOption[],
    count: [
      { value: '', label: 'Any Count' },
      ...counts.map((c) => ({ value: String(c), label: `${c} eggs` })),
    ] as FilterOption[],
  };
}

const TABS = [
  { value: 'prices', label: 'Price Data' },
  { value: 'trends', label: 'Price Trends' },
  { value: 'competitive', label: 'Competitive Analysis' },
] as const;

/** The page in the URL: a whole number from 1, else 1. */
function parsePage(raw: string | null): number {
  const page = raw !== null && /^\d+$/.test(raw.trim()) ? Number(raw) : 1;
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

function StoreView({ storeId }: { storeId: string }) {
  const [params, updateSearch] = useUrlSearch();
  // A filter's change goes back to the first page; the history entry is replaced, so Back leaves the page.
  const setParam = (key: string, value: string) =>
    updateSearch(
      (next) => {
        if (value) next.set(key, value);
        else next.delete(key);
        if (key !== 'page') next.delete('page');
        return next;
      },
      { replace: true },
    );
  const setFilter = setParam;
  const width = useViewportWidth();
  const pageSize = pageSizeForWidth(width);
  const mobile = width < BREAKPOINTS.mobile;
  const [tab, setTab] = useState<string>('prices');
  // The store comes from the (shared, cached) store list, so an unknown id is known without a
  // request that fails.
  const stores = trpc.stores.list.useQuery();
  const data = stores.data?.find((s) => s.id === storeId.trim().toLowerCase());
  const found = data !== undefined;
  const prices = trpc.stores.filterOptions.useQuery({ storeId }, { enabled: found });
  const options = filterOptions(prices.data);

  // A filter value in the URL counts only once the store's prices show it exists.
  const pick = (key: string, list: FilterOption[]) => {
    const value = params.get(key) ?? '';
    return list.some((o) => o.value === value) ? value : '';
  };
  const region = pick('region', options.region);
  const type = pick('type', options.type);
  const count = pick('count', options.count);

  const insights = trpc.stores.insights.useQuery(
    {
      storeId,
      region: parseRegion(region) ?? undefined,
      egg_type: parseEggType(type) ?? undefined,
      count: count ? Number(count) : undefined,
      page: parsePage(params.get('page')),
      pageSize,
    },
    { enabled: found && prices.isSuccess, placeholderData: keepPreviousData },
  );

  if (stores.isError) {
    return (
      <Stack gap="6">
        <BackToDashboard />
        <ErrorCard
          title="Unable to load this store"
          message={stores.error.message}
          onRetry={() => void stores.refetch()}
        />
      </Stack>
    );
  }
  if (stores.isSuccess && !found) {
    return <Message title="Store not found" text={`We couldn't find a store with the ID '${storeId}'.`} />;
  }

  const updating = insights.isFetching && insights.isPlaceholderData;
  return (
    <Stack gap={{ base: '5', md: '6' }}>
      <BackToDashboard />
      <HStack gap="4" align="center">
        {data ? (
          <StoreLogo name={data.store_name} url={data.store_logo_url} size="2xl" />
        ) : (
          <Skeleton boxSize="16" borderRadius="md" />
        )}
        <Box minW="0">
          {data ? (
            <>
              <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
                {data.store_name}
              </Heading>
              <Text color="fg.muted">
                Regions: {data.regions_served.map((r) => REGION_LABELS[r]).join(', ') || 'None'}
              </Text>
            </>
          ) : (
            <Stack gap="2" role="status" aria-label="Loading store">
              <Skeleton height="8" width="48" />
              <Skeleton height="4" width="64" />
            </Stack>
          )}
        </Box>
      </HStack>

      <Box
        as="section"
        aria-label="Filters"
        borderWidth="1px"
        borderRadius="lg"
        p={{ base: '3', md: '4' }}
        bg="bg.subtle"
      >
        {prices.isError ? (
          <ErrorCard
            title="Unable to load this store's prices"
            message={prices.error.message}
            onRetry={() => void prices.refetch()}
          />
        ) : (
          <SimpleGrid columns={{ base: 1, sm: 3 }} gap={{ base: '3', md: '4' }}>
            <FilterSelect
              label="Region"
              value={region}
              options={options.region}
              onChange={(v) => setFilter('region', v)}
              disabled={!prices.isSuccess}
            />
            <FilterSelect
              label="Egg Type"
              value={type}
              options={options.type}
              onChange={(v) => setFilter('type', v)}
              disabled={!prices.isSuccess}
            />
            <FilterSelect
              label="Count"
              value={count}
              options={options.count}
              onChange={(v) => setFilter('count', v)}
              disabled={!prices.isSuccess}
            />
          </SimpleGrid>
        )}
      </Box>

      <Tabs.Root
        value={tab}
        onValueChange={(details) => setTab(details.value)}
        lazyMount
        unmountOnExit
        variant="line"
        colorPalette="brand"
      >
        <HStack justify="space-between" align="flex-end" gap="2">
          <Tabs.List overflowX="auto" overflowY="hidden" flex="1" css={{ scrollbarWidth: 'thin' }}>
            {TABS.map((t) => (
              <Tabs.Trigger key={t.value} value={t.value} whiteSpace="nowrap" flexShrink={0}>
                {t.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {updating && <Spinner size="sm" color="brand.solid" aria-label="Updating" mb="2" />}
        </HStack>
        {insights.isError ? (
          <Box pt="4">
            <ErrorCard
              title="Unable to load this store's prices"
              message={insights.error.message}
              onRetry={() => void insights.refetch()}
            />
          </Box>
        ) : (
          <>
            <Tabs.Content value="prices">
              <Stack gap="3">
                <StoreLocationFigures
                  storeName={data?.store_name ?? 'Store'}
                  figures={insights.data?.location_figures}
                  loading={insights.isPending}
                />
                {data && (
                  <HStack justify="flex-end">
                    <DownloadLink
                      href={downloadHref(`/api/stores/${encodeURIComponent(data.id)}/prices.csv`, {
                        region,
                        egg_type: parseEggType(type),
                        count,
                      })}
                      context={`of ${data.store_name}'s prices matching the filters`}
                    />
                  </HStack>
                )}
                <PriceCardGrid
                  entries={insights.data?.entries}
                  loading={insights.isPending}
                  placeholders={pageSize}
                  label={`${data?.store_name ?? 'Store'} prices`}
                />
                {insights.data && insights.data.total > 0 && (
                  <Box mt="3">
                    <Pagination
                      page={insights.data.page}
                      pageCount={insights.data.pageCount}
                      pageSize={insights.data.pageSize}
                      total={insights.data.total}
                      onPageChange={(page) => setParam('page', page > 1 ? String(page) : '')}
                      mobile={mobile}
                      label={`${data?.store_name ?? 'Store'} prices pages`}
                    />
                  </Box>
                )}
              </Stack>
            </Tabs.Content>
            <Tabs.Content value="trends">
              <PriceTrends storeName={data?.store_name ?? ''} data={insights.data} />
            </Tabs.Content>
            <Tabs.Content value="competitive">
              <CompetitiveAnalysis storeName={data?.store_name ?? ''} data={insights.data} />
            </Tabs.Content>
          </>
        )}
      </Tabs.Root>
    </Stack>
  );
}

export default function StorePage() {
  const { storeId } = useParams();
  if (!storeId?.trim())
    return <Message title={NO_STORE_ID_MESSAGE} text="Choose a store from the dashboard to see its prices." />;
  return <StoreView key={storeId} storeId={storeId} />;
}
