// Asks a chain's locator from the points a sweep plans, a bounded number at a time: the loop the
// coverage__discover task runs per job, and the discovery tests and bench run whole.
import type { DiscoveredStore, RetailerScraper, ScrapeContext, SkippedStore } from '../scrapers/types.ts';
import type { Sweep } from './sweep.ts';

export interface StepsResult {
  /** Locator calls (points asked) in these steps. */
  calls: number;
  /** Every store the answers listed and discovery filed, in order (repeats included). */
  stores: DiscoveredStore[];
  /** Every store the answers listed that could not be filed, with the reason (repeats included). */
  skipped: SkippedStore[];
  /** The sweep has nothing left to ask. */
  done: boolean;
}

/**
 * Asks up to `maxCalls` points of the sweep and records what each answer proves. A failing call
 * (blocked, structure, HTTP) throws with the sweep's state as it was before that call, so the
 * call is asked again when the sweep resumes.
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
  const skipped: SkippedStore[] = [];
  let calls = 0;
  while (calls < maxCalls) {
    const point = sweep.next();
    if (!point) return { calls, stores, skipped, done: true };
    const answer = await discovery.discover(point, ctx);
    calls++;
    sweep.answered(point, answer.provenMiles, answer.measured, answer.stores);
    stores.push(...answer.stores);
    skipped.push(...answer.skipped);
  }
  return { calls, stores, skipped, done: sweep.next() === null };
}
