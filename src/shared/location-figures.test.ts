import { describe, expect, it } from 'vitest';
import { cheapestPlace, locationFiguresText } from './location-figures.ts';

describe('locationFiguresText', () => {
  it('words the median, the number of locations and the range as the issue does', () => {
    expect(
      locationFiguresText({ locations: 812, median_per_dozen: 3.47, lowest_per_dozen: 2.97, highest_per_dozen: 4.28 }),
    ).toBe('median $3.47 a dozen across 812 stores, $2.97 to $4.28');
    expect(
      locationFiguresText({ locations: 4600, median_per_dozen: 3.5, lowest_per_dozen: 2, highest_per_dozen: 5.125 }),
    ).toBe('median $3.50 a dozen across 4,600 stores, $2.00 to $5.13');
  });

  it('has no median or range for one location, and no range when every location charges the same', () => {
    expect(
      locationFiguresText({ locations: 1, median_per_dozen: 3.47, lowest_per_dozen: 3.47, highest_per_dozen: 3.47 }),
    ).toBe('$3.47 a dozen at 1 store');
    expect(
      locationFiguresText({ locations: 3, median_per_dozen: 3.47, lowest_per_dozen: 3.47, highest_per_dozen: 3.471 }),
    ).toBe('$3.47 a dozen at all 3 stores');
  });
});

describe('cheapestPlace', () => {
  const at = { entry_id: 1, product_id: 1, location_id: 1, price: 3, price_per_dozen: 3, zip: '05401' };
  it('names the city and state, else the name, else the ZIP code', () => {
    expect(cheapestPlace({ ...at, name: 'Walmart 1234', city: 'Burlington', state: 'VT' })).toBe('Burlington, VT');
    expect(cheapestPlace({ ...at, name: 'Walmart 1234', city: null, state: null })).toBe('Walmart 1234');
    expect(cheapestPlace({ ...at, name: null, city: null, state: null })).toBe('05401');
  });
});
