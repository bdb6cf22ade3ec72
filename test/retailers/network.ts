// The stand-in store network: for each chain a fixed, deterministic set of stores placed on real
// ZIP code centroids (the `zipcodes` geodata of src/server/geo.ts) across the states the chain
// serves, in numbers near the real chains' (US_STORE_COUNTS), with Kroger and Albertsons banners.
// Every stand-in locator answers from it with its own limits (nearest only, k within a radius,
// 200 within 100 miles, an id space), so discovery has something real to find.
//
// A store is "homed" at a ZIP code: its id, name, address and place are the ones the per-ZIP
// stand-in has always derived from that ZIP, so a listing call for its id prices its home ZIP as
// before. Rules the network keeps, so every locator answers consistently:
// - every store is the strictly nearest store of its chain to its home ZIP's centre (so a
//   nearest-only locator asked from that ZIP finds it, and no store hides behind another), but
//   for pinned stores among themselves: downtown a few pinned ZIP codes lie a mile apart, and
//   there a locator asked from a pinned ZIP answers its own store first;
// - the ZIP codes the tests, journeys and demo use (PINNED_ZIPS) home a store of every chain, so
//   each of them keeps getting today's store;
// - no store of any chain lies within NO_STORE_MILES of the "no store" scenario ZIP;
// - a few stores block (their listing calls answer the retailer's bot wall), and one store per
//   chain closes when the stand-in's closing switch is on (tests flip it between two sweeps).
import { allZipFacts, greatCircleMiles, zipFacts } from '#server/geo.ts';
import { US_STORE_COUNTS } from '#shared/coverage.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { STATE_REGIONS, type UsState } from '#shared/zip.ts';
import { standInPlace } from './places.ts';
import { SCENARIO_ZIPS, hashOf, scenarioOf } from './scenarios.ts';

/** Stores per chain: the real chains' (US_STORE_COUNTS). */
export const NETWORK_SIZES: Readonly<Record<StoreId, number>> = US_STORE_COUNTS;

/** No store of any chain within this many miles of the "no store" scenario ZIP (the widest radius a locator is asked). */
export const NO_STORE_MILES = 100;

/** How far a nearest-only locator (Walmart's placement, ALDI's merchant search) looks: beyond it, it answers no store. */
export const NEAREST_REACH_MILES = 100;

/**
 * ZIP codes that tests, journeys (e2e/*.spec.ts), the demo and the stand-ins' own defaults use:
 * each homes a store of every chain, the one the per-ZIP stand-in answered there before the network.
 */
export const PINNED_ZIPS: readonly string[] = [
  '00501',
  '01001',
  '02108',
  '02760',
  '02860',
  '02917',
  '03101',
  '04101',
  '05501',
  '06241',
  '06320',
  '06390',
  '07102',
  '07601',
  '10001',
  '10036',
  '10151',
  '10160',
  '10457',
  '12345',
  '15222',
  '19103',
  '19901',
  '20001',
  '20166',
  '20500',
  '21201',
  '23505',
  '24416',
  '25301',
  '28202',
  '29201',
  '30301',
  '30303',
  '32303',
  '33101',
  '35203',
  '37203',
  '39201',
  '39901',
  '40202',
  '43215',
  '45209',
  '46204',
  '48201',
  '48226',
  '50010',
  '50226',
  '50265',
  '50309',
  '50310',
  '50311',
  '50312',
  '50316',
  '50401',
  '53202',
  '55401',
  '57501',
  '57701',
  '58001',
  '58501',
  '59001',
  '59601',
  '60510',
  '60601',
  '60611',
  '60614',
  '63101',
  '66603',
  '68508',
  '70112',
  '72201',
  '73102',
  '73301',
  '75201',
  '77001',
  '78701',
  '78703',
  '78757',
  '78758',
  '80202',
  '82001',
  '83201',
  '83702',
  '83705',
  '84014',
  '84043',
  '84101',
  '84121',
  '85001',
  '87501',
  '88510',
  '89501',
  '90210',
  '94105',
  '94110',
  '94111',
  '95814',
  '95829',
  '96813',
  '97201',
  '98101',
  '99501',
  '99950',
];

export interface Banner {
  /** As the locator spells it (Kroger `chain`, Albertsons `polarisBannerName`). */
  code: string;
  /** As shoppers know it (Albertsons `domainName`). */
  name: string;
  states: readonly UsState[];
}

