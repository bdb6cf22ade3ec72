// A scraper's status box: active, last run ('Never'), next run ('Not scheduled') and the
// message, which while a run is active says how far it is, above its progress bar; and how fresh
// the store's prices are (flagged after 48 hours). Times name their zone.
import { Badge, Box, DataList, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import type { ScraperStatus } from '#shared/scrape.ts';
import { STALE_AFTER_HOURS } from '#shared/scrape.ts';
import { RelativeTime } from '#client/components/RelativeTime.tsx';
import { formatWhen } from '#client/lib/dateTime.ts';

export interface ScraperStatusBoxProps {
  status: ScraperStatus;
  /** 'yes-no': the dashboard card's 'Active Yes/No'; 'active-idle': the admin cards' 'Active'/'Idle'. */
  activeStyle: 'yes-no' | 'active-idle';
  /** Accessible name of the progress bar. */
  label: string;
}

/** A run's progress bar; its words are the status message's (one wording: runProgressText). */
export function RunProgress({ status, label }: { status: ScraperStatus; label: string }) {
  const run = status.run;
  if (!status.active || !run) return null;
  const queued = run.status === 'queued';
  return (
    <Progress.Root value={queued ? null : run.progress} max={Math.max(run.total, 1)} size="sm" colorPalette="brand">
      <Progress.Track
        aria-label={label}
        aria-valuetext={queued ? 'Queued' : `${run.progress} of ${run.total} ZIP codes`}
      >
        <Progress.Range />
      </Progress.Track>
    </Progress.Root>
  );
}

export function Freshness({ status }: { status: ScraperStatus }) {
  if (!status.lastSuccessAt) {
    return (
      <Badge colorPalette="gray" variant="subtle" alignSelf="flex-start">
        No prices yet
      </Badge>
    );
  }
  return (
    <HStack gap="2" wrap="wrap">
      <Text textStyle="xs" color="fg.muted">
        Prices from <RelativeTime iso={status.lastSuccessAt} midSentence />
      </Text>
      {status.stale && (
        <Badge colorPalette="orange" variant="subtle" title={`No new prices for more than ${STALE_AFTER_HOURS} hours`}>
          Stale
        </Badge>
      )}
    </HStack>
  );
}

export function ScraperStatusBox({ status, activeStyle, label }: ScraperStatusBoxProps) {
  const active = activeStyle === 'yes-no' ? (status.active ? 'Yes' : 'No') : status.active ? 'Active' : 'Idle';
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="bg.subtle" role="status" aria-label={`${label} status`}>
      <Stack gap="3">
        <DataList.Root orientation="horizontal" size="sm" gap="1.5">
          <DataList.Item>
            <DataList.ItemLabel>{activeStyle === 'yes-no' ? 'Active' : 'Status'}</DataList.ItemLabel>
            <DataList.ItemValue>
              <Badge colorPalette={status.active ? 'green' : 'gray'} variant="subtle">
                {active}
              </Badge>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Last Run</DataList.ItemLabel>
            <DataList.ItemValue>{formatWhen(status.lastRun, 'Never')}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Next Run</DataList.ItemLabel>
            <DataList.ItemValue>{formatWhen(status.nextScheduledRun, 'Not scheduled')}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
        <RunProgress status={status} label={`${label} progress`} />
        <Text textStyle="sm" overflowWrap="anywhere">
          {status.message}
        </Text>
      </Stack>
    </Box>
  );
}
