// What a locator's answer holds and proves, the rules every retailer module's discovery shares
// (worker/coverage/sweep.ts builds on them): each store answered is placed (given a ZIP code and a
// state, or counted as skipped with the reason), and the answer proves a disk around the point it
// was asked from within which it lists every store of the chain.
import {
  allZipFacts,
  greatCircleMiles,
  nearestZipFacts,
  zipFacts,
  zipFactsOfCity,
  type Coordinates,
} from '#server/geo.ts';
import { zipToState } from '#shared/zip.ts';
import type { DiscoveredStore, DiscoveryAnswer, DiscoveryPoint, RetailerLocation, SkippedStore } from './types.ts';

/** A store's distance below which ties at the edge of an answer are not trusted (miles). */
const EDGE_MILES = 0.01;

const MILES_PER_DEGREE = 69.05;
/** Directions in which a ZIP code centre's cell is measured. */
const MARGIN_DIRECTIONS = 32;
/** Neighbouring centres looked at first (miles), the search doubled where the cell reaches further. */
const MARGIN_FIRST_SEARCH_MILES = 4;
/** The widest search (miles): a direction no centre within it closes is open (a shore, a border). */
const MARGIN_SEARCH_MILES = 40;

let zipMargins: Map<string, number> | null = null;
let widestMargin = 0;

/**
 * Each ZIP code's margin, from the spacing of the geodata's ZIP code centres alone. A centre's
 * cell is the land nearer it than any other centre (its Voronoi cell): every point of the land
 * lies in the cell of its nearest centre, so disks that hold every centre's cell hold the land,
 * wherever a store stands, and a store filed under a ZIP code stands (up to the ZIP code's own
 * shape) in that code's cell. The margin is how far the cell reaches from its centre: measured in
 * MARGIN_DIRECTIONS directions (a direction ends at the bisector with the centre that closes it
 * first), widened by the sampling's error (a corner lies at most half a step off a direction). A
 * direction no centre within MARGIN_SEARCH_MILES closes is open (a shore or a border, where no
 * store stands) and does not count; a centre with no direction closed reaches half that search.
 */
function margins(): Map<string, number> {
  if (zipMargins) return zipMargins;
  const all = allZipFacts();
  const bucketDegrees = 0.25;
  const buckets = new Map<string, Coordinates[]>();
  for (const facts of all) {
    const k = `${Math.floor(facts.latitude / bucketDegrees)}:${Math.floor(facts.longitude / bucketDegrees)}`;
    const bucket = buckets.get(k);
    if (bucket) bucket.push(facts);
    else buckets.set(k, [facts]);
  }
  const directions = Array.from({ length: MARGIN_DIRECTIONS }, (_, i) => {
    const angle = (2 * Math.PI * i) / MARGIN_DIRECTIONS;
    return [Math.cos(angle), Math.sin(angle)] as const;
  });
  const sampling = 1 / Math.cos(Math.PI / MARGIN_DIRECTIONS);
  const out = new Map<string, number>();
  for (const centre of all) {
    const cos = Math.max(0.2, Math.cos((centre.latitude * Math.PI) / 180));
    let search = MARGIN_FIRST_SEARCH_MILES;
    let reach: number;
    for (;;) {
      const dLat = search / MILES_PER_DEGREE;
      const dLon = search / (MILES_PER_DEGREE * cos);
      const near: Array<[number, number]> = [];
      const south = Math.floor((centre.latitude - dLat) / bucketDegrees);
      const north = Math.floor((centre.latitude + dLat) / bucketDegrees);
      const west = Math.floor((centre.longitude - dLon) / bucketDegrees);
      const east = Math.floor((centre.longitude + dLon) / bucketDegrees);
      for (let i = south; i <= north; i++)
        for (let j = west; j <= east; j++)
          for (const other of buckets.get(`${i}:${j}`) ?? []) {
            const x = (other.longitude - centre.longitude) * MILES_PER_DEGREE * cos;
            const y = (other.latitude - centre.latitude) * MILES_PER_DEGREE;
            const d2 = x * x + y * y;
            if (d2 > 1e-6 && d2 <= search * search) near.push([x, y]);
          }
      // A direction closed within half the search is closed by a centre within it: exact.
      reach = 0;
      let open = false;
      for (const [ux, uy] of directions) {
        let t = Infinity;
        for (const [x, y] of near) {
          const along = x * ux + y * uy;
          if (along > 0) t = Math.min(t, (x * x + y * y) / (2 * along));
        }
        if (t <= search / 2) reach = Math.max(reach, t);
        else open = true;
      }
      if (!open || search >= MARGIN_SEARCH_MILES) break;
      search = Math.min(MARGIN_SEARCH_MILES, search * 2);
    }
    const margin = Math.round((reach > 0 ? reach * sampling : MARGIN_SEARCH_MILES / 2) * 1000) / 1000;
    out.set(centre.zip, margin);
    widestMargin = Math.max(widestMargin, margin);
  }
  zipMargins = out;
  return out;
}

