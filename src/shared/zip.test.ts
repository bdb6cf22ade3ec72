import { describe, expect, it } from 'vitest';
import { STATE_REGIONS, isValidZip, parseZipList, zipToRegion, zipToState } from './zip.ts';

describe('parseZipList', () => {
  it('splits on commas, trims and drops empties', () => {
    expect(parseZipList('10001, 60611,90210 ,, 30301,77001,')).toEqual(['10001', '60611', '90210', '30301', '77001']);
    expect(parseZipList('')).toEqual([]);
    expect(parseZipList(' , ')).toEqual([]);
  });

  it('does not check the format', () => {
    expect(parseZipList('abc, 123')).toEqual(['abc', '123']);
  });
});

describe('isValidZip', () => {
  it('accepts five digits or ZIP+4', () => {
    expect(isValidZip('10001')).toBe(true);
    expect(isValidZip('10001-1234')).toBe(true);
  });

  it('rejects anything else', () => {
    for (const zip of ['1000', '100011', '10001-12', '10001 1234', 'abcde', ' 10001', '', '1000a']) {
      expect(isValidZip(zip)).toBe(false);
    }
  });
});

describe('zipToRegion', () => {
  it.each([
    ['10001', 'northeast'], // New York, NY
    ['60611', 'midwest'], // Chicago, IL
    ['90210', 'west'], // Beverly Hills, CA
    ['30301', 'south'], // Atlanta, GA
    ['77001', 'south'], // Houston, TX
    ['00501', 'northeast'], // Holtsville, NY
    ['02108', 'northeast'], // Boston, MA
    ['20500', 'south'], // Washington, DC
    ['98101', 'west'], // Seattle, WA
    ['99501', 'west'], // Anchorage, AK
    ['96813', 'west'], // Honolulu, HI
    ['55401', 'midwest'], // Minneapolis, MN
    ['63101', 'midwest'], // St. Louis, MO
    ['19901', 'south'], // Dover, DE
    ['10001-1234', 'northeast'],
    [' 60611 ', 'midwest'],
  ])('%s -> %s', (zip, region) => {
    expect(zipToRegion(zip)).toBe(region);
  });

  it('returns null for malformed, unassigned and non-state ZIPs', () => {
    for (const zip of ['abc', '', '1234', '123456', '00000', '00100', '00901', '09001', '34001', '96910', '96799']) {
      expect(zipToRegion(zip)).toBeNull();
    }
  });
});

describe('zipToState', () => {
  it.each([
    ['00501', 'NY'],
    ['01001', 'MA'],
    ['02860', 'RI'],
    ['03101', 'NH'],
    ['04101', 'ME'],
    ['05401', 'VT'],
    ['05501', 'MA'], // Andover IRS
    ['06320', 'CT'], // New London
    ['06390', 'NY'], // Fishers Island, inside CT's 063
    ['07102', 'NJ'],
    ['15222', 'PA'],
    ['20001', 'DC'],
    ['20166', 'VA'], // Dulles: 201 is Virginia
    ['21201', 'MD'],
    ['25301', 'WV'],
    ['28202', 'NC'],
    ['29201', 'SC'],
    ['33101', 'FL'],
    ['35203', 'AL'],
    ['37203', 'TN'],
    ['39201', 'MS'],
    ['39901', 'GA'],
    ['40202', 'KY'],
    ['43215', 'OH'],
    ['46204', 'IN'],
    ['48226', 'MI'],
    ['50309', 'IA'],
    ['53202', 'WI'],
    ['57501', 'SD'],
    ['58501', 'ND'],
    ['59601', 'MT'],
    ['66603', 'KS'],
    ['68508', 'NE'],
    ['70112', 'LA'],
    ['72201', 'AR'],
    ['73102', 'OK'],
    ['73301', 'TX'], // Austin IRS, inside Oklahoma's 73x
    ['80202', 'CO'],
    ['82001', 'WY'],
    ['83702', 'ID'],
    ['84101', 'UT'],
    ['85001', 'AZ'],
    ['87501', 'NM'],
    ['88510', 'TX'], // El Paso
    ['89501', 'NV'],
    ['97201', 'OR'],
  ])('%s -> %s', (zip, state) => {
    expect(zipToState(zip)).toBe(state);
  });

  it('returns null when there is no state', () => {
    expect(zipToState('abc')).toBeNull();
    expect(zipToState('00901')).toBeNull(); // Puerto Rico
  });

  it('maps every state it can return to a region', () => {
    expect(Object.keys(STATE_REGIONS)).toHaveLength(51);
  });
});
