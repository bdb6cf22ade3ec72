// The plan of a discovery sweep, pure (no I/O): which points a chain's locator is asked from so
// that few calls find every store of a scope, and when the scope is proven complete.
//
// What completes a sweep: every point of the land lies within its nearest ZIP code centre's margin
// (how far the land nearest that centre reaches, from the geodata's spacing of centres:
// worker/scrapers/discovery.ts). Every answer proves a disk around the ZIP code it was asked from,
// within which it lists every store: the radius asked when the answer holds fewer stores than the
// locator's documented limit, else its farthest store (how many of its stores were known before
// does not matter). The land to prove is the union of the centres' margin disks; each point of it
// is a centre's share when that centre is the nearest of those whose margin holds the point. A ZIP
// code centre of the scope is settled when proven disks, one or several together, hold its whole
// share (every store of its land was listed), or when it was asked itself or a ZIP code of its
// very centre was (its nearest stores were listed). The sweep is complete when every centre of the
// scope is settled.
//
// Where it asks, for a locator that takes a radius ('cells'): the scope's area is a grid of
// 2-degree cells. A cell is asked from its unsettled centre nearest its middle; when centres of the
// cell remain unsettled after the answer (a full answer proves only a small disk), the cell is
// split in four and each quarter asked again the same way, down to cells about a mile across,
// where the unsettled centres are asked one by one, nearest the middle first. So a locator that
// answers 200 stores within 100 miles settles a 2-degree cell in one call.
//
// For a locator that takes none ('far': the nearest store, or stores to a count not documented):
// the unsettled centre of the scope farthest from every store answered so far (up to the
// locator's reach), one at a time. Such an answer proves no store nearer than the ones it names,
// so an answer from far away from every known store proves a wide disk, and one from beside a
// known store proves little: the centres beside stores come last, once the land between the stores
// is proven, and many of them are settled by then.
//
// The state is plain JSON (coverage_runs.state), so a sweep resumes where its written progress
// ends after a crash.
import { allZipFacts, greatCircleMiles, zipFacts, type Coordinates } from '#server/geo.ts';
import type { CoverageScope } from '#shared/coverage.ts';
import { zipMarginMiles } from '../scrapers/discovery.ts';
import type { DiscoveryPoint, RetailerDiscovery } from '../scrapers/types.ts';

/** The widest first grid: 2-degree cells, which one answer proving 100 miles around the centre covers. */
export const INITIAL_CELL_DEGREES = 2;

/**
 * The first grid's cells for a locator: the widest (halving from INITIAL_CELL_DEGREES) whose
 * half-diagonal, at a degree of latitude's miles either way, the locator's widest radius reaches.
 */
export function initialCellDegrees(reachMiles: number): number {
  let size = INITIAL_CELL_DEGREES;
  while (size > MIN_CELL_DEGREES && (size * MILES_PER_DEGREE) / Math.SQRT2 > reachMiles) size /= 2;
  return size;
}
/** Cells are split no smaller than this (about a mile and a half across). */
export const MIN_CELL_DEGREES = 2 / 128;

/** [south latitude, west longitude, size in degrees] */
export type Cell = [number, number, number];
/** [latitude, longitude, miles]: no store but the ones answered lies within. */
export type Disk = [number, number, number];

/**
 * How a sweep picks its points: 'cells' (a grid split where answers are full), for locators that
 * take a radius; 'far' (the unsettled centre farthest from every store known), for locators that
 * take none (the nearest store, or stores to an undocumented count).
 */
export type SweepMode = 'cells' | 'far';

export interface SweepState {
  kind: 'area';
  version: 3;
  mode: SweepMode;
  /** Cells still to settle, first to last ('cells'). */
  pending: Cell[];
  /** The stores answered so far, [latitude, longitude] (a store known by its ZIP code alone at its centre) ('far'). */
  stores: Array<[number, number]>;
  /** At most how many points are left to ask: the centres not known to be settled ('far'). */
  left: number;
  disks: Disk[];
  /** ZIP codes asked so far. */
  asked: string[];
  /** Cells settled. */
  cellsProven: number;
}

