// What a locator's answer holds and proves, the rules every retailer module's discovery shares
// (worker/coverage/sweep.ts builds on them): each store answered is placed (given a ZIP code and a
// state, or counted as skipped with the reason), and the answer proves a disk around the point it
// was asked from within which it lists every store of the chain.
import { greatCircleMiles, nearestZipFacts, zipFacts, zipFactsOfCity, type Coordinates } from '#server/geo.ts';
import { zipToState } from '#shared/zip.ts';
import type { DiscoveredStore, DiscoveryAnswer, DiscoveryPoint, RetailerLocation, SkippedStore } from './types.ts';

/** A store's distance below which ties at the edge of an answer are not trusted (miles). */
const EDGE_MILES = 0.01;

/**
 * How far a store stands from its own ZIP code's centre at most. Stores stand where people live:
 * a store's distance from a point is at least its ZIP centre's distance less this, and a store
 * stands within this of some ZIP code centre (the sweep asks only there).
 */
export const STORE_ZIP_MARGIN_MILES = 3;

/**
 * How far from its coordinates a store's ZIP code centre may be: a store placed by coordinates
 * takes the nearest centre of its state within this, else it is skipped (coordinates far from
 * every ZIP code of the state are not a US store's).
 */
export const PLACE_BY_COORDINATES_MILES = 30;

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
 * The radius around the point within which an answer holds every store of the chain. An answer
 * that lists no store proves the radius asked (for a locator that takes none, how far it is known
 * to look). An answer that lists stores is full: whether it stopped at a limit (the documented
 * one, or a lower one the service keeps to itself) or for want of stores, nothing in it says, so it
 * proves only that no store is nearer than its farthest (answers come nearest first), whatever its
 * count and however many of its stores were found before; 0 when a distance is unknown.
 */
export function provenMiles(answer: { radiusMiles: number; miles: ReadonlyArray<number | null> }): number {
  if (answer.miles.length === 0) return answer.radiusMiles;
  if (answer.miles.some((miles) => miles === null)) return 0;
  return Math.max(0, Math.max(...(answer.miles as number[])) - EDGE_MILES);
}

export type Placement = { location: RetailerLocation; skipped?: never } | { location?: never; skipped: string };

const validCoordinates = (location: RetailerLocation): Coordinates | null =>
  location.latitude !== null &&
  location.longitude !== null &&
  Math.abs(location.latitude) <= 90 &&
  Math.abs(location.longitude) <= 180 &&
  !(location.latitude === 0 && location.longitude === 0)
    ? { latitude: location.latitude, longitude: location.longitude }
    : null;

/**
 * A store filed under a ZIP code and a state, or why it cannot be:
 * - its own ZIP code (any spelling the module read) when it is one of a US state;
 * - else the ZIP code whose centre is nearest its coordinates, in its state when the answer names
 *   one, within PLACE_BY_COORDINATES_MILES;
 * - else a ZIP code of its city (in its state when named): the one nearest the point asked, within
 *   the answer's radius and the margin of it (a city's name alone can be another town's far away).
 * The state is the one named, else the ZIP code's.
 */
export function placeStore(
  location: RetailerLocation,
  near: { point: Coordinates; radiusMiles: number } | null = null,
): Placement {
  const named = location.state;
  if (location.zip) {
    const state = zipToState(location.zip);
    if (state) return { location: { ...location, state: named ?? state } };
  }
  const coordinates = validCoordinates(location);
  if (coordinates) {
    const facts = nearestZipFacts(coordinates, { state: named, maxMiles: PLACE_BY_COORDINATES_MILES });
    if (facts) return { location: { ...location, zip: facts.zip, state: named ?? facts.state } };
    return {
      skipped: `its coordinates lie more than ${PLACE_BY_COORDINATES_MILES} miles from every ZIP code${named ? ` of ${named}` : ''}`,
    };
  }
  if (location.city) {
    const reach = near ? near.radiusMiles + STORE_ZIP_MARGIN_MILES : Infinity;
    let best: { zip: string; state: string; miles: number } | null = null;
    for (const facts of zipFactsOfCity(location.city, named)) {
      const miles = near ? greatCircleMiles(near.point, facts) : 0;
      if (miles <= reach && (best === null || miles < best.miles)) best = { ...facts, miles };
    }
    if (best) return { location: { ...location, zip: best.zip, state: named ?? best.state } };
    return {
      skipped: `no ZIP code of ${location.city}${named ? `, ${named}` : ''} lies within ${near ? `${Math.round(reach)} miles of the point asked` : 'the geodata'}`,
    };
  }
  if (location.zip) return { skipped: `its ZIP code ${location.zip} is not one of a US state` };
  return { skipped: 'the answer gives no ZIP code, coordinates or city to file it under' };
}

/** One store of a locator's answer, as the module read it. */
export interface AnswerRecord {
  location: RetailerLocation;
  /** The banner as the locator names it (Kroger `chain`, Albertsons `domainName`). */
  banner?: string | null;
  /** The answer's own distance to the store (miles), when it gives one. */
  answeredMiles?: number | null;
  /** False for a store the answer lists as not open (counted toward the limit, not kept). */
  open?: boolean;
}

/**
 * A locator's answer for discovery: every record placed (kept as a store, or skipped with its
 * reason), and the disk it proves (provenMiles) around the point asked. `radiusMiles` is the
 * radius asked (for a locator that takes none, how far it is known to look).
 */
export function discoveryAnswer(
  point: DiscoveryPoint,
  records: readonly AnswerRecord[],
  radiusMiles: number,
): DiscoveryAnswer {
  const stores: DiscoveredStore[] = [];
  const skipped: SkippedStore[] = [];
  const miles: Array<number | null> = [];
  for (const record of records) {
    const placed = placeStore(record.location, { point, radiusMiles });
    // A store placed by its city alone is at least as far as that city's nearest ZIP centre, less the margin.
    miles.push(storeMiles(point, placed.location ?? record.location, record.answeredMiles ?? null));
    if (record.open === false) continue;
    const id = record.location.retailerLocationId?.trim() || null;
    if (!id) skipped.push({ retailerLocationId: null, reason: 'the answer gives no store id' });
    else if (placed.skipped !== undefined) skipped.push({ retailerLocationId: id, reason: placed.skipped });
    else stores.push({ ...placed.location, retailerLocationId: id, banner: record.banner ?? null });
  }
  return { stores, skipped, provenMiles: provenMiles({ radiusMiles, miles }) };
}
