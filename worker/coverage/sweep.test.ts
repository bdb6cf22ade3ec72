// The sweep against the stand-in network: a complete sweep of a few states finds every store of
// those states, for every retailer, with locator calls in proportion to what each locator answers;
// a resumed sweep (its JSON state) asks no point twice; scopes of ZIP codes and a radius.
import { describe, expect, it } from 'vitest';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import type { CoverageScope } from '#shared/coverage.ts';
import { inProcessStandIn } from '../../test/retailers/in-process.ts';
import { chainNetwork, discoverableStoresIn } from '../../test/retailers/network.ts';
import { greatCircleMiles, zipFacts } from '#server/geo.ts';
import { RetailerHttp } from '../scrapers/http.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import type { ScrapeContext } from '../scrapers/types.ts';
import { sweepSteps } from './discover-steps.ts';
import { MIN_CELL_DEGREES, Sweep, scopeArea, startSweep, sweepDone, sweepProgress, type SweepState } from './sweep.ts';

function context(store: StoreId, standIn = inProcessStandIn()): ScrapeContext {
  const scraper = SCRAPERS[store];
  const http = new RetailerHttp(scraper.storeName, scraper.origins, {
    delayMs: 0,
    retries: 0,
    transport: standIn.transport,
  });
  return { http, maxPages: 1, term: 'eggs', credentials: { krogerClientId: 'id', krogerClientSecret: 'secret' } };
}

async function sweepAll(store: StoreId, scope: CoverageScope) {
  const sweep = new Sweep(scope, SCRAPERS[store].discovery!);
  const result = await sweepSteps(sweep, SCRAPERS[store], context(store), 1_000_000);
  const found = new Set(result.stores.filter((s) => sweep.area.holds(s)).map((s) => s.retailerLocationId));
  return { sweep, result, found };
}

const STATES = ['RI', 'DE', 'UT', 'WV'];

describe('a complete sweep of some states', () => {
  for (const store of STORE_IDS) {
    it(`${store}: finds every store of ${STATES.join(', ')}`, async () => {
      const { result, found } = await sweepAll(store, { kind: 'states', states: STATES as never });
      expect(result.done).toBe(true);
      const present = discoverableStoresIn(store, STATES);
      expect(present.length).toBeGreaterThan(store === 'whole-foods' ? 0 : 5);
      expect(present.filter((s) => !found.has(s.id)).map((s) => s.zip)).toEqual([]);
      // Calls per store found, by what one answer holds: 200 within 100 miles needs few calls,
      // nearest-only many, an id space its size.
      const perStore = result.calls / found.size;
      if (store === 'kroger') expect(perStore).toBeLessThan(1);
      if (store === 'target' || store === 'albertsons') expect(perStore).toBeLessThan(2);
      if (store === 'walmart' || store === 'aldi') expect(perStore).toBeLessThan(15);
      if (store === 'whole-foods') expect(result.calls).toBe(1000);
    });
  }
});

describe('the sweep plan', () => {
  it('a locator of 200 within 100 miles asks fewer points than a nearest-only one over the same area', async () => {
    const kroger = await sweepAll('kroger', { kind: 'states', states: ['OH'] });
    const walmart = await sweepAll('walmart', { kind: 'states', states: ['OH'] });
    expect(kroger.result.calls * 10).toBeLessThan(walmart.result.calls);
    expect(kroger.found.size).toBe(discoverableStoresIn('kroger', ['OH']).length);
    expect(walmart.found.size).toBe(discoverableStoresIn('walmart', ['OH']).length);
  });

  it('a zips scope with a radius holds the stores within the radius, and finds them all', async () => {
    const scope: CoverageScope = { kind: 'zips', zipCodes: ['84101', '02860'], radiusMiles: 25 };
    const { found } = await sweepAll('target', scope);
    const origins = ['84101', '02860'].map((zip) => zipFacts(zip)!);
    const present = chainNetwork('target').stores.filter((s) => origins.some((o) => greatCircleMiles(o, s) <= 25));
    expect(present.length).toBeGreaterThan(3);
    for (const store of present) expect(found).toContain(store.id);
    expect(scopeArea(scope).holds({ state: 'UT', zip: '84101', latitude: null, longitude: null })).toBe(true);
    expect(scopeArea(scope).holds({ state: 'UT', zip: '84720', latitude: null, longitude: null })).toBe(false);
  });

  it('resumes from its JSON state without asking a point twice', async () => {
    const scope: CoverageScope = { kind: 'states', states: ['RI', 'CT'] as never };
    const discovery = SCRAPERS.aldi.discovery!;
    const ctx = context('aldi');
    let state: SweepState = startSweep(scope, discovery);
    const asked: string[] = [];
    let jobs = 0;
    while (!sweepDone(state)) {
      // Each job: a fresh sweep from the stored JSON, a bounded number of points, the JSON stored again.
      const sweep = new Sweep(scope, discovery, JSON.parse(JSON.stringify(state)) as SweepState);
      const before = sweep.state.kind === 'area' ? sweep.state.asked.length : 0;
      await sweepSteps(sweep, SCRAPERS.aldi, ctx, 7);
      if (sweep.state.kind === 'area') asked.push(...sweep.state.asked.slice(before));
      state = sweep.state;
      jobs++;
    }
    expect(jobs).toBeGreaterThan(2);
    expect(new Set(asked).size).toBe(asked.length);
    expect(sweepProgress(state)).toEqual({ done: asked.length, planned: asked.length });
    const whole = await sweepAll('aldi', scope);
    expect(asked.length).toBe(whole.result.calls);
  });

  it('an id space is asked id by id', () => {
    const state = startSweep({ kind: 'nationwide' }, SCRAPERS['whole-foods'].discovery!);
    expect(state).toEqual({ kind: 'ids', version: 1, next: 0, total: 1000 });
    const sweep = new Sweep({ kind: 'nationwide' }, SCRAPERS['whole-foods'].discovery!, state);
    expect(sweep.next()).toEqual({ kind: 'id', id: '10000' });
    sweep.idAnswered();
    expect(sweep.next()).toEqual({ kind: 'id', id: '10001' });
  });

  it('the first grid covers the scope with 2-degree cells down to a bounded minimum', () => {
    const state = startSweep({ kind: 'states', states: ['RI'] as never }, SCRAPERS.walmart.discovery!);
    expect(state.kind).toBe('area');
    if (state.kind !== 'area') return;
    expect(state.pending.length).toBeGreaterThan(0);
    expect(state.pending.every((cell) => cell[2] === 2)).toBe(true);
    expect(MIN_CELL_DEGREES).toBeGreaterThan(0.01);
  });
});