/**
 * How far the land nearest a ZIP code's centre reaches from it (miles; margins()): the margin a
 * sweep proves around the centre to settle it, and how far a store filed under the ZIP code can
 * stand from its centre (the distance error of a store placed at that centre). Null for a ZIP
 * code the geodata does not know.
 */
export function zipMarginMiles(zip: string): number | null {
  return margins().get(zip) ?? null;
}

/** The widest margin of any ZIP code centre (miles). */
export function widestZipMarginMiles(): number {
  margins();
  return widestMargin;
}

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
  return facts ? Math.max(0, greatCircleMiles(point, facts) - zipMarginMiles(facts.zip)!) : null;
}

/**
 * Miles from the point to a store that the answer places by its city alone: at least the nearest
 * of the city's ZIP code centres (in its state when named) less that centre's margin, whichever
 * of them the store stands in; null when the geodata knows no ZIP code of the city.
 */
function cityMiles(point: Coordinates, city: string, state: string | null): number | null {
  let best: number | null = null;
  for (const facts of zipFactsOfCity(city, state)) {
    const miles = Math.max(0, greatCircleMiles(point, facts) - zipMarginMiles(facts.zip)!);
    if (best === null || miles < best) best = miles;
  }
  return best;
}

/**
 * The radius around the point within which an answer holds every store of the chain, by the
 * locator's documented limit (the most stores one answer lists):
 * - an answer with fewer stores than the limit stopped for want of stores: it proves the whole
 *   radius asked (for a locator that takes none, how far it is known to look), as does an answer
 *   without a store;
 * - an answer at the limit, or any answer of a locator whose limit is not documented (null), may
 *   have stopped at its limit: answers come nearest first, so it proves only that no store is
 *   nearer than its farthest, whatever its count and however many of its stores were found
 *   before; 0 when a distance is unknown.
 */
export function provenMiles(answer: {
  radiusMiles: number;
  limit: number | null;
  miles: ReadonlyArray<number | null>;
}): number {
  if (answer.miles.length === 0) return answer.radiusMiles;
  if (answer.limit !== null && answer.miles.length < answer.limit) return answer.radiusMiles;
  if (answer.miles.some((miles) => miles === null)) return 0;
  // A store beyond the radius asked: the service looked that far.
  return Math.max(0, Math.max(...(answer.miles as number[])) - EDGE_MILES);
}

/**
 * The radius a locator is asked for a point (whole miles, within the locator's bounds): the one the
 * sweep planned for it, else the widest.
 */
export function askedRadius(point: DiscoveryPoint, min: number, max: number): number {
  const planned = point.radiusMiles;
  if (planned === undefined || !Number.isFinite(planned)) return max;
  return Math.min(max, Math.max(min, Math.ceil(planned)));
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
    const reach = near ? near.radiusMiles + widestZipMarginMiles() : Infinity;
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
 * radius asked (for a locator that takes none, how far it is known to look); `limit` the most
 * stores one answer lists as documented for the call (null when it is not documented).
 */
export function discoveryAnswer(
  point: DiscoveryPoint,
  records: readonly AnswerRecord[],
  radiusMiles: number,
  limit: number | null,
): DiscoveryAnswer {
  const stores: DiscoveredStore[] = [];
  const skipped: SkippedStore[] = [];
  const miles: Array<number | null> = [];
  let measured = true;
  for (const record of records) {
    const placed = placeStore(record.location, { point, radiusMiles });
    // A store placed by its city alone is at least as far as the nearest of its city's cells.
    const answered = record.answeredMiles ?? null;
    const byCity =
      answered === null && !record.location.zip && validCoordinates(record.location) === null && record.location.city
        ? cityMiles(point, record.location.city, record.location.state)
        : undefined;
    miles.push(byCity !== undefined ? byCity : storeMiles(point, placed.location ?? record.location, answered));
    if (answered === null && validCoordinates(record.location) === null) measured = false;
    if (record.open === false) continue;
    const id = record.location.retailerLocationId?.trim() || null;
    if (!id) skipped.push({ retailerLocationId: null, reason: 'the answer gives no store id' });
    else if (placed.skipped !== undefined) skipped.push({ retailerLocationId: id, reason: placed.skipped });
    else stores.push({ ...placed.location, retailerLocationId: id, banner: record.banner ?? null });
  }
  const proven = provenMiles({ radiusMiles, limit, miles });
  return { stores, skipped, provenMiles: proven, ...(records.length > 0 ? { measured } : {}) };
}
