// Discovery, measured: for each retailer and each of two store networks, a sweep of the scope
// (nationwide unless states are given) with the retailer's own locator, in this process (no
// socket, zero delay), through the same module code and sweep plan the coverage__discover task
// runs. Beside it, over the same locator (test/retailers/reference-sweep.ts):
// - the reference sweep, not told where the stores are: the plain sweep public store-discovery
//   scripts run (every ZIP code centre of the scope in ZIP order, asked unless one earlier answer's
//   disk holds its margin); the target is at most twice its calls per store found;
// - a lower bound told where the stores are: the fewest answers from the scope's ZIP code centres
//   that list every store present (greedy set cover over every centre's answer). It proves
//   nothing about the land between stores, so no sweep reaches it; printed for scale.
// The networks: the stand-in's own (test/retailers/network.ts) and the metro network, generated
// another way with locators that answer only the documented minimum fields
// (test/retailers/metro-network.ts, metro-locators.ts). Targets: at least 99% found, within twice
// the reference sweep's calls per store. `npm run bench -- discovery` runs this part alone;
// BENCH_DISCOVERY_STATES=CO,UT,NM limits it to some states.
import { STORE_IDS, type StoreId } from '../src/shared/vocabulary.ts';
import type { CoverageScope } from '../src/shared/coverage.ts';
import { inProcessContext } from '../test/retailers/in-process.ts';
import { networkStoresIn } from '../test/retailers/network.ts';
import { metroStoresIn } from '../test/retailers/metro-network.ts';
import { METRO_STAND_INS } from '../test/retailers/metro-locators.ts';
import { STAND_INS } from '../test/retailers/server.ts';
import { plainSweep, setCoverBound } from '../test/retailers/reference-sweep.ts';
import type { RetailerStandIn } from '../test/retailers/types.ts';
import { SCRAPERS } from '../worker/scrapers/index.ts';
import type { DiscoveredStore } from '../worker/scrapers/types.ts';
import { Sweep } from '../worker/coverage/sweep.ts';
import { sweepSteps } from '../worker/coverage/discover-steps.ts';

/** At least this share of a chain's open stores found... */
export const FOUND_TARGET = 0.99;
/** ...with at most this many times the reference sweep's locator calls per store found. */
export const CALLS_TARGET = 2;

export interface DiscoveryNetwork {
  name: string;
  handlers: RetailerStandIn[];
  /** The chain's open stores in some states (null: all), by id. */
  present(store: StoreId, states: readonly string[] | null): Array<{ id: string }>;
}

export const DISCOVERY_NETWORKS: readonly DiscoveryNetwork[] = [
  { name: 'stand-in', handlers: STAND_INS, present: (store, states) => networkStoresIn(store, states) },
  { name: 'metro', handlers: METRO_STAND_INS, present: (store, states) => metroStoresIn(store, states) },
];

export interface DiscoveryBenchRow {
  network: string;
  store: StoreId;
  present: number;
  found: number;
  calls: number;
  callsPerStore: number;
  /** Stores answered that discovery could not file (no ZIP code, coordinates or city it could place). */
  skipped: number;
  /** The reference sweep, not told where the stores are: the plain sweep public scripts run (every centre in ZIP order). */
  referenceFound: number;
  referenceCalls: number;
  referencePerStore: number;
  /** The lower bound told where the stores are (greedy set cover): calls per store found. */
  boundFound: number;
  boundCalls: number;
  boundPerStore: number;
  seconds: number;
  /** At least 99% found, within twice the reference sweep's calls per store. */
  met: boolean;
  /** Within twice the lower bound's calls per store as well. */
  withinTwiceBound: boolean;
}

const foundOf = (stores: DiscoveredStore[], holds: Sweep['area']['holds']) =>
  new Set(stores.filter((store) => holds(store)).map((store) => store.retailerLocationId));

