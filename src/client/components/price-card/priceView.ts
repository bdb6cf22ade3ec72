// What a price card or row shows for its chosen region, egg type and count
// (docs/features/comparing.md, "Estimates"): the entry itself, the observed price of that
// combination at the same store, or a labelled estimate when the store has none, worked out from
// the store's nearest observed price, which it names with the sum that gives it.
import { estimatePrice, estimateWorking } from '#shared/estimate.ts';
import {
  formatDozenPrice,
  formatPackPrice,
  formatPrice,
  formatUnitPrice,
  packCount,
  toNumber,
  trendDirection,
} from '#shared/format.ts';
import type { PriceEntry, PriceSource } from '#shared/types.ts';
import type { LocationFigures } from '#shared/location-figures.ts';
import {
  EGG_TYPE_LABELS,
  REGION_LABELS,
  parseEggType,
  parseRegion,
  type EggType,
  type Region,
  type TrendDirection,
} from '#shared/vocabulary.ts';

/**
 * The entry a card is given: a current price, with its recent daily prices when known and what
 * its store's locations charge for its combination today (null: none has a price of it today;
 * absent: not asked, as on the compare page).
 */
export type CardEntry = PriceEntry & { history?: number[]; locations?: LocationFigures | null };

export interface CardSelection {
  region: Region;
  eggType: EggType;
  count: number;
}

/**
 * Each field starts from the entry the card lists, so a card opens on its observed price
 * (saved preferences never re-price it: docs/features/comparing.md). An entry with an unreadable type or
 * region (integrator data) falls back to standard / the Northeast through the parsers.
 */
export function initialSelection(entry: CardEntry): CardSelection {
  return {
    region: parseRegion(entry.region) ?? 'northeast',
    eggType: parseEggType(entry.egg_type) ?? 'standard',
    count: packCount(entry.count),
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
  { status: 'idle' } | { status: 'pending' } | { status: 'error' } | { status: 'success'; entry: CardEntry | null };

interface ShownBase {
  selection: CardSelection;
  /** Shelf price of the shown pack. */
  price: number;
  count: number;
  priceText: string;
  /** '$3.49 per dozen': what lists are sorted by. */
  dozenText: string;
  unitText: string;
  /** The 7-day change in percent; null while the price has less than 7 days of history. */
  trendValue: number | null;
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

/** The entry's change, null when the API says its series is shorter than the week compared. */
function trendOf(entry: CardEntry): number | null {
  return entry.trend_value === null ? null : toNumber(entry.trend_value);
}

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
    dozenText: formatDozenPrice(price, entry.count),
    unitText: formatUnitPrice(price, entry.count),
    trendValue: trendOf(entry),
    trendDirection: trendDirection(entry),
    lastUpdated: entry.last_updated,
    history: historyOf(entry),
    source: entry.source,
    title: entry.title,
  };
}

/** 'Organic, 36 eggs, West' */
function combination(eggType: EggType | null, count: number, region: Region | null): string {
  return [eggType ? EGG_TYPE_LABELS[eggType] : null, `${count} eggs`, region ? REGION_LABELS[region] : null]
    .filter(Boolean)
    .join(', ');
}

/**
 * The estimate for a combination the store has no observed price for, re-priced from `basis` (the
 * store's nearest observed price, prices.lookup) with estimate.ts's multipliers. It names the basis
 * and shows the sum, so a shopper can check it. Its trend, update time and sparkline are the
 * basis's: the estimate is a fixed multiple of that price, so it moves the same way.
 */
export function estimateView(basis: CardEntry, selection: CardSelection): PriceView {
  const target = { eggType: selection.eggType, region: selection.region, count: selection.count };
  const estimate = estimatePrice(basis, target);
  const storeName = basis.store_name || basis.store_id;
  const wanted = combination(selection.eggType, selection.count, selection.region);
  const basisType = parseEggType(basis.egg_type);
  const basisRegion = parseRegion(basis.region);
  // The basis, pack first as the sum starts from it: '12 eggs, Standard, Midwest'.
  const named = (pack: string) =>
    [pack, basisType ? EGG_TYPE_LABELS[basisType] : null, basisRegion ? REGION_LABELS[basisRegion] : null]
      .filter(Boolean)
      .join(', ');
  return {
    kind: 'estimate',
    base: basis,
    selection,
    price: estimate.price,
    count: selection.count,
    priceText: formatPackPrice(estimate.price, selection.count),
    dozenText: formatDozenPrice(estimate.price, selection.count),
    unitText: formatUnitPrice(estimate.price, selection.count),
    trendValue: trendOf(basis),
    trendDirection: trendDirection(basis),
    lastUpdated: basis.last_updated,
    history: historyOf(basis),
    source: basis.source,
    // The basis, visible on the card (the full working is in the badge's explanation).
    title: `Estimated from its ${named(formatPackPrice(basis.price, basis.count))}`,
    explanation:
      `Estimate: ${storeName} has no observed price for ${wanted}. ` +
      `Estimated from its observed ${formatPrice(basis.price)} for ${named(`${packCount(basis.count)} eggs`)}: ${estimateWorking(basis, target, estimate)}, ` +
      'using typical differences between pack sizes, egg types and regions.',
  };
}

/**
 * The card's view: its own entry; else what prices.lookup answered for the selection, which is
 * the observed price of that combination when it matches it, or else the basis of an estimate.
 * Without an answer (an error, or no price at all), the estimate starts from the card's entry.
 */
export function resolvePriceView(entry: CardEntry, selection: CardSelection, lookup: LookupState): PriceView {
  if (isEntrySelection(entry, selection)) return observed(entry, selection);
  switch (lookup.status) {
    case 'success':
      if (lookup.entry && isEntrySelection(lookup.entry, selection)) return observed(lookup.entry, selection);
      return estimateView(lookup.entry ?? entry, selection);
    case 'error':
      return estimateView(entry, selection);
    default:
      return { kind: 'loading', selection };
  }
}
