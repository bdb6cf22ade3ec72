// A second store network, generated unlike the stand-in's own (network.ts), so that discovery is
// measured on shapes it was not built against. Where network.ts spreads each chain evenly over ZIP
// codes picked by a hash, one store per ZIP code, here:
// - a share of each chain stands in dense metro clusters (Denver, Albuquerque, the Wasatch Front,
//   Phoenix, Los Angeles, Chicago...), several stores to a ZIP code where the chain is thick, the
//   core denser than the edge;
// - the rest is drawn by a seeded generator (not the hash), weighted towards ZIP codes with many
//   neighbours (towns rather than countryside);
// - ids come from other ranges and shapes than the stand-in's per-ZIP ids (Walmart 7xxx, Target
//   3xxx-4xxx, Kroger 620xxxxx, Albertsons 4xxx-6xxx, Whole Foods numbered from 10100, ALDI
//   "5xx-1xx"), handed out in a shuffled order;
// - each chain has one closing store (gone from every locator once the switch is on, in a state of
//   the dense West) and a few stores whose listing calls meet the retailer's bot wall.
// Its locators (metro-locators.ts) answer with the documented minimum fields only.
import { allZipFacts, greatCircleMiles, type Coordinates, type ZipFacts } from '#server/geo.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { STATE_REGIONS, type UsState } from '#shared/zip.ts';
import { ALBERTSONS_BANNERS, KROGER_BANNERS, type Banner } from './network.ts';
import { mulberry32 } from '../seeded.ts';

/** Stores per chain: near the real chains' counts, but not the stand-in's (about 14,500 in all). */
export const METRO_NETWORK_SIZES: Readonly<Record<StoreId, number>> = {
  walmart: 4610,
  target: 1956,
  kroger: 2719,
  albertsons: 2271,
  'whole-foods': 538,
  aldi: 2390,
};

interface Metro {
  name: string;
  latitude: number;
  longitude: number;
  /** Miles from the centre the cluster reaches. */
  radiusMiles: number;
  /** Each chain's stores in the cluster (on its own states only). */
  stores: Partial<Record<StoreId, number>>;
}

