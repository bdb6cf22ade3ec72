// ZIP code facts on the server: the city, state and centroid of a US ZIP code from the `zipcodes`
// package's geodata, its census region (through its state), and great-circle distances. Every
// server-side use of ZIP facts goes through here (the Near you query, the scrape pipeline's
// location fallback, the seed, the coordinates backfill). The browser keeps the small prefix table
// of src/shared/zip.ts instead: this geodata is megabytes, far too much for the client.
import zipcodes from 'zipcodes';
import { STATE_REGIONS, type UsState } from '#shared/zip.ts';
import type { Region } from '#shared/vocabulary.ts';

export interface ZipFacts {
  zip: string;
  city: string;
  state: UsState;
  latitude: number;
  longitude: number;
  region: Region;
}

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/** The mean radius of the Earth in miles: the same figure in JS and in SQL (queries/near.ts). */
export const EARTH_RADIUS_MILES = 3958.8;

const isState = (state: string): state is UsState => Object.hasOwn(STATE_REGIONS, state);

/**
 * The facts of a 5-digit ZIP code (ZIP+4: its first five count), or null when the geodata does
 * not know it or it has no census region (territories such as Puerto Rico or Guam, military mail).
 */
export function zipFacts(zip: string): ZipFacts | null {
  const five = /^(\d{5})(-\d{4})?$/.exec(zip.trim())?.[1];
  if (!five) return null;
  const found = zipcodes.lookup(five);
  if (!found || found.country !== 'US' || !isState(found.state)) return null;
  if (!Number.isFinite(found.latitude) || !Number.isFinite(found.longitude)) return null;
  return {
    zip: five,
    city: found.city,
    state: found.state,
    latitude: found.latitude,
    longitude: found.longitude,
    region: STATE_REGIONS[found.state],
  };
}

let allFactsCache: ZipFacts[] | null = null;

/**
 * The facts of every 5-digit ZIP code the geodata knows in a US state or DC, in ZIP order (about
 * 41,000): the points discovery sweeps ask from, and where the stand-in's store network stands.
 */
export function allZipFacts(): readonly ZipFacts[] {
  if (allFactsCache) return allFactsCache;
  const list: ZipFacts[] = [];
  for (const zip of Object.keys(zipcodes.codes).sort()) {
    if (!/^\d{5}$/.test(zip)) continue;
    const facts = zipFacts(zip);
    if (facts) list.push(facts);
  }
  allFactsCache = list;
  return list;
}

const NEAREST_BUCKET_DEGREES = 0.5;
let nearestIndex: Map<string, ZipFacts[]> | null = null;

/**
 * The ZIP code whose centre is nearest a point, among those of `state` when it is given, within
 * `maxMiles`; null when none is. Discovery files a store that its locator answers without a ZIP
 * code (Whole Foods gives coordinates only) under it.
 */
export function nearestZipFacts(
  point: Coordinates,
  options: { state?: string | null; maxMiles: number },
): ZipFacts | null {
  if (!nearestIndex) {
    nearestIndex = new Map();
    for (const facts of allZipFacts()) {
      const key = `${Math.floor(facts.latitude / NEAREST_BUCKET_DEGREES)}:${Math.floor(facts.longitude / NEAREST_BUCKET_DEGREES)}`;
      const bucket = nearestIndex.get(key);
      if (bucket) bucket.push(facts);
      else nearestIndex.set(key, [facts]);
    }
  }
  const box = boundingBox(point, options.maxMiles);
  let best: ZipFacts | null = null;
  let bestMiles = options.maxMiles;
  for (
    let i = Math.floor(box.minLatitude / NEAREST_BUCKET_DEGREES);
    i <= Math.floor(box.maxLatitude / NEAREST_BUCKET_DEGREES);
    i++
  ) {
    for (
      let j = Math.floor(box.minLongitude / NEAREST_BUCKET_DEGREES);
      j <= Math.floor(box.maxLongitude / NEAREST_BUCKET_DEGREES);
      j++
    ) {
      for (const facts of nearestIndex.get(`${i}:${j}`) ?? []) {
        if (options.state && facts.state !== options.state) continue;
        const miles = greatCircleMiles(point, facts);
        if (miles <= bestMiles && (best === null || miles < bestMiles || facts.zip < best.zip)) {
          best = facts;
          bestMiles = miles;
        }
      }
    }
  }
  return best;
}

/** A city's name as the geodata and a locator may both spell it: lower case, "St." as "Saint", no dots or hyphens. */
function cityKey(city: string): string {
  return city
    .toLowerCase()
    .replace(/\bst\.?\s/g, 'saint ')
    .replace(/\bft\.?\s/g, 'fort ')
    .replace(/[.'’]/g, '')
    .replace(/[-\s]+/g, ' ')
    .trim();
}

let cityIndex: Map<string, ZipFacts[]> | null = null;

/** The ZIP codes of a city (in a state when given), in ZIP order; empty when the geodata has none. */
export function zipFactsOfCity(city: string, state?: string | null): readonly ZipFacts[] {
  if (!cityIndex) {
    cityIndex = new Map();
    for (const facts of allZipFacts()) {
      const key = cityKey(facts.city);
      const list = cityIndex.get(key);
      if (list) list.push(facts);
      else cityIndex.set(key, [facts]);
    }
  }
  const all = cityIndex.get(cityKey(city)) ?? [];
  return state ? all.filter((facts) => facts.state === state) : all;
}

/**
 * The two-letter code of a US state or DC from its code or its full name in any case ("UT",
 * "Utah", "RHODE ISLAND"); null for anything else (territories, Canadian provinces, blanks).
 * Some locators give the full name where a code is expected (Target's mailing_address.state).
 */
export function usStateCode(value: string | null | undefined): UsState | null {
  const text = value?.trim().replace(/\s+/g, ' ').toUpperCase() ?? '';
  const code = text.length === 2 ? text : zipcodes.states.full[text];
  return code !== undefined && isState(code) ? code : null;
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle ("as the crow flies") miles between two points, by the haversine formula. */
export function greatCircleMiles(a: Coordinates, b: Coordinates): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A latitude/longitude box that holds every point within `miles` of the centre (a little more):
 * the index-friendly prefilter before the exact distance. The longitude span widens towards the
 * poles; it is computed at the box's edge nearer the pole, so it never cuts a point off.
 */
export function boundingBox(
  centre: Coordinates,
  miles: number,
): { minLatitude: number; maxLatitude: number; minLongitude: number; maxLongitude: number } {
  const latitudeSpan = (miles / EARTH_RADIUS_MILES) * (180 / Math.PI);
  const minLatitude = Math.max(-90, centre.latitude - latitudeSpan);
  const maxLatitude = Math.min(90, centre.latitude + latitudeSpan);
  const poleward = Math.max(Math.abs(minLatitude), Math.abs(maxLatitude));
  const cos = Math.cos(radians(poleward));
  const longitudeSpan = cos < 1e-6 ? 180 : Math.min(180, latitudeSpan / cos);
  return {
    minLatitude,
    maxLatitude,
    minLongitude: Math.max(-180, centre.longitude - longitudeSpan),
    maxLongitude: Math.min(180, centre.longitude + longitudeSpan),
  };
}