/** Whether a stored sweep state is one this code resumes (an older shape starts over). */
export function isSweepState(value: unknown): value is SweepState {
  const state = value as Partial<SweepState> | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    state.kind === 'area' &&
    state.version === 3 &&
    (state.mode === 'cells' || state.mode === 'far') &&
    Array.isArray(state.pending) &&
    Array.isArray(state.stores) &&
    typeof state.left === 'number' &&
    Array.isArray(state.disks) &&
    Array.isArray(state.asked)
  );
}

// ---------------------------------------------------------------------------------------------
// ZIP code centres

interface Centre extends Coordinates {
  zip: string;
  state: string;
}

/** A centre's margin (miles): how far the land nearest it reaches. */
export const marginOf = (centre: { zip: string }): number => zipMarginMiles(centre.zip) ?? 0;

/** Every ZIP code centre of the geodata in a US state or DC. */
export function allCentres(): readonly Centre[] {
  return allZipFacts();
}

/** Centres in 0.1-degree buckets. */
class CentreIndex {
  private readonly buckets = new Map<string, Centre[]>();
  constructor(centres: readonly Centre[]) {
    for (const centre of centres) {
      const key = CentreIndex.key(Math.floor(centre.latitude * 10), Math.floor(centre.longitude * 10));
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(centre);
      else this.buckets.set(key, [centre]);
    }
  }
  static key(lat: number, lon: number) {
    return `${lat}:${lon}`;
  }
  /** Centres inside a latitude/longitude box (south and west edges in, north and east out). */
  within(south: number, west: number, north: number, east: number): Centre[] {
    const out: Centre[] = [];
    for (let i = Math.floor(south * 10); i <= Math.floor(north * 10); i++) {
      for (let j = Math.floor(west * 10); j <= Math.floor(east * 10); j++) {
        for (const centre of this.buckets.get(CentreIndex.key(i, j)) ?? []) {
          if (
            centre.latitude >= south &&
            centre.latitude < north &&
            centre.longitude >= west &&
            centre.longitude < east
          )
            out.push(centre);
        }
      }
    }
    return out;
  }
}

const MILES_PER_DEGREE = 69.05;

/** A centre's place: ZIP codes of one place (post-office boxes beside a street ZIP code) share a centre. */
const placeKey = (point: Coordinates) => `${point.latitude}:${point.longitude}`;

const centreOf = (cell: Cell): Coordinates => ({ latitude: cell[0] + cell[2] / 2, longitude: cell[1] + cell[2] / 2 });

// ---------------------------------------------------------------------------------------------
// Scope

export interface ScopeArea {
  /** Whether a store (its state, coordinates or ZIP code) is in the scope. */
  holds(store: {
    state: string | null;
    latitude: number | null;
    longitude: number | null;
    zip: string | null;
  }): boolean;
  /**
   * The ZIP code centres whose stores may stand in the scope: those of its states, or those within
   * its radius and the margin around it.
   */
  centres: readonly Centre[];
}

