// A reference sweep to measure discovery's locator calls against: what public store-discovery
// scripts do (ask a chain's locator from ZIP code centres and dedupe by the retailer's store id),
// made economical in the plainest way: the scope's ZIP code centres in ZIP order, each asked unless
// an earlier answer proved every store near it (one disk holding the box the margin draws around
// the centre). It uses
// the same module calls and the same proofs as the sweep (worker/scrapers/discovery.ts), but none
// of the sweep's cells, order or splitting (worker/coverage/sweep.ts), so the two are independent
// ways to the same stores.
import type { CoverageScope } from '#shared/coverage.ts';
import type { Coordinates } from '#server/geo.ts';
import { DiskIndex, scopeArea } from '../../worker/coverage/sweep.ts';
import { STORE_ZIP_MARGIN_MILES } from '../../worker/scrapers/discovery.ts';
import type { DiscoveredStore, RetailerScraper, ScrapeContext } from '../../worker/scrapers/types.ts';

const MILES_PER_DEGREE = 69.05;

/** The corners of the box the margin draws around a ZIP code centre: where its stores stand. */
function marginBox(point: Coordinates): Coordinates[] {
  const dLat = STORE_ZIP_MARGIN_MILES / MILES_PER_DEGREE;
  const dLon = STORE_ZIP_MARGIN_MILES / (MILES_PER_DEGREE * Math.max(0.2, Math.cos((point.latitude * Math.PI) / 180)));
  return [
    { latitude: point.latitude - dLat, longitude: point.longitude - dLon },
    { latitude: point.latitude - dLat, longitude: point.longitude + dLon },
    { latitude: point.latitude + dLat, longitude: point.longitude - dLon },
    { latitude: point.latitude + dLat, longitude: point.longitude + dLon },
  ];
}

export interface ReferenceResult {
  calls: number;
  stores: DiscoveredStore[];
}

export async function referenceSweep(
  scope: CoverageScope,
  scraper: RetailerScraper,
  ctx: ScrapeContext,
): Promise<ReferenceResult> {
  const discovery = scraper.discovery;
  if (!discovery) throw new Error(`${scraper.storeName} has no discovery locator`);
  const area = scopeArea(scope);
  const disks = new DiskIndex();
  const stores: DiscoveredStore[] = [];
  let calls = 0;
  for (const centre of area.centres) {
    if (disks.holds(marginBox(centre))) continue;
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
