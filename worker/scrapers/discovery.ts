// What a locator's answer proves about the stores around the point it was asked from: the pure
// arithmetic every retailer module's discovery shares (worker/coverage/sweep.ts builds on it).
import { greatCircleMiles, zipFacts } from '#server/geo.ts';
import type { DiscoveredStore, DiscoveryPoint, RetailerLocation } from './types.ts';

/** A store's distance below which ties at the edge of an answer are not trusted (miles). */
const EDGE_MILES = 0.01;

/**
 * How far a store sits from its own ZIP code's centre at most, for answers that give neither a
 * distance nor coordinates (Walmart's access points): the store's distance from the point is then
 * at least its ZIP centre's distance less this.
 */
export const STORE_ZIP_MARGIN_MILES = 3;

/**
 * Miles from the point to a store: the answer's own distance when it gives one, else from the
 * store's coordinates, else a lower bound from its ZIP code's centre; null when none is known.
 */
export function storeMiles(
  point: DiscoveryPoint,
  store: RetailerLocation,
  answeredMiles: number | null = null,
): number | null {
  if (answeredMiles !== null && Number.isFinite(answeredMiles) && answeredMiles >= 0) return answeredMiles;
  if (store.latitude !== null && store.longitude !== null)
    return greatCircleMiles(point, { latitude: store.latitude, longitude: store.longitude });
  const facts = store.zip ? zipFacts(store.zip) : null;
  return facts ? Math.max(0, greatCircleMiles(point, facts) - STORE_ZIP_MARGIN_MILES) : null;
}

/**
 * The radius around the point within which an answer holds every store: the radius asked when the
 * answer is not full (fewer stores than the limit), else just inside the farthest store answered
 * (stores nearer than it would have come first); 0 when a full answer's distances are unknown.
 */
export function provenMiles(answer: {
  count: number;
  limit: number;
  radiusMiles: number;
  miles: ReadonlyArray<number | null>;
}): number {
  if (answer.count < answer.limit) return answer.radiusMiles;
  if (answer.miles.length === 0 || answer.miles.some((miles) => miles === null)) return 0;
  const farthest = Math.max(...(answer.miles as number[]));
  return Math.max(0, Math.min(answer.radiusMiles, farthest - EDGE_MILES));
}

/** A location with an id as a discovered store (a location without an id cannot be kept in the directory). */
export function discovered(location: RetailerLocation, banner: string | null = null): DiscoveredStore | null {
  if (!location.retailerLocationId) return null;
  return { ...location, retailerLocationId: location.retailerLocationId, banner };
}
