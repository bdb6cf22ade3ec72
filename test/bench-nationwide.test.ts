// The nationwide benchmark's store locations (bench/nationwide-database.ts): the pure placement
// the database build inserts. The build itself is measured by `npm run bench -- nationwide`.
import { describe, expect, it } from 'vitest';
import { zipFacts } from '#server/geo.ts';
import { storeShares } from '#shared/coverage.ts';
import { STATE_REGIONS } from '#shared/zip.ts';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { NATIONWIDE_PACKS, nationwideLocations } from '../bench/nationwide-database.ts';
import { CHAIN_STATES } from './retailers/network.ts';

describe('nationwide benchmark locations', () => {
  const locations = nationwideLocations(15_000);

  it('places 15,000 stores, each chain its share of the US store counts', () => {
    expect(locations).toHaveLength(15_000);
    const perChain = Object.fromEntries(STORE_IDS.map((id) => [id, locations.filter((l) => l.storeId === id).length]));
    expect(perChain).toEqual(storeShares(15_000));
    expect(perChain).toEqual({
      walmart: 4775,
      target: 2045,
      kroger: 2803,
      albertsons: 2336,
      'whole-foods': 550,
      aldi: 2491,
    });
  });

  it('puts every store on a real ZIP centroid in a state its chain serves, and has stores in every state and DC', () => {
    for (const l of locations) {
      const facts = zipFacts(l.zip);
      expect(facts, l.zip).not.toBeNull();
      expect({ state: l.state, region: l.region, latitude: l.latitude, longitude: l.longitude }).toEqual({
        state: facts!.state,
        region: facts!.region,
        latitude: facts!.latitude,
        longitude: facts!.longitude,
      });
      expect(CHAIN_STATES[l.storeId]).toContain(l.state);
    }
    const states = new Set(locations.map((l) => l.state));
    expect([...states].sort()).toEqual(Object.keys(STATE_REGIONS).sort());
    expect(states.size).toBe(51);
  });

  it('gives no two stores of a chain the same ZIP code or retailer id', () => {
    for (const id of STORE_IDS) {
      const mine = locations.filter((l) => l.storeId === id);
      expect(new Set(mine.map((l) => l.zip)).size).toBe(mine.length);
      expect(new Set(mine.map((l) => l.retailerLocationId)).size).toBe(mine.length);
    }
    // Whole Foods ids are 5-digit 10xxx numbers, as the real ones.
    expect(
      locations.filter((l) => l.storeId === 'whole-foods').every((l) => /^10\d{3}$/.test(l.retailerLocationId)),
    ).toBe(true);
  });

  it('names Kroger and Albertsons stores by a banner of their state', () => {
    const ralphs = locations.filter((l) => l.storeId === 'kroger' && l.state === 'CA');
    expect(ralphs.length).toBeGreaterThan(0);
    expect(ralphs.every((l) => l.banner === 'Ralphs')).toBe(true);
    expect(locations.filter((l) => l.storeId === 'walmart').every((l) => l.banner === null)).toBe(true);
  });

  it('sells 20 distinct packs per store, every egg type among them', () => {
    expect(NATIONWIDE_PACKS).toHaveLength(20);
    expect(new Set(NATIONWIDE_PACKS.map((p) => `${p.eggType}-${p.count}-${p.brand}`)).size).toBe(20);
    expect(new Set(NATIONWIDE_PACKS.map((p) => p.eggType)).size).toBe(4);
  });
});
