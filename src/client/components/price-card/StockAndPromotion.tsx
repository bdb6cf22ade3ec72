// What a retailer said about an observed price beyond the price itself: the regular price it shows
// beside a promotion ("was $5.19") and the stock at that store (in stock, out of stock, or not said).
// Sample prices carry neither: they were never on a shelf.
import { Badge, Text } from '@chakra-ui/react';
import { formatWasPrice, STOCK_LABELS, stockState, type StockState } from '#shared/format.ts';
import type { PriceEntry } from '#shared/types.ts';

const STOCK_PALETTES: Record<StockState, string> = { 'in-stock': 'green', 'out-of-stock': 'red', unknown: 'gray' };

const STOCK_TITLES: Record<StockState, string> = {
  'in-stock': 'The store listed it as in stock when its price was last read',
  'out-of-stock': 'The store listed it as out of stock when its price was last read',
  unknown: "The store's listing did not say whether it was in stock",
};

/** "was $5.19", struck through, when a promotion applies; nothing otherwise. */
export function WasPrice({ entry }: { entry: Pick<PriceEntry, 'regular_price' | 'price'> }) {
  const text = formatWasPrice(entry.regular_price, entry.price);
  if (!text) return null;
  return (
    <Text as="span" textStyle="sm" color="fg.muted" whiteSpace="nowrap">
      <Text as="span" textDecoration="line-through">
        {text}
      </Text>
    </Text>
  );
}

const STOCK_TEXT_COLORS: Record<StockState, string> = {
  'in-stock': 'green.fg',
  'out-of-stock': 'red.fg',
  unknown: 'fg.muted',
};

/**
 * The stock at the store when the price was read; nothing for sample prices. `compact`: a line of
 * small text instead of a badge, for narrow table cells.
 */
export function StockBadge({
  entry,
  compact = false,
}: {
  entry: Pick<PriceEntry, 'in_stock' | 'source'>;
  compact?: boolean;
}) {
  if (entry.source === 'sample') return null;
  const state = stockState(entry.in_stock);
  if (compact) {
    return (
      <Text
        as="span"
        display="block"
        textStyle="xs"
        color={STOCK_TEXT_COLORS[state]}
        title={STOCK_TITLES[state]}
        data-stock={state}
      >
        {STOCK_LABELS[state]}
      </Text>
    );
  }
  return (
    <Badge
      colorPalette={STOCK_PALETTES[state]}
      variant="outline"
      size="sm"
      flexShrink={0}
      title={STOCK_TITLES[state]}
      data-stock={state}
    >
      {STOCK_LABELS[state]}
    </Badge>
  );
}
