// The sweep against two store networks generated differently (the stand-in's own and the metro
// network, whose locators answer the documented minimum fields): a complete sweep of some states
// finds every open store, for every retailer (its locator calls never below a greedy set cover
// told where the stores are: bench/coverage-discovery.ts);
// a locator's area is split whenever its answer is full, whatever share of it repeats known
// stores, and settled by an answer that is not full; a locator that takes no radius is asked
// farthest from the stores known first, settles no land beyond what its answers prove, and finds
// every store of generated networks; a resumed sweep (its JSON state) asks no point twice; scopes
// of ZIP codes and a radius.
import { describe, expect, it } from 'vitest';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import type { CoverageScope } from '#shared/coverage.ts';
import { allZipFacts, greatCircleMiles, zipFacts } from '#server/geo.ts';
import { inProcessContext } from '../../test/retailers/in-process.ts';
import { chainNetwork, networkStoresIn } from '../../test/retailers/network.ts';
import { metroStoresIn } from '../../test/retailers/metro-network.ts';
import { METRO_STAND_INS } from '../../test/retailers/metro-locators.ts';
import { setCoverBound } from '../../test/retailers/reference-sweep.ts';
import { mulberry32 } from '../../test/seeded.ts';
import { STAND_INS } from '../../test/retailers/server.ts';
import { SCRAPERS } from '../scrapers/index.ts';
import { discoveryAnswer } from '../scrapers/discovery.ts';
import type { DiscoveryPoint, RetailerScraper, ScrapeContext } from '../scrapers/types.ts';
import { sweepSteps } from './discover-steps.ts';
import {
  MIN_CELL_DEGREES,
  Sweep,
  marginOf,
  scopeArea,
  startSweep,
  sweepDone,
  sweepProgress,
  type SweepState,
} from './sweep.ts';

const context = inProcessContext;

async function sweepAll(scraper: RetailerScraper, scope: CoverageScope, ctx: ScrapeContext) {
  const sweep = new Sweep(scope, scraper.discovery!);
  const result = await sweepSteps(sweep, scraper, ctx, 1_000_000);
  const found = new Set(result.stores.filter((s) => sweep.area.holds(s)).map((s) => s.retailerLocationId));
  return { sweep, result, found };
}

const NETWORKS = [
  {
    name: 'the stand-in network',
    states: ['RI', 'DE', 'UT', 'WV'],
    handlers: STAND_INS,
    present: (store: StoreId, states: string[]) => networkStoresIn(store, states),
  },
  {
    // The dense West of the metro network (Denver, Albuquerque, the Wasatch Front) and two small states.
    name: 'the metro network',
    states: ['CO', 'UT', 'NM', 'RI', 'DE'],
    handlers: METRO_STAND_INS,
    present: (store: StoreId, states: string[]) => metroStoresIn(store, states),
  },
];

for (const network of NETWORKS) {
  describe(`a complete sweep of ${network.states.join(', ')} on ${network.name}`, () => {
    for (const store of STORE_IDS) {
      it(`${store}: finds every open store, with no fewer locator calls than a set cover told where the stores are`, async () => {
        const scope: CoverageScope = { kind: 'states', states: network.states as never };
        const { result, found } = await sweepAll(SCRAPERS[store], scope, context(store, network.handlers));
        expect(result.done).toBe(true);
        const present = network.present(store, network.states);
        expect(present.length).toBeGreaterThan(5);
        expect(present.filter((s) => !found.has(s.id)).map((s) => s.id)).toEqual([]);
        expect(result.skipped).toEqual([]);
        // No sweep asks fewer calls than the greedy cover of a sweep told where the stores are.
        const reference = await setCoverBound(
          scope,
          SCRAPERS[store],
          context(store, network.handlers),
          new Set(present.map((s) => s.id)),
        );
        expect(reference.calls).toBeGreaterThan(0);
        expect(result.calls).toBeGreaterThanOrEqual(reference.calls);
      });
    }
  });
}

