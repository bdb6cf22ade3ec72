// Scenario ZIP codes of the retailer stand-in, the same for every retailer, and the deterministic
// prices of its catalogue. Any other ZIP of a US state is an ordinary store with eggs on sale.
import type { EggType, StoreId } from '#shared/vocabulary.ts';
import { zipToRegion } from '#shared/zip.ts';

export const SCENARIO_ZIPS = {
  /** The retailer's bot wall answers (Walmart "Robot or human?", Akamai, Cloudflare, Imperva...). */
  blocked: '99501',
  /** The first listing request answers 500, the retry succeeds. */
  flaky: '59001',
  /** The listing answers after SLOW_MS. */
  slow: '83201',
  /** The listing body is in a structure the documentation does not describe. */
  changed: '82001',
  /** The locator finds no store near the ZIP. */
  noStore: '05401',
  /** The first listing request answers 429 with Retry-After: 1, then succeeds. */
  rateLimited: '58001',
} as const;

export type Scenario = keyof typeof SCENARIO_ZIPS | 'normal';

export const SLOW_MS = 1500;

export function scenarioOf(zip: string): Scenario {
  for (const [name, value] of Object.entries(SCENARIO_ZIPS)) if (value === zip) return name as Scenario;
  return 'normal';
}

/** A small stable hash of a string, for deterministic variation. */
export function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

const PER_DOZEN: Record<EggType, number> = { standard: 3.2, cage_free: 4.3, organic: 5.7, pasture_raised: 7.1 };
const REGION_LEVEL = { northeast: 1.08, midwest: 0.92, south: 0.95, west: 1.14 } as const;
const STORE_LEVEL: Record<StoreId, number> = {
  walmart: 0.93,
  target: 1.02,
  kroger: 0.98,
  albertsons: 1.07,
  'whole-foods': 1.15,
  aldi: 0.88,
};

/**
 * The shelf price of a pack at a store near a ZIP: a per-dozen level by egg type, region and
 * store, a small stable variation per ZIP and product, and the store's price factor (moved by
 * tests and the demo). Prices end in 9 like shelf prices.
 */
export function standInPrice(
  store: StoreId,
  zip: string,
  productKey: string,
  eggType: EggType,
  count: number,
  factor = 1,
): number {
  const region = zipToRegion(zip) ?? 'south';
  const variation = 0.95 + (hashOf(`${store}:${zip}:${productKey}`) % 1000) / 10_000;
  const perEgg = (PER_DOZEN[eggType] / 12) * REGION_LEVEL[region] * STORE_LEVEL[store] * variation * factor;
  const packDiscount = count >= 18 ? 0.96 : count <= 6 ? 1.08 : 1;
  const raw = perEgg * count * packDiscount;
  // Whole cents ending in 9 (e.g. 3.49), never below 0.99.
  return Math.max(99, Math.round(raw * 10) * 10 - 1) / 100;
}