/** Dense clusters: the metros of the dense West first, then others across the country. */
export const METROS: readonly Metro[] = [
  {
    name: 'Denver',
    latitude: 39.74,
    longitude: -104.99,
    radiusMiles: 16,
    stores: { walmart: 38, target: 34, kroger: 82, albertsons: 75, 'whole-foods': 12, aldi: 8 },
  },
  {
    name: 'Colorado Springs',
    latitude: 38.86,
    longitude: -104.79,
    radiusMiles: 9,
    stores: { walmart: 12, target: 8, kroger: 18, albertsons: 14, 'whole-foods': 2 },
  },
  {
    name: 'Albuquerque',
    latitude: 35.1,
    longitude: -106.62,
    radiusMiles: 11,
    stores: { walmart: 14, target: 6, kroger: 12, albertsons: 30, 'whole-foods': 3 },
  },
  {
    name: 'Salt Lake City',
    latitude: 40.7,
    longitude: -111.9,
    radiusMiles: 12,
    stores: { walmart: 22, target: 10, kroger: 30, albertsons: 14, 'whole-foods': 5 },
  },
  {
    name: 'Ogden',
    latitude: 41.2,
    longitude: -111.97,
    radiusMiles: 7,
    stores: { walmart: 6, target: 3, kroger: 8, albertsons: 5 },
  },
  {
    name: 'Provo',
    latitude: 40.28,
    longitude: -111.68,
    radiusMiles: 8,
    stores: { walmart: 7, target: 3, kroger: 8, albertsons: 6 },
  },
  {
    name: 'Phoenix',
    latitude: 33.48,
    longitude: -112.05,
    radiusMiles: 24,
    stores: { walmart: 70, target: 30, kroger: 95, albertsons: 60, 'whole-foods': 12, aldi: 25 },
  },
  {
    name: 'Las Vegas',
    latitude: 36.15,
    longitude: -115.17,
    radiusMiles: 12,
    stores: { walmart: 28, target: 12, kroger: 40, albertsons: 40, 'whole-foods': 5 },
  },
  {
    name: 'Los Angeles',
    latitude: 34.03,
    longitude: -118.2,
    radiusMiles: 28,
    stores: { walmart: 75, target: 105, kroger: 150, albertsons: 180, 'whole-foods': 45, aldi: 45 },
  },
  {
    name: 'San Francisco Bay',
    latitude: 37.7,
    longitude: -122.2,
    radiusMiles: 22,
    stores: { walmart: 35, target: 45, albertsons: 150, 'whole-foods': 38, aldi: 10 },
  },
  {
    name: 'Seattle',
    latitude: 47.58,
    longitude: -122.3,
    radiusMiles: 18,
    stores: { walmart: 20, target: 30, kroger: 60, albertsons: 90, 'whole-foods': 14 },
  },
  {
    name: 'Portland',
    latitude: 45.5,
    longitude: -122.65,
    radiusMiles: 12,
    stores: { walmart: 12, target: 14, kroger: 35, albertsons: 60, 'whole-foods': 8 },
  },
  {
    name: 'Dallas',
    latitude: 32.85,
    longitude: -96.85,
    radiusMiles: 24,
    stores: { walmart: 85, target: 50, kroger: 90, albertsons: 70, 'whole-foods': 12, aldi: 35 },
  },
  {
    name: 'Houston',
    latitude: 29.78,
    longitude: -95.4,
    radiusMiles: 24,
    stores: { walmart: 85, target: 45, kroger: 100, albertsons: 30, 'whole-foods': 10, aldi: 30 },
  },
  {
    name: 'Chicago',
    latitude: 41.85,
    longitude: -87.75,
    radiusMiles: 22,
    stores: { walmart: 45, target: 60, kroger: 40, albertsons: 150, 'whole-foods': 28, aldi: 120 },
  },
  {
    name: 'Atlanta',
    latitude: 33.78,
    longitude: -84.4,
    radiusMiles: 20,
    stores: { walmart: 55, target: 40, kroger: 100, 'whole-foods': 10, aldi: 40 },
  },
  {
    name: 'Miami',
    latitude: 26.05,
    longitude: -80.2,
    radiusMiles: 22,
    stores: { walmart: 45, target: 35, 'whole-foods': 18, aldi: 30 },
  },
  {
    name: 'New York',
    latitude: 40.72,
    longitude: -73.95,
    radiusMiles: 16,
    stores: { walmart: 8, target: 40, 'whole-foods': 32, aldi: 25 },
  },
  {
    name: 'Boston',
    latitude: 42.36,
    longitude: -71.1,
    radiusMiles: 14,
    stores: { walmart: 10, target: 20, albertsons: 80, 'whole-foods': 26, aldi: 10 },
  },
  {
    name: 'Philadelphia',
    latitude: 39.97,
    longitude: -75.18,
    radiusMiles: 14,
    stores: { walmart: 18, target: 22, albertsons: 50, 'whole-foods': 10, aldi: 40 },
  },
  {
    name: 'Washington',
    latitude: 38.9,
    longitude: -77.03,
    radiusMiles: 16,
    stores: { walmart: 22, target: 30, kroger: 35, albertsons: 80, 'whole-foods': 22, aldi: 25 },
  },
  {
    name: 'Minneapolis',
    latitude: 44.97,
    longitude: -93.27,
    radiusMiles: 14,
    stores: { walmart: 20, target: 45, 'whole-foods': 8, aldi: 30 },
  },
  {
    name: 'Detroit',
    latitude: 42.42,
    longitude: -83.15,
    radiusMiles: 16,
    stores: { walmart: 25, target: 25, kroger: 50, 'whole-foods': 6, aldi: 40 },
  },
  {
    name: 'Cincinnati',
    latitude: 39.13,
    longitude: -84.5,
    radiusMiles: 10,
    stores: { walmart: 15, target: 12, kroger: 60, 'whole-foods': 3, aldi: 25 },
  },
  {
    name: 'Columbus',
    latitude: 39.98,
    longitude: -82.99,
    radiusMiles: 10,
    stores: { walmart: 15, target: 12, kroger: 50, 'whole-foods': 4, aldi: 25 },
  },
  {
    name: 'Indianapolis',
    latitude: 39.78,
    longitude: -86.15,
    radiusMiles: 10,
    stores: { walmart: 18, target: 12, kroger: 40, 'whole-foods': 3, aldi: 30 },
  },
  {
    name: 'St. Louis',
    latitude: 38.63,
    longitude: -90.3,
    radiusMiles: 12,
    stores: { walmart: 25, target: 14, 'whole-foods': 3, aldi: 40 },
  },
  {
    name: 'Kansas City',
    latitude: 39.05,
    longitude: -94.6,
    radiusMiles: 12,
    stores: { walmart: 22, target: 12, kroger: 20, 'whole-foods': 4, aldi: 25 },
  },
];

