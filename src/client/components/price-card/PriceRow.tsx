// A price entry as a table row (the dashboard's list view). Like a card, each row keeps its own
// region, egg type and count overrides and re-prices itself.
import { Box, HStack, Link, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { RelativeTime } from '#client/components/RelativeTime.tsx';
import {
  CountMenu,
  EggTypeMenu,
  EstimateBadge,
  RegionMenu,
  SampleBadge,
  TrendValue,
  historyTarget,
  sparklineLabel,
  storeHref,
  trendToken,
} from './PriceCard.tsx';
import { HistoryLink } from './HistoryLink.tsx';
import { Sparkline } from './Sparkline.tsx';
import { StockBadge, WasPrice } from './StockAndPromotion.tsx';
import type { CardEntry } from './priceView.ts';
import { usePriceCard } from './usePriceCard.ts';
import { LocationFiguresLine } from './LocationFiguresLine.tsx';
import { isSampleSource } from '#shared/vocabulary.ts';
import { formatHistoryDays, formatLocation } from '#shared/format.ts';

export interface PriceRowProps {
  entry: CardEntry;
  /** The Region column is shown. */
  showRegion: boolean;
  /** Wide screens (1024 px and up) also show the sparkline and update time. */
  wide: boolean;
}

export function PriceRow({ entry, showRegion, wide }: PriceRowProps) {
  const { selection, select, view, figures } = usePriceCard(entry);
  const storeName = entry.store_name || entry.store_id;
  const menu = { selection, select, storeName, compact: true };
  const loading = view.kind === 'loading';
  const history = historyTarget(view, storeName);
  return (
    <Table.Row aria-busy={loading || undefined}>
      <Table.Cell>
        <Stack gap="1" align="flex-start">
          <Link asChild fontWeight="semibold" color="fg" _hover={{ color: 'brand.fg' }}>
            <RouterLink to={storeHref(entry.store_id)}>{storeName}</RouterLink>
          </Link>
          {view.kind === 'observed' && (
            <Text textStyle="xs" color="fg.muted" overflowWrap="anywhere" maxW="48">
              {formatLocation(view.entry)}
            </Text>
          )}
          {!loading && isSampleSource(view.source) && <SampleBadge />}
        </Stack>
      </Table.Cell>
      {showRegion && (
        <Table.Cell minW="32">
          <RegionMenu {...menu} />
        </Table.Cell>
      )}
      <Table.Cell minW="36">
        <EggTypeMenu {...menu} />
      </Table.Cell>
      <Table.Cell minW="20">
        <CountMenu {...menu} />
      </Table.Cell>
      <Table.Cell aria-live="polite">
        {loading ? (
          <Skeleton height="5" width="24" />
        ) : (
          <Stack gap="0.5" align="flex-start">
            <HStack gap="2" wrap="wrap">
              <Text fontWeight="bold" whiteSpace="nowrap">
                {view.priceText}
              </Text>
              {view.kind === 'observed' && <WasPrice entry={view.entry} />}
              {view.kind === 'estimate' && <EstimateBadge explanation={view.explanation} />}
            </HStack>
            {view.kind === 'observed' && <StockBadge entry={view.entry} />}
            {history && <HistoryLink {...history} label="History" />}
            <Box maxW="56" whiteSpace="normal">
              <LocationFiguresLine figures={figures} storeName={storeName} />
            </Box>
          </Stack>
        )}
      </Table.Cell>
      <Table.Cell whiteSpace="nowrap">
        {loading ? (
          <Skeleton height="5" width="20" />
        ) : (
          <Stack gap="0">
            <Text>{view.dozenText}</Text>
            <Text textStyle="xs" color="fg.muted">
              {view.unitText}
            </Text>
          </Stack>
        )}
      </Table.Cell>
      <Table.Cell>
        {loading ? (
          <Skeleton height="5" width="14" />
        ) : view.trendValue === null ? (
          <Text as="span" textStyle="xs" color="fg.muted">
            {formatHistoryDays(view.history.length)}
          </Text>
        ) : (
          <TrendValue value={view.trendValue} direction={view.trendDirection} />
        )}
      </Table.Cell>
      {wide && (
        <>
          <Table.Cell minW="28">
            {loading ? (
              <Skeleton height="8" />
            ) : (
              <Sparkline
                values={view.history}
                color={trendToken(view.trendDirection)}
                dashed={view.kind === 'estimate'}
                label={sparklineLabel(view)}
                height="8"
              />
            )}
          </Table.Cell>
          <Table.Cell whiteSpace="nowrap" color="fg.muted" textStyle="sm">
            {loading ? <Skeleton height="4" width="20" /> : <RelativeTime iso={view.lastUpdated} />}
          </Table.Cell>
        </>
      )}
    </Table.Row>
  );
}

export interface PriceTableColumn {
  key: string;
  label: string;
  numeric?: boolean;
}

/** The list view's columns; below 1024 px the sparkline and update time are dropped. */
export function priceTableColumns(showRegion: boolean, wide: boolean): PriceTableColumn[] {
  return [
    { key: 'store', label: 'Store' },
    ...(showRegion ? [{ key: 'region', label: 'Region' }] : []),
    { key: 'type', label: 'Egg Type' },
    { key: 'count', label: 'Count' },
    { key: 'price', label: 'Price' },
    { key: 'unit', label: 'Per Dozen / Egg' },
    { key: 'trend', label: '7-Day Trend' },
    ...(wide
      ? [
          { key: 'history', label: 'Last 7 Days' },
          { key: 'updated', label: 'Updated' },
        ]
      : []),
  ];
}
