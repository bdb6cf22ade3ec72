// Estimated prices for a type, region or count the store has no observation for (SPEC §9).
import { parseEggType, parseRegion, type EggType, type Region } from './vocabulary.ts';
import { packCount, roundCents, toNumber, type NumberLike } from './format.ts';

/** SPEC §9 egg-type multipliers, applied when the viewed type differs from the entry's type. */
export const EGG_TYPE_MULTIPLIERS: Readonly<Record<EggType, number>> = {
  standard: 0.8,
  cage_free: 1.3,
  organic: 1.5,
  pasture_raised: 1.7,
};

/**
 * SPEC §9 region multipliers, REGION_MULTIPLIERS[from][to]. The SPEC table gives every ordered
 * pair of distinct regions; staying in the same region (which it leaves out) is 1.
 */
export const REGION_MULTIPLIERS: Readonly<Record<Region, Readonly<Record<Region, number>>>> = {
  northeast: { northeast: 1, south: 0.77, midwest: 1.05, west: 0.95 },
  west: { west: 1, south: 0.8, midwest: 1.1, northeast: 1.05 },
  midwest: { midwest: 1, south: 0.75, northeast: 0.95, west: 0.9 },
  south: { south: 1, northeast: 1.3, midwest: 1.35, west: 1.25 },
};

/**
 * Per-egg factor for moving between egg types, going via standard: a non-standard type comes
 * down to standard with 0.8, and standard goes up to the target type with its multiplier. So
 * standard -> organic is 1.5, anything -> standard is 0.8, organic -> cage-free is 0.8 * 1.3.
 */
export function eggTypeMultiplier(from: EggType, to: EggType): number {
  if (from === to) return 1;
  const toStandard = from === 'standard' ? 1 : EGG_TYPE_MULTIPLIERS.standard;
  return to === 'standard' ? toStandard : toStandard * EGG_TYPE_MULTIPLIERS[to];
}

export function regionMultiplier(from: Region, to: Region): number {
  return REGION_MULTIPLIERS[from][to];
}

/** SPEC §9: a bigger pack than the entry's is cheaper per egg (0.97), a smaller one dearer (1.05). */
export function countAdjustment(chosen: number, entryCount: number): number {
  if (chosen > entryCount) return 0.97;
  if (chosen < entryCount) return 1.05;
  return 1;
}

export interface EstimateSource {
  price: NumberLike;
  count?: number | null;
  egg_type?: string | null;
  region?: string | null;
}

/** What the shopper is viewing; a missing (or 'all', or unknown) field keeps the entry's value. */
export interface EstimateTarget {
  eggType?: string | null;
  region?: string | null;
  count?: number | null;
}

export interface Estimate {
  /** Pack price for the target count, in whole cents. */
  price: number;
  /** price / target count (not rounded), so it always agrees with the pack price. */
  unitPrice: number;
  /** True when the type, region or count differs from the entry's, i.e. the price is not observed. */
  isEstimate: boolean;
}

/**
 * Re-prices an entry for another egg type, region or pack size (SPEC §9). The SPEC does not say
 * how the factors combine; here they multiply the per-egg price:
 *   unit  = price / entry count (12 when missing)
 *   unit *= eggTypeMultiplier(entry type, target type)   when the types differ
 *   unit *= regionMultiplier(entry region, target region) when the regions differ
 *   unit *= countAdjustment(target count, entry count)    when the counts differ
 *   price = unit * target count, rounded to cents
 * A factor is skipped when either side is unknown (e.g. an entry with no region).
 */
export function estimatePrice(entry: EstimateSource, target: EstimateTarget): Estimate {
  const entryCount = packCount(entry.count);
  const count = target.count == null ? entryCount : packCount(target.count);
  let unit = toNumber(entry.price) / entryCount;
  let changed = count !== entryCount;

  const fromType = parseEggType(entry.egg_type);
  const toType = parseEggType(target.eggType);
  if (fromType && toType && fromType !== toType) {
    unit *= eggTypeMultiplier(fromType, toType);
    changed = true;
  }
  const fromRegion = parseRegion(entry.region);
  const toRegion = parseRegion(target.region);
  if (fromRegion && toRegion && fromRegion !== toRegion) {
    unit *= regionMultiplier(fromRegion, toRegion);
    changed = true;
  }
  unit *= countAdjustment(count, entryCount);

  const price = roundCents(unit * count);
  return { price, unitPrice: price / count, isEstimate: changed };
}
