// What discovery's locator calls are measured against (bench/coverage-discovery.ts):
//
// - plainSweep, the reference sweep: what public store-discovery scripts run, told nothing of where
//   the stores are. Every ZIP code centre of the scope in ZIP order, asked unless one earlier
//   answer's disk (what that answer proves, by the locator's documented limit: the same proof the
//   sweep uses) holds its margin. A sweep that plans where to ask should ask at most twice its calls.
//
// - setCoverBound, a lower bound told where the stores are: the chain's locator asked (the same
//   module call the sweep makes, with the documented radius and limit) from every ZIP code centre
//   of the scope, then the fewest of those answers that together list every store present, by
//   greedy set cover (each pick the answer listing the most stores not yet listed; greedy is within
//   a logarithmic factor of the true minimum, and near it in practice). Only the picked answers
//   count as calls. It needs no proof that nothing else is there (it was told what is), so no
//   sweep, which must prove each part of the scope complete, can ask fewer; for a nearest-only
//   locator it is one call per store.
import type { CoverageScope } from '#shared/coverage.ts';
import { greatCircleMiles } from '#server/geo.ts';
import { DiskIndex, MaxHeap, marginOf, scopeArea } from '../../worker/coverage/sweep.ts';
import type { DiscoveredStore, RetailerScraper, ScrapeContext } from '../../worker/scrapers/types.ts';

export interface ReferenceResult {
  /** Locator calls the cover picked. */
  calls: number;
  /** The stores its picked answers list (repeats included). */
  stores: DiscoveredStore[];
  /** Centres asked to learn every answer (not counted as calls). */
  asked: number;
}

/**
 * The fewest answers (greedy set cover) of the chain's locator from the scope's ZIP code centres
 * that together list every store of `present` (the chain's open stores in the scope, by id) that
 * any answer lists.
 */
export async function setCoverBound(
  scope: CoverageScope,
  scraper: RetailerScraper,
  ctx: ScrapeContext,
  present: ReadonlySet<string>,
): Promise<ReferenceResult> {
  const discovery = scraper.discovery;
  if (!discovery) throw new Error(`${scraper.storeName} has no discovery locator`);
  const centres = scopeArea(scope).centres;
  const index = new Map<string, number>();
  const answers: Array<{ sets: Int32Array; stores: DiscoveredStore[] }> = [];
  for (const centre of centres) {
    const answer = await discovery.discover(
      { zip: centre.zip, latitude: centre.latitude, longitude: centre.longitude },
      ctx,
    );
    const ids: number[] = [];
    for (const store of answer.stores) {
      if (!present.has(store.retailerLocationId)) continue;
      let i = index.get(store.retailerLocationId);
      if (i === undefined) index.set(store.retailerLocationId, (i = index.size));
      if (!ids.includes(i)) ids.push(i);
    }
    answers.push({ sets: Int32Array.from(ids), stores: answer.stores });
  }
  const listed = new Uint8Array(index.size);
  const heap = new MaxHeap();
  answers.forEach((answer, i) => {
    if (answer.sets.length > 0) heap.push([answer.sets.length, i]);
  });
  const stores: DiscoveredStore[] = [];
  let calls = 0;
  let left = index.size;
  while (left > 0 && heap.size > 0) {
    const [gain, i] = heap.pop()!;
    const answer = answers[i]!;
    let fresh = 0;
    for (const id of answer.sets) if (!listed[id]) fresh++;
    if (fresh === 0) continue;
    // Lazy greedy: a stale gain is re-queued at its true value unless it is still the best.
    if (fresh < gain) {
      heap.push([fresh, i]);
      continue;
    }
    calls++;
    for (const id of answer.sets) {
      if (!listed[id]) left--;
      listed[id] = 1;
    }
    stores.push(...answer.stores);
  }
  return { calls, stores, asked: centres.length };
}

/** The reference sweep (plain): the scope's ZIP code centres in ZIP order, each asked unless one earlier answer's disk holds its margin. */
export async function plainSweep(
  scope: CoverageScope,
  scraper: RetailerScraper,
  ctx: ScrapeContext,
): Promise<{ calls: number; stores: DiscoveredStore[] }> {
  const discovery = scraper.discovery;
  if (!discovery) throw new Error(`${scraper.storeName} has no discovery locator`);
  const disks = new DiskIndex();
  const stores: DiscoveredStore[] = [];
  let calls = 0;
  for (const centre of scopeArea(scope).centres) {
    const margin = marginOf(centre);
    const held = disks
      .near(centre, margin)
      .some(([latitude, longitude, miles]) => greatCircleMiles({ latitude, longitude }, centre) + margin <= miles);
    if (held) continue;
    const answer = await discovery.discover(
      { zip: centre.zip, latitude: centre.latitude, longitude: centre.longitude },
      ctx,
    );
    calls++;
    stores.push(...answer.stores);
    if (answer.provenMiles > 0) disks.add([centre.latitude, centre.longitude, answer.provenMiles]);
  }
  return { calls, stores };
}