const ALL_STATES = Object.keys(STATE_REGIONS) as UsState[];
const statesOf = (banners: readonly Banner[]) => [...new Set(banners.flatMap((banner) => banner.states))];

/** The states each chain has stores in (ALDI only a few stores west of the Plains, all in Denver). */
export const METRO_CHAIN_STATES: Readonly<Record<StoreId, readonly UsState[]>> = {
  walmart: ALL_STATES,
  target: ALL_STATES,
  kroger: statesOf(KROGER_BANNERS),
  albertsons: statesOf(ALBERTSONS_BANNERS),
  'whole-foods': ALL_STATES.filter((state) => !['AK', 'ND', 'SD', 'WY', 'WV'].includes(state)),
  aldi: ALL_STATES.filter(
    (state) => !['AK', 'HI', 'WA', 'OR', 'ID', 'MT', 'WY', 'UT', 'NV', 'NM', 'ND', 'SD'].includes(state),
  ),
};

/** Where each chain's closing store stands. */
export const METRO_CLOSING_STATE: Readonly<Record<StoreId, UsState>> = {
  walmart: 'CO',
  target: 'UT',
  kroger: 'NM',
  albertsons: 'CO',
  'whole-foods': 'CO',
  aldi: 'DE',
};

/**
 * Chains whose metro locator answers the nearest store only (metro-locators.ts): each of their
 * stores is the nearest to some ZIP code centre, or no locator could ever find it.
 */
const NEAREST_ONLY: ReadonlySet<StoreId> = new Set(['walmart']);

export interface MetroStore {
  chain: StoreId;
  /** The retailer's id as its locators answer it. */
  id: string;
  /** The store's address ZIP code: the one whose centre it was placed near (within 1.5 miles). */
  zip: string;
  city: string;
  state: UsState;
  street: string;
  latitude: number;
  longitude: number;
  banner: Banner | null;
  /** Placed as part of a metro cluster (else dispersed). */
  metro: string | null;
  closing: boolean;
  blocks: boolean;
}

export interface MetroChain {
  chain: StoreId;
  stores: MetroStore[];
  byId: Map<string, MetroStore>;
  /** Stores in 0.2-degree buckets, for the locators' nearest-first answers. */
  buckets: Map<string, MetroStore[]>;
}

/**
 * A seeded generator (mulberry32, its seed hashed from the string): the same network every time,
 * unlike network.ts's hash.
 */
function generator(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return mulberry32(h);
}

const MILES_PER_DEGREE = 69.05;
const BUCKET_DEGREES = 0.2;
const bucketKey = (latitude: number, longitude: number) =>
  `${Math.floor(latitude / BUCKET_DEGREES)}:${Math.floor(longitude / BUCKET_DEGREES)}`;

/** A point `miles` from a centre at a bearing (radians). */
function offset(centre: Coordinates, miles: number, bearing: number): Coordinates {
  const latitude = centre.latitude + (miles / MILES_PER_DEGREE) * Math.cos(bearing);
  const longitude =
    centre.longitude + (miles / (MILES_PER_DEGREE * Math.cos((centre.latitude * Math.PI) / 180))) * Math.sin(bearing);
  return { latitude: Math.round(latitude * 1e6) / 1e6, longitude: Math.round(longitude * 1e6) / 1e6 };
}

/** Items within `miles` of a point, from 0.2-degree buckets. */
function nearIn<T extends Coordinates>(buckets: Map<string, T[]>, point: Coordinates, miles: number): T[] {
  const latCells = Math.ceil(miles / (MILES_PER_DEGREE * BUCKET_DEGREES)) + 1;
  const cos = Math.max(0.2, Math.cos((point.latitude * Math.PI) / 180));
  const lonCells = Math.ceil(miles / (MILES_PER_DEGREE * cos * BUCKET_DEGREES)) + 1;
  const la = Math.floor(point.latitude / BUCKET_DEGREES);
  const lo = Math.floor(point.longitude / BUCKET_DEGREES);
  const out: T[] = [];
  for (let i = -latCells; i <= latCells; i++)
    for (let j = -lonCells; j <= lonCells; j++)
      for (const item of buckets.get(`${la + i}:${lo + j}`) ?? [])
        if (greatCircleMiles(point, item) <= miles) out.push(item);
  return out;
}

