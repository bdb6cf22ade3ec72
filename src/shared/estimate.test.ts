import { describe, expect, it } from 'vitest';
import {
  EGG_TYPE_MULTIPLIERS,
  REGION_MULTIPLIERS,
  countAdjustment,
  eggTypeMultiplier,
  estimatePrice,
  estimateWorking,
  regionMultiplier,
} from './estimate.ts';
import { REGIONS } from './vocabulary.ts';

describe('multiplier tables', () => {
  it('has the egg-type multipliers', () => {
    expect(EGG_TYPE_MULTIPLIERS).toEqual({ organic: 1.5, cage_free: 1.3, pasture_raised: 1.7, standard: 0.8 });
  });

  it('has every ordered pair of distinct regions, and 1 within a region', () => {
    expect(REGION_MULTIPLIERS.northeast).toEqual({ northeast: 1, south: 0.77, midwest: 1.05, west: 0.95 });
    expect(REGION_MULTIPLIERS.west).toEqual({ west: 1, south: 0.8, midwest: 1.1, northeast: 1.05 });
    expect(REGION_MULTIPLIERS.midwest).toEqual({ midwest: 1, south: 0.75, northeast: 0.95, west: 0.9 });
    expect(REGION_MULTIPLIERS.south).toEqual({ south: 1, northeast: 1.3, midwest: 1.35, west: 1.25 });
    for (const region of REGIONS) expect(regionMultiplier(region, region)).toBe(1);
  });
});

describe('eggTypeMultiplier', () => {
  it('goes via standard', () => {
    expect(eggTypeMultiplier('standard', 'organic')).toBe(1.5);
    expect(eggTypeMultiplier('standard', 'pasture_raised')).toBe(1.7);
    expect(eggTypeMultiplier('organic', 'standard')).toBe(0.8);
    expect(eggTypeMultiplier('pasture_raised', 'standard')).toBe(0.8);
    expect(eggTypeMultiplier('organic', 'cage_free')).toBeCloseTo(0.8 * 1.3);
    expect(eggTypeMultiplier('cage_free', 'cage_free')).toBe(1);
  });
});

describe('countAdjustment', () => {
  it('is 0.97 for a bigger pack, 1.05 for a smaller one, else 1', () => {
    expect(countAdjustment(18, 12)).toBe(0.97);
    expect(countAdjustment(6, 12)).toBe(1.05);
    expect(countAdjustment(12, 12)).toBe(1);
  });
});

describe('estimatePrice', () => {
  const entry = { price: 3.6, count: 12, egg_type: 'standard', region: 'northeast' };

  it('is the observed price, not an estimate, when nothing differs', () => {
    expect(estimatePrice(entry, { eggType: 'standard', region: 'northeast', count: 12 })).toEqual({
      price: 3.6,
      unitPrice: 0.3,
      isEstimate: false,
      factors: [],
    });
  });

  it('keeps the entry values for missing, all or unknown targets', () => {
    for (const target of [{}, { eggType: 'all', region: 'all' }, { eggType: null, region: null, count: null }]) {
      expect(estimatePrice(entry, target)).toEqual({ price: 3.6, unitPrice: 0.3, isEstimate: false, factors: [] });
    }
  });

  it('matches types and regions in any spelling', () => {
    const cageFree = { ...entry, egg_type: 'Cage-Free', region: 'NorthEast' };
    expect(estimatePrice(cageFree, { eggType: 'cage_free', region: 'northeast' }).isEstimate).toBe(false);
  });

  it('applies the type multiplier from standard', () => {
    const organic = estimatePrice(entry, { eggType: 'organic' });
    expect(organic.price).toBe(5.4); // 3.60 * 1.5
    expect(organic.isEstimate).toBe(true);
  });

  it('applies 0.8 when going to standard, and goes via standard between other types', () => {
    expect(estimatePrice({ ...entry, egg_type: 'organic', price: 6 }, { eggType: 'standard' }).price).toBe(4.8);
    // organic 6.00 -> standard 4.80 -> cage-free 4.80 * 1.3 = 6.24
    expect(estimatePrice({ ...entry, egg_type: 'organic', price: 6 }, { eggType: 'cage-free' }).price).toBe(6.24);
  });

  it('applies the region multiplier', () => {
    expect(estimatePrice(entry, { region: 'south' }).price).toBe(2.77); // 3.60 * 0.77 = 2.772
    expect(estimatePrice({ ...entry, region: 'south' }, { region: 'midwest' }).price).toBe(4.86); // 3.60 * 1.35
  });

  it('scales to the target count with the count adjustment', () => {
    // unit 0.30 * 0.97 * 18 = 5.238
    expect(estimatePrice(entry, { count: 18 })).toEqual({
      price: 5.24,
      unitPrice: 5.24 / 18,
      isEstimate: true,
      factors: [{ factor: 0.97, reason: 'larger pack' }],
    });
    // unit 0.30 * 1.05 * 6 = 1.89
    expect(estimatePrice(entry, { count: 6 }).price).toBe(1.89);
  });

  it('multiplies every factor on the per-egg price', () => {
    // 0.30 * 1.7 (pasture-raised) * 1.05 (northeast -> midwest) * 0.97 (30 > 12) * 30
    const estimate = estimatePrice(entry, { eggType: 'pasture-raised', region: 'midwest', count: 30 });
    expect(estimate.price).toBe(15.58);
    expect(estimate.unitPrice * 30).toBeCloseTo(estimate.price);
    expect(estimate.isEstimate).toBe(true);
  });

  it('treats a missing entry count as 12 and reads numeric-string prices', () => {
    expect(estimatePrice({ price: '3.60', egg_type: 'standard' }, { count: 12 })).toEqual({
      price: 3.6,
      unitPrice: 0.3,
      isEstimate: false,
      factors: [],
    });
    expect(estimatePrice({ price: '3.60' }, { count: 6 }).price).toBe(1.89);
  });

  it('skips a factor when the entry side is unknown', () => {
    const noRegion = estimatePrice({ price: 3.6, count: 12, egg_type: 'standard' }, { region: 'south' });
    expect(noRegion).toEqual({ price: 3.6, unitPrice: 0.3, isEstimate: false, factors: [] });
  });
});

describe('estimateWorking', () => {
  it('shows the sum a shopper can redo: the basis per egg, times the count and each factor with its reason', () => {
    // The Aldi card: its observed $3.96 for 12 eggs priced as a 36-pack.
    const basis = { price: 3.96, count: 12, egg_type: 'standard', region: 'midwest' };
    const target = { eggType: 'standard', region: 'midwest', count: 36 };
    const estimate = estimatePrice(basis, target);
    expect(estimate.price).toBe(11.52); // 3.96 / 12 * 36 * 0.97 = 11.5236
    expect(estimateWorking(basis, target, estimate)).toBe('$3.96 ÷ 12 × 36 × 0.97 (larger pack) = $11.52');
    // The per-egg price is the basis's (0.33) times the count factor alone: never lower.
    expect(estimate.unitPrice).toBeCloseTo(0.33 * 0.97, 3);
  });

  it('names every factor, type and region included', () => {
    const basis = { price: 6, count: 12, egg_type: 'organic', region: 'south' };
    expect(estimateWorking(basis, { eggType: 'cage_free', region: 'midwest', count: 6 })).toBe(
      '$6.00 ÷ 12 × 6 × 1.05 (smaller pack) × 1.04 (cage-free instead of organic) × 1.35 (Midwest instead of South) = $4.42',
    );
    expect(((6 / 12) * 6 * 1.05 * 1.04 * 1.35).toFixed(4)).toBe('4.4226');
  });
});