// A locator over stores placed exactly on ZIP code centres: the `limit` nearest within `radius`,
// with their distances, as a module's discovery answers them; `documented` is the limit the module
// knows (null: none documented); `takesRadius`: the locator is asked a radius (the sweep then goes
// by cells), else it takes none (the sweep goes farthest from known stores first).
function syntheticScraper(
  stores: Array<{ id: string; zip: string }>,
  limit: number,
  reachMiles: number,
  documented: number | null = limit,
  takesRadius = false,
) {
  const placed = stores.map((store) => ({ ...store, facts: zipFacts(store.zip)! }));
  const answers: Array<{ point: DiscoveryPoint; ids: string[] }> = [];
  const scraper: RetailerScraper = {
    ...SCRAPERS.target,
    discovery: {
      reachMiles,
      ...(takesRadius ? { minRadiusMiles: 1 } : {}),
      async discover(point) {
        const radiusMiles = takesRadius ? Math.min(reachMiles, point.radiusMiles ?? reachMiles) : reachMiles;
        const near = placed
          .map((store) => ({ store, miles: greatCircleMiles(point, store.facts) }))
          .filter((entry) => entry.miles <= radiusMiles)
          .sort((a, b) => a.miles - b.miles || a.store.id.localeCompare(b.store.id))
          .slice(0, limit);
        answers.push({ point, ids: near.map((entry) => entry.store.id) });
        return discoveryAnswer(
          point,
          near.map(({ store, miles }) => ({
            location: {
              retailerLocationId: store.id,
              name: null,
              zip: store.zip,
              city: store.facts.city,
              state: store.facts.state,
              address: null,
              latitude: store.facts.latitude,
              longitude: store.facts.longitude,
            },
            answeredMiles: miles,
          })),
          radiusMiles,
          documented,
        );
      },
    },
  };
  return { scraper, answers };
}

const ctx = context('target');