export const KROGER_BANNERS: readonly Banner[] = [
  {
    code: 'KROGER',
    name: 'Kroger',
    states: ['OH', 'KY', 'IN', 'MI', 'TN', 'GA', 'VA', 'WV', 'TX', 'MS', 'AL', 'AR', 'LA', 'SC', 'IL'],
  },
  { code: 'RALPHS', name: 'Ralphs', states: ['CA'] },
  { code: 'FRED', name: 'Fred Meyer', states: ['OR', 'AK', 'ID', 'WA'] },
  { code: 'QFC', name: 'QFC', states: ['WA'] },
  { code: 'KINGSOOPERS', name: 'King Soopers', states: ['CO'] },
  { code: 'SMITHS', name: "Smith's", states: ['UT', 'NV', 'NM', 'MT', 'WY'] },
  { code: 'FRYS', name: "Fry's", states: ['AZ'] },
  { code: 'HART', name: 'Harris Teeter', states: ['NC', 'MD', 'DC', 'DE'] },
  { code: 'MARIANOS', name: "Mariano's", states: ['IL'] },
  { code: 'DILLONS', name: 'Dillons', states: ['KS'] },
  { code: 'PICKNSAVE', name: "Pick 'n Save", states: ['WI'] },
  { code: 'BAKERS', name: "Baker's", states: ['NE'] },
  { code: 'GERBES', name: 'Gerbes', states: ['MO'] },
];

export const ALBERTSONS_BANNERS: readonly Banner[] = [
  {
    code: 'albertsons',
    name: 'Albertsons',
    states: ['ID', 'MT', 'WY', 'OR', 'WA', 'NV', 'NM', 'TX', 'LA', 'CA', 'UT', 'AZ'],
  },
  {
    code: 'safeway',
    name: 'Safeway',
    states: [
      'CA',
      'OR',
      'WA',
      'CO',
      'AZ',
      'NM',
      'MD',
      'VA',
      'DC',
      'DE',
      'AK',
      'HI',
      'NV',
      'MT',
      'WY',
      'SD',
      'NE',
      'ID',
    ],
  },
  { code: 'vons', name: 'Vons', states: ['CA', 'NV'] },
  { code: 'pavilions', name: 'Pavilions', states: ['CA'] },
  { code: 'jewelosco', name: 'Jewel-Osco', states: ['IL', 'IN', 'IA'] },
  { code: 'shaws', name: "Shaw's", states: ['MA', 'NH', 'VT', 'ME', 'RI', 'CT'] },
  { code: 'starmarket', name: 'Star Market', states: ['MA'] },
  { code: 'acmemarkets', name: 'ACME Markets', states: ['PA', 'NJ', 'DE', 'NY', 'CT', 'MD'] },
  { code: 'tomthumb', name: 'Tom Thumb', states: ['TX'] },
  { code: 'randalls', name: 'Randalls', states: ['TX'] },
  { code: 'carrsqc', name: 'Carrs', states: ['AK'] },
  { code: 'haggen', name: 'Haggen', states: ['WA'] },
];

/** The banner a pinned store keeps (today's answers name no other). */
const PINNED_BANNER: Partial<Record<StoreId, Banner>> = {
  kroger: KROGER_BANNERS[0]!,
  albertsons: ALBERTSONS_BANNERS[0]!,
};

const ALL_STATES = Object.keys(STATE_REGIONS) as UsState[];
const without = (skip: string[]) => ALL_STATES.filter((state) => !skip.includes(state));
const statesOf = (banners: readonly Banner[]) => [...new Set(banners.flatMap((banner) => banner.states))];

/** The states each chain has stores in (ALDI and Whole Foods skip a few, as the real chains do). */
export const CHAIN_STATES: Record<StoreId, readonly string[]> = {
  walmart: ALL_STATES,
  target: ALL_STATES,
  kroger: statesOf(KROGER_BANNERS),
  albertsons: statesOf(ALBERTSONS_BANNERS),
  'whole-foods': without(['AK', 'ND', 'SD', 'WY', 'MT', 'WV', 'MS', 'VT']),
  aldi: without(['AK', 'HI', 'WA', 'OR', 'ID', 'MT', 'WY', 'UT', 'NV', 'NM', 'CO', 'ND', 'SD']),
};

/** The state where each chain's closing store is (small states the completeness tests sweep). */
export const CLOSING_STATE: Record<StoreId, UsState> = {
  walmart: 'RI',
  target: 'CT',
  kroger: 'WV',
  albertsons: 'DE',
  'whole-foods': 'MA',
  aldi: 'RI',
};

