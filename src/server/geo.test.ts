// ZIP facts from the geodata and the distance maths behind Near you.
import { describe, expect, it } from 'vitest';
import zipcodes from 'zipcodes';
import { boundingBox, greatCircleMiles, usStateCode, zipFacts } from './geo.ts';

describe('zipFacts', () => {
  it('reads the city, state, centroid and census region of a ZIP code', () => {
    expect(zipFacts('90210')).toMatchObject({ zip: '90210', city: 'Beverly Hills', state: 'CA', region: 'west' });
    expect(zipFacts('10001')).toMatchObject({ zip: '10001', state: 'NY', region: 'northeast' });
    expect(zipFacts('60611')).toMatchObject({ state: 'IL', region: 'midwest' });
    expect(zipFacts('30301')).toMatchObject({ state: 'GA', region: 'south' });
    const facts = zipFacts('90210')!;
    expect(facts.latitude).toBeCloseTo(zipcodes.lookup('90210')!.latitude, 6);
    expect(facts.longitude).toBeCloseTo(zipcodes.lookup('90210')!.longitude, 6);
  });

  it('takes the first five digits of a ZIP+4 and ignores surrounding spaces', () => {
    expect(zipFacts(' 90210-1234 ')).toMatchObject({ zip: '90210', state: 'CA' });
  });

  it('answers null for malformed and unknown ZIP codes', () => {
    for (const zip of ['', '1234', '123456', 'abcde', '9021O', '00000', '99999']) expect(zipFacts(zip), zip).toBeNull();
  });

  it('answers null for territories and military mail, which have no census region', () => {
    // The geodata knows these ZIP codes; they are not in a state.
    expect(zipcodes.lookup('00601')?.state).toBe('PR');
    expect(zipFacts('00601')).toBeNull();
    expect(zipcodes.lookup('96910')?.state).toBe('GU');
    expect(zipFacts('96910')).toBeNull();
  });
});

describe('usStateCode', () => {
  it('reads a code or a full name in any case', () => {
    expect(usStateCode('UT')).toBe('UT');
    expect(usStateCode(' ri ')).toBe('RI');
    expect(usStateCode('Utah')).toBe('UT');
    expect(usStateCode('Rhode  Island')).toBe('RI');
    expect(usStateCode('DISTRICT OF COLUMBIA')).toBe('DC');
  });

  it('answers null for territories, provinces and other text', () => {
    for (const value of [null, undefined, '', 'PR', 'Puerto Rico', 'Ontario', 'ON', 'XX', 'Utahh', 'constructor'])
      expect(usStateCode(value), String(value)).toBeNull();
  });
});

describe('greatCircleMiles', () => {
  it('is zero from a point to itself and symmetric', () => {
    const a = zipFacts('10001')!;
    const b = zipFacts('90210')!;
    expect(greatCircleMiles(a, a)).toBe(0);
    expect(greatCircleMiles(a, b)).toBeCloseTo(greatCircleMiles(b, a), 9);
  });

  it('measures known distances', () => {
    // One degree of latitude along a meridian: 2 pi R / 360 = 69.09 miles.
    expect(greatCircleMiles({ latitude: 40, longitude: -100 }, { latitude: 41, longitude: -100 })).toBeCloseTo(
      69.09,
      2,
    );
    // New York (JFK) to Los Angeles (LAX): 2,470 miles on a sphere (2,475 on the WGS 84 ellipsoid).
    const jfkLax = greatCircleMiles(
      { latitude: 40.6413, longitude: -73.7781 },
      { latitude: 33.9416, longitude: -118.4085 },
    );
    expect(jfkLax).toBeGreaterThan(2465);
    expect(jfkLax).toBeLessThan(2475);
  });
});

describe('boundingBox', () => {
  it('holds every point within the distance, also far north', () => {
    for (const centre of [
      { latitude: 41.6, longitude: -93.6 },
      { latitude: 64.8, longitude: -147.7 },
      { latitude: 25.8, longitude: -80.2 },
    ]) {
      const box = boundingBox(centre, 50);
      for (let bearing = 0; bearing < 360; bearing += 15) {
        // A point 49.9 miles away at this bearing (spherical destination formula).
        const d = 49.9 / 3958.8;
        const lat1 = (centre.latitude * Math.PI) / 180;
        const lon1 = (centre.longitude * Math.PI) / 180;
        const theta = (bearing * Math.PI) / 180;
        const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(theta));
        const lon2 =
          lon1 +
          Math.atan2(Math.sin(theta) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
        const point = { latitude: (lat2 * 180) / Math.PI, longitude: (lon2 * 180) / Math.PI };
        expect(greatCircleMiles(centre, point)).toBeCloseTo(49.9, 6);
        expect(point.latitude).toBeGreaterThanOrEqual(box.minLatitude);
        expect(point.latitude).toBeLessThanOrEqual(box.maxLatitude);
        expect(point.longitude).toBeGreaterThanOrEqual(box.minLongitude);
        expect(point.longitude).toBeLessThanOrEqual(box.maxLongitude);
      }
    }
  });
});
