import { describe, expect, it } from 'vitest';
import { DEFAULT_NEAR_RADIUS, NEAR_RADII, nearInput, zipParam } from '#shared/near.ts';
import { parseDashboardParams, toDashboardParams } from './urlState.ts';
import {
  DEFAULT_NEAR_STATE,
  DEFAULT_RADIUS,
  RADII,
  ZIP_FORMAT_MESSAGE,
  parseNearParams,
  parseZip,
  savedZip,
  toNearParams,
  type NearState,
} from './nearUrlState.ts';

const parse = (query: string) => parseNearParams(new URLSearchParams(query));

describe('Near you URL state', () => {
  it('reads the defaults from an empty query: no ZIP yet, 25 miles, any type and size', () => {
    expect(parse('')).toEqual({ zip: null, radius: 25, eggType: 'all', count: null });
  });

  it('reads every field, in either egg-type spelling and any case', () => {
    expect(parse('zip=10001&radius=5&nearType=Cage_Free&nearCount=18')).toEqual({
      zip: '10001',
      radius: 5,
      eggType: 'cage_free',
      count: 18,
    });
    expect(parse('zip=98101-1234&nearType=pasture-raised').zip).toBe('98101');
  });

  it('drops each malformed value alone, keeping the others', () => {
    expect(parse('zip=1000&radius=25&nearType=organic')).toEqual({ ...DEFAULT_NEAR_STATE, eggType: 'organic' });
    expect(parse('zip=10001&radius=15&nearType=brown&nearCount=7')).toEqual({ ...DEFAULT_NEAR_STATE, zip: '10001' });
    expect(parse('zip=abcde&radius=10&nearCount=12.5')).toEqual({ ...DEFAULT_NEAR_STATE, radius: 10 });
    expect(parse('radius=&nearCount=').radius).toBe(25);
  });

  it('writes only non-default values, with URL spellings, keeps the dashboard parameters and round-trips', () => {
    const state: NearState = { zip: '60611', radius: 10, eggType: 'pasture_raised', count: 12 };
    const params = toNearParams(state, new URLSearchParams('type=organic&page=2&zip=10001'));
    expect(params.toString()).toBe('type=organic&page=2&zip=60611&radius=10&nearType=pasture-raised&nearCount=12');
    expect(parseNearParams(params)).toEqual(state);
    expect(toNearParams({ ...DEFAULT_NEAR_STATE }).toString()).toBe('');
    // The dashboard's own writes keep the section's parameters, and the other way round.
    const dashboard = parseDashboardParams(params);
    expect(dashboard.filters.eggType).toBe('organic');
    expect(parseNearParams(toDashboardParams({ ...dashboard, page: 1 }, params))).toEqual(state);
  });

  it('follows the contract: the ZIP codes and radii the API accepts, its message, and an input it takes', () => {
    for (const zip of ['10001', ' 10001 ', '10001-0001', '1000', '100011', '10001-1', 'ABCDE', '']) {
      const api = nearInput.safeParse({ zip });
      expect(parseZip(zip), zip).toBe(api.success ? api.data.zip : null);
    }
    expect(zipParam.safeParse('1000').error?.issues[0]?.message).toBe(ZIP_FORMAT_MESSAGE);
    expect(RADII).toEqual(NEAR_RADII);
    expect(DEFAULT_RADIUS).toBe(DEFAULT_NEAR_RADIUS);
    const input = { zip: '30301', radius: 50, egg_type: 'cage_free', count: 6 };
    expect(nearInput.parse(input)).toMatchObject(input);
  });
});

describe('the ZIP code saved in Preferences (searched when the URL names none)', () => {
  it('is the saved ZIP code as Near you searches it', () => {
    expect(savedZip(() => JSON.stringify({ zipCode: ' 60611 ', preferredCount: 12 }))).toBe('60611');
    expect(savedZip(() => JSON.stringify({ zipCode: '98101-1234' }))).toBe('98101');
  });

  it('is none when nothing usable is saved or storage refuses', () => {
    for (const stored of [
      null,
      '',
      '{}',
      JSON.stringify({ zipCode: '' }),
      JSON.stringify({ zipCode: '123456' }),
      'not json',
    ]) {
      expect(savedZip(() => stored)).toBeNull();
    }
    expect(
      savedZip(() => {
        throw new Error('storage disabled');
      }),
    ).toBeNull();
  });
});
