// ZIP code lists and ZIP -> state -> US census region (a ZIP maps to a region via its state).
// This small USPS prefix table serves the browser (and the scrape API's ZIP check, shared with the
// admin form); the server reads every other ZIP fact (city, state, coordinates, region, distances)
// from the zipcodes package's geodata in src/server/geo.ts, megabytes no client should download.
import type { Region } from './vocabulary.ts';

/** Scraper ZIP input: split on commas, trim, drop empties. No format check. */
export function parseZipList(text: string): string[] {
  return text
    .split(',')
    .map((zip) => zip.trim())
    .filter((zip) => zip !== '');
}

/** Five digits, or ZIP+4 (12345-6789). Exact: no surrounding spaces. */
export function isValidZip(zip: string): boolean {
  return /^\d{5}(-\d{4})?$/.test(zip);
}

/** US census regions of the 50 states and DC. */
export const STATE_REGIONS = {
  CT: 'northeast',
  ME: 'northeast',
  MA: 'northeast',
  NH: 'northeast',
  RI: 'northeast',
  VT: 'northeast',
  NJ: 'northeast',
  NY: 'northeast',
  PA: 'northeast',
  IL: 'midwest',
  IN: 'midwest',
  MI: 'midwest',
  OH: 'midwest',
  WI: 'midwest',
  IA: 'midwest',
  KS: 'midwest',
  MN: 'midwest',
  MO: 'midwest',
  NE: 'midwest',
  ND: 'midwest',
  SD: 'midwest',
  DE: 'south',
  DC: 'south',
  FL: 'south',
  GA: 'south',
  MD: 'south',
  NC: 'south',
  SC: 'south',
  VA: 'south',
  WV: 'south',
  AL: 'south',
  KY: 'south',
  MS: 'south',
  TN: 'south',
  AR: 'south',
  LA: 'south',
  OK: 'south',
  TX: 'south',
  AZ: 'west',
  CO: 'west',
  ID: 'west',
  MT: 'west',
  NV: 'west',
  NM: 'west',
  UT: 'west',
  WY: 'west',
  AK: 'west',
  CA: 'west',
  HI: 'west',
  OR: 'west',
  WA: 'west',
} as const satisfies Record<string, Region>;

export type UsState = keyof typeof STATE_REGIONS;

/**
 * USPS 3-digit ZIP prefixes [first, last, state] for the 50 states and DC. Prefixes not listed
 * are unassigned or belong to territories (PR 006-007/009, VI 008, GU and others 969) or military
 * mail (AE 090-098, AA 340, AP 962-966), which have no census region.
 */
const PREFIX_RANGES: ReadonlyArray<readonly [number, number, UsState]> = [
  [5, 5, 'NY'], // Holtsville IRS
  [10, 27, 'MA'],
  [28, 29, 'RI'],
  [30, 38, 'NH'],
  [39, 49, 'ME'],
  [50, 54, 'VT'],
  [55, 55, 'MA'],
  [56, 59, 'VT'], // 055: Andover IRS, MA
  [60, 69, 'CT'],
  [70, 89, 'NJ'],
  [100, 149, 'NY'],
  [150, 196, 'PA'],
  [197, 199, 'DE'],
  [200, 200, 'DC'],
  [201, 201, 'VA'],
  [202, 205, 'DC'],
  [206, 219, 'MD'],
  [220, 246, 'VA'],
  [247, 268, 'WV'],
  [270, 289, 'NC'],
  [290, 299, 'SC'],
  [300, 319, 'GA'],
  [320, 339, 'FL'],
  [341, 349, 'FL'],
  [350, 369, 'AL'],
  [370, 385, 'TN'],
  [386, 397, 'MS'],
  [398, 399, 'GA'],
  [400, 427, 'KY'],
  [430, 459, 'OH'],
  [460, 479, 'IN'],
  [480, 499, 'MI'],
  [500, 528, 'IA'],
  [530, 549, 'WI'],
  [550, 567, 'MN'],
  [569, 569, 'DC'],
  [570, 577, 'SD'],
  [580, 588, 'ND'],
  [590, 599, 'MT'],
  [600, 629, 'IL'],
  [630, 658, 'MO'],
  [660, 679, 'KS'],
  [680, 693, 'NE'],
  [700, 714, 'LA'],
  [716, 729, 'AR'],
  [730, 732, 'OK'],
  [733, 733, 'TX'],
  [734, 749, 'OK'], // 733: Austin IRS, TX
  [750, 799, 'TX'],
  [800, 816, 'CO'],
  [820, 831, 'WY'],
  [832, 838, 'ID'],
  [840, 847, 'UT'],
  [850, 865, 'AZ'],
  [870, 884, 'NM'],
  [885, 885, 'TX'],
  [889, 898, 'NV'],
  [900, 961, 'CA'],
  [967, 968, 'HI'],
  [970, 979, 'OR'],
  [980, 994, 'WA'],
  [995, 999, 'AK'],
];

/** Whole ZIPs whose state differs from their prefix's. */
const ZIP_EXCEPTIONS: Readonly<Record<string, UsState | null>> = {
  '06390': 'NY', // Fishers Island, NY, served through New London, CT
  '96799': null, // American Samoa, inside Hawaii's 967
};

/** The state (or DC) of a 5-digit or ZIP+4 code; null when malformed, unassigned or not a state. */
export function zipToState(zip: string): UsState | null {
  const trimmed = zip.trim();
  if (!isValidZip(trimmed)) return null;
  const five = trimmed.slice(0, 5);
  if (five in ZIP_EXCEPTIONS) return ZIP_EXCEPTIONS[five] ?? null;
  const prefix = Number(five.slice(0, 3));
  return PREFIX_RANGES.find(([first, last]) => prefix >= first && prefix <= last)?.[2] ?? null;
}

/** The US census region of a ZIP's state, or null (see zipToState). */
export function zipToRegion(zip: string): Region | null {
  const state = zipToState(zip);
  return state === null ? null : STATE_REGIONS[state];
}
