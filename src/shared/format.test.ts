import { describe, expect, it } from 'vitest';
import {
  formatExactTime,
  formatHistoryDays,
  formatLocation,
  formatPlace,
  formatDozenPrice,
  formatDozenWithPack,
  formatPackPrice,
  formatRegionScope,
  formatPrice,
  formatRelativeTime,
  formatWasPrice,
  stockState,
  STOCK_LABELS,
  formatTrend,
  formatUnitPrice,
  packCount,
  parseNumber,
  parseTrendDirection,
  roundCents,
  toNumber,
  trendColor,
  trendDirection,
  trendDirectionFromValue,
  pricePerDozen,
  unitPrice,
} from './format.ts';

describe('parseNumber / toNumber', () => {
  it('reads numbers and numeric strings', () => {
    expect(toNumber(3.75)).toBe(3.75);
    expect(toNumber('3.75')).toBe(3.75);
    expect(toNumber(' 4 ')).toBe(4);
    expect(toNumber('-2.4')).toBe(-2.4);
    expect(toNumber('.5')).toBe(0.5);
    expect(toNumber('1e2')).toBe(100);
  });

  it('counts non-numeric values and null as 0', () => {
    for (const value of ['abc', '', '  ', '$3.75', '3.75abc', '0x10', null, undefined, Number.NaN, Infinity, '1e999']) {
      expect(toNumber(value)).toBe(0);
    }
  });

  it('parseNumber tells "missing" apart from 0', () => {
    expect(parseNumber('0')).toBe(0);
    expect(parseNumber('')).toBeNull();
    expect(parseNumber(null)).toBeNull();
  });
});

describe('packCount', () => {
  it('is 12 when missing or unusable', () => {
    expect(packCount(undefined)).toBe(12);
    expect(packCount(null)).toBe(12);
    expect(packCount(0)).toBe(12);
    expect(packCount(-6)).toBe(12);
    expect(packCount(Number.NaN)).toBe(12);
    expect(packCount(18)).toBe(18);
  });
});

describe('roundCents', () => {
  it('rounds half away from zero despite binary noise', () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(10.005)).toBe(10.01);
    expect(roundCents(3.744)).toBe(3.74);
    expect(roundCents(-1.005)).toBe(-1.01);
    expect(Object.is(roundCents(-0.001), 0)).toBe(true);
  });
});

describe('formatPrice', () => {
  it('shows two decimals with a dollar sign', () => {
    expect(formatPrice(3.75)).toBe('$3.75');
    expect(formatPrice(3)).toBe('$3.00');
    expect(formatPrice('4.5')).toBe('$4.50');
    expect(formatPrice(2.999)).toBe('$3.00');
    expect(formatPrice(1.005)).toBe('$1.01');
  });

  it('shows $0.00 for a non-numeric price', () => {
    expect(formatPrice('n/a')).toBe('$0.00');
    expect(formatPrice(null)).toBe('$0.00');
  });

  it('puts the sign before the dollar', () => {
    expect(formatPrice(-1.5)).toBe('-$1.50');
  });
});

describe('formatPackPrice', () => {
  it("appends ' / N ct' when a count is given", () => {
    expect(formatPackPrice(3.75, 12)).toBe('$3.75 / 12 ct');
    expect(formatPackPrice('5', 18)).toBe('$5.00 / 18 ct');
  });

  it('is the plain price when the count is missing', () => {
    expect(formatPackPrice(3.75, undefined)).toBe('$3.75');
    expect(formatPackPrice(3.75, null)).toBe('$3.75');
    expect(formatPackPrice(3.75, 0)).toBe('$3.75');
  });
});

describe('unitPrice / formatUnitPrice', () => {
  it('divides price by count', () => {
    expect(unitPrice(3.75, 12)).toBeCloseTo(0.3125);
    expect(unitPrice('6', 6)).toBe(1);
    expect(formatUnitPrice(3.75, 12)).toBe('$0.31 per egg');
    expect(formatUnitPrice('7.50', 30)).toBe('$0.25 per egg');
  });

  it('is null / empty when the count is missing or zero', () => {
    expect(unitPrice(3.75, undefined)).toBeNull();
    expect(unitPrice(3.75, null)).toBeNull();
    expect(unitPrice(3.75, 0)).toBeNull();
    expect(formatUnitPrice(3.75, undefined)).toBe('');
    expect(formatUnitPrice(3.75, 0)).toBe('');
  });
});