/** The ZIP code centres of a scope, and the test of whether a store lies in it. */
export function scopeArea(scope: CoverageScope): ScopeArea {
  const all = allCentres();
  if (scope.kind === 'nationwide') return { centres: all, holds: () => true };
  if (scope.kind === 'states') {
    const states = new Set<string>(scope.states);
    return {
      centres: all.filter((centre) => states.has(centre.state)),
      holds: (store) => store.state !== null && states.has(store.state),
    };
  }
  const origins = scope.zipCodes.flatMap((zip) => {
    const facts = zipFacts(zip);
    return facts ? [facts] : [];
  });
  const within = (point: Coordinates, miles: number) =>
    origins.some((origin) => greatCircleMiles(origin, point) <= miles);
  return {
    centres: all.filter((centre) => within(centre, scope.radiusMiles + marginOf(centre))),
    holds: (store) => {
      if (store.latitude !== null && store.longitude !== null)
        return within({ latitude: store.latitude, longitude: store.longitude }, scope.radiusMiles);
      const facts = store.zip ? zipFacts(store.zip) : null;
      return facts !== null && within(facts, scope.radiusMiles);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The sweep

/** The way a locator's sweep picks its points: by cells where it takes a radius, else farthest from known stores. */
export const sweepModeFor = (discovery: Pick<RetailerDiscovery, 'minRadiusMiles'>): SweepMode =>
  discovery.minRadiusMiles === undefined ? 'far' : 'cells';

/**
 * A new sweep of a scope: by cells, the cells of its first grid (`size` degrees) that hold a
 * centre of the scope; farthest first, every centre of the scope left to settle.
 */
export function startSweep(
  scope: CoverageScope,
  size: number = INITIAL_CELL_DEGREES,
  mode: SweepMode = 'cells',
): SweepState {
  const centres = scopeArea(scope).centres;
  if (mode === 'far')
    return {
      kind: 'area',
      version: 3,
      mode,
      pending: [],
      stores: [],
      left: centres.length,
      disks: [],
      asked: [],
      cellsProven: 0,
    };
  const cells = new Map<string, Cell>();
  for (const centre of centres) {
    const south = Math.floor(centre.latitude / size) * size;
    const west = Math.floor(centre.longitude / size) * size;
    cells.set(`${south}:${west}`, [south, west, size]);
  }
  const pending = [...cells.values()].sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return { kind: 'area', version: 3, mode, pending, stores: [], left: 0, disks: [], asked: [], cellsProven: 0 };
}

/** Whether the sweep has nothing left to ask. */
export function sweepDone(state: SweepState): boolean {
  return state.mode === 'far' ? state.left === 0 : state.pending.length === 0;
}

/**
 * Points asked so far, and an estimate of all the sweep will ask. By cells: each cell still
 * pending asks at least once, and a cell split after a full answer adds its quarters, so the
 * estimate grows until the sweep is done. Farthest first: at most every centre not yet known to
 * be settled, so the estimate falls. When the sweep is done it is the count asked.
 */
export function sweepProgress(state: SweepState): { done: number; planned: number } {
  if (state.mode === 'far') return { done: state.asked.length, planned: state.asked.length + state.left };
  return { done: state.asked.length, planned: state.asked.length + state.pending.length };
}

/** Disks in the 1-degree buckets they overlap, so a point finds the disks that may hold it in its own bucket. */
export class DiskIndex {
  private readonly buckets = new Map<string, Disk[]>();
  add(disk: Disk) {
    const [latitude, longitude, miles] = disk;
    const reach = miles + 1;
    const dLat = reach / MILES_PER_DEGREE;
    const dLon = reach / (MILES_PER_DEGREE * Math.max(0.2, Math.cos((latitude * Math.PI) / 180)));
    for (let i = Math.floor(latitude - dLat); i <= Math.floor(latitude + dLat); i++) {
      for (let j = Math.floor(longitude - dLon); j <= Math.floor(longitude + dLon); j++) {
        const bucket = this.buckets.get(`${i}:${j}`);
        if (bucket) bucket.push(disk);
        else this.buckets.set(`${i}:${j}`, [disk]);
      }
    }
  }
  /** The disks that may hold a point or meet the disk of `miles` around it (those in the buckets that disk meets). */
  near(point: Coordinates, miles = 0): readonly Disk[] {
    const dLat = miles / MILES_PER_DEGREE;
    const dLon = miles / (MILES_PER_DEGREE * Math.max(0.2, Math.cos((point.latitude * Math.PI) / 180)));
    const south = Math.floor(point.latitude - dLat);
    const north = Math.floor(point.latitude + dLat);
    const west = Math.floor(point.longitude - dLon);
    const east = Math.floor(point.longitude + dLon);
    if (south === north && west === east) return this.buckets.get(`${south}:${west}`) ?? [];
    const out = new Set<Disk>();
    for (let i = south; i <= north; i++)
      for (let j = west; j <= east; j++) for (const disk of this.buckets.get(`${i}:${j}`) ?? []) out.add(disk);
    return [...out];
  }
  /** Whether one disk holds every point given (points within a mile or two of each other). */
  holds(points: Coordinates[]): boolean {
    return this.near(points[0]!).some(([latitude, longitude, miles]) =>
      points.every((point) => greatCircleMiles({ latitude, longitude }, point) <= miles),
    );
  }
}

/** Test points across a centre's margin (its diameter, in steps) when proven disks together cover it. */
const COVER_STEPS = 16;

/**
 * Test points of the disk of a centre's margin: the centres of a grid's squares (COVER_STEPS
 * across the margin's diameter) that meet the disk. When each lies the slack (half a square's
 * diagonal) inside some proven disk, its whole square is proven, so the whole margin is,
 * whichever disks prove which part.
 */
function coverPoints(centre: Coordinates, margin: number, step: number): Coordinates[] {
  const reach = margin + step / Math.SQRT2;
  const steps = Math.ceil(reach / step);
  const cos = Math.max(0.2, Math.cos((centre.latitude * Math.PI) / 180));
  const points: Coordinates[] = [];
  for (let i = -steps; i <= steps; i++) {
    for (let j = -steps; j <= steps; j++) {
      const dy = i * step;
      const dx = j * step;
      if (Math.hypot(dx, dy) > reach) continue;
      points.push({
        latitude: centre.latitude + dy / MILES_PER_DEGREE,
        longitude: centre.longitude + dx / (MILES_PER_DEGREE * cos),
      });
    }
  }
  return points;
}

/**
 * A max-heap of [key, index]: the greatest key first, on a tie the lowest index (the scope's ZIP
 * order), so a pick is the same every run. The sweep keeps its centres farthest from the known
 * stores in one; the benchmark's reference cover its answers by gain.
 */
export class MaxHeap {
  private readonly items: Array<[number, number]> = [];
  get size() {
    return this.items.length;
  }
  private static before(a: [number, number], b: [number, number]) {
    return a[0] > b[0] || (a[0] === b[0] && a[1] < b[1]);
  }
  push(item: [number, number]) {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!MaxHeap.before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }
  pop(): [number, number] | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < items.length && MaxHeap.before(items[l]!, items[best]!)) best = l;
        if (r < items.length && MaxHeap.before(items[r]!, items[best]!)) best = r;
        if (best === i) break;
        [items[i], items[best]] = [items[best]!, items[i]!];
        i = best;
      }
    }
    return top;
  }
}

