// One store's scraper card: its Run button ('Run {Store} Scraper', 'Run Scraper' on small
// screens, 'Running...' while the start is pending) and its status box, with the loading and
// 'Status Unavailable' states.
import { Box, Button, Card, Heading, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuPlay, LuRotateCw } from 'react-icons/lu';
import type { ScraperStatus } from '#shared/scrape.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { ScraperStatusBox } from './ScraperStatusBox.tsx';
import { useStartScraper } from './useScrapers.ts';

export const STATUS_UNAVAILABLE = 'Unable to fetch the current scraper status. Please try refreshing the page.';

export interface ScraperCardProps {
  store: StoreId;
  /** The ZIP codes to send, as typed (the server trims, deduplicates and checks them). */
  zipCodes: string[];
  status: ScraperStatus | undefined;
  statusFailed: boolean;
  onRetryStatus: () => void;
  activeStyle: 'yes-no' | 'active-idle';
  /** The dashboard card's texts. */
  dashboard?: boolean;
  title?: string;
  /** Above the Run button (the dashboard card's ZIP input). */
  children?: ReactNode;
  /** Below the status box (the admin cards' freshness). */
  footer?: ReactNode;
  /** Told of every Run click (the ZIP field then shows what is wrong with the list). */
  onRun?: () => void;
}

export function StatusUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <Box borderWidth="1px" borderColor="red.muted" borderRadius="md" p="3" bg="red.subtle/40" role="alert">
      <Text fontWeight="semibold">Status Unavailable</Text>
      <Text textStyle="sm">{STATUS_UNAVAILABLE}</Text>
      <Button mt="2" size="xs" variant="outline" colorPalette="gray" onClick={onRetry}>
        <LuRotateCw aria-hidden />
        Retry
      </Button>
    </Box>
  );
}

export function ScraperCard({
  store,
  zipCodes,
  status,
  statusFailed,
  onRetryStatus,
  activeStyle,
  dashboard,
  title,
  children,
  footer,
  onRun,
}: ScraperCardProps) {
  const start = useStartScraper({ dashboard: dashboard ?? false });
  const name = SCRAPER_NAMES[store];
  const busy = start.isPending;
  return (
    <Card.Root variant="outline" size="sm" height="full">
      <Card.Header>
        <Heading as="h3" size="md">
          {title ?? name}
        </Heading>
      </Card.Header>
      <Card.Body gap="3">
        {children}
        <HStack>
          <Button
            colorPalette="brand"
            size="sm"
            loading={busy}
            loadingText="Running..."
            disabled={status?.active}
            aria-label={busy ? undefined : `Run ${name} Scraper`}
            onClick={() => {
              onRun?.();
              start.mutate({ store, zipCodes });
            }}
          >
            <LuPlay aria-hidden />
            <Box as="span" display={{ base: 'inline', md: 'none' }}>
              Run Scraper
            </Box>
            <Box as="span" display={{ base: 'none', md: 'inline' }}>
              Run {name} Scraper
            </Box>
          </Button>
        </HStack>
        {statusFailed ? (
          <StatusUnavailable onRetry={onRetryStatus} />
        ) : status ? (
          <ScraperStatusBox status={status} activeStyle={activeStyle} label={`${name} scraper`} />
        ) : (
          <Stack gap="2" role="status" aria-label={`Loading the ${name} scraper status`}>
            <Skeleton height="4" width="40%" />
            <Skeleton height="4" width="60%" />
            <Skeleton height="4" width="50%" />
          </Stack>
        )}
        {footer}
      </Card.Body>
    </Card.Root>
  );
}