describe('pricePerDozen / formatDozenPrice / formatDozenWithPack', () => {
  it('prices 12 eggs at the pack price per egg, with the pack price beside it', () => {
    expect(pricePerDozen(5.24, 18)).toBeCloseTo(3.4933, 4);
    expect(pricePerDozen('26.29', 60)).toBeCloseTo(5.258, 4);
    expect(formatDozenPrice(26.29, 60)).toBe('$5.26 per dozen');
    expect(formatDozenWithPack(5.24, 18)).toBe('$3.49 per dozen ($5.24 / 18 ct)');
    expect(formatDozenWithPack(2.79, 6)).toBe('$5.58 per dozen ($2.79 / 6 ct)');
    expect(formatDozenWithPack(3.49, 12)).toBe('$3.49 per dozen ($3.49 / 12 ct)');
  });

  it('has no figure per dozen without a count', () => {
    expect(pricePerDozen(3.75, null)).toBeNull();
    expect(formatDozenPrice(3.75, 0)).toBe('');
    expect(formatDozenWithPack(3.75, undefined)).toBe('$3.75');
  });
});

describe('formatRegionScope', () => {
  it('says which regions figures span', () => {
    expect(formatRegionScope([])).toBe('');
    expect(formatRegionScope(['west'])).toBe('in the West');
    expect(formatRegionScope(['midwest', 'south'])).toBe('across the Midwest and South');
    expect(formatRegionScope(['northeast', 'midwest', 'west'])).toBe('across the Northeast, Midwest and West');
    expect(formatRegionScope(['northeast', 'midwest', 'south', 'west'])).toBe('across all regions');
  });
});

describe('formatTrend', () => {
  it('shows the absolute value with two decimals and a percent sign', () => {
    expect(formatTrend(-2.4)).toBe('2.40%');
    expect(formatTrend(0.8)).toBe('0.80%');
    expect(formatTrend('12')).toBe('12.00%');
    expect(formatTrend('-3.456')).toBe('3.46%');
    expect(formatTrend(0)).toBe('0.00%');
  });

  it("shows '0%' when empty or not numeric", () => {
    expect(formatTrend(null)).toBe('0%');
    expect(formatTrend(undefined)).toBe('0%');
    expect(formatTrend('')).toBe('0%');
    expect(formatTrend('steady')).toBe('0%');
    expect(formatTrend(Number.NaN)).toBe('0%');
  });
});

describe('trend direction', () => {
  it('reads up and down in any case; anything else is stable', () => {
    expect(parseTrendDirection('up')).toBe('up');
    expect(parseTrendDirection(' DOWN ')).toBe('down');
    expect(parseTrendDirection('flat')).toBe('stable');
    expect(parseTrendDirection(null)).toBe('stable');
  });

  it('derives a direction from the sign of a value', () => {
    expect(trendDirectionFromValue(2)).toBe('up');
    expect(trendDirectionFromValue('-0.5')).toBe('down');
    expect(trendDirectionFromValue(0)).toBe('stable');
    expect(trendDirectionFromValue('x')).toBe('stable');
  });

  it("prefers an entry's trend_direction and falls back to its trend_value", () => {
    expect(trendDirection({ trend_direction: 'Down', trend_value: 3 })).toBe('down');
    expect(trendDirection({ trend_direction: 'flat', trend_value: 3 })).toBe('stable');
    expect(trendDirection({ trend_value: '-1.2' })).toBe('down');
    expect(trendDirection({ trend_direction: '', trend_value: 1 })).toBe('up');
    expect(trendDirection({})).toBe('stable');
  });
});

