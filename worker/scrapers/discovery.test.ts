// Discovery parse functions of the six modules: every store an answer lists and what the answer
// proves about the stores around the point asked, on real bodies where they exist
// (test/retailers/real) and on the documented shapes where none does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { greatCircleMiles, zipFacts } from '#server/geo.ts';
import { placeStore, provenMiles, storeMiles, widestZipMarginMiles, zipMarginMiles } from './discovery.ts';
import { parseAlbertsonsDiscovery } from './albertsons.ts';
import { ALDI_MERCHANT_REACH_MILES, parseAldiDiscovery, parseAldiMerchants } from './aldi.ts';
import { parseKrogerDiscovery } from './kroger.ts';
import { parseTargetDiscovery } from './target.ts';
import { WALMART_PLACEMENT_REACH_MILES, parseWalmartDiscovery } from './walmart.ts';
import { WHOLE_FOODS_FINDER_REACH_MILES, parseWholeFoodsDiscovery } from './whole-foods.ts';
import { StructureError, type DiscoveryPoint } from './types.ts';

const real = (path: string) => readFileSync(new URL(`../../test/retailers/real/${path}`, import.meta.url), 'utf8');
const pointOf = (zip: string): DiscoveryPoint => {
  const facts = zipFacts(zip)!;
  return { zip, latitude: facts.latitude, longitude: facts.longitude };
};

describe('provenMiles', () => {
  it('an answer that lists no store proves the whole radius asked', () => {
    expect(provenMiles({ radiusMiles: 100, limit: 10, miles: [] })).toBe(100);
    expect(provenMiles({ radiusMiles: 50, limit: null, miles: [] })).toBe(50);
  });

  it('an answer with fewer stores than the documented limit proves the whole radius asked', () => {
    expect(provenMiles({ radiusMiles: 50, limit: 10, miles: [0.7, 9.5, 1.8] })).toBe(50);
    expect(provenMiles({ radiusMiles: 100, limit: 200, miles: [0.7, null] })).toBe(100);
  });

  it('a full answer, or any answer of a locator without a documented limit, proves just inside its farthest store', () => {
    expect(provenMiles({ radiusMiles: 50, limit: 3, miles: [0.7, 9.5, 1.8] })).toBeCloseTo(9.49, 5);
    expect(provenMiles({ radiusMiles: 100, limit: null, miles: [0.7, 9.5, 1.8] })).toBeCloseTo(9.49, 5);
    // A store beyond the radius asked: the service looked that far.
    expect(provenMiles({ radiusMiles: 5, limit: 1, miles: [40] })).toBeCloseTo(39.99, 5);
    // An unknown distance proves nothing.
    expect(provenMiles({ radiusMiles: 100, limit: 2, miles: [0.7, null] })).toBe(0);
  });

  it("each ZIP code's margin comes from the spacing of the geodata's centres: small downtown, wide in open country", () => {
    const downtown = zipMarginMiles('10001')!;
    const country = zipMarginMiles('59301')!;
    expect(downtown).toBeGreaterThan(0);
    expect(downtown).toBeLessThan(2);
    expect(country).toBeGreaterThan(5 * downtown);
    expect(widestZipMarginMiles()).toBeGreaterThanOrEqual(country);
    expect(zipMarginMiles('00000')).toBeNull();
  });

  it("a store's distance: the answer's, else its coordinates, else a lower bound from its ZIP code", () => {
    const point = pointOf('10001');
    const base = { retailerLocationId: '1', name: null, city: null, state: null, address: null };
    expect(storeMiles(point, { ...base, zip: null, latitude: null, longitude: null }, 4.2)).toBe(4.2);
    expect(storeMiles(point, { ...base, zip: null, latitude: point.latitude, longitude: point.longitude })).toBe(0);
    const fromZip = storeMiles(point, { ...base, zip: '07102', latitude: null, longitude: null })!;
    expect(fromZip).toBeGreaterThan(5);
    expect(fromZip).toBeCloseTo(greatCircleMiles(point, zipFacts('07102')!) - zipMarginMiles('07102')!, 6);
    expect(storeMiles(point, { ...base, zip: null, latitude: null, longitude: null })).toBeNull();
  });
});