/** Known stores' points in 0.25-degree buckets, for the distance from a point to the nearest. */
class StoreIndex {
  private static readonly DEGREES = 0.25;
  private readonly buckets = new Map<string, Coordinates[]>();
  add(point: Coordinates) {
    const key = `${Math.floor(point.latitude / StoreIndex.DEGREES)}:${Math.floor(point.longitude / StoreIndex.DEGREES)}`;
    const bucket = this.buckets.get(key);
    if (bucket) bucket.push(point);
    else this.buckets.set(key, [point]);
  }
  /** Miles from a point to the nearest store known, or `cap` when none is nearer. */
  nearestMiles(point: Coordinates, cap: number): number {
    const size = StoreIndex.DEGREES;
    const la = Math.floor(point.latitude / size);
    const lo = Math.floor(point.longitude / size);
    // A bucket r rings out lies at least (r - 1) bucket widths away (a degree of longitude is the shorter).
    const ringMiles =
      size * MILES_PER_DEGREE * Math.max(0.2, Math.cos(((Math.abs(point.latitude) + size * 4) * Math.PI) / 180));
    let best = cap;
    for (let r = 0; (r - 1) * ringMiles < best; r++) {
      for (let i = la - r; i <= la + r; i++) {
        for (let j = lo - r; j <= lo + r; j++) {
          if (Math.abs(i - la) !== r && Math.abs(j - lo) !== r) continue;
          for (const store of this.buckets.get(`${i}:${j}`) ?? [])
            best = Math.min(best, greatCircleMiles(point, store));
        }
      }
    }
    return best;
  }
}