/** About one store in this many blocks (never a pinned one; the blocked scenario ZIP's stores always do). */
const BLOCKING_ONE_IN = 250;
const MIN_BLOCKING = 2;

/** Whole Foods store ids are 5-digit 10xxx numbers, as the real ones; pinned stores keep today's per-ZIP id. */
export const WHOLE_FOODS_ID_SPACE = { first: 10000, last: 10999 } as const;

export interface NetworkStore {
  chain: StoreId;
  /** The retailer's id of the store as its locators answer it. */
  id: string;
  /** The ZIP code the store is homed at (its address ZIP; its listings price this ZIP). */
  zip: string;
  state: UsState;
  city: string;
  latitude: number;
  longitude: number;
  banner: Banner | null;
  pinned: boolean;
  /** Its listing calls answer the retailer's bot wall. */
  blocks: boolean;
  /** Answered by no locator once the closing switch is on. */
  closing: boolean;
}

export interface NearStore {
  store: NetworkStore;
  /** Miles from the point asked. */
  miles: number;
}

export interface ChainNetwork {
  chain: StoreId;
  stores: NetworkStore[];
  byId: Map<string, NetworkStore>;
  byZip: Map<string, NetworkStore>;
}

// The ids of each chain, set by the stand-ins (which import this module) to their per-ZIP functions.
const idFunctions = new Map<StoreId, (zip: string) => string>();

/** A stand-in registers how its chain's id derives from a home ZIP (called at its module load). */
export function registerNetworkIds(chain: StoreId, idOf: (zip: string) => string): void {
  idFunctions.set(chain, idOf);
}

interface Candidate {
  zip: string;
  state: UsState;
  city: string;
  /** The ZIP code's centre. */
  centre: { latitude: number; longitude: number };
}

let candidatesCache: Candidate[] | null = null;

/** Every ZIP code of the geodata in a US state or DC, in ZIP order. */
function allCandidates(): Candidate[] {
  if (candidatesCache) return candidatesCache;
  const list: Candidate[] = allZipFacts().map((facts) => ({
    zip: facts.zip,
    state: facts.state,
    city: facts.city,
    centre: { latitude: facts.latitude, longitude: facts.longitude },
  }));
  candidatesCache = list;
  return list;
}

/** Spatial buckets of 0.1 degree for the local checks of the build. */
class Buckets<T extends { latitude: number; longitude: number }> {
  private readonly cells = new Map<string, T[]>();
  private key = (lat: number, lon: number) => `${Math.floor(lat * 10)}:${Math.floor(lon * 10)}`;
  add(item: T) {
    const key = this.key(item.latitude, item.longitude);
    const cell = this.cells.get(key);
    if (cell) cell.push(item);
    else this.cells.set(key, [item]);
  }
  /** Items within about `miles` (at least) of a point. */
  near(latitude: number, longitude: number, miles: number): T[] {
    const latCells = Math.ceil(miles / 6.9);
    const lonCells = Math.ceil(miles / Math.max(0.5, 6.9 * Math.cos((latitude * Math.PI) / 180)));
    const out: T[] = [];
    const la = Math.floor(latitude * 10);
    const lo = Math.floor(longitude * 10);
    for (let i = -latCells; i <= latCells; i++)
      for (let j = -lonCells; j <= lonCells; j++) out.push(...(this.cells.get(`${la + i}:${lo + j}`) ?? []));
    return out;
  }
}

function bannerFor(chain: StoreId, candidate: Candidate, pinned: boolean): Banner | null {
  const banners = chain === 'kroger' ? KROGER_BANNERS : chain === 'albertsons' ? ALBERTSONS_BANNERS : null;
  if (!banners) return null;
  if (pinned) return PINNED_BANNER[chain]!;
  const fitting = banners.filter((banner) => banner.states.includes(candidate.state));
  return fitting[hashOf(`${chain}:banner:${candidate.zip}`) % fitting.length] ?? null;
}

/** The local miles the build must look at around a store (its place is at most 2.9 miles + the second-store offset from its ZIP's centre). */
const LOCAL_MILES = 7;

