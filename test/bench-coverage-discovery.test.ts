// The discovery benchmark (bench/coverage-discovery.ts) on one small state: a complete sweep of RI
// for every retailer, its calls per store beside each locator's floor. `npm run bench -- discovery`
// measures the whole country.
import { describe, expect, it } from 'vitest';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { discoveryTable, measureDiscovery } from '../bench/coverage-discovery.ts';

describe('the discovery bench, on one small state', () => {
  it('finds every store of RI for every retailer and prints calls per store beside the floor', async () => {
    const rows = await measureDiscovery(() => {}, ['RI']);
    expect(rows.map((row) => row.store)).toEqual([...STORE_IDS]);
    for (const row of rows) {
      expect(row.met).toBe(true);
      expect(row.callsPerStore).toBeGreaterThanOrEqual(row.floorPerStore);
    }
    expect(rows.find((row) => row.store === 'kroger')!.floorPerStore).toBe(1 / 200);
    expect(discoveryTable(rows).rows).toHaveLength(6);
  });
});
