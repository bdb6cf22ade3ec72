// The store page (SPEC §2 "Store page"): the store's logo, name and regions, filters built from
// the values in its prices, and the Price Data, Price Trends and Competitive Analysis tabs. The
// filters live in the URL (?region=&type=&count=), so a filtered view can be shared and survives
// a reload.
import { Box, Button, HStack, Heading, Link, SimpleGrid, Skeleton, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { LuArrowLeft, LuStore } from 'react-icons/lu';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useSearchParam } from '#client/lib/useSearchParam.ts';
import { EGG_TYPES, EGG_TYPE_LABELS, EGG_TYPE_SLUGS, REGIONS, REGION_LABELS, parseEggType, parseRegion } from '#shared/vocabulary.ts';
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

/** The values present in the store's prices, in the vocabulary's order (SPEC §2). */
function filterOptions(entries: ReadonlyArray<{ region: string; egg_type: string; count: number }> | undefined) {
  const regions = REGIONS.filter((r) => entries?.some((e) => e.region === r));
  const types = EGG_TYPES.filter((t) => entries?.some((e) => e.egg_type === t));
  const counts = [...new Set(entries?.map((e) => e.count) ?? [])].sort((a, b) => a - b);
  return {
    region: [{ value: '', label: 'All Regions' }, ...regions.map((r) => ({ value: r, label: REGION_LABELS[r] }))] as FilterOption[],
    type: [{ value: '', label: 'All Egg Types' }, ...types.map((t) => ({ value: EGG_TYPE_SLUGS[t], label: EGG_TYPE_LABELS[t] }))] as FilterOption[],
    count: [{ value: '', label: 'Any Count' }, ...counts.map((c) => ({ value: String(c), label: `${c} eggs` }))] as FilterOption[],
  };
}

const TABS = [
  { value: 'prices', label: 'Price Data' },
  { value: 'trends', label: 'Price Trends' },
  { value: 'competitive', label: 'Competitive Analysis' },
] as const;

function StoreView({ storeId }: { storeId: string }) {
  const [params, setFilter] = useSearchParam();
  const [tab, setTab] = useState<string>('prices');
  // The store comes from the (shared, cached) store list, so an unknown id is known without a
  // request that fails.
  const stores = trpc.stores.list.useQuery();
  const data = stores.data?.find((s) => s.id === storeId.trim().toLowerCase());
  const found = data !== undefined;
  const prices = trpc.stores.prices.useQuery({ storeId }, { enabled: found });
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
    },
    { enabled: found && prices.isSuccess, placeholderData: keepPreviousData },
  );

  if (stores.isError) {
    return (
      <Stack gap="6">
        <BackToDashboard />
        <ErrorCard title="Unable to load this store" message={stores.error.message} onRetry={() => void stores.refetch()} />
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
        {data ? <StoreLogo name={data.store_name} url={data.store_logo_url} size="2xl" /> : <Skeleton boxSize="16" borderRadius="md" />}
        <Box minW="0">
          {data ? (
            <>
              <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
                {data.store_name}
              </Heading>
              <Text color="fg.muted">Regions: {data.regions_served.map((r) => REGION_LABELS[r]).join(', ') || 'None'}</Text>
            </>
          ) : (
            <Stack gap="2" role="status" aria-label="Loading store">
              <Skeleton height="8" width="48" />
              <Skeleton height="4" width="64" />
            </Stack>
          )}
        </Box>
      </HStack>

      <Box as="section" aria-label="Filters" borderWidth="1px" borderRadius="lg" p={{ base: '3', md: '4' }} bg="bg.subtle">
        {prices.isError ? (
          <ErrorCard title="Unable to load this store's prices" message={prices.error.message} onRetry={() => void prices.refetch()} />
        ) : (
          <SimpleGrid columns={{ base: 1, sm: 3 }} gap={{ base: '3', md: '4' }}>
            <FilterSelect label="Region" value={region} options={options.region} onChange={(v) => setFilter('region', v)} disabled={!prices.isSuccess} />
            <FilterSelect label="Egg Type" value={type} options={options.type} onChange={(v) => setFilter('type', v)} disabled={!prices.isSuccess} />
            <FilterSelect label="Count" value={count} options={options.count} onChange={(v) => setFilter('count', v)} disabled={!prices.isSuccess} />
          </SimpleGrid>
        )}
      </Box>

      <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value)} lazyMount unmountOnExit variant="line" colorPalette="brand">
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
            <ErrorCard title="Unable to load this store's prices" message={insights.error.message} onRetry={() => void insights.refetch()} />
          </Box>
        ) : (
          <>
            <Tabs.Content value="prices">
              <Stack gap="3">
                <StoreLocationFigures storeName={data?.store_name ?? 'Store'} figures={insights.data?.location_figures} loading={insights.isPending} />
                {data && (
                  <HStack justify="flex-end">
                    <DownloadLink
                      href={downloadHref(`/api/stores/${encodeURIComponent(data.id)}/prices.csv`, { region, egg_type: parseEggType(type), count })}
                      context={`of ${data.store_name}'s prices matching the filters`}
                    />
                  </HStack>
                )}
                <PriceCardGrid entries={insights.data?.entries} loading={insights.isPending} label={`${data?.store_name ?? 'Store'} prices`} />
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
  if (!storeId?.trim()) return <Message title={NO_STORE_ID_MESSAGE} text="Choose a store from the dashboard to see its prices." />;
  return <StoreView key={storeId} storeId={storeId} />;
}