/**
 * The sweep's working copy: indexes over its JSON state (disks by place, asked ZIP codes, the
 * scope's centres), rebuilt when a job resumes it.
 */
export class Sweep {
  readonly state: SweepState;
  private readonly scope: ScopeArea;
  private readonly scopeIndex: CentreIndex;
  private readonly asked: Set<string>;
  /** The places (centres) asked: a ZIP code whose centre is one asked gets the same answer. */
  private readonly askedPlaces = new Set<string>();
  private readonly disks = new DiskIndex();
  /** Centres the disks have settled (disks only accumulate, so a settled centre stays settled). */
  private readonly proven = new Set<string>();
  /** The test points of each unsettled centre's share of the land (ownPoints), kept while it is unsettled. */
  private readonly shares = new Map<string, Coordinates[]>();
  /** How many disks reached each unsettled centre when it was last tested. */
  private readonly tested = new Map<string, number>();

  private readonly discovery: RetailerDiscovery;
  /** Whether the last answer with stores measured their distances (radiusFor). */
  private measured = true;

  /** 'far': the stores known, and the scope's centres by their distance to the nearest (keys only fall as stores are found). */
  private readonly stores = new StoreIndex();
  private readonly far = new MaxHeap();

  constructor(scope: CoverageScope, discovery: RetailerDiscovery, state?: SweepState) {
    this.discovery = discovery;
    this.state = state ?? startSweep(scope, initialCellDegrees(discovery.reachMiles), sweepModeFor(discovery));
    this.scope = scopeArea(scope);
    this.scopeIndex = new CentreIndex(this.scope.centres);
    this.asked = new Set(this.state.asked);
    for (const zip of this.state.asked) {
      const facts = zipFacts(zip);
      if (facts) this.askedPlaces.add(placeKey(facts));
    }
    for (const disk of this.state.disks) this.disks.add(disk);
    if (this.state.mode === 'far') {
      for (const [latitude, longitude] of this.state.stores) this.stores.add({ latitude, longitude });
      // Every centre starts at the widest key; a key is brought down to its true value when it is taken.
      this.scope.centres.forEach((centre, index) => {
        if (!this.asked.has(centre.zip)) this.far.push([this.discovery.reachMiles, index]);
      });
    }
  }

  get area(): ScopeArea {
    return this.scope;
  }

  /** Whether a centre of the scope is settled now (asked, or its share of the land inside proven disks). */
  isSettled(zip: string): boolean {
    const centre = this.scope.centres.find((candidate) => candidate.zip === zip);
    return centre !== undefined && this.settled(centre);
  }

  /**
   * Whether a centre is settled: asked itself, or every point of its share of the land inside a
   * proven disk (one disk holding it all, or several together). Its share (ownPoints) is the part
   * of the disk of its margin that no other centre of the scope, nearer and holding it within its
   * own margin, answers for: the margins' disks together are the land to prove, and each point of
   * it is proven with the share of its nearest centre whose margin holds it.
   */
  private settled(centre: Centre): boolean {
    if (this.asked.has(centre.zip) || this.proven.has(centre.zip) || this.askedPlaces.has(placeKey(centre)))
      return true;
    const margin = marginOf(centre);
    const overlapping = this.disks
      .near(centre, margin)
      .filter(([latitude, longitude, miles]) => greatCircleMiles({ latitude, longitude }, centre) < miles + margin);
    // Tested again only once another disk reaches it.
    if (overlapping.length === 0 || this.tested.get(centre.zip) === overlapping.length) return false;
    this.tested.set(centre.zip, overlapping.length);
    const whole = overlapping.some(
      ([latitude, longitude, miles]) => greatCircleMiles({ latitude, longitude }, centre) + margin <= miles,
    );
    const step = (2 * margin) / COVER_STEPS;
    const slack = step / Math.SQRT2;
    const together =
      whole ||
      this.ownPoints(centre, margin, step).every((point) =>
        overlapping.some(
          ([latitude, longitude, miles]) => greatCircleMiles({ latitude, longitude }, point) <= miles - slack,
        ),
      );
    if (!together) return false;
    this.proven.add(centre.zip);
    this.shares.delete(centre.zip);
    return true;
  }