describe('Target nearby_stores_v1 (real bodies)', () => {
  it('reads all 20 stores of a full answer, which proves the radius up to its farthest store', () => {
    const answer = parseTargetDiscovery(
      real('target/nearby-stores-v1-rhode-island-20stores-graqr-2024-01-17.json'),
      pointOf('02860'),
      100,
    );
    expect(answer.stores).toHaveLength(20);
    expect(new Set(answer.stores.map((store) => store.state))).toEqual(new Set(['RI', 'MA', 'CT']));
    expect(answer.stores.every((store) => store.retailerLocationId && store.zip && store.banner === null)).toBe(true);
    expect(answer.provenMiles).toBeCloseTo(36.66, 2);
  });

  it('an answer of 15 when 20 were asked proves the whole radius; at a limit of 15 only up to its farthest store', () => {
    const body = real('target/nearby-stores-v1-centerville-UT-15stores-graqr-2024-01-17.json');
    expect(parseTargetDiscovery(body, pointOf('84014'), 100).provenMiles).toBe(100);
    const answer = parseTargetDiscovery(body, pointOf('84014'), 100, 15);
    expect(answer.stores).toHaveLength(15);
    expect(answer.stores[0]).toMatchObject({
      retailerLocationId: '1750',
      name: 'Centerville',
      state: 'UT',
      zip: '84014',
    });
    expect(answer.provenMiles).toBeGreaterThan(20);
    expect(answer.provenMiles).toBeLessThan(100);
  });

  it('fails on a body of another structure', () => {
    expect(() => parseTargetDiscovery('{"data":{"stores":[]}}', pointOf('84014'), 100)).toThrow(StructureError);
  });
});

describe('Albertsons storeresolver (real body)', () => {
  it('reads each store with its banner; 3 stores of 10 asked prove the radius, of 3 asked up to the farthest distance', () => {
    const body = real('albertsons/storeresolver-all-zip94105.json');
    expect(parseAlbertsonsDiscovery(body, pointOf('94105'), 50).provenMiles).toBe(50);
    const answer = parseAlbertsonsDiscovery(body, pointOf('94105'), 50, 3);
    expect(answer.stores.map((store) => [store.retailerLocationId, store.banner])).toEqual([
      ['4601', 'Safeway'],
      ['2606', 'Safeway'],
      ['1490', 'Safeway'],
    ]);
    expect(answer.stores[0]).toMatchObject({
      city: 'San Francisco',
      state: 'CA',
      zip: '94111',
      address: '145 Jackson St',
    });
    expect(answer.provenMiles).toBeCloseTo(1.82, 2);
  });
});

describe('Kroger /v1/locations (documented shape: no real body exists)', () => {
  const body = JSON.stringify({
    data: [
      {
        locationId: '01400943',
        chain: 'KROGER',
        name: 'Kroger - Cincinnati',
        address: { addressLine1: '1 Vine St', city: 'Cincinnati', state: 'OH', zipCode: '45202' },
        geolocation: { latitude: 39.1, longitude: -84.51 },
      },
      {
        locationId: '70100123',
        chain: 'FRED',
        name: 'Fred Meyer - Hamilton',
        address: { addressLine1: '2 Main St', city: 'Hamilton', state: 'OH', zipCode: '45011' },
        geolocation: { latitude: 39.4, longitude: -84.56 },
      },
    ],
    meta: { pagination: { start: 0, limit: 2, total: 2 } },
  });

  it('reads every location with its banner (`chain`); a full answer proves up to the farthest by coordinates', () => {
    const point = pointOf('45209');
    // Two of 200 asked: the whole radius.
    expect(parseKrogerDiscovery(body, point, 100).provenMiles).toBe(100);
    const answer = parseKrogerDiscovery(body, point, 100, 2);
    expect(answer.stores.map((store) => [store.retailerLocationId, store.banner])).toEqual([
      ['01400943', 'KROGER'],
      ['70100123', 'FRED'],
    ]);
    expect(answer.provenMiles).toBeGreaterThan(15);
    expect(answer.provenMiles).toBeLessThan(30);
    expect(parseKrogerDiscovery('{"data":[]}', point, 100).provenMiles).toBe(100);
  });

  it('fails on an undocumented body', () => {
    expect(() => parseKrogerDiscovery('{"locations":[]}', pointOf('45209'), 100)).toThrow(StructureError);
  });
});

