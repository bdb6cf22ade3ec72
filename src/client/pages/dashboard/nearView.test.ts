import { describe, expect, it } from 'vitest';
import { changeOf, formatDistance, locationOf, scopeNote } from './nearView.ts';

const result = {
  zip: '10001',
  city: 'New York',
  state: 'NY',
  region: 'northeast',
  radius: 5,
  radius_used: 5,
  total: 12,
  nearest: null,
} as const;

describe('Near you wording', () => {
  it('labels each scope, with the radius asked for and the one used', () => {
    expect(scopeNote({ ...result, scope: 'radius' })).toEqual({
      kind: 'radius',
      text: '12 prices within 5 miles of New York, NY 10001, cheapest per dozen first.',
    });
    expect(scopeNote({ ...result, scope: 'radius', total: 1, city: null, state: null })).toMatchObject({
      text: '1 price within 5 miles of 10001, cheapest per dozen first.',
    });
    expect(scopeNote({ ...result, scope: 'widened', radius_used: 25 })).toEqual({
      kind: 'widened',
      text: 'No stores within 5 miles of 10001. Showing stores within 25 miles.',
    });
    expect(
      scopeNote({ ...result, zip: '98101', region: 'west', radius: 50, scope: 'region', radius_used: null }),
    ).toEqual({
      kind: 'region',
      text: 'No stores within 50 miles of 98101. Showing the cheapest in the West.',
    });
    expect(scopeNote({ ...result, scope: 'none', radius_used: null, total: 0 })).toMatchObject({
      kind: 'none',
      title: 'No prices near 10001',
    });
  });

  it('says no store is known near a ZIP code whose nearest store is hundreds of miles away, and how far it is', () => {
    const anchorage = {
      ...result,
      zip: '99501',
      city: 'Anchorage',
      state: 'AK',
      region: 'west' as const,
      scope: 'far' as const,
      radius_used: null,
      total: 0,
    };
    const nearest = { store_name: 'Walmart', city: 'Seattle', state: 'WA', zip: '98101', distance_miles: 1448.3 };
    expect(scopeNote({ ...anchorage, nearest })).toEqual({
      kind: 'far',
      title: 'No store known near Anchorage, AK 99501',
      text: 'The nearest store with prices is Walmart in Seattle, WA 98101, 1,448.3 mi away.',
    });
  });

  it('writes distances with one decimal and thousands separators', () => {
    expect(formatDistance({ distance_miles: 0, zip: '10001' })).toBe('0.0 mi');
    expect(formatDistance({ distance_miles: 2.34, zip: '10001' })).toBe('2.3 mi');
    expect(formatDistance({ distance_miles: 1204, zip: '10001' })).toBe('1,204.0 mi');
  });

  it('names the ZIP code of a store whose distance is not measured, never 0.0 mi', () => {
    expect(formatDistance({ distance_miles: null, zip: '10001' })).toBe('in 10001');
  });

  it('names a location by its name, else its city, with the place beside it', () => {
    expect(locationOf({ location_name: 'Walmart (sample location)', city: null, state: null, zip: '10001' })).toEqual({
      name: 'Walmart (sample location)',
      place: '10001',
    });
    expect(locationOf({ location_name: 'Store 12', city: 'Chicago', state: 'IL', zip: '60611' })).toEqual({
      name: 'Store 12',
      place: 'Chicago, IL 60611',
    });
    expect(locationOf({ location_name: null, city: 'Chicago', state: 'IL', zip: '60611' })).toEqual({
      name: 'Chicago',
      place: '60611',
    });
    expect(locationOf({ location_name: ' ', city: null, state: null, zip: '60611' })).toEqual({
      name: 'ZIP 60611',
      place: '60611',
    });
  });

  it('shows the change since the day before with an arrow and the amount, or a dash without a previous price', () => {
    expect(changeOf({ change: 0.2, previous_price: 3.29 })).toEqual({
      direction: 'up',
      text: '▲ $0.20',
      description: 'Up $0.20, was $3.29 the day before',
    });
    expect(changeOf({ change: -0.11, previous_price: 3.6 })).toMatchObject({ direction: 'down', text: '▼ $0.11' });
    expect(changeOf({ change: 0.001, previous_price: 3.6 })).toMatchObject({ direction: 'same', text: 'No change' });
    expect(changeOf({ change: null, previous_price: null })).toMatchObject({ direction: 'none', text: '—' });
  });
});
