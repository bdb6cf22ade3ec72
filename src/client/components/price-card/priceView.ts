// What a price card or row shows for its chosen region, egg type and count (SPEC §4, §9;
// DESIGN.md "Prices shown to a shopper"): the entry itself, the observed price of that
// combination at the same store, or a labelled estimate when the store has none.
import { estimatePrice } from '#shared/estimate.ts';
import { formatPackPrice, formatUnitPrice, packCount, toNumber, trendDirection } from '#shared/format.ts';
import type { PriceEntry, PriceSource } from '#shared/types.ts';
import {
  EGG_TYPE_LABELS,
  REGION_LABELS,
  parseEggType,
  parseRegion,
  type EggType,
  type Region,
  type TrendDirection,
} from '#shared/vocabulary.ts';
import type { CardPreferences } from '#client/lib/savedPreferences.ts';

/** The entry a card is given: a current price, with its recent daily prices when known. */
export type CardEntry = PriceEntry & { history?: number[] };

export interface CardSelection {
  region: Region;
  eggType: EggType;
  count: number;
}

/**
 * SPEC §4: each field starts from the saved preferences when present, otherwise from the entry.
 * An entry with an unreadable type or region (integrator data) falls back to standard / its
 * own region spelling through the parsers.
 */
export function initialSelection(entry: CardEntry, preferences: CardPreferences): CardSelection {
  return {
    region: preferences.region ?? parseRegion(entry.region) ?? 'northeast',
    eggType: preferences.eggType ?? parseEggType(entry.egg_type) ?? 'standard',
    count: preferences.count ?? packCount(entry.count),
  };
}

export function isEntrySelection(entry: CardEntry, selection: CardSelection): boolean {
  return (
    parseRegion(entry.region) === selection.region &&
    parseEggType(entry.egg_type) === selection.eggType &&
    packCount(entry.count) === selection.count
  );
}

export function selectionKey(selection: CardSelection): string {
  return `${selection.region}|${selection.eggType}|${selection.count}`;
}

/** The lookup of the selected combination, as the card's query reports it. */
export type LookupState =
  | { status: 'idle' }
  | { status: 'pending' }
  | { status: 'error' }
  | { status: 'success'; entry: CardEntry | null };

interface ShownBase {
  selection: CardSelection;
  /** Shelf price of the shown pack. */
  price: number;
  count: number;
  priceText: string;
  unitText: string;
  trendValue: number;
  trendDirection: TrendDirection;
  lastUpdated: string;
  /** Recent daily prices behind the sparkline (oldest first). */
  history: number[];
  source: PriceSource;
  /** Product title, or what the estimate stands for. */
  title: string;
}

export type PriceView =
  | { kind: 'loading'; selection: CardSelection }
  | (ShownBase & { kind: 'observed'; entry: CardEntry })
  | (ShownBase & { kind: 'estimate'; base: CardEntry; explanation: string });

function historyOf(entry: CardEntry): number[] {
  return entry.history && entry.history.length > 0 ? entry.history : [toNumber(entry.price)];
}

function observed(entry: CardEntry, selection: CardSelection): PriceView {
  const price = toNumber(entry.price);
  return {
    kind: 'observed',
    entry,
    selection,
    price,
    count: packCount(entry.count),
    priceText: formatPackPrice(price, entry.count),
    unitText: formatUnitPrice(price, entry.count),
    trendValue: toNumber(entry.trend_value),
    trendDirection: trendDirection(entry),
    lastUpdated: entry.last_updated,
    history: historyOf(entry),
    source: entry.source,
    title: entry.title,
  };
}

/** 'Organic, 36 eggs, West' */
function combination(eggType: EggType | null, count: number, region: Region | null): string {
  return [eggType ? EGG_TYPE_LABELS[eggType] : null, `${count} eggs`, region ? REGION_LABELS[region] : null].filter(Boolean).join(', ');
}

/**
 * The estimate for a combination the store has no observed price for, re-priced from the entry
 * with SPEC §9's multipliers. Its trend, update time and sparkline are the entry's: the estimate
 * is a fixed multiple of that price, so it moves the same way.
 */
export function estimateView(entry: CardEntry, selection: CardSelection): PriceView {
  const estimate = estimatePrice(entry, { eggType: selection.eggType, region: selection.region, count: selection.count });
  const storeName = entry.store_name || entry.store_id;
  const wanted = combination(selection.eggType, selection.count, selection.region);
  const from = combination(parseEggType(entry.egg_type), packCount(entry.count), parseRegion(entry.region));
  return {
    kind: 'estimate',
    base: entry,
    selection,
    price: estimate.price,
    count: selection.count,
    priceText: formatPackPrice(estimate.price, selection.count),
    unitText: formatUnitPrice(estimate.price, selection.count),
    trendValue: toNumber(entry.trend_value),
    trendDirection: trendDirection(entry),
    lastUpdated: entry.last_updated,
    history: historyOf(entry),
    source: entry.source,
    title: `Estimated ${EGG_TYPE_LABELS[selection.eggType]} ${selection.count}-egg pack in the ${REGION_LABELS[selection.region]}`,
    explanation:
      `Estimate: ${storeName} has no observed price for ${wanted}. ` +
      `Calculated from its observed price for ${from}, using typical differences between egg types, regions and pack sizes.`,
  };
}

export function resolvePriceView(entry: CardEntry, selection: CardSelection, lookup: LookupState): PriceView {
  if (isEntrySelection(entry, selection)) return observed(entry, selection);
  switch (lookup.status) {
    case 'success':
      return lookup.entry ? observed(lookup.entry, selection) : estimateView(entry, selection);
    case 'error':
      // Without an answer about an observed price, the estimate still gives a useful figure.
      return estimateView(entry, selection);
    default:
      return { kind: 'loading', selection };
  }
}
