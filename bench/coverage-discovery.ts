// Discovery, measured (issue 25, item 7): for each retailer, a nationwide sweep with its own
// locator against the stand-in store network in this process (no socket, zero delay), through
// the same module code and sweep plan the coverage__discover task runs. Per retailer: stores found
// of the stores present (target: all), locator calls, calls per store found beside the floor its
// locator allows (one call per store it can answer at most: Kroger's 200 within 100 miles makes
// one call per 200 stores; a nearest-only locator one call per store; an id space its size), and
// the time the sweep took. `npm run bench -- discovery` runs this part alone.
import { STORE_IDS, type StoreId } from '../src/shared/vocabulary.ts';
import type { CoverageScope } from '../src/shared/coverage.ts';
import { inProcessStandIn } from '../test/retailers/in-process.ts';
import { discoverableStoresIn } from '../test/retailers/network.ts';
import { RetailerHttp } from '../worker/scrapers/http.ts';
import { SCRAPERS } from '../worker/scrapers/index.ts';
import { Sweep } from '../worker/coverage/sweep.ts';
import { sweepSteps } from '../worker/coverage/discover-steps.ts';

export interface DiscoveryBenchRow {
  store: StoreId;
  present: number;
  found: number;
  calls: number;
  callsPerStore: number;
  /** The fewest calls per store the locator allows (1 / stores per answer; id space / stores for ids). */
  floorPerStore: number;
  seconds: number;
  met: boolean;
}

/** Sweeps each retailer's scope (nationwide unless states are given) and counts what it found. */
export async function measureDiscovery(
  log: (line: string) => void,
  states: string[] | null = null,
  stores: readonly StoreId[] = STORE_IDS,
): Promise<DiscoveryBenchRow[]> {
  const scope: CoverageScope = states ? { kind: 'states', states: states as never } : { kind: 'nationwide' };
  const rows: DiscoveryBenchRow[] = [];
  for (const store of stores) {
    const scraper = SCRAPERS[store];
    const discovery = scraper.discovery!;
    const standIn = inProcessStandIn();
    const http = new RetailerHttp(scraper.storeName, scraper.origins, {
      delayMs: 0,
      retries: 0,
      transport: standIn.transport,
    });
    const ctx = {
      http,
      maxPages: 1,
      term: 'eggs',
      credentials: { krogerClientId: 'bench', krogerClientSecret: 'bench' },
    };
    log(`Discovery: ${scraper.storeName}, ${states ? states.join(', ') : 'nationwide'}...`);
    const started = performance.now();
    const sweep = new Sweep(scope, discovery);
    const result = await sweepSteps(sweep, scraper, ctx, Number.MAX_SAFE_INTEGER);
    const seconds = (performance.now() - started) / 1000;
    const found = new Set(result.stores.filter((s) => sweep.area.holds(s)).map((s) => s.retailerLocationId));
    const present = discoverableStoresIn(store, states);
    const foundOfPresent = present.filter((s) => found.has(s.id)).length;
    const floorPerStore =
      discovery.kind === 'ids' ? discovery.ids.length / Math.max(1, present.length) : 1 / discovery.perCall;
    rows.push({
      store,
      present: present.length,
      found: foundOfPresent,
      calls: result.calls,
      callsPerStore: result.calls / Math.max(1, foundOfPresent),
      floorPerStore,
      seconds,
      met: foundOfPresent === present.length,
    });
  }
  return rows;
}

/** The rows as printed beside their bounds. */
export function discoveryTable(rows: DiscoveryBenchRow[]): { headers: string[]; rows: string[][] } {
  return {
    headers: [
      'discovery (stand-in, zero delay)',
      'found / present',
      'locator calls',
      'calls per store',
      'floor per store',
      'vs floor',
      'seconds',
      'target: all',
    ],
    rows: rows.map((row) => [
      row.store,
      `${row.found.toLocaleString('en-US')} / ${row.present.toLocaleString('en-US')}`,
      row.calls.toLocaleString('en-US'),
      row.callsPerStore.toFixed(3),
      row.floorPerStore.toFixed(3),
      `${(row.callsPerStore / row.floorPerStore).toFixed(1)}x`,
      row.seconds.toFixed(1),
      row.met ? 'met' : 'MISSED',
    ]),
  };
}