  /**
   * The test points (coverPoints) of a centre's share of the land: those whose square may hold a
   * point nearer the centre than every other centre of the scope whose margin holds that point.
   * A square is left out only when another centre holds all of it within its margin and is nearer
   * than this one to every point of it (then that centre's share holds the square).
   */
  private ownPoints(centre: Centre, margin: number, step: number): Coordinates[] {
    const cached = this.shares.get(centre.zip);
    if (cached) return cached;
    const points = coverPoints(centre, margin, step);
    const half = step / Math.SQRT2;
    const reach = 2 * (margin + half);
    const cos = Math.max(0.2, Math.cos((centre.latitude * Math.PI) / 180));
    const dLat = reach / MILES_PER_DEGREE;
    const dLon = reach / (MILES_PER_DEGREE * cos);
    // Flat offsets (miles) from the centre: within a few dozen miles their distances are within
    // 1% of the great circle's, and a square is left out only with that much to spare.
    const flat = (point: Coordinates): [number, number] => [
      (point.longitude - centre.longitude) * MILES_PER_DEGREE * cos,
      (point.latitude - centre.latitude) * MILES_PER_DEGREE,
    ];
    const others = this.scopeIndex
      .within(centre.latitude - dLat, centre.longitude - dLon, centre.latitude + dLat, centre.longitude + dLon)
      .filter((other) => placeKey(other) !== placeKey(centre))
      .map((other) => ({ at: flat(other), margin: marginOf(other) }));
    const own =
      others.length === 0
        ? points
        : points.filter((point) => {
            const [x, y] = flat(point);
            const mine = Math.hypot(x, y) * 0.99 - 0.001;
            return !others.some(({ at, margin: theirs }) => {
              const miles = Math.hypot(x - at[0], y - at[1]) * 1.01 + 0.001;
              return miles + half <= theirs && miles + 2 * half < mine;
            });
          });
    this.shares.set(centre.zip, own);
    return own;
  }

  /** The cell's centres of the scope still unsettled. */
  private unsettled(cell: Cell): Centre[] {
    const [south, west, size] = cell;
    return this.scopeIndex.within(south, west, south + size, west + size).filter((centre) => !this.settled(centre));
  }

  /**
   * The radius to ask from a cell's point, for a locator that takes one. The widest, while the
   * locator's answers measure their stores' distances: a full answer then proves up to its
   * farthest store, never less than a smaller radius would have proven. Where they give only a
   * ZIP code or a city (a distance bounded, often far short of the store's), a cell split after a
   * full answer asks just enough to hold the margin of every centre of it still unsettled, so an
   * answer short of the limit settles the whole cell.
   */
  private radiusFor(cell: Cell, point: Centre): number | undefined {
    if (this.discovery.minRadiusMiles === undefined) return undefined;
    if (this.measured || cell[2] >= initialCellDegrees(this.discovery.reachMiles)) return this.discovery.reachMiles;
    let needed = this.discovery.minRadiusMiles;
    for (const centre of this.unsettled(cell))
      needed = Math.max(needed, greatCircleMiles(point, centre) + marginOf(centre));
    return Math.min(this.discovery.reachMiles, needed);
  }

  /** The unsettled centre of a cell nearest its middle, or null when the cell is settled. */
  private pointFor(cell: Cell): Centre | null {
    const middle = centreOf(cell);
    let best: Centre | null = null;
    let bestMiles = Infinity;
    for (const centre of this.unsettled(cell)) {
      const miles = greatCircleMiles(middle, centre);
      if (miles < bestMiles || (miles === bestMiles && best !== null && centre.zip < best.zip)) {
        best = centre;
        bestMiles = miles;
      }
    }
    return best;
  }

