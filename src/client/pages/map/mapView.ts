// The shoppers' map by state, in words and numbers kept out of the components so they can be
// tested: the colour steps and their legend in dollars, each state's tooltip, the table's rows and
// their order, the map's accessible name and a state's cheapest stores. Pure: no React, no I/O.
import type { PriceMapResult, PriceMapCheapestResult, StateFigures } from '#shared/price-map.ts';
import { formatPackPrice, formatPrice, plural } from '#shared/format.ts';
import { EGG_TYPE_LABELS, EGG_TYPES, type EggType } from '#shared/vocabulary.ts';
import { STATE_NAMES, US_MAP_ASPECT, US_MAP_MAX_W } from '#client/components/charts/usStates.ts';

/** The map's colours, cheapest (lightest) first: a single blue hue, readable with colour blindness. */
export const PRICE_COLORS = ['#dbeafe', '#93c5fd', '#3b82f6', '#1d4ed8', '#1e3a8a'] as const;
/** States without a price today: a warm grey no step of the blue scale resembles. */
export const NO_DATA_COLOR = '#d6d3d1';
export const NO_DATA_TEXT = 'No data';

/** Legend steps are whole multiples of this many dollars, so their bounds read as round prices. */
const STEP_ROUNDING = 0.05;

export interface PriceScale {
  /** The quantize scale's domain: the first step's lower bound and the last step's upper bound. */
  domain: [number, number];
  /** Each step's colour and its legend text, cheapest first. */
  steps: Array<{ color: string; label: string; from: number; to: number }>;
}

const roundTo = (value: number, unit: number) => Math.round(value / unit) * unit;

/**
 * The colour steps of today's medians: five equal steps from the lowest median (rounded down to a
 * quarter) wide enough to hold the highest, each a multiple of 5 cents. Null without any median.
 */
export function priceScale(medians: ReadonlyArray<number | null>): PriceScale | null {
  const values = medians.filter((v): v is number => v !== null && Number.isFinite(v));
  if (values.length === 0) return null;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const from = Math.floor(min * 4) / 4;
  const width = Math.max(
    STEP_ROUNDING,
    Math.ceil(roundTo((max - from) / PRICE_COLORS.length, 1e-6) / STEP_ROUNDING) * STEP_ROUNDING,
  );
  const bound = (i: number) => roundTo(from + i * width, 0.01);
  const last = PRICE_COLORS.length - 1;
  const steps = PRICE_COLORS.map((color, i) => {
    const lo = bound(i);
    const hi = bound(i + 1);
    const label =
      i === 0
        ? `Under ${formatPrice(hi)}`
        : i === last
          ? `${formatPrice(lo)} or more`
          : `${formatPrice(lo)} to ${formatPrice(hi)}`;
    return { color, label, from: lo, to: hi };
  });
  return { domain: [bound(0), bound(PRICE_COLORS.length)], steps };
}

/** The step (and colour) the map's quantize scale gives a median. */
export function priceStep(scale: PriceScale, median: number): number {
  const [lo, hi] = scale.domain;
  const n = scale.steps.length;
  return Math.min(n - 1, Math.max(0, Math.floor(((median - lo) / (hi - lo)) * n)));
}

export function priceColor(scale: PriceScale | null, median: number | null): string {
  return scale === null || median === null ? NO_DATA_COLOR : scale.steps[priceStep(scale, median)]!.color;
}

export const stateName = (state: string) => STATE_NAMES[state] ?? state;

/** 'Up $0.20 (6.1%) since last week', 'Down …', 'No change since last week', or a plain word of why not. */
export function changeText(figures: Pick<StateFigures, 'median_per_dozen' | 'change' | 'change_percent'>): string {
  if (figures.median_per_dozen === null) return NO_DATA_TEXT;
  if (figures.change === null) return 'No price a week ago to compare';
  const cents = Math.round(figures.change * 100);
  if (cents === 0) return 'No change since last week';
  const percent = figures.change_percent === null ? '' : ` (${Math.abs(figures.change_percent).toFixed(1)}%)`;
  return `${cents > 0 ? 'Up' : 'Down'} ${formatPrice(Math.abs(figures.change))}${percent} since last week`;
}

/** The short change of the table: '+$0.20', '−$0.15', '$0.00', or '—' without a figure. */
export function changeShort(change: number | null): string {
  if (change === null) return '—';
  const cents = Math.round(change * 100);
  if (cents === 0) return '$0.00';
  return `${cents > 0 ? '+' : '−'}${formatPrice(Math.abs(change))}`;
}

/** 'based on 12 prices from 5 stores' */
export function basisText(figures: Pick<StateFigures, 'entries' | 'stores'>): string {
  return `based on ${plural(figures.entries, 'price')} from ${plural(figures.stores, 'store')}`;
}

/** The tooltip's lines for a state: its name, its median (or No data) and the change since last week. */
export function tooltipLines(figures: StateFigures): { title: string; lines: string[] } {
  const title = stateName(figures.state);
  if (figures.median_per_dozen === null) return { title, lines: [`${NO_DATA_TEXT}: no prices today`] };
  return {
    title,
    lines: [
      `${formatPrice(figures.median_per_dozen)} a dozen (median), ${basisText(figures)}`,
      changeText(figures),
      ...(figures.sample ? ['Includes sample prices'] : []),
    ],
  };
}