describe('nearest-only locators (documented shapes: no real body exists)', () => {
  it('ALDI merchant search: every entry of data[]; it proves up to its farthest', () => {
    const body = JSON.stringify({
      data: [
        {
          id: '423-101',
          name: 'ALDI Providence',
          address: { address1: '1 Main St', city: 'Providence', regionCode: 'RI', zipCode: '02903' },
          latitude: 41.82,
          longitude: -71.41,
          distance: 3.4,
        },
        { id: '423-102', address: { address1: '2 Elm St', city: 'Warwick', zip: '02886' }, distance: 7.9 },
        { id: '423-103', address: { address1: '3 Oak St', city: 'Cranston' }, distance: 5.2 },
      ],
    });
    const answer = parseAldiDiscovery(body, pointOf('02860'));
    expect(answer.stores).toEqual([
      expect.objectContaining({ retailerLocationId: '423-101', zip: '02903', state: 'RI' }),
      // `zip` is read as well as zipCode and postalCode; the state comes from the ZIP code.
      expect.objectContaining({ retailerLocationId: '423-102', zip: '02886', state: 'RI' }),
      // A city alone: the ZIP code of that city nearest the point asked.
      expect.objectContaining({ retailerLocationId: '423-103', city: 'Cranston', state: 'RI' }),
    ]);
    expect(answer.skipped).toEqual([]);
    expect(answer.provenMiles).toBeCloseTo(7.89, 2);
    // data[0] stays the store a ZIP code's prices come from.
    expect(parseAldiMerchants(body)).toMatchObject({ retailerLocationId: '423-101' });
    expect(parseAldiDiscovery('{"data":[]}', pointOf('02860'))).toEqual({
      stores: [],
      skipped: [],
      provenMiles: ALDI_MERCHANT_REACH_MILES,
    });
  });

  it("Walmart serviceAvailability: the placed store; its distance is a lower bound from its ZIP code's centre", () => {
    const body = JSON.stringify({
      accessPointList: [
        {
          assortmentStoreId: '5936',
          name: 'Walmart Supercenter #5936',
          address: { line1: '1 Market St', city: 'Newark', state: 'NJ', postalCode: '07102' },
        },
      ],
    });
    const answer = parseWalmartDiscovery(body, pointOf('10001'));
    expect(answer.stores).toEqual([
      expect.objectContaining({ retailerLocationId: '5936', zip: '07102', latitude: null }),
    ]);
    expect(answer.provenMiles).toBeGreaterThan(5);
    expect(answer.provenMiles).toBeLessThan(9);
    expect(parseWalmartDiscovery('{"accessPointList":[]}', pointOf('10001')).provenMiles).toBe(
      WALMART_PLACEMENT_REACH_MILES,
    );
    expect(() => parseWalmartDiscovery('{"stores":[]}', pointOf('10001'))).toThrow(StructureError);
  });
});

describe('Whole Foods store finder (documented shape: line1, city, state and coordinates, no ZIP code)', () => {
  const finder = JSON.stringify([
    {
      storeId: 10160,
      name: 'Lamar',
      location: {
        address: { line1: '525 N Lamar Blvd', city: 'Austin', state: 'TX' },
        geometry: { type: 'Point', coordinates: [-97.7531, 30.2707] },
      },
    },
    {
      storeId: 10457,
      location: {
        address: { line1: '11920 Domain Dr', city: 'Austin', state: 'Texas', zip: '78758' },
        geometry: { coordinates: [-97.725, 30.4019] },
      },
    },
  ]);

  it('files a store without a ZIP code under the nearest ZIP code centre of its state, and reads `zip`', () => {
    const answer = parseWholeFoodsDiscovery(finder, pointOf('78701'));
    expect(answer.stores).toEqual([
      // The nearest centre (78701), not the store's real ZIP code (78703): the rule is the nearest centre.
      expect.objectContaining({ retailerLocationId: '10160', zip: '78701', state: 'TX', latitude: 30.2707 }),
      expect.objectContaining({ retailerLocationId: '10457', zip: '78758', state: 'TX' }),
    ]);
    expect(answer.skipped).toEqual([]);
    // The answer proves up to its farthest store, by its coordinates.
    expect(answer.provenMiles).toBeGreaterThan(8);
    expect(answer.provenMiles).toBeLessThan(12);
    expect(parseWholeFoodsDiscovery('[]', pointOf('78701')).provenMiles).toBe(WHOLE_FOODS_FINDER_REACH_MILES);
  });

  it('counts a store it cannot place as skipped, with the reason', () => {
    const answer = parseWholeFoodsDiscovery(
      JSON.stringify([{ storeId: 10999, location: { address: { line1: '1 Nowhere Rd' } } }]),
      pointOf('78701'),
    );
    expect(answer.stores).toEqual([]);
    expect(answer.skipped).toEqual([
      { retailerLocationId: '10999', reason: 'the answer gives no ZIP code, coordinates or city to file it under' },
    ]);
    // Its distance is unknown, so the full answer proves nothing.
    expect(answer.provenMiles).toBe(0);
  });
});