function buildChain(chain: StoreId): ChainNetwork {
  const registered = idFunctions.get(chain);
  if (!registered) throw new Error(`the ${chain} stand-in has not registered its store ids`);
  const idOf: (zip: string) => string = registered;
  const candidates = allCandidates();
  const noStore = zipFacts(SCENARIO_ZIPS.noStore)!;
  const byZip = new Map(candidates.map((candidate) => [candidate.zip, candidate]));
  const stores: NetworkStore[] = [];
  const placed = new Buckets<NetworkStore>();
  const homes = new Buckets<{ latitude: number; longitude: number; store: NetworkStore }>();
  const centreOf = new Map<NetworkStore, { latitude: number; longitude: number }>();

  const inHole = (candidate: Candidate) => greatCircleMiles(candidate.centre, noStore) <= NO_STORE_MILES + 3;

  /** Whether a store placed for this candidate keeps every store the nearest to its own home centre. */
  function fits(candidate: Candidate, point: { latitude: number; longitude: number }): boolean {
    const own = greatCircleMiles(candidate.centre, point);
    for (const other of placed.near(candidate.centre.latitude, candidate.centre.longitude, LOCAL_MILES)) {
      if (other.zip === candidate.zip) return false;
      if (greatCircleMiles(candidate.centre, other) <= own + 0.05) return false;
    }
    for (const home of homes.near(point.latitude, point.longitude, LOCAL_MILES)) {
      const centre = centreOf.get(home.store)!;
      if (greatCircleMiles(centre, point) <= greatCircleMiles(centre, home.store) + 0.05) return false;
    }
    return true;
  }

  function add(candidate: Candidate, pinned: boolean) {
    const place = standInPlace(chain, candidate.zip, 0);
    if (place.latitude === null || place.longitude === null) return false;
    if (!pinned && !fits(candidate, { latitude: place.latitude, longitude: place.longitude })) return false;
    const store: NetworkStore = {
      chain,
      id: idOf(candidate.zip),
      zip: candidate.zip,
      state: candidate.state,
      city: place.city,
      latitude: place.latitude,
      longitude: place.longitude,
      banner: bannerFor(chain, candidate, pinned),
      pinned,
      blocks:
        scenarioOf(candidate.zip) === 'blocked' ||
        (!pinned && hashOf(`${chain}:blocks:${candidate.zip}`) % BLOCKING_ONE_IN === 0),
      closing: false,
    };
    stores.push(store);
    placed.add(store);
    homes.add({ ...candidate.centre, store });
    centreOf.set(store, candidate.centre);
    return true;
  }

  // The pinned ZIPs first: every chain, whatever its states (tests ask every retailer there).
  for (const zip of PINNED_ZIPS) {
    const candidate = byZip.get(zip);
    if (candidate && !inHole(candidate)) add(candidate, true);
  }
  // Then ZIP codes in an order fixed by a hash, where the chain has stores, until the chain's size.
  const states = new Set(CHAIN_STATES[chain]);
  const ordered = candidates
    .filter((candidate) => states.has(candidate.state) && !inHole(candidate))
    .map((candidate) => ({ candidate, rank: hashOf(`${chain}:network:${candidate.zip}`) }))
    .sort((a, b) => a.rank - b.rank || a.candidate.zip.localeCompare(b.candidate.zip));
  const size = NETWORK_SIZES[chain];
  const used = new Set(stores.map((store) => store.zip));
  // Every state the chain serves gets a store first (every state has some Walmart).
  for (const state of CHAIN_STATES[chain]) {
    if (stores.some((store) => store.state === state)) continue;
    for (const { candidate } of ordered)
      if (candidate.state === state && !used.has(candidate.zip) && add(candidate, false)) break;
  }
  for (const { candidate } of ordered) {
    if (stores.length >= size) break;
    if (!used.has(candidate.zip)) add(candidate, false);
  }
  // At least MIN_BLOCKING stores that block besides the scenario's (the smallest hashes).
  const blocking = stores.filter((store) => store.blocks && !store.pinned).length;
  if (blocking < MIN_BLOCKING) {
    const more = stores
      .filter((store) => !store.blocks && !store.pinned)
      .sort(
        (a, b) =>
          (hashOf(`${chain}:blocks:${a.zip}`) % BLOCKING_ONE_IN) -
            (hashOf(`${chain}:blocks:${b.zip}`) % BLOCKING_ONE_IN) || a.zip.localeCompare(b.zip),
      );
    for (const store of more.slice(0, MIN_BLOCKING - blocking)) store.blocks = true;
  }
  // One store that closes, in the chain's closing state.
  const closing = stores.find((store) => !store.pinned && !store.blocks && store.state === CLOSING_STATE[chain]);
  if (closing) closing.closing = true;
  // Whole Foods: 10xxx ids for the stores that are not pinned, spread over the id space by a hash.
  if (chain === 'whole-foods') {
    const taken = new Set<number>();
    const span = WHOLE_FOODS_ID_SPACE.last - WHOLE_FOODS_ID_SPACE.first + 1;
    for (const store of stores) {
      if (store.pinned) continue;
      let id = hashOf(`whole-foods:id:${store.zip}`) % span;
      while (taken.has(id)) id = (id + 1) % span;
      taken.add(id);
      store.id = String(WHOLE_FOODS_ID_SPACE.first + id);
    }
  }
  return {
    chain,
    stores,
    byId: new Map(stores.map((store) => [store.id, store])),
    byZip: new Map(stores.map((store) => [store.zip, store])),
  };
}

