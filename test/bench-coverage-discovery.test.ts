// The discovery benchmark (bench/coverage-discovery.ts) on one small state: a complete sweep of RI
// for every retailer on both store networks (the stand-in's and the metro network), its calls per
// store beside the reference sweep's (the plain sweep) and the set-cover lower bound's. `npm run bench -- discovery` measures the whole country.
import { describe, expect, it } from 'vitest';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { discoveryTable, measureDiscovery } from '../bench/coverage-discovery.ts';
import { metroStoresIn } from './retailers/metro-network.ts';

describe('the discovery bench, on one small state', () => {
  it('finds every store of RI for every retailer on both networks, and prints calls per store beside the reference sweep and the lower bound', async () => {
    const rows = await measureDiscovery(() => {}, ['RI']);
    expect(rows.map((row) => `${row.network}: ${row.store}`)).toEqual([
      ...STORE_IDS.map((store) => `stand-in: ${store}`),
      // A chain without a store in the state (the metro network's Kroger) has no row.
      ...STORE_IDS.filter((store) => metroStoresIn(store, ['RI']).length > 0).map((store) => `metro: ${store}`),
    ]);
    for (const row of rows) {
      expect(row.found).toBe(row.present);
      expect(row.boundFound).toBe(row.present);
      // The lower bound is a set cover told where the stores are: no sweep asks fewer.
      expect(row.callsPerStore).toBeGreaterThanOrEqual(row.boundPerStore);
      expect(row.referencePerStore).toBeGreaterThan(0);
      expect(row.met).toBe(row.found >= 0.99 * row.present && row.callsPerStore <= 2 * row.referencePerStore);
      expect(row.withinTwiceBound).toBe(row.callsPerStore <= 2 * row.boundPerStore);
    }
    expect(discoveryTable(rows).rows).toHaveLength(rows.length);
  });
});
