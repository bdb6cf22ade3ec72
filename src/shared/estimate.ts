// Estimated prices for a type, region or count the store has no observation for.
import { EGG_TYPE_LABELS, REGION_LABELS, parseEggType, parseRegion, type EggType, type Region } from './vocabulary.ts';
import { formatPrice, packCount, roundCents, toNumber, type NumberLike } from './format.ts';

/** Egg-type multipliers, applied when the viewed type differs from the entry's type. */
export const EGG_TYPE_MULTIPLIERS: Readonly<Record<EggType, number>> = {
  standard: 0.8,
  cage_free: 1.3,
  organic: 1.5,
  pasture_raised: 1.7,
};

/**
 * Region multipliers, REGION_MULTIPLIERS[from][to]. The table gives every ordered
 * pair of distinct regions; staying in the same region is 1.
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

/** A bigger pack than the entry's is cheaper per egg (0.97), a smaller one dearer (1.05). */
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

/** One multiplier an estimate applies, and why: '0.97 (larger pack)'. */
export interface EstimateFactor {
  factor: number;
  reason: string;
}

export interface Estimate {
  /** Pack price for the target count, in whole cents. */
  price: number;
  /** price / target count (not rounded), so it always agrees with the pack price. */
  unitPrice: number;
  /** True when the type, region or count differs from the entry's, i.e. the price is not observed. */
  isEstimate: boolean;
  /** The multipliers applied, in the order the working shows them (pack size, egg type, region). */
  factors: EstimateFactor[];
}

/**
 * Re-prices an entry for another egg type, region or pack size. The factors multiply the
 * per-egg price:
 *   unit  = price / entry count (12 when missing)
 *   unit *= countAdjustment(target count, entry count)    when the counts differ
 *   unit *= eggTypeMultiplier(entry type, target type)   when the types differ
 *   unit *= regionMultiplier(entry region, target region) when the regions differ
 *   price = unit * target count, rounded to cents
 * A factor is skipped when either side is unknown (e.g. an entry with no region).
 */
export function estimatePrice(entry: EstimateSource, target: EstimateTarget): Estimate {
  const entryCount = packCount(entry.count);
  const count = target.count == null ? entryCount : packCount(target.count);
  const factors: EstimateFactor[] = [];
  if (count !== entryCount)
    factors.push({
      factor: countAdjustment(count, entryCount),
      reason: count > entryCount ? 'larger pack' : 'smaller pack',
    });
  const fromType = parseEggType(entry.egg_type);
  const toType = parseEggType(target.eggType);
  if (fromType && toType && fromType !== toType) {
    factors.push({
      factor: eggTypeMultiplier(fromType, toType),
      reason: `${EGG_TYPE_LABELS[toType].toLowerCase()} instead of ${EGG_TYPE_LABELS[fromType].toLowerCase()}`,
    });
  }
  const fromRegion = parseRegion(entry.region);
  const toRegion = parseRegion(target.region);
  if (fromRegion && toRegion && fromRegion !== toRegion) {
    factors.push({
      factor: regionMultiplier(fromRegion, toRegion),
      reason: `${REGION_LABELS[toRegion]} instead of ${REGION_LABELS[fromRegion]}`,
    });
  }
  const unit = factors.reduce((perEgg, { factor }) => perEgg * factor, toNumber(entry.price) / entryCount);
  const price = roundCents(unit * count);
  return { price, unitPrice: price / count, isEstimate: factors.length > 0, factors };
}

/** A multiplier as the working shows it: 1.04, not 1.0400000000000001. */
function formatFactor(factor: number): string {
  return String(Number(factor.toFixed(4)));
}

/**
 * An estimate's working, which a shopper can redo with a calculator:
 * '$3.96 ÷ 12 × 36 × 0.97 (larger pack) × 1.5 (organic instead of standard) = $17.29'.
 */
export function estimateWorking(
  entry: EstimateSource,
  target: EstimateTarget,
  estimate: Estimate = estimatePrice(entry, target),
): string {
  const entryCount = packCount(entry.count);
  const count = target.count == null ? entryCount : packCount(target.count);
  const steps = estimate.factors.map(({ factor, reason }) => ` × ${formatFactor(factor)} (${reason})`).join('');
  return `${formatPrice(entry.price)} ÷ ${entryCount} × ${count}${steps} = ${formatPrice(estimate.price)}`;
}