export type SortKey = 'name' | 'price';

export interface StateRow {
  state: string;
  name: string;
  median: number | null;
  medianText: string;
  rangeText: string;
  changeText: string;
  changeShort: string;
  storesText: string;
  sample: boolean;
}

/** The table's rows, every state and DC: by name, or by median (cheapest first, No data last, then by name). */
export function stateRows(states: readonly StateFigures[], sort: SortKey = 'name'): StateRow[] {
  const rows = states.map((s): StateRow => ({
    state: s.state,
    name: stateName(s.state),
    median: s.median_per_dozen,
    medianText: s.median_per_dozen === null ? NO_DATA_TEXT : formatPrice(s.median_per_dozen),
    rangeText:
      s.lowest_per_dozen === null || s.highest_per_dozen === null
        ? '—'
        : `${formatPrice(s.lowest_per_dozen)} – ${formatPrice(s.highest_per_dozen)}`,
    changeText: changeText(s),
    changeShort: s.median_per_dozen === null ? '—' : changeShort(s.change),
    storesText: s.median_per_dozen === null ? '—' : s.stores.toLocaleString('en-US'),
    sample: s.sample && s.median_per_dozen !== null,
  }));
  const byName = (a: StateRow, b: StateRow) => a.name.localeCompare(b.name);
  if (sort === 'name') return rows.sort(byName);
  return rows.sort((a, b) => {
    if (a.median === null || b.median === null)
      return a.median === b.median ? byName(a, b) : a.median === null ? 1 : -1;
    return a.median - b.median || byName(a, b);
  });
}

/** Whether any figure on the map rests on sample or demo prices. */
export const anySample = (states: readonly StateFigures[]) =>
  states.some((s) => s.sample && s.median_per_dozen !== null);

/** 'standard eggs', 'cage-free eggs' … as a sentence says them. */
export function eggTypeWords(eggType: EggType): string {
  const label = EGG_TYPE_LABELS[eggType];
  return `${label.toLowerCase().replace(/ eggs?$/, '')} eggs`;
}

/** The map's accessible name: what it shows, how many states have prices, and the extremes. */
export function mapLabel(result: Pick<PriceMapResult, 'egg_type' | 'states'>): string {
  const priced = result.states.filter(
    (s): s is StateFigures & { median_per_dozen: number } => s.median_per_dozen !== null,
  );
  const what = `US map of today's median price of a dozen ${eggTypeWords(result.egg_type)} by state`;
  if (priced.length === 0) return `${what}: no state has prices today.`;
  const sorted = [...priced].sort((a, b) => a.median_per_dozen - b.median_per_dozen);
  const low = sorted[0]!;
  const high = sorted.at(-1)!;
  const missing = result.states.length - priced.length;
  return `${what}: ${plural(priced.length, 'state')} with prices, from ${formatPrice(low.median_per_dozen)} in ${stateName(low.state)} to ${formatPrice(high.median_per_dozen)} in ${stateName(high.state)}; ${plural(missing, 'state')} with no data. The table below lists every state.`;
}

/** The egg type of the page's ?type= (standard when missing or unknown). */
export function parseMapEggType(value: string | null): EggType {
  return (EGG_TYPES as readonly string[]).includes(value ?? '') ? (value as EggType) : 'standard';
}

export interface CheapestRow {
  key: number;
  store: string;
  city: string;
  priceText: string;
  perDozenText: string;
  historyHref: string;
  sample: boolean;
  title: string;
}

/** 'Walmart (Downtown)', or the location's own name when it already names the store. */
export function storeText(store: string, location: string | null): string {
  if (!location) return store;
  return location.toLowerCase().includes(store.toLowerCase()) ? location : `${store} (${location})`;
}

/** A state's cheapest entries today, as the list beside the map shows them. */
export function cheapestRows(result: PriceMapCheapestResult): CheapestRow[] {
  return result.entries.map((e) => ({
    key: e.id,
    store: storeText(e.store_name, e.location_name),
    city: e.city ?? `ZIP ${e.zip}`,
    priceText: formatPackPrice(e.price, e.count),
    perDozenText: formatPrice(e.price_per_dozen),
    historyHref: `/products/${e.product_id}/history?location=${e.location_id}`,
    sample: e.source !== 'scrape',
    title: e.title,
  }));
}

/** The CSV of the map's figures, with the page's egg type. */
export const priceMapCsvHref = (eggType: EggType) => `/api/egg-prices/by-state.csv?egg_type=${eggType}`;

/** The map's shape (its projection's width over height, at most maxW wide), for placeholders of its size. */
export const mapAspect = (maxW: string = US_MAP_MAX_W) => ({ ratio: US_MAP_ASPECT, maxW });
/** The legend's height below the map: a few rows at narrow widths. */
export const MAP_LEGEND_HEIGHT = { base: '24', md: '4.5rem', lg: '12' } as const;
