// The reusable price card: store, price, per-egg price, sparkline of the
// real recent prices, relative update time, trend, a Sample data badge for seeded prices, and
// the region / egg type / count dropdowns that re-price the card (observed price or Estimate).
import {
  Badge,
  Box,
  Card,
  Grid,
  HStack,
  Heading,
  Icon,
  Link,
  Separator,
  Skeleton,
  Stack,
  Switch,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@chakra-ui/react';
import { useState } from 'react';
import { LuArrowDown, LuArrowUp, LuClock, LuEgg, LuHash, LuInfo, LuMapPin, LuMinus } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { formatHistoryDays, formatLocation, formatPrice, formatTrend, trendColor } from '#shared/format.ts';
import {
  CARD_COUNTS,
  EGG_TYPE_LABELS,
  EGG_TYPES,
  type EggType,
  isSampleSource,
  type Region,
  REGION_LABELS,
  REGIONS,
  type TrendDirection,
} from '#shared/vocabulary.ts';
import { RelativeTime } from '#client/components/RelativeTime.tsx';
import { useIsMobile } from '#client/lib/useViewportWidth.ts';
import { CardFilterMenu, type MenuOption } from './CardFilterMenu.tsx';
import { HistoryLink } from './HistoryLink.tsx';
import { LocationFiguresLine } from './LocationFiguresLine.tsx';
import { SampleBadge } from '../SampleBadge.tsx';
import { Sparkline } from './Sparkline.tsx';
import { StockBadge, WasPrice } from './StockAndPromotion.tsx';
import type { CardEntry, CardSelection, PriceView } from './priceView.ts';
import { usePriceCard } from './usePriceCard.ts';

export type { CardEntry } from './priceView.ts';
export { SampleBadge };

export interface PriceCardProps {
  entry: CardEntry;
  /** Whether the card shows its region (the Filters panel's display option); defaults to shown. */
  showRegion?: boolean;
}

export const REGION_MENU_OPTIONS: ReadonlyArray<MenuOption<Region>> = REGIONS.map((value) => ({
  value,
  label: REGION_LABELS[value],
}));
export const EGG_TYPE_MENU_OPTIONS: ReadonlyArray<MenuOption<EggType>> = EGG_TYPES.map((value) => ({
  value,
  label: EGG_TYPE_LABELS[value],
}));

/** Card counts, plus the entry's own count when it is another size. */
export function countMenuOptions(current: number): Array<MenuOption<number>> {
  const counts = (CARD_COUNTS as readonly number[]).includes(current)
    ? [...CARD_COUNTS]
    : [...CARD_COUNTS, current].sort((a, b) => a - b);
  return counts.map((value) => ({ value, label: `${value} eggs` }));
}

export function storeHref(storeId: string): string {
  return `/store/${encodeURIComponent(storeId)}`;
}

/** Trend colours (via trendColor) as the theme's trend tokens, readable in both modes. */
const TREND_TOKENS = { red: 'trend.up', green: 'trend.down', gray: 'trend.stable' } as const;

export function trendToken(direction: TrendDirection): string {
  return TREND_TOKENS[trendColor(direction)];
}

const TREND_ICON = { up: LuArrowUp, down: LuArrowDown, stable: LuMinus } as const;
const TREND_WORD = { up: 'Up', down: 'Down', stable: 'Unchanged' } as const;

export function TrendValue({ value, direction }: { value: number; direction: TrendDirection }) {
  const TrendIcon = TREND_ICON[direction];
  return (
    <HStack gap="0.5" color={trendToken(direction)} fontWeight="semibold" textStyle="sm">
      <Icon size="sm" aria-hidden>
        <TrendIcon />
      </Icon>
      <VisuallyHidden>{TREND_WORD[direction]}</VisuallyHidden>
      <Text as="span">{formatTrend(value)}</Text>
    </HStack>
  );
}

/**
 * The 'Estimate' label: its explanation shows as a tooltip on hover or keyboard focus, and is
 * read by screen readers from the text beside it.
 */
export function EstimateBadge({ explanation }: { explanation: string }) {
  return (
    <>
      <Tooltip.Root openDelay={150} positioning={{ placement: 'top' }}>
        <Tooltip.Trigger asChild>
          <Badge
            as="span"
            tabIndex={0}
            colorPalette="blue"
            variant="subtle"
            cursor="help"
            flexShrink={0}
            _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing' }}
          >
            <LuInfo aria-hidden />
            Estimate
          </Badge>
        </Tooltip.Trigger>
        <Tooltip.Positioner>
          <Tooltip.Content maxW="xs" aria-hidden>
            {explanation}
          </Tooltip.Content>
        </Tooltip.Positioner>
      </Tooltip.Root>
      <VisuallyHidden>{explanation}</VisuallyHidden>
    </>
  );
}

/** The product and location of an observed price, for its 'Price history' link; estimates have none. */
export function historyTarget(
  view: PriceView,
  storeName: string,
): { productId: number; locationId: number; context: string } | null {
  if (view.kind !== 'observed') return null;
  const { product_id: productId, location_id: locationId } = view.entry;
  if (!Number.isInteger(productId) || !Number.isInteger(locationId)) return null;
  return { productId, locationId, context: `${view.title} at ${storeName}` };
}

export function sparklineLabel(view: Exclude<PriceView, { kind: 'loading' }>): string {
  const prices = view.history.map((price) => formatPrice(price)).join(', ');
  const days = view.history.length;
  // One day draws no line (Sparkline shows a dash): the label says why.
  if (days === 0) return 'No recent prices';
  if (days === 1) return `${formatHistoryDays(1)}: ${prices}`;
  const subject =
    view.kind === 'estimate'
      ? 'Recent prices of the pack this estimate is based on'
      : `Price over the last ${days} days`;
  return `${subject}: ${prices}`;
}

export interface CardMenuProps {
  selection: CardSelection;
  select: (patch: Partial<CardSelection>) => void;
  storeName: string;
  /** Smaller trigger without the caption above it, for table rows. */
  compact?: boolean;
}

/** The region dropdown; on cards it also holds the show/hide region toggle. */
export function RegionMenu({
  selection,
  select,
  storeName,
  compact,
  showRegion,
}: CardMenuProps & { showRegion?: { shown: boolean; onChange: (show: boolean) => void } }) {
  const mobile = useIsMobile();
  return (
    <CardFilterMenu
      caption="Region"
      icon={LuMapPin}
      value={selection.region}
      options={REGION_MENU_OPTIONS}
      onApply={(region) => select({ region })}
      applyOnClick={mobile}
      context={storeName}
      compact={compact}
      extra={
        showRegion && (
          <Switch.Root
            size="sm"
            colorPalette="brand"
            checked={showRegion.shown}
            onCheckedChange={(details) => showRegion.onChange(details.checked)}
          >
            <Switch.HiddenInput />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label>Show region</Switch.Label>
          </Switch.Root>
        )
      }
    />
  );
}

export function EggTypeMenu({ selection, select, storeName, compact }: CardMenuProps) {
  const mobile = useIsMobile();
  return (
    <CardFilterMenu
      caption="Egg Type"
      icon={LuEgg}
      value={selection.eggType}
      options={EGG_TYPE_MENU_OPTIONS}
      onApply={(eggType) => select({ eggType })}
      applyOnClick={mobile}
      context={storeName}
      compact={compact}
    />
  );
}

export function CountMenu({ selection, select, storeName, compact }: CardMenuProps) {
  const mobile = useIsMobile();
  return (
    <CardFilterMenu
      caption="Count"
      icon={LuHash}
      value={selection.count}
      options={countMenuOptions(selection.count)}
      onApply={(count) => select({ count })}
      applyOnClick={mobile}
      context={storeName}
      compact={compact}
      triggerText={String}
    />
  );
}

/** Local show/hide of the region, following the page's display option when that changes. */
export function useShowRegion(fromPage: boolean): [boolean, (show: boolean) => void] {
  const [state, setState] = useState({ fromPage, show: fromPage });
  let show = state.show;
  if (state.fromPage !== fromPage) {
    show = fromPage;
    setState({ fromPage, show });
  }
  return [show, (next) => setState({ fromPage, show: next })];
}

export function PriceCard({ entry, showRegion: showRegionOption = true }: PriceCardProps) {
  const { selection, select, view, figures } = usePriceCard(entry);
  const [showRegion, setShowRegion] = useShowRegion(showRegionOption);
  const storeName = entry.store_name || entry.store_id;
  const headingId = `price-card-${entry.id}`;
  const history = historyTarget(view, storeName);

  return (
    <Card.Root as="article" aria-labelledby={headingId} variant="outline" height="full" size="sm">
      <Card.Body gap="3">
        <HStack justify="space-between" align="flex-start" gap="2">
          <Box minW="0">
            <Heading as="h3" size="md" id={headingId}>
              <Link asChild color="fg" fontWeight="semibold" _hover={{ color: 'brand.fg' }}>
                <RouterLink to={storeHref(entry.store_id)}>{storeName}</RouterLink>
              </Link>
            </Heading>
            {showRegion && (
              <HStack gap="1" textStyle="sm" color="fg.muted">
                <LuMapPin aria-hidden />
                <Text as="span">{REGION_LABELS[selection.region]} region</Text>
              </HStack>
            )}
            {/* One location's price: which store it is, so two of a chain's cards differ. */}
            {view.kind === 'observed' && (
              <Text textStyle="xs" color="fg.muted" overflowWrap="anywhere">
                {formatLocation(view.entry)}
              </Text>
            )}
          </Box>
          {view.kind !== 'loading' && isSampleSource(view.source) && <SampleBadge />}
        </HStack>

        <Box aria-live="polite" aria-busy={view.kind === 'loading'} minH="24">
          {view.kind === 'loading' ? (
            <Stack gap="2" pt="1">
              <VisuallyHidden>Updating price</VisuallyHidden>
              <Skeleton height="8" width="44" />
              <Skeleton height="4" width="28" />
              <Skeleton height="4" width="56" />
            </Stack>
          ) : (
            <Stack gap="0.5">
              <HStack gap="2" align="center" wrap="wrap">
                <Text fontSize="2xl" fontWeight="bold" lineHeight="short">
                  {view.priceText}
                </Text>
                {view.kind === 'observed' && <WasPrice entry={view.entry} />}
                {view.kind === 'estimate' && <EstimateBadge explanation={view.explanation} />}
              </HStack>
              <HStack gap="2" wrap="wrap">
                <Text textStyle="sm" color="fg.muted">
                  {[view.dozenText, view.unitText].filter(Boolean).join(' · ')}
                </Text>
                {view.kind === 'observed' && <StockBadge entry={view.entry} />}
              </HStack>
              <Text textStyle="xs" color="fg.muted" truncate title={view.title}>
                {view.title}
              </Text>
              <LocationFiguresLine figures={figures} storeName={storeName} />
            </Stack>
          )}
        </Box>

        {view.kind === 'loading' ? (
          <Skeleton height="10" />
        ) : (
          <Sparkline
            values={view.history}
            color={trendToken(view.trendDirection)}
            dashed={view.kind === 'estimate'}
            label={sparklineLabel(view)}
          />
        )}

        <HStack justify="space-between" gap="2" wrap="wrap" minH="5">
          {view.kind !== 'loading' && (
            <>
              {view.trendValue === null ? (
                <Text as="span" textStyle="xs" color="fg.muted">
                  {formatHistoryDays(view.history.length)}
                </Text>
              ) : (
                <HStack gap="1.5">
                  <TrendValue value={view.trendValue} direction={view.trendDirection} />
                  <Text as="span" textStyle="xs" color="fg.muted">
                    7-day change
                  </Text>
                </HStack>
              )}
              <HStack gap="1" textStyle="xs" color="fg.muted">
                <LuClock aria-hidden />
                <Text as="span">
                  Updated <RelativeTime iso={view.lastUpdated} midSentence />
                </Text>
              </HStack>
            </>
          )}
        </HStack>
        {history && (
          <HStack minH="5">
            <HistoryLink {...history} />
          </HStack>
        )}

        <Separator />
        <Grid templateColumns="minmax(0, 1.1fr) minmax(0, 1.2fr) minmax(0, 0.9fr)" gap="2" alignItems="end">
          <RegionMenu
            selection={selection}
            select={select}
            storeName={storeName}
            showRegion={{ shown: showRegion, onChange: setShowRegion }}
          />
          <EggTypeMenu selection={selection} select={select} storeName={storeName} />
          <CountMenu selection={selection} select={select} storeName={storeName} />
        </Grid>
      </Card.Body>
    </Card.Root>
  );
}

/** A placeholder card while the list loads. */
export function PriceCardSkeleton() {
  return (
    <Card.Root variant="outline" size="sm" aria-hidden>
      <Card.Body gap="3">
        <Skeleton height="6" width="32" />
        <Skeleton height="8" width="44" />
        <Skeleton height="4" width="28" />
        <Skeleton height="10" />
        <Skeleton height="4" width="full" />
        <HStack gap="2">
          <Skeleton height="8" flex="1" />
          <Skeleton height="8" flex="1" />
          <Skeleton height="8" flex="1" />
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