describe('placeStore', () => {
  const base = { retailerLocationId: '1', name: null, address: null };
  const near = { point: pointOf('80202'), radiusMiles: 50 };

  it('keeps a US ZIP code, taking the state from it when none is named', () => {
    expect(placeStore({ ...base, zip: '80202', city: null, state: null, latitude: null, longitude: null })).toEqual({
      location: expect.objectContaining({ zip: '80202', state: 'CO' }),
    });
  });

  it('places coordinates at the nearest ZIP code centre of the named state, not across the line', () => {
    // A point in Texarkana, TX, a few hundred yards from Arkansas.
    const point = { latitude: 33.4251, longitude: -94.0477 };
    const inTexas = placeStore({ ...base, zip: null, city: null, state: 'TX', ...point });
    expect(inTexas.location?.state).toBe('TX');
    expect(zipFacts(inTexas.location!.zip!)!.state).toBe('TX');
    const anywhere = placeStore({ ...base, zip: null, city: null, state: null, ...point });
    expect(anywhere.location?.zip).toMatch(/^\d{5}$/);
    expect(placeStore({ ...base, zip: null, city: null, state: null, latitude: 10, longitude: -40 }).skipped).toMatch(
      /more than 30 miles from every ZIP code/,
    );
  });

  it('places a city alone at its ZIP code nearest the point asked, within the radius', () => {
    const aurora = placeStore(
      { ...base, zip: null, city: 'AURORA', state: null, latitude: null, longitude: null },
      near,
    );
    expect(aurora.location).toMatchObject({ state: 'CO', city: 'AURORA' });
    expect(zipFacts(aurora.location!.zip!)!.city).toBe('Aurora');
    expect(
      placeStore({ ...base, zip: null, city: 'Provo', state: null, latitude: null, longitude: null }, near).skipped,
    ).toBe(`no ZIP code of Provo lies within ${Math.round(50 + widestZipMarginMiles())} miles of the point asked`);
    expect(
      placeStore({ ...base, zip: null, city: null, state: null, latitude: null, longitude: null }, near).skipped,
    ).toBe('the answer gives no ZIP code, coordinates or city to file it under');
  });
});

describe('Albertsons storeresolver with the documented minimum (locationId, line1, city)', () => {
  it('files each store by its city near the point asked; its distance is a lower bound from there', () => {
    const body = JSON.stringify({
      instore: {
        count: 2,
        stores: [
          { locationId: '3121', address: { line1: '1 Colfax Ave', city: 'Denver' } },
          { locationId: '3122', address: { line1: '2 Havana St', city: 'Aurora' } },
        ],
      },
    });
    // A full answer (2 stores at a limit of 2): its farthest store's distance is bounded from its city.
    const answer = parseAlbertsonsDiscovery(body, pointOf('80202'), 50, 2);
    expect(answer.measured).toBe(false);
    expect(answer.stores.map((store) => [store.retailerLocationId, store.state, zipFacts(store.zip!)!.city])).toEqual([
      ['3121', 'CO', 'Denver'],
      ['3122', 'CO', 'Aurora'],
    ]);
    expect(answer.provenMiles).toBeLessThan(10);
  });
});
