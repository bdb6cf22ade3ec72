// Asks a chain's locator from the points a sweep plans, a bounded number at a time: the loop the
// coverage__discover task runs per job, and the discovery tests and bench run whole.
import type { DiscoveredStore, RetailerScraper, ScrapeContext } from '../scrapers/types.ts';
import type { Sweep } from './sweep.ts';

export interface StepsResult {
  /** Locator calls (points or ids asked) in these steps. */
  calls: number;
  /** Every store the answers listed, in order (repeats included). */
  stores: DiscoveredStore[];
  /** The sweep has nothing left to ask. */
  done: boolean;
}

/**
 * Asks up to `maxCalls` points (or ids) of the sweep and records what each answer proves. A
 * failing call (blocked, structure, HTTP) throws with the sweep's state as it was before that
 * call, so the call is asked again when the sweep resumes.
 */
export async function sweepSteps(
  sweep: Sweep,
  scraper: RetailerScraper,
  ctx: ScrapeContext,
  maxCalls: number,
): Promise<StepsResult> {
  const discovery = scraper.discovery;
  if (!discovery) throw new Error(`${scraper.storeName} has no discovery locator`);
  const stores: DiscoveredStore[] = [];
  let calls = 0;
  while (calls < maxCalls) {
    const step = sweep.next();
    if (!step) return { calls, stores, done: true };
    if (step.kind === 'id') {
      if (discovery.kind !== 'ids') throw new Error('an id step for an area locator');
      const store = await discovery.discover(step.id, ctx);
      calls++;
      sweep.idAnswered();
      if (store) stores.push(store);
    } else {
      if (discovery.kind !== 'area') throw new Error('a point step for an id locator');
      const answer = await discovery.discover(step.point, ctx);
      calls++;
      sweep.answered(step.point, answer.provenMiles);
      stores.push(...answer.stores);
    }
  }
  return { calls, stores, done: sweep.next() === null };
}