function addTo<T extends Coordinates>(buckets: Map<string, T[]>, item: T) {
  const key = bucketKey(item.latitude, item.longitude);
  const bucket = buckets.get(key);
  if (bucket) bucket.push(item);
  else buckets.set(key, [item]);
}

let centresCache: {
  list: readonly ZipFacts[];
  buckets: Map<string, ZipFacts[]>;
  neighbours: Map<string, number>;
} | null = null;

/** The geodata's ZIP code centres, bucketed, with how many centres lie within 8 miles of each. */
function centres() {
  if (centresCache) return centresCache;
  const list = allZipFacts();
  const buckets = new Map<string, ZipFacts[]>();
  for (const facts of list) addTo(buckets, facts);
  const neighbours = new Map<string, number>();
  for (const facts of list) neighbours.set(facts.zip, nearIn(buckets, facts, 8).length);
  centresCache = { list, buckets, neighbours };
  return centresCache;
}

const STREETS = [
  'Main St',
  'Broadway',
  'Colfax Ave',
  'Central Ave',
  'Market Pl',
  'Highland Dr',
  'Union Blvd',
  'Mesa Rd',
];

/** Each chain's id for the nth store of its shuffled order. */
function idOf(chain: StoreId, n: number): string {
  switch (chain) {
    case 'walmart':
      return String(7001 + n);
    case 'target':
      return String(3100 + n);
    case 'kroger':
      return `620${String(10_000 + n * 7).padStart(5, '0')}`;
    case 'albertsons':
      return String(4000 + n);
    case 'whole-foods':
      return String(10_100 + n);
    case 'aldi':
      return `${510 + Math.floor(n / 90)}-${100 + (n % 90)}`;
  }
}

function bannerFor(chain: StoreId, state: UsState, random: () => number): Banner | null {
  const banners = chain === 'kroger' ? KROGER_BANNERS : chain === 'albertsons' ? ALBERTSONS_BANNERS : null;
  if (!banners) return null;
  const fitting = banners.filter((banner) => banner.states.includes(state));
  return fitting[Math.floor(random() * fitting.length)] ?? null;
}