describe('the sweep plan', () => {
  it('splits the area of every full answer, whatever share of it repeats known stores, until each store is found', async () => {
    // 30 stores on the 30 ZIP code centres nearest downtown Denver (one per place: some ZIP codes
    // share a centre); the locator answers 4 at most.
    const downtown = zipFacts('80202')!;
    const places = new Map<string, string>();
    for (const facts of allZipFacts()
      .filter((facts) => facts.state === 'CO')
      .sort((a, b) => greatCircleMiles(downtown, a) - greatCircleMiles(downtown, b))) {
      if (places.size < 30 && !places.has(`${facts.latitude}:${facts.longitude}`))
        places.set(`${facts.latitude}:${facts.longitude}`, facts.zip);
    }
    const cluster = [...places.values()].map((zip, index) => ({ id: `D${index}`, zip }));
    const { scraper, answers } = syntheticScraper(cluster, 4, 50, 4, true);
    const { result, found, sweep } = await sweepAll(scraper, { kind: 'states', states: ['CO'] as never }, ctx);
    expect(result.done).toBe(true);
    expect([...found].sort()).toEqual(cluster.map((store) => store.id).sort());
    // Answers that only repeated known stores did not stop the sweep: stores were found after them.
    const known = new Set<string>();
    let repeatsOnly = -1;
    let lastNew = -1;
    answers.forEach((answer, index) => {
      const fresh = answer.ids.filter((id) => !known.has(id));
      if (answer.ids.length === 4 && fresh.length === 0 && repeatsOnly < 0) repeatsOnly = index;
      if (fresh.length > 0) lastNew = index;
      for (const id of answer.ids) known.add(id);
    });
    expect(repeatsOnly).toBeGreaterThanOrEqual(0);
    expect(lastNew).toBeGreaterThan(repeatsOnly);
    // The cells were split down towards the smallest size where the answers were full.
    expect(sweep.state.asked.length).toBe(result.calls);
    expect(result.calls).toBeGreaterThan(30 / 4);
  });

  it('settles an area with one answer that lists no store or fewer than the documented limit; else proves only up to its farthest', async () => {
    const scope: CoverageScope = { kind: 'states', states: ['RI'] as never };
    expect(startSweep(scope).pending.length).toBe(2);
    // No store within 100 miles of Rhode Island: one empty answer proves the whole state.
    const empty = await sweepAll(syntheticScraper([{ id: 'far', zip: '04101' }], 10, 100).scraper, scope, ctx);
    expect(empty.result.calls).toBe(1);
    expect(empty.found.size).toBe(0);
    const stores = [
      { id: 'A', zip: '02903' },
      { id: 'B', zip: '02840' },
    ];
    // Two stores, fewer than the documented limit of 10: the answer proves the whole 100 miles.
    const documented = await sweepAll(syntheticScraper(stores, 10, 100).scraper, scope, ctx);
    expect([...documented.found].sort()).toEqual(['A', 'B']);
    expect(documented.result.calls).toBe(1);
    // The same answers from a locator whose limit is not documented: each is full (it may have
    // stopped at a limit of its own), so the sweep goes on asking until proofs cover the state.
    const { scraper, answers } = syntheticScraper(stores, 10, 100, null);
    const two = await sweepAll(scraper, scope, ctx);
    expect([...two.found].sort()).toEqual(['A', 'B']);
    expect(two.result.calls).toBeGreaterThan(1);
    expect(answers.every((answer) => answer.ids.length === 2)).toBe(true);
  });

  it('a locator of 200 within 100 miles asks fewer points than a nearest-only one over the same area', async () => {
    const scope: CoverageScope = { kind: 'states', states: ['OH'] as never };
    const kroger = await sweepAll(SCRAPERS.kroger, scope, context('kroger'));
    const walmart = await sweepAll(SCRAPERS.walmart, scope, context('walmart'));
    expect(kroger.result.calls * 10).toBeLessThan(walmart.result.calls);
    expect(kroger.found.size).toBe(networkStoresIn('kroger', ['OH']).length);
    expect(walmart.found.size).toBe(networkStoresIn('walmart', ['OH']).length);
  });

  it('a zips scope with a radius holds the stores within the radius, and finds them all', async () => {
    const scope: CoverageScope = { kind: 'zips', zipCodes: ['84101', '02860'], radiusMiles: 25 };
    const { found } = await sweepAll(SCRAPERS.target, scope, context('target'));
    const origins = ['84101', '02860'].map((zip) => zipFacts(zip)!);
    const present = chainNetwork('target').stores.filter((s) => origins.some((o) => greatCircleMiles(o, s) <= 25));
    expect(present.length).toBeGreaterThan(3);
    for (const store of present) expect(found).toContain(store.id);
    expect(scopeArea(scope).holds({ state: 'UT', zip: '84101', latitude: null, longitude: null })).toBe(true);
    expect(scopeArea(scope).holds({ state: 'UT', zip: '84720', latitude: null, longitude: null })).toBe(false);
  });

  it('resumes from its JSON state without asking a point twice', async () => {
    const scope: CoverageScope = { kind: 'states', states: ['RI', 'CT'] as never };
    const aldi = context('aldi');
    // ALDI's merchant search takes no radius: the sweep goes farthest from the known stores first.
    let state: SweepState = startSweep(scope, 2, 'far');
    const asked: string[] = [];
    let jobs = 0;
    while (!sweepDone(state)) {
      // Each job: a fresh sweep from the stored JSON, a bounded number of points, the JSON stored again.
      const sweep = new Sweep(scope, SCRAPERS.aldi.discovery!, JSON.parse(JSON.stringify(state)) as SweepState);
      const before = sweep.state.asked.length;
      await sweepSteps(sweep, SCRAPERS.aldi, aldi, 7);
      asked.push(...sweep.state.asked.slice(before));
      state = sweep.state;
      jobs++;
    }
    expect(jobs).toBeGreaterThan(2);
    expect(new Set(asked).size).toBe(asked.length);
    expect(sweepProgress(state)).toEqual({ done: asked.length, planned: asked.length });
    const whole = await sweepAll(SCRAPERS.aldi, scope, context('aldi'));
    expect(asked.length).toBe(whole.result.calls);
  });

  it('the first grid covers the scope with 2-degree cells down to a bounded minimum', () => {
    const state = startSweep({ kind: 'states', states: ['RI'] as never });
    expect(state.pending.length).toBeGreaterThan(0);
    expect(state.pending.every((cell) => cell[2] === 2)).toBe(true);
    expect(MIN_CELL_DEGREES).toBeGreaterThan(0.01);
  });
});