describe('trendColor', () => {
  it('is red for up, green for down and gray otherwise', () => {
    expect(trendColor('up')).toBe('red');
    expect(trendColor('UP')).toBe('red');
    expect(trendColor('down')).toBe('green');
    expect(trendColor('stable')).toBe('gray');
    expect(trendColor('sideways')).toBe('gray');
    expect(trendColor(undefined)).toBe('gray');
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2025-04-10T12:00:00Z');
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;

  it.each([
    [0, 'Just now'],
    [59_000, 'Just now'],
    [MIN, '1 minute ago'],
    [5 * MIN, '5 minutes ago'],
    [59 * MIN, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [3 * HOUR, '3 hours ago'],
    [23 * HOUR, '23 hours ago'],
    [DAY, 'Yesterday'],
    [47 * HOUR, 'Yesterday'],
    [2 * DAY, '2 days ago'],
    [4 * DAY, '4 days ago'],
    [7 * DAY, '1 week ago'],
    [20 * DAY, '2 weeks ago'],
    [30 * DAY, '1 month ago'],
    [95 * DAY, '3 months ago'],
    [365 * DAY, '1 year ago'],
    [800 * DAY, '2 years ago'],
  ])('%i ms ago reads %s', (elapsed, text) => {
    expect(formatRelativeTime(before(elapsed), now)).toBe(text);
  });

  it("reads 'Just now' for a date slightly in the future (clock skew)", () => {
    expect(formatRelativeTime(new Date(now.getTime() + 5 * MIN).toISOString(), now)).toBe('Just now');
  });

  it("reads 'Recently' for a missing or invalid date", () => {
    expect(formatRelativeTime(undefined, now)).toBe('Recently');
    expect(formatRelativeTime(null, now)).toBe('Recently');
    expect(formatRelativeTime('', now)).toBe('Recently');
    expect(formatRelativeTime('not a date', now)).toBe('Recently');
  });

  it('accepts date-only strings and defaults now to the current time', () => {
    expect(formatRelativeTime('2025-04-06', now)).toBe('4 days ago');
    expect(formatRelativeTime(new Date().toISOString())).toBe('Just now');
  });
});

describe('formatExactTime', () => {
  it('writes a date and time for the title of a relative time, or the text as given when it is no date', () => {
    expect(formatExactTime('2025-04-10T12:00:00Z')).toMatch(/^Apr 10, 2025, \d{1,2}:\d{2}\s?[AP]M$/);
    expect(formatExactTime('soon')).toBe('soon');
  });
});

describe('formatLocation', () => {
  it("names one location's price by its name and place, so two of a chain's stores differ", () => {
    expect(formatLocation({ location_name: 'Aldi #62', city: 'Chicago', state: 'IL', zip: '60611' })).toBe(
      'Aldi #62, Chicago, IL 60611',
    );
    expect(formatLocation({ location_name: ' ', city: 'Chicago', state: 'IL', zip: '60611' })).toBe(
      'Chicago, IL 60611',
    );
    expect(formatLocation({ location_name: null, city: null, state: null, zip: '60611' })).toBe('60611');
  });
});

describe('formatPlace', () => {
  it('writes the city, state and ZIP code, or the ZIP code alone', () => {
    expect(formatPlace({ city: 'New York', state: 'NY', zip: '10001' })).toBe('New York, NY 10001');
    expect(formatPlace({ city: null, state: 'NY', zip: '10001' })).toBe('NY 10001');
    expect(formatPlace({ city: null, state: null, zip: '10001' })).toBe('10001');
  });
});

describe('formatWasPrice / stockState (promotions and stock on a price entry)', () => {
  it('names the regular price only when it is above the shelf price', () => {
    expect(formatWasPrice(5.19, 4.69)).toBe('was $5.19');
    expect(formatWasPrice('5.19', '4.69')).toBe('was $5.19');
    expect(formatWasPrice(4.69, 4.69)).toBeNull();
    expect(formatWasPrice(4.5, 4.69)).toBeNull();
    expect(formatWasPrice(null, 4.69)).toBeNull();
    expect(formatWasPrice(5.19, null)).toBeNull();
    // Half a cent of float noise is no promotion.
    expect(formatWasPrice(4.690000001, 4.69)).toBeNull();
  });

  it('reads in_stock as three states', () => {
    expect(stockState(true)).toBe('in-stock');
    expect(stockState(false)).toBe('out-of-stock');
    expect(stockState(null)).toBe('unknown');
    expect(stockState(undefined)).toBe('unknown');
    expect(STOCK_LABELS[stockState(null)]).toBe('Stock unknown');
  });
});

describe('formatHistoryDays', () => {
  it('says how many days of prices a series has, in the singular for one', () => {
    expect(formatHistoryDays(1)).toBe('1 day of prices so far');
    expect(formatHistoryDays(2)).toBe('2 days of prices so far');
  });
});