function buildChain(chain: StoreId): MetroChain {
  const random = generator(`metro-network:${chain}`);
  const { list, buckets: centreBuckets, neighbours } = centres();
  const states = new Set<string>(METRO_CHAIN_STATES[chain]);
  const stores: MetroStore[] = [];
  const placed = new Map<string, MetroStore[]>();
  const homes = new Map<MetroStore, ZipFacts>();

  /**
   * A store placed for a ZIP code keeps every store of a nearest-only locator findable: it is the
   * strictly nearest to its own ZIP code's centre, and no other store loses that place to it (a
   * store that is nobody's nearest no locator asked from a ZIP code could ever answer).
   */
  function findable(facts: ZipFacts, point: Coordinates): boolean {
    const own = greatCircleMiles(facts, point);
    if (nearIn(placed, facts, own + 0.05).length > 0) return false;
    for (const other of nearIn(placed, point, 4)) {
      const home = homes.get(other)!;
      if (greatCircleMiles(home, point) <= greatCircleMiles(home, other) + 0.05) return false;
    }
    return true;
  }

  /** Places a store near a ZIP code's centre unless another of the chain stands within `spacing` miles. */
  function place(facts: ZipFacts, spacing: number, metro: string | null, jitterMiles: number): boolean {
    const point = offset(facts, random() * jitterMiles, random() * 2 * Math.PI);
    if (nearIn(placed, point, spacing).length > 0) return false;
    if (NEAREST_ONLY.has(chain) && !findable(facts, point)) return false;
    const store: MetroStore = {
      chain,
      id: '',
      zip: facts.zip,
      city: facts.city,
      state: facts.state,
      street: `${100 + Math.floor(random() * 9800)} ${STREETS[Math.floor(random() * STREETS.length)]}`,
      latitude: point.latitude,
      longitude: point.longitude,
      banner: bannerFor(chain, facts.state, random),
      metro,
      closing: false,
      blocks: false,
    };
    stores.push(store);
    addTo(placed, store);
    homes.set(store, facts);
    return true;
  }

  // Metro clusters: ZIP centres within the radius, the core weighted over the edge; several stores
  // may share a ZIP code (a quarter of a mile apart at least).
  for (const metro of METROS) {
    const wanted = metro.stores[chain] ?? 0;
    if (wanted === 0) continue;
    const inside = nearIn(centreBuckets, metro, metro.radiusMiles)
      .filter((facts) => states.has(facts.state))
      .map((facts) => ({ facts, weight: (1 - greatCircleMiles(metro, facts) / metro.radiusMiles) ** 1.5 + 0.15 }));
    const total = inside.reduce((sum, entry) => sum + entry.weight, 0);
    let made = 0;
    for (let tries = 0; made < wanted && tries < wanted * 60 && inside.length > 0; tries++) {
      let pick = random() * total;
      const entry = inside.find((candidate) => (pick -= candidate.weight) <= 0) ?? inside[inside.length - 1]!;
      if (place(entry.facts, 0.25, metro.name, 1.2)) made++;
    }
  }

  // Every state of the chain has a store, then the rest drawn towards towns (weighted sampling
  // without replacement: keys random^(1/weight)), a mile apart at least.
  const candidates = list
    .filter((facts) => states.has(facts.state))
    .map((facts) => ({ facts, key: random() ** (1 / neighbours.get(facts.zip)! ** 1.3) }))
    .sort((a, b) => b.key - a.key);
  for (const state of METRO_CHAIN_STATES[chain]) {
    if (stores.some((store) => store.state === state)) continue;
    for (const { facts } of candidates) if (facts.state === state && place(facts, 1, null, 1.5)) break;
  }
  const size = METRO_NETWORK_SIZES[chain];
  for (const { facts } of candidates) {
    if (stores.length >= size) break;
    place(facts, 1, null, 1.5);
  }

  // Ids in a shuffled order (Fisher-Yates over the store order).
  const order = stores.map((_, index) => index);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  order.forEach((storeIndex, n) => (stores[storeIndex]!.id = idOf(chain, n)));

  // One store in 150 blocks its listing calls (three at least); one store closes, in a dense state.
  const blocking = stores.filter(() => random() < 1 / 150);
  for (const store of blocking.length >= 3 ? blocking : stores.slice(0, 3)) store.blocks = true;
  const closing = stores.find((store) => store.state === METRO_CLOSING_STATE[chain] && !store.blocks);
  if (closing) closing.closing = true;

  const buckets = new Map<string, MetroStore[]>();
  for (const store of stores) addTo(buckets, store);
  return { chain, stores, byId: new Map(stores.map((store) => [store.id, store])), buckets };
}

const chains = new Map<StoreId, MetroChain>();

/** The chain's metro network (built on first use, the same every time). */
export function metroChain(chain: StoreId): MetroChain {
  let network = chains.get(chain);
  if (!network) {
    network = buildChain(chain);
    chains.set(chain, network);
  }
  return network;
}

/** The closing switch: off until a test turns it on. */
export interface MetroSwitches {
  closingStoresClosed: boolean;
}

export interface MetroNear {
  store: MetroStore;
  miles: number;
}

/** The chain's open stores within `withinMiles` of a point, nearest first, at most `limit`. */
export function metroStoresNear(
  chain: StoreId,
  point: Coordinates,
  options: { limit: number; withinMiles: number; switches?: MetroSwitches },
): MetroNear[] {
  const network = metroChain(chain);
  return nearIn(network.buckets, point, options.withinMiles)
    .filter((store) => !(store.closing && options.switches?.closingStoresClosed))
    .map((store) => ({ store, miles: greatCircleMiles(point, store) }))
    .sort((a, b) => a.miles - b.miles || a.store.id.localeCompare(b.store.id))
    .slice(0, options.limit);
}

/** The open stores of a chain in some states (null: all): what a complete discovery finds. */
export function metroStoresIn(
  chain: StoreId,
  states: readonly string[] | null,
  switches?: MetroSwitches,
): MetroStore[] {
  const wanted = states ? new Set(states) : null;
  return metroChain(chain).stores.filter(
    (store) => (!wanted || wanted.has(store.state)) && !(store.closing && switches?.closingStoresClosed),
  );
}
