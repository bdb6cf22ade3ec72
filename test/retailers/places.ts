// Where a stand-in store is: the real city and state of the ZIP code it serves (the zipcodes
// geodata the app itself uses), and a point a little away from the ZIP code's centre, as a real
// store is. So the demo's Near you shows true cities and distances ("ALDI, New York, NY 10001 ·
// 1.4 mi") rather than a placeholder town at 0.0 mi. The offset is fixed per retailer, ZIP and
// store, so every run and test sees the same place.
import { zipFacts } from '#server/geo.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { zipToState } from '#shared/zip.ts';
import { hashOf } from './scenarios.ts';

/** The real city of a ZIP code ('Springfield' for one the geodata does not know). */
export function standInCity(zip: string): string {
  return zipFacts(zip)?.city ?? 'Springfield';
}

export interface StandInPlace {
  city: string;
  /** Two-letter state code. */
  state: string;
  /** Null for a ZIP code the geodata does not know. */
  latitude: number | null;
  longitude: number | null;
  /** Miles from the ZIP code's centre (0.4 to 2.9 for the first store, more for a second). */
  miles: number;
}

const MILES_PER_DEGREE_LATITUDE = 69.05;

/**
 * The place of a retailer's `nth` store for a ZIP code (0: the one its locator answers first).
 * A ZIP code the geodata does not know keeps its state, a generic town and no coordinates.
 */
export function standInPlace(store: StoreId, zip: string, nth = 0): StandInPlace {
  const facts = zipFacts(zip);
  const h = hashOf(`${store}:${zip}:${nth}`);
  const miles = 0.4 + (h % 26) / 10 + nth * 2.5;
  const bearing = ((h >>> 8) % 360) * (Math.PI / 180);
  if (!facts)
    return { city: standInCity(zip), state: zipToState(zip) ?? 'NY', latitude: null, longitude: null, miles: 0 };
  const latitude = facts.latitude + (miles / MILES_PER_DEGREE_LATITUDE) * Math.cos(bearing);
  const longitude =
    facts.longitude +
    (miles / (MILES_PER_DEGREE_LATITUDE * Math.cos((facts.latitude * Math.PI) / 180))) * Math.sin(bearing);
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  return { city: facts.city, state: facts.state, latitude: round(latitude), longitude: round(longitude), miles };
}