  /**
   * 'far': the unsettled centre of the scope farthest from every store known (up to the locator's
   * reach), where an answer can prove the most land: a nearest-only answer proves no store nearer
   * than the one it names, so a centre beside a known store proves little. Centres beside stores
   * come last, when the land between stores is proven.
   */
  private nextFar(): DiscoveryPoint | null {
    for (;;) {
      const top = this.far.pop();
      if (!top) {
        this.state.left = 0;
        return null;
      }
      const [key, index] = top;
      const centre = this.scope.centres[index]!;
      if (this.settled(centre)) continue;
      const miles = this.stores.nearestMiles(centre, this.discovery.reachMiles);
      if (miles < key) {
        this.far.push([miles, index]);
        continue;
      }
      // Kept at the top until answered: next() gives the same point again.
      this.far.push(top);
      this.state.left = this.far.size;
      return { zip: centre.zip, latitude: centre.latitude, longitude: centre.longitude };
    }
  }

  /** The next point to ask, settling without a call every cell whose centres are settled; null when the sweep is done. */
  next(): DiscoveryPoint | null {
    if (this.state.mode === 'far') return this.nextFar();
    const state = this.state;
    while (state.pending.length > 0) {
      const cell = state.pending[0]!;
      const point = this.pointFor(cell);
      if (point) {
        const radiusMiles = this.radiusFor(cell, point);
        return {
          zip: point.zip,
          latitude: point.latitude,
          longitude: point.longitude,
          ...(radiusMiles !== undefined ? { radiusMiles } : {}),
        };
      }
      state.pending.shift();
      state.cellsProven++;
    }
    return null;
  }

  private children(cell: Cell): Cell[] {
    const half = cell[2] / 2;
    const four: Cell[] = [
      [cell[0] + half, cell[1], half],
      [cell[0] + half, cell[1] + half, half],
      [cell[0], cell[1], half],
      [cell[0], cell[1] + half, half],
    ];
    return four.filter((child) => this.unsettled(child).length > 0);
  }

  /**
   * Records the answer of the point `next()` gave: its proof; then the cell it was asked for is
   * settled, or split in four when larger than the smallest cells (a smallest cell asks its next
   * centre).
   */
  answered(
    point: DiscoveryPoint,
    provenMiles: number,
    measured?: boolean,
    stores: ReadonlyArray<{ latitude: number | null; longitude: number | null; zip: string | null }> = [],
  ): void {
    const state = this.state;
    if (measured !== undefined) this.measured = measured;
    state.asked.push(point.zip);
    this.asked.add(point.zip);
    this.askedPlaces.add(placeKey(point));
    if (provenMiles > 0) {
      const disk: Disk = [point.latitude, point.longitude, Math.round(provenMiles * 1000) / 1000];
      state.disks.push(disk);
      this.disks.add(disk);
    }
    if (state.mode === 'far') {
      for (const store of stores) {
        const facts =
          store.latitude === null || store.longitude === null ? (store.zip ? zipFacts(store.zip) : null) : null;
        const at = facts ?? (store.latitude !== null && store.longitude !== null ? store : null);
        if (!at) continue;
        const latitude = Math.round(at.latitude! * 1e5) / 1e5;
        const longitude = Math.round(at.longitude! * 1e5) / 1e5;
        state.stores.push([latitude, longitude]);
        this.stores.add({ latitude, longitude });
      }
      return;
    }
    const cell = state.pending[0];
    if (!cell) return;
    if (this.pointFor(cell) === null) {
      state.pending.shift();
      state.cellsProven++;
    } else if (cell[2] > MIN_CELL_DEGREES) {
      state.pending.shift();
      // Later cells first in the queue's tail: the quarters of a split cell are settled together.
      state.pending.unshift(...this.children(cell));
    }
  }
}
