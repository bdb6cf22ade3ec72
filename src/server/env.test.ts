// The environment's proxy setting: which X-Forwarded-For hops the app believes.
import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['false', false],
    ['true', 1],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 2001:db8::/32', ['10.0.0.0/8', '2001:db8::/32']],
  ])('%j -> %j', (value, expected) => {
    expect(parseEnv(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('refuses anything else with a message', () => {
    expect(() => parseEnv({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY.*proxy hops/s);
  });
});

describe('PRICE_HISTORY_RETENTION_MONTHS', () => {
  it('keeps everything when unset or empty', () => {
    expect(parseEnv({}).PRICE_HISTORY_RETENTION_MONTHS).toBeUndefined();
    expect(parseEnv({ PRICE_HISTORY_RETENTION_MONTHS: '' }).PRICE_HISTORY_RETENTION_MONTHS).toBeUndefined();
    expect(parseEnv({ PRICE_HISTORY_RETENTION_MONTHS: '24' }).PRICE_HISTORY_RETENTION_MONTHS).toBe(24);
  });

  it('refuses fewer months than a product history year, or not a whole number', () => {
    expect(() => parseEnv({ PRICE_HISTORY_RETENTION_MONTHS: '11' })).toThrow(/PRICE_HISTORY_RETENTION_MONTHS/);
    expect(() => parseEnv({ PRICE_HISTORY_RETENTION_MONTHS: '12.5' })).toThrow(/PRICE_HISTORY_RETENTION_MONTHS/);
    expect(parseEnv({ PRICE_HISTORY_RETENTION_MONTHS: '12' }).PRICE_HISTORY_RETENTION_MONTHS).toBe(12);
  });
});
