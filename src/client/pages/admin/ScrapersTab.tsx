// The admin dashboard's Data Scrapers tab: a shared ZIP code list (a bad one is marked
// at the field) with Run all, one card per store with its Run button, status box, live progress
// and freshness, and the last 10 runs of a store (the store last chosen is remembered).
import { Box, Button, Card, Flex, Heading, HStack, NativeSelect, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LuPlay } from 'react-icons/lu';
import { DEFAULT_SCRAPE_ZIPS, SCRAPER_NAMES } from '#shared/scrape.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import { ScraperCard } from '#client/components/scrapers/ScraperCard.tsx';
import { Freshness } from '#client/components/scrapers/ScraperStatusBox.tsx';
import { useAllScraperStatus, useStartAllScrapers } from '#client/components/scrapers/useScrapers.ts';
import { useZipList, ZipCodesField } from '#client/components/scrapers/ZipCodesField.tsx';
import { useStoredChoice } from '#client/lib/storedChoice.ts';
import { EgressCard } from './EgressCard.tsx';
import { RunHistory } from './RunHistory.tsx';

/** Where the store Recent runs shows is remembered in this browser. */
export const RUNS_STORE_KEY = 'eggwatch.admin.runsStore';
/** The retailer the egress card shows is remembered in this browser. */
export const EGRESS_STORE_KEY = 'eggwatch.admin.egressStore';

/** A store to show; `label` names what for, as the tab has two of them. */
function StorePicker({
  label,
  value,
  onChange,
}: {
  label: string;
  value: StoreId;
  onChange: (store: StoreId) => void;
}) {
  return (
    <NativeSelect.Root size="sm" width="auto">
      <NativeSelect.Field
        aria-label={label}
        value={value}
        onChange={(event) => onChange(event.target.value as StoreId)}
      >
        {STORE_IDS.map((store) => (
          <option key={store} value={store}>
            {SCRAPER_NAMES[store]}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

export function ScrapersTab() {
  const zips = useZipList(DEFAULT_SCRAPE_ZIPS.join(', '));
  const [historyStore, setHistoryStore] = useStoredChoice<StoreId>(RUNS_STORE_KEY, STORE_IDS, 'walmart');
  const [egressStore, setEgressStore] = useStoredChoice<StoreId>(EGRESS_STORE_KEY, STORE_IDS, 'walmart');
  const statuses = useAllScraperStatus();
  const startAll = useStartAllScrapers();

  return (
    <Stack gap="6">
      <Flex gap="3" align={{ base: 'stretch', md: 'flex-start' }} direction={{ base: 'column', md: 'row' }} maxW="3xl">
        <Box flex="1" minW="0">
          <ZipCodesField
            list={zips}
            label="ZIP codes for every scraper"
            helper="Comma-separated, up to 25. Each scraper finds its store nearest each ZIP code."
            placeholder={DEFAULT_SCRAPE_ZIPS.slice(0, 3).join(', ')}
          />
        </Box>
        <Button
          colorPalette="brand"
          variant="outline"
          mt={{ base: '0', md: '6' }}
          loading={startAll.isPending}
          loadingText="Starting..."
          onClick={() => {
            zips.check();
            startAll.mutate({ zipCodes: zips.zipCodes });
          }}
        >
          <LuPlay aria-hidden />
          Run all
        </Button>
      </Flex>
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
        {STORE_IDS.map((store) => (
          <ScraperCard
            key={store}
            store={store}
            zipCodes={zips.zipCodes}
            onRun={zips.check}
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
                The last 10 runs of a store, newest first. Open a run for each ZIP code's outcome.
              </Text>
            </Box>
            <StorePicker label="Store of the recent runs" value={historyStore} onChange={setHistoryStore} />
          </HStack>
        </Card.Header>
        <Card.Body>
          <RunHistory store={historyStore} active={statuses.data?.[historyStore].active ?? false} />
        </Card.Body>
      </Card.Root>
      <EgressCard
        store={egressStore}
        picker={<StorePicker label="Store of the egress card" value={egressStore} onChange={setEgressStore} />}
      />
    </Stack>
  );
}
