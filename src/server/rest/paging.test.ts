// The paging rule every REST list follows: the page a request asks for, and the links to the others.
import { describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { pageLinks, pageOf } from './paging.ts';

describe('pageOf', () => {
  it('takes the limit and offset given, else the list default (or every row for a streamed download)', () => {
    expect(pageOf({}, { limit: '12', offset: '24' })).toEqual({ limit: 12, offset: 24 });
    expect(pageOf({}, {})).toEqual({ limit: 1000, offset: 0 });
    expect(pageOf({ defaultLimit: 10 }, { offset: '5' })).toEqual({ limit: 10, offset: 5 });
    expect(pageOf({}, {}, { everything: true })).toEqual({ limit: undefined, offset: 0 });
    expect(pageOf({}, { limit: '5000' }, { everything: true })).toEqual({ limit: 5000, offset: 0 });
  });

  it('refuses a limit over the maximum, below 1 or not whole, naming the parameter, as every path does', () => {
    for (const [query, message] of [
      [{ limit: '5001' }, 'limit must be at most 5000'],
      [{ limit: '0' }, 'limit must be at least 1'],
      [{ limit: '2.5' }, 'limit must be a whole number'],
      [{ offset: '-1' }, 'offset must be at least 0'],
      [{ offset: 'next' }, 'offset must be a number'],
    ] as const) {
      let thrown: unknown;
      try {
        pageOf({ defaultLimit: 10 }, query);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(query)).toBeInstanceOf(TRPCError);
      expect((thrown as TRPCError).code).toBe('BAD_REQUEST');
      expect(JSON.stringify((thrown as TRPCError).cause), JSON.stringify(query)).toContain(message);
    }
  });
});

describe('pageLinks', () => {
  const rels = (header: string) =>
    Object.fromEntries(
      header.split(', ').map((part) => [/rel="(\w+)"/.exec(part)![1], Number(/offset=(\d+)/.exec(part)![1])]),
    );

  it('links first, prev, next and last on the multiples of the limit', () => {
    expect(rels(pageLinks('/api/egg-prices?region=west&limit=5&offset=5', 13, 5, 5))).toEqual({
      first: 0,
      prev: 0,
      next: 10,
      last: 10,
    });
    expect(rels(pageLinks('/api/egg-prices?limit=5', 13, 5, 0))).toEqual({ first: 0, next: 5, last: 10 });
    expect(rels(pageLinks('/api/egg-prices?limit=5&offset=10', 13, 5, 10))).toEqual({ first: 0, prev: 5, last: 10 });
    expect(pageLinks('/api/egg-prices?region=west&limit=5&offset=5', 13, 5, 5)).toContain('region=west');
  });

  it('keeps an unaligned offset on its own alignment, never past the last page', () => {
    expect(rels(pageLinks('/api/egg-prices?limit=5&offset=7', 13, 5, 7))).toEqual({
      first: 0,
      prev: 2,
      next: 12,
      last: 12,
    });
  });

  it('points prev at the last page when the offset is past the end, and handles no rows', () => {
    expect(rels(pageLinks('/api/egg-prices?limit=5&offset=100', 13, 5, 100))).toEqual({ first: 0, prev: 10, last: 10 });
    expect(rels(pageLinks('/api/egg-prices?limit=5', 0, 5, 0))).toEqual({ first: 0, last: 0 });
  });
});
