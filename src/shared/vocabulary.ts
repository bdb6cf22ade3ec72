// The product's vocabulary: egg types, regions, stores and the parsers that normalise every
// spelling a shopper, a URL or an integrator may use. The zod schemas built
// on these parsers are in schemas.ts: this module stays free of zod because the client's first
// paint (header, footer, dashboard) uses it and must not download zod.

export const EGG_TYPES = ['standard', 'cage_free', 'organic', 'pasture_raised'] as const;
export type EggType = (typeof EGG_TYPES)[number];

/** URL / filter spelling of each stored egg type. */
export const EGG_TYPE_SLUGS: Record<EggType, string> = {
  standard: 'standard',
  cage_free: 'cage-free',
  organic: 'organic',
  pasture_raised: 'pasture-raised',
};

export const EGG_TYPE_LABELS: Record<EggType, string> = {
  standard: 'Standard',
  cage_free: 'Cage-Free',
  organic: 'Organic',
  pasture_raised: 'Pasture-Raised',
};

export const REGIONS = ['northeast', 'midwest', 'south', 'west'] as const;
export type Region = (typeof REGIONS)[number];

export const REGION_LABELS: Record<Region, string> = {
  northeast: 'Northeast',
  midwest: 'Midwest',
  south: 'South',
  west: 'West',
};

export const STORE_IDS = ['walmart', 'target', 'kroger', 'albertsons', 'whole-foods', 'aldi'] as const;
export type StoreId = (typeof STORE_IDS)[number];

/** The stores' display names (the stores table holds the same; this serves screens and messages without a request). */
export const STORE_NAMES: Record<StoreId, string> = {
  walmart: 'Walmart',
  target: 'Target',
  kroger: 'Kroger',
  albertsons: 'Albertsons',
  'whole-foods': 'Whole Foods',
  aldi: 'Aldi',
};

/** Where a price came from: only 'scrape' prices are a retailer's (see isSampleSource). */
export const PRICE_SOURCES = ['scrape', 'sample', 'demo'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** Sample and demo prices are not a retailer's: the UI marks them, and they never alert anyone. */
export function isSampleSource(source: PriceSource): boolean {
  return source !== 'scrape';
}

export const TREND_DIRECTIONS = ['up', 'down', 'stable'] as const;
export type TrendDirection = (typeof TREND_DIRECTIONS)[number];

export const SORT_OPTIONS = ['price', 'freshness', 'trend', 'unit-price'] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];

/** Pack sizes offered by the filters panel. */
export const FILTER_COUNTS = [6, 12, 18, 24, 30] as const;
/** Pack sizes offered by price cards and preferences. */
export const CARD_COUNTS = [6, 12, 18, 24, 30, 36, 60] as const;
export const DEFAULT_COUNT = 12;

/**
 * Parses any spelling of an egg type (cage-free, cage_free, Cage Free, CAGE-FREE...) to its
 * stored form, or null when it names none.
 */
const EGG_TYPE_SET: ReadonlySet<string> = new Set(EGG_TYPES);
const REGION_SET: ReadonlySet<string> = new Set(REGIONS);

export function parseEggType(value: string | null | undefined): EggType | null {
  if (typeof value !== 'string') return null;
  // The API's own spelling, as every entry from the server has it, needs no normalising.
  if (EGG_TYPE_SET.has(value)) return value as EggType;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return (EGG_TYPES as readonly string[]).includes(key) ? (key as EggType) : null;
}

export function parseRegion(value: string | null | undefined): Region | null {
  if (typeof value !== 'string') return null;
  if (REGION_SET.has(value)) return value as Region;
  const key = value.trim().toLowerCase();
  return (REGIONS as readonly string[]).includes(key) ? (key as Region) : null;
}

export function eggTypeSlug(type: EggType): string {
  return EGG_TYPE_SLUGS[type];
}