const networks = new Map<StoreId, ChainNetwork>();

/** The chain's network (built on first use, the same every time). */
export function chainNetwork(chain: StoreId): ChainNetwork {
  let network = networks.get(chain);
  if (!network) {
    network = buildChain(chain);
    networks.set(chain, network);
  }
  return network;
}

/** The closing switch of a stand-in's state (off unless a test or the demo turned it on). */
export interface NetworkSwitches {
  closingStoresClosed?(): boolean;
}

/** Whether a store is open for the locators under the state's switches. */
export function isOpen(store: NetworkStore, state?: NetworkSwitches): boolean {
  return !(store.closing && state?.closingStoresClosed?.() === true);
}

/**
 * The chain's open stores within `withinMiles` of a ZIP code's centre, nearest first, at most
 * `limit`, optionally of one banner. Null when the geodata does not know the ZIP (the stand-in
 * then answers its per-ZIP store as before the network).
 */
export function storesNear(
  chain: StoreId,
  zip: string,
  options: { limit: number; withinMiles: number; banner?: string | null; state?: NetworkSwitches },
): NearStore[] | null {
  const facts = zipFacts(zip);
  if (!facts) return null;
  if (scenarioOf(zip) === 'noStore') return [];
  const banner = options.banner?.trim().toLowerCase() || null;
  const found: NearStore[] = [];
  const latSpan = options.withinMiles / 69;
  for (const store of chainNetwork(chain).stores) {
    if (Math.abs(store.latitude - facts.latitude) > latSpan) continue;
    if (banner && store.banner?.code.toLowerCase() !== banner && store.banner?.name.toLowerCase() !== banner) continue;
    if (!isOpen(store, options.state)) continue;
    const miles = greatCircleMiles(facts, store);
    if (miles <= options.withinMiles) found.push({ store, miles });
  }
  // Nearest first; a pinned store answers first at its own ZIP code (a few pinned ZIP codes lie a
  // mile apart downtown, and each must keep answering its own store).
  const rank = (near: NearStore) => (near.store.pinned && near.store.zip === facts.zip ? 0 : 1);
  found.sort((a, b) => rank(a) - rank(b) || a.miles - b.miles || a.store.id.localeCompare(b.store.id));
  return found.slice(0, options.limit);
}

/** The network store a listing call's id names, if any. */
export function networkStoreById(chain: StoreId, id: string): NetworkStore | null {
  return chainNetwork(chain).byId.get(id) ?? null;
}

/**
 * Whether a listing call for the store homed at this ZIP answers the retailer's bot wall: the
 * blocked scenario ZIP, or a network store that blocks.
 */
export function blocksAt(chain: StoreId, zip: string): boolean {
  if (scenarioOf(zip) === 'blocked') return true;
  return chainNetwork(chain).byZip.get(zip)?.blocks === true;
}

/** The open stores of a chain in some states (what a complete discovery of those states must find). */
export function networkStoresIn(
  chain: StoreId,
  states: readonly string[] | null,
  state?: NetworkSwitches,
): NetworkStore[] {
  const wanted = states ? new Set(states) : null;
  return chainNetwork(chain).stores.filter((store) => (!wanted || wanted.has(store.state)) && isOpen(store, state));
}

/** Each chain's closing store, for the demo's log ("Walmart #12345 in Westerly, RI"...). */
export function closingStoresText(): string {
  const chains: StoreId[] = ['walmart', 'target', 'kroger', 'albertsons', 'whole-foods', 'aldi'];
  return chains
    .map((chain) => {
      const store = chainNetwork(chain).stores.find((entry) => entry.closing);
      return store ? `${chain} ${store.id} in ${store.city}, ${store.state}` : null;
    })
    .filter((text) => text !== null)
    .join('; ');
}

/** Miles between a ZIP code's centre and a store (for answers that carry a distance). */
export function milesFromZip(zip: string, store: { latitude: number; longitude: number }): number | null {
  const facts = zipFacts(zip);
  return facts ? greatCircleMiles(facts, store) : null;
}
