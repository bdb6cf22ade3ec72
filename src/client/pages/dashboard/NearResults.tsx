// The ranked listings of Near you: a table from 1024 px, a list of cards below. Each row names
// the store (logo and name), the location, the distance, the pack price, the price per dozen and
// per egg, the egg type and size, when it was updated, the change since the day before, and
// links to the product's price history at that location.
import { Badge, Box, Card, HStack, Icon, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { LuClock, LuMapPin, LuMoveHorizontal } from 'react-icons/lu';
import type { NearEntry } from '#shared/near.ts';
import { formatPackPrice, formatPrice, formatWasPrice } from '#shared/format.ts';
import { EGG_TYPE_LABELS, isSampleSource } from '#shared/vocabulary.ts';
import { RelativeTime } from '#client/components/RelativeTime.tsx';
import { StoreLogo } from '#client/components/StoreLogo.tsx';
import { TruncatedText } from '#client/components/TruncatedText.tsx';
import { HistoryLink } from '#client/components/price-card/HistoryLink.tsx';
import { SampleBadge } from '#client/components/price-card/PriceCard.tsx';
import { StockBadge, WasPrice } from '#client/components/price-card/StockAndPromotion.tsx';
import { useOverflowsX } from '#client/lib/useOverflowsX.ts';
import { changeOf, DISTANCE_UNKNOWN, formatDistance, locationOf } from './nearView.ts';

export interface NearResultsProps {
  entries: readonly NearEntry[];
  /** Store logos by store id, from the store list. */
  logos: ReadonlyMap<string, string | null>;
  label: string;
  table: boolean;
}

const CHANGE_COLORS = { up: 'trend.up', down: 'trend.down', same: 'trend.stable', none: 'fg.muted' } as const;

function Change({ entry }: { entry: NearEntry }) {
  const change = changeOf(entry);
  return (
    <Text
      as="span"
      color={CHANGE_COLORS[change.direction]}
      fontWeight={change.direction === 'up' || change.direction === 'down' ? 'semibold' : 'normal'}
      whiteSpace="nowrap"
      title={change.description}
    >
      <span aria-hidden>{change.text}</span>
      <VisuallyHidden>{change.description}</VisuallyHidden>
    </Text>
  );
}

function Store({ entry, logo }: { entry: NearEntry; logo: string | null | undefined }) {
  return (
    <HStack gap="2" minW="0" align="center">
      <StoreLogo name={entry.store_name} url={logo} size="xs" decorative />
      <Text as="span" fontWeight="semibold">
        {entry.store_name}
      </Text>
    </HStack>
  );
}

/** '2.3 mi', or 'in 10001' with 'distance unknown' for a store whose distance is not measured. */
function Distance({ entry }: { entry: NearEntry }) {
  if (entry.distance_miles !== null) return <>{formatDistance(entry)}</>;
  return (
    <span title={DISTANCE_UNKNOWN}>
      {formatDistance(entry)}
      <VisuallyHidden>, {DISTANCE_UNKNOWN}</VisuallyHidden>
    </span>
  );
}

function historyContext(entry: NearEntry): string {
  return `${entry.title} at ${entry.store_name}, ${locationOf(entry).name}`;
}

const HEADINGS: ReadonlyArray<{ label: string; numeric?: boolean; wrap?: boolean }> = [
  { label: '#' },
  { label: 'Store' },
  { label: 'Location' },
  { label: 'Distance', numeric: true },
  { label: 'Pack price', numeric: true },
  { label: 'Per dozen', numeric: true },
  { label: 'Egg type, size' },
  { label: 'Updated' },
  // Two short lines rather than one wide one: the column's figures are narrow.
  { label: 'Since yesterday', wrap: true },
  { label: 'History' },
];

/**
 * The table keeps to its box at the widths it is shown at (1024 px and up): the price per egg sits
 * under the price per dozen, long product names are cut to their column (the full text on hover
 * and focus), and location names wrap, whole. Where the box is still narrower than the table, it scrolls sideways,
 * and says so above it.
 */
function NearTable({ entries, logos, label }: Omit<NearResultsProps, 'table'>) {
  const [scrollRef, scrolls] = useOverflowsX<HTMLDivElement>();
  const [atEnd, setAtEnd] = useState(false);
  return (
    <Stack gap="2">
      {scrolls && (
        <HStack gap="1.5" textStyle="sm" color="fg.muted">
          <LuMoveHorizontal aria-hidden />
          <Text>Scroll the table sideways to see every column.</Text>
        </HStack>
      )}
      <Box position="relative">
        <Table.ScrollArea
          ref={scrollRef}
          onScroll={(event) => {
            const box = event.currentTarget;
            setAtEnd(box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
          }}
          borderWidth="1px"
          borderColor="border"
          borderRadius="l2"
          // A box that scrolls is reachable from the keyboard, and says what it holds.
          {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${label} (scrolls sideways)` } : {})}
          _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing' }}
        >
          <Table.Root size="sm" interactive>
            <Table.Caption srOnly>{label}</Table.Caption>
            <Table.Header>
              <Table.Row bg="bg.subtle">
                {HEADINGS.map(({ label: heading, numeric, wrap }) => (
                  <Table.ColumnHeader
                    key={heading}
                    whiteSpace={wrap ? 'normal' : 'nowrap'}
                    minW={wrap ? '20' : undefined}
                    textAlign={numeric ? 'end' : undefined}
                  >
                    {heading === '#' ? <abbr title="Rank">#</abbr> : heading}
                  </Table.ColumnHeader>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {entries.map((entry, index) => {
                const location = locationOf(entry);
                return (
                  <Table.Row key={entry.id}>
                    <Table.Cell color="fg.muted">{index + 1}</Table.Cell>
                    <Table.Cell maxW="64">
                      <HStack gap="2" minW="0" align="center">
                        <StoreLogo name={entry.store_name} url={logos.get(entry.store_id)} size="xs" decorative />
                        <Box minW="0">
                          <HStack gap="2">
                            <Text as="span" fontWeight="semibold" whiteSpace="nowrap">
                              {entry.store_name}
                            </Text>
                            {isSampleSource(entry.source) && <SampleBadge />}
                          </HStack>
                          <TruncatedText textStyle="xs" color="fg.muted">
                            {entry.title}
                          </TruncatedText>
                        </Box>
                      </HStack>
                    </Table.Cell>
                    <Table.Cell minW="40" maxW="56">
                      {/* The whole name, wrapped: the store number is what tells two apart. */}
                      <Text overflowWrap="anywhere">{location.name}</Text>
                      <Text textStyle="xs" color="fg.muted" whiteSpace="nowrap">
                        {location.place}
                      </Text>
                    </Table.Cell>
                    <Table.Cell textAlign="end" whiteSpace="nowrap">
                      <Distance entry={entry} />
                    </Table.Cell>
                    <Table.Cell textAlign="end" whiteSpace="nowrap">
                      {formatPackPrice(entry.price, entry.count)}
                      {formatWasPrice(entry.regular_price, entry.price) && (
                        <Text textStyle="xs" color="fg.muted" textDecoration="line-through">
                          {formatWasPrice(entry.regular_price, entry.price)}
                        </Text>
                      )}
                      <StockBadge entry={entry} compact />
                    </Table.Cell>
                    <Table.Cell textAlign="end" whiteSpace="nowrap">
                      <Text fontWeight="bold">{formatPrice(entry.price_per_dozen)}</Text>
                      <Text textStyle="xs" color="fg.muted">
                        {formatPrice(entry.unit_price)} per egg
                      </Text>
                    </Table.Cell>
                    <Table.Cell>
                      <Text whiteSpace="nowrap">{EGG_TYPE_LABELS[entry.egg_type]}</Text>
                      <Text textStyle="xs" color="fg.muted" whiteSpace="nowrap">
                        {entry.size_grade ?? 'Size not given'}
                      </Text>
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap" color="fg.muted">
                      <RelativeTime iso={entry.last_updated} />
                    </Table.Cell>
                    <Table.Cell>
                      <Change entry={entry} />
                    </Table.Cell>
                    <Table.Cell>
                      <HistoryLink
                        productId={entry.product_id}
                        locationId={entry.location_id}
                        context={historyContext(entry)}
                        label="History"
                      />
                    </Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        {/* A shadow on the edge with more columns beyond it, until the last one is in view. */}
        {scrolls && !atEnd && (
          <Box
            position="absolute"
            insetY="0"
            right="0"
            width="4"
            pointerEvents="none"
            borderRightRadius="l2"
            boxShadow="inset -12px 0 10px -10px rgba(0, 0, 0, 0.35)"
            aria-hidden
          />
        )}
      </Box>
    </Stack>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text as="dt" textStyle="xs" color="fg.muted">
        {label}
      </Text>
      <Box as="dd" fontWeight="medium">
        {children}
      </Box>
    </Box>
  );
}

function NearCard({ entry, rank, logo }: { entry: NearEntry; rank: number; logo: string | null | undefined }) {
  const location = locationOf(entry);
  return (
    <Card.Root
      as="article"
      size="sm"
      variant="outline"
      height="full"
      aria-label={`${rank}. ${entry.store_name}, ${location.name}`}
    >
      <Card.Body gap="3">
        <HStack justify="space-between" align="flex-start" gap="2">
          <HStack gap="2" minW="0">
            <Badge variant="outline" colorPalette="gray" flexShrink={0}>
              <VisuallyHidden>Rank </VisuallyHidden>#{rank}
            </Badge>
            <Store entry={entry} logo={logo} />
          </HStack>
          {isSampleSource(entry.source) && <SampleBadge />}
        </HStack>
        <HStack gap="1.5" textStyle="sm" color="fg.muted" align="flex-start">
          <Icon size="sm" mt="0.5" aria-hidden>
            <LuMapPin />
          </Icon>
          <Text minW="0">
            {location.name}, {location.place} ·{' '}
            <Text as="span" color="fg" fontWeight="medium">
              <Distance entry={entry} />
            </Text>
          </Text>
        </HStack>
        <Box>
          <Text fontSize="2xl" fontWeight="bold" lineHeight="short">
            {formatPrice(entry.price_per_dozen)}{' '}
            <Text as="span" textStyle="sm" fontWeight="normal" color="fg.muted">
              per dozen
            </Text>
          </Text>
          <HStack gap="2" wrap="wrap" textStyle="sm" color="fg.muted">
            <Text>
              {formatPackPrice(entry.price, entry.count)} · {formatPrice(entry.unit_price)} per egg
            </Text>
            <WasPrice entry={entry} />
            <StockBadge entry={entry} />
          </HStack>
          <TruncatedText textStyle="xs" color="fg.muted">
            {entry.title}
          </TruncatedText>
        </Box>
        <SimpleGrid as="dl" columns={2} gap="2" textStyle="sm">
          <Figure label="Egg type, size">
            {EGG_TYPE_LABELS[entry.egg_type]}
            {entry.size_grade && `, ${entry.size_grade}`}
          </Figure>
          <Figure label="Since yesterday">
            <Change entry={entry} />
          </Figure>
        </SimpleGrid>
        <HStack justify="space-between" gap="2" wrap="wrap">
          <HStack gap="1" textStyle="xs" color="fg.muted">
            <LuClock aria-hidden />
            <Text as="span">
              Updated <RelativeTime iso={entry.last_updated} midSentence />
            </Text>
          </HStack>
          <HistoryLink productId={entry.product_id} locationId={entry.location_id} context={historyContext(entry)} />
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

export function NearResults({ entries, logos, label, table }: NearResultsProps) {
  if (table) return <NearTable entries={entries} logos={logos} label={label} />;
  return (
    <SimpleGrid as="ol" aria-label={label} columns={{ base: 1, md: 2 }} gap="3" listStyleType="none">
      {entries.map((entry, index) => (
        <li key={entry.id}>
          <NearCard entry={entry} rank={index + 1} logo={logos.get(entry.store_id)} />
        </li>
      ))}
    </SimpleGrid>
  );
}
