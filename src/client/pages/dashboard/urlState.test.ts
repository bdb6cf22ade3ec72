import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { applyFilters, parseDashboardParams, toDashboardParams, type DashboardState } from './urlState.ts';

const parse = (query: string) => parseDashboardParams(new URLSearchParams(query));

describe('dashboard URL state', () => {
  it('reads the defaults from an empty query', () => {
    expect(parse('')).toEqual({ filters: DEFAULT_FILTERS, page: 1, view: 'grid' });
  });

  it('reads every field, in either egg-type spelling and any case', () => {
    expect(
      parse('type=Cage_Free&store=Whole-Foods&region=WEST&count=18&sort=unit-price&showRegion=false&page=3&view=list'),
    ).toEqual({
      filters: {
        eggType: 'cage_free',
        store: 'whole-foods',
        region: 'west',
        countRange: 18,
        sortBy: 'unit-price',
        showRegion: false,
      },
      page: 3,
      view: 'list',
    });
  });

  it('drops only the malformed values, keeping the rest', () => {
    const state = parse('type=brown&region=south&count=7&sort=cheapest&page=-2&view=table&showRegion=maybe');
    expect(state.filters).toEqual({ ...DEFAULT_FILTERS, region: 'south' });
    expect(state.page).toBe(1);
    expect(state.view).toBe('grid');
    expect(parse('page=2.5').page).toBe(1);
    expect(parse('page=abc').page).toBe(1);
  });

  it('writes only non-default values, with URL spellings, and round-trips', () => {
    const state: DashboardState = {
      filters: {
        eggType: 'pasture_raised',
        store: 'aldi',
        region: 'all',
        countRange: 12,
        sortBy: 'freshness',
        showRegion: true,
      },
      page: 2,
      view: 'list',
    };
    const params = toDashboardParams(state);
    expect(params.toString()).toBe('type=pasture-raised&store=aldi&count=12&sort=freshness&page=2&view=list');
    expect(parseDashboardParams(params)).toEqual(state);
    expect(toDashboardParams({ filters: { ...DEFAULT_FILTERS }, page: 1, view: 'grid' }).toString()).toBe('');
  });

  it('keeps parameters it does not own', () => {
    const params = toDashboardParams(
      { filters: { ...DEFAULT_FILTERS, region: 'west' }, page: 1, view: 'grid' },
      new URLSearchParams('utm=x&region=south&page=4'),
    );
    expect(params.toString()).toBe('utm=x&region=west');
  });

  it('resets the page to 1 when applied filters change, and only then', () => {
    const state: DashboardState = { filters: { ...DEFAULT_FILTERS }, page: 3, view: 'grid' };
    expect(applyFilters(state, { ...DEFAULT_FILTERS })).toBe(state);
    const changed = applyFilters(state, { ...DEFAULT_FILTERS, sortBy: 'trend' });
    expect(changed.page).toBe(1);
    expect(changed.filters.sortBy).toBe('trend');
  });

  it('takes missing filters from a base (the saved preferences), and writes All against it', () => {
    const base = { ...DEFAULT_FILTERS, eggType: 'organic' as const, region: 'west' as const, countRange: 12 as const };
    expect(parseDashboardParams(new URLSearchParams(''), base).filters).toEqual(base);
    expect(parseDashboardParams(new URLSearchParams('type=all&region=south&count=any'), base).filters).toEqual({
      ...DEFAULT_FILTERS,
      region: 'south',
    });
    const all: DashboardState = { filters: { ...DEFAULT_FILTERS }, page: 1, view: 'grid' };
    expect(toDashboardParams(all, undefined, base).toString()).toBe('type=all&region=all&count=any');
    expect(toDashboardParams({ ...all, filters: base }, undefined, base).toString()).toBe('');
    // Without saved preferences nothing changes: All is the default and is not written.
    expect(toDashboardParams(all).toString()).toBe('');
  });
});
