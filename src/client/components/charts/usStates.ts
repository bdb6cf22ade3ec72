// The US states map's shared parts (the admin Coverage tab's map and the shoppers' map by
// state): the states' names, their Census FIPS codes, and us-atlas's shapes made ready for the
// choropleth (territories dropped, Alaska and Hawaii inset). Pure: no React, no I/O.

/** Width over height of the lower 48 with the insets, in the map's projection (and its placeholders'). */
export const US_MAP_ASPECT = 1.6;
/** The map's widest width unless its page says otherwise. */
export const US_MAP_MAX_W = '3xl';

/** Census FIPS codes of the 50 states and DC (the map's shapes are keyed by them). */
export const FIPS_STATES: Readonly<Record<string, string>> = {
  '01': 'AL',
  '02': 'AK',
  '04': 'AZ',
  '05': 'AR',
  '06': 'CA',
  '08': 'CO',
  '09': 'CT',
  '10': 'DE',
  '11': 'DC',
  '12': 'FL',
  '13': 'GA',
  '15': 'HI',
  '16': 'ID',
  '17': 'IL',
  '18': 'IN',
  '19': 'IA',
  '20': 'KS',
  '21': 'KY',
  '22': 'LA',
  '23': 'ME',
  '24': 'MD',
  '25': 'MA',
  '26': 'MI',
  '27': 'MN',
  '28': 'MS',
  '29': 'MO',
  '30': 'MT',
  '31': 'NE',
  '32': 'NV',
  '33': 'NH',
  '34': 'NJ',
  '35': 'NM',
  '36': 'NY',
  '37': 'NC',
  '38': 'ND',
  '39': 'OH',
  '40': 'OK',
  '41': 'OR',
  '42': 'PA',
  '44': 'RI',
  '45': 'SC',
  '46': 'SD',
  '47': 'TN',
  '48': 'TX',
  '49': 'UT',
  '50': 'VT',
  '51': 'VA',
  '53': 'WA',
  '54': 'WV',
  '55': 'WI',
  '56': 'WY',
};

export const STATE_NAMES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

type Position = number[];
type Ring = Position[];
interface Geometry {
  type: string;
  coordinates: unknown;
}

function mapPositions(geometry: Geometry, move: (p: Position) => Position): Geometry {
  const walk = (value: unknown): unknown =>
    typeof (value as unknown[])[0] === 'number' ? move(value as Position) : (value as unknown[]).map(walk);
  return { ...geometry, coordinates: walk(geometry.coordinates) as Ring[] };
}

/**
 * Alaska and Hawaii moved beside the lower 48 (as US maps do), in longitude and latitude so the
 * map's own projection draws them: Alaska at a third of its size (its longitudes narrowed for
 * the lower latitude it is drawn at), Hawaii as it is; both below the southwest border.
 */
export function insetPosition(fips: string, [lon, lat]: Position): Position {
  if (fips === '02') {
    const east = lon! > 0 ? lon! - 360 : lon!;
    return [
      -117 + (east + 152) * 0.35 * (Math.cos((63 * Math.PI) / 180) / Math.cos((26 * Math.PI) / 180)),
      26 + (lat! - 63) * 0.35,
    ];
  }
  if (fips === '15') return [-104 + (lon! + 157.5), 24.5 + (lat! - 20.5)];
  return [lon!, lat!];
}

/** The 50 states and DC of a GeoJSON feature list (territories dropped), Alaska and Hawaii inset, each id its postal code. */
export function statesForMap<F extends { id?: string | number; geometry: Geometry | null }>(
  features: readonly F[],
): Array<F & { id: string }> {
  return features.flatMap((feature) => {
    const fips = String(feature.id ?? '').padStart(2, '0');
    const state = FIPS_STATES[fips];
    if (!state || !feature.geometry) return [];
    const geometry =
      fips === '02' || fips === '15' ? mapPositions(feature.geometry, (p) => insetPosition(fips, p)) : feature.geometry;
    return [{ ...feature, id: state, geometry }];
  });
}