/** Sweeps each retailer's scope on each network, and the reference beside it. */
export async function measureDiscovery(
  log: (line: string) => void,
  states: string[] | null = process.env.BENCH_DISCOVERY_STATES?.split(',').filter(Boolean) ?? null,
  stores: readonly StoreId[] = STORE_IDS,
  networks: readonly DiscoveryNetwork[] = DISCOVERY_NETWORKS,
): Promise<DiscoveryBenchRow[]> {
  const scope: CoverageScope = states ? { kind: 'states', states: states as never } : { kind: 'nationwide' };
  const rows: DiscoveryBenchRow[] = [];
  for (const network of networks) {
    for (const store of stores) {
      const scraper = SCRAPERS[store];
      const present = network.present(store, states);
      // A chain with no store in the scope has nothing to find (the metro network's ALDI in the West).
      if (present.length === 0) continue;
      log(
        `Discovery: ${scraper.storeName} on the ${network.name} network, ${states ? states.join(', ') : 'nationwide'}...`,
      );
      const started = performance.now();
      const sweep = new Sweep(scope, scraper.discovery!);
      const result = await sweepSteps(
        sweep,
        scraper,
        inProcessContext(store, network.handlers),
        Number.MAX_SAFE_INTEGER,
      );
      const seconds = (performance.now() - started) / 1000;
      const bound = await setCoverBound(
        scope,
        scraper,
        inProcessContext(store, network.handlers),
        new Set(present.map((s) => s.id)),
      );
      const reference = await plainSweep(scope, scraper, inProcessContext(store, network.handlers));
      const referenceFound = foundOf(reference.stores, sweep.area.holds);
      const found = foundOf(result.stores, sweep.area.holds);
      const boundFound = foundOf(bound.stores, sweep.area.holds);
      const foundOfPresent = present.filter((s) => found.has(s.id)).length;
      const callsPerStore = result.calls / Math.max(1, foundOfPresent);
      const boundPerStore = bound.calls / Math.max(1, present.filter((s) => boundFound.has(s.id)).length);
      const referenceFoundOfPresent = present.filter((s) => referenceFound.has(s.id)).length;
      const referencePerStore = reference.calls / Math.max(1, referenceFoundOfPresent);
      rows.push({
        network: network.name,
        store,
        present: present.length,
        found: foundOfPresent,
        calls: result.calls,
        callsPerStore,
        skipped: new Set(result.skipped.map((s) => s.retailerLocationId ?? s.reason)).size,
        referenceFound: referenceFoundOfPresent,
        referenceCalls: reference.calls,
        referencePerStore,
        boundFound: present.filter((s) => boundFound.has(s.id)).length,
        boundCalls: bound.calls,
        boundPerStore,
        seconds,
        withinTwiceBound: callsPerStore <= CALLS_TARGET * boundPerStore,
        met: foundOfPresent >= FOUND_TARGET * present.length && callsPerStore <= CALLS_TARGET * referencePerStore,
      });
    }
  }
  return rows;
}

const n = (value: number) => value.toLocaleString('en-US');

/** The rows as printed beside their targets. */
export function discoveryTable(rows: DiscoveryBenchRow[]): { headers: string[]; rows: string[][] } {
  return {
    headers: [
      'discovery (zero delay)',
      'found / present',
      'skipped',
      'locator calls',
      'calls per store',
      'reference sweep per store',
      'vs reference sweep',
      'reference found',
      'lower bound per store',
      'vs lower bound',
      'seconds',
      `target: ${FOUND_TARGET * 100}%, ${CALLS_TARGET}x reference sweep`,
    ],
    rows: rows.map((row) => [
      `${row.network}: ${row.store}`,
      `${n(row.found)} / ${n(row.present)} (${((100 * row.found) / Math.max(1, row.present)).toFixed(1)}%)`,
      n(row.skipped),
      n(row.calls),
      row.callsPerStore.toFixed(3),
      row.referencePerStore.toFixed(3),
      `${(row.callsPerStore / row.referencePerStore).toFixed(2)}x`,
      `${n(row.referenceFound)} / ${n(row.present)}`,
      row.boundPerStore.toFixed(3),
      `${(row.callsPerStore / row.boundPerStore).toFixed(2)}x`,
      row.seconds.toFixed(1),
      row.met ? 'met' : 'MISSED',
    ]),
  };
}