describe('the sweep farthest from known stores (locators that take no radius)', () => {
  const scope: CoverageScope = { kind: 'states', states: ['NJ', 'DE'] as never };
  const centres = scopeArea(scope).centres;
  /** 60 stores on distinct places drawn at random (a nearest-only locator tells two stores of one place apart by id alone). */
  const generatedStores = (random: () => number) => {
    const places = new Map<string, string>();
    while (places.size < 60) {
      const centre = centres[Math.floor(random() * centres.length)]!;
      places.set(`${centre.latitude}:${centre.longitude}`, centre.zip);
    }
    return [...places.values()].map((zip, index) => ({ id: `S${index}`, zip }));
  };

  it('a full answer settles no centre beyond its farthest store, and one short of the limit settles its reach', () => {
    const origin = zipFacts('08608')!; // Trenton
    const far = centres.find((centre) => centre.zip === '08701')!; // Lakewood, about 25 miles off
    const store = (zip: string) => {
      const facts = zipFacts(zip)!;
      return {
        location: {
          retailerLocationId: zip,
          name: null,
          zip,
          city: facts.city,
          state: facts.state,
          address: null,
          latitude: facts.latitude,
          longitude: facts.longitude,
        },
        answeredMiles: greatCircleMiles(origin, facts),
      };
    };
    const point: DiscoveryPoint = { zip: origin.zip, latitude: origin.latitude, longitude: origin.longitude };
    for (const documented of [1, null]) {
      // One store 10-odd miles off (Princeton): full for a nearest-only locator and for one with no documented limit.
      const answer = discoveryAnswer(point, [store('08540')], 100, documented);
      const proven = greatCircleMiles(origin, zipFacts('08540')!);
      expect(answer.provenMiles).toBeCloseTo(proven, 1);
      const { scraper } = syntheticScraper([], documented ?? 5, 100, documented);
      const sweep = new Sweep(scope, scraper.discovery!);
      sweep.answered(point, answer.provenMiles, true, answer.stores);
      for (const centre of centres) {
        const miles = greatCircleMiles(origin, centre);
        // Every centre whose land reaches beyond the disk stays unsettled (but the one asked).
        if (centre.zip !== origin.zip && miles + marginOf(centre) > answer.provenMiles && miles > 0)
          expect(sweep.isSettled(centre.zip), centre.zip).toBe(false);
      }
      expect(sweep.isSettled(far.zip)).toBe(false);
    }
    // Short of a documented limit of 5: the answer proves its reach, Lakewood's land included.
    const short = discoveryAnswer(point, [store('08540')], 100, 5);
    expect(short.provenMiles).toBe(100);
    const sweep = new Sweep(scope, syntheticScraper([], 5, 100, 5).scraper.discovery!);
    sweep.answered(point, short.provenMiles, true, short.stores);
    expect(sweep.isSettled(far.zip)).toBe(true);
  });

  for (const [seed, limit, documented] of [
    [1, 1, 1],
    [2, 1, 1],
    [3, 5, null],
  ] as const) {
    it(`finds every store of a generated network (seed ${seed}, ${limit === 1 ? 'nearest only' : `${limit} stores, no documented limit`}), proving the share of every centre it did not ask`, async () => {
      const random = mulberry32(seed);
      const stores = generatedStores(random);
      const { scraper } = syntheticScraper(stores, limit, 100, documented);
      const { sweep, result, found } = await sweepAll(scraper, scope, ctx);
      expect(result.done).toBe(true);
      expect(stores.filter((s) => !found.has(s.id)).map((s) => s.id)).toEqual([]);
      // Fewer calls than centres: the disks settle most of the land without asking there.
      expect(result.calls).toBeLessThan(centres.length / 2);

      // Every point of the land (within some centre's margin) lies in a proven disk, or in the share
      // of an asked centre: the share's centre is the nearest of those whose margin holds the point.
      const asked = new Set(sweep.state.asked.map((zip) => `${zipFacts(zip)!.latitude}:${zipFacts(zip)!.longitude}`));
      const disks = sweep.state.disks;
      for (let i = 0; i < 4000; i++) {
        const centre = centres[Math.floor(random() * centres.length)]!;
        const margin = marginOf(centre);
        const angle = random() * 2 * Math.PI;
        const miles = Math.sqrt(random()) * margin;
        const cos = Math.cos((centre.latitude * Math.PI) / 180);
        const x = {
          latitude: centre.latitude + (miles * Math.cos(angle)) / 69.05,
          longitude: centre.longitude + (miles * Math.sin(angle)) / (69.05 * cos),
        };
        let owner = centre;
        let ownerMiles = greatCircleMiles(centre, x);
        for (const other of centres) {
          const d = greatCircleMiles(other, x);
          if (d <= marginOf(other) && d < ownerMiles) [owner, ownerMiles] = [other, d];
        }
        if (asked.has(`${owner.latitude}:${owner.longitude}`)) continue;
        const held = disks.some(([latitude, longitude, r]) => greatCircleMiles({ latitude, longitude }, x) <= r);
        expect(held, `${x.latitude},${x.longitude} (share of ${owner.zip})`).toBe(true);
      }
    });
  }

  it('asks fewer points than the same locator swept by cells', async () => {
    const stores = generatedStores(mulberry32(7));
    const { scraper } = syntheticScraper(stores, 1, 100, 1);
    const far = await sweepAll(scraper, scope, ctx);
    const cells = new Sweep(scope, scraper.discovery!, startSweep(scope, 2, 'cells'));
    const byCells = await sweepSteps(cells, scraper, ctx, 1_000_000);
    expect(far.found.size).toBe(stores.length);
    expect(far.result.calls).toBeLessThan(byCells.calls);
  });
});
