// The plan of a discovery sweep, pure (no I/O): which points a chain's locator is asked from so
// that the fewest calls find every store of a scope, and when the scope is proven complete.
//
// The scope's area is a grid of cells that hold (within STORE_ZIP_MARGIN_MILES) the ZIP code
// centres of the scope: stores stand near where people live, so a cell with no ZIP code centre
// near it holds no store. Each cell is asked from the ZIP code centre nearest its own centre;
// every answer proves a disk around its point empty of stores it did not list (the module says how
// wide: the radius asked when fewer stores than the limit came back, else the farthest one). A cell
// inside one proven disk is complete. A cell that is not is split in four, down to a minimum size;
// there the ZIP code centres around it are asked one by one, nearest its centre first, skipping a
// centre whose neighbourhood a proof already holds (its answer could only repeat known stores),
// until the cell is covered or no centre is left. So a locator that answers 200 stores within 100
// miles settles a 2-degree cell in one call, and a nearest-only locator asks many points where
// stores are dense and few where they are sparse.
//
// A chain with a finite id space (Whole Foods' summaries) is swept id by id instead.
//
// The state is plain JSON (coverage_runs.state), so a sweep resumes where its written progress
// ends after a crash.
import { allZipFacts, greatCircleMiles, zipFacts, type Coordinates } from '#server/geo.ts';
import type { CoverageScope } from '#shared/coverage.ts';
import { STORE_ZIP_MARGIN_MILES } from '../scrapers/discovery.ts';
import type { DiscoveryPoint, RetailerDiscovery } from '../scrapers/types.ts';

/** The first grid: 2-degree cells, which one answer proving 100 miles around the centre covers. */
export const INITIAL_CELL_DEGREES = 2;
/** Cells are split no smaller than this (about a mile and a half across). */
export const MIN_CELL_DEGREES = 2 / 128;

/** [south latitude, west longitude, size in degrees] */
export type Cell = [number, number, number];
/** [latitude, longitude, miles]: no store but the ones answered lies within. */
export type Disk = [number, number, number];

export interface AreaSweepState {
  kind: 'area';
  version: 1;
  /** Cells still to settle, first to last. */
  pending: Cell[];
  disks: Disk[];
  /** ZIP codes asked so far. */
  asked: string[];
  cellsProven: number;
  /** Minimum-size cells left without a disk over them once every ZIP code around them was asked or proven. */
  cellsExhausted: number;
}

export interface IdSweepState {
  kind: 'ids';
  version: 1;
  /** Index of the next id to ask. */
  next: number;
  total: number;
}

export type SweepState = AreaSweepState | IdSweepState;

export type SweepStep = { kind: 'point'; point: DiscoveryPoint } | { kind: 'id'; id: string };

// ---------------------------------------------------------------------------------------------
// ZIP code centres

interface Centre extends Coordinates {
  zip: string;
  state: string;
}

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
  /** Centres inside a latitude/longitude box. */
  within(south: number, west: number, north: number, east: number): Centre[] {
    const out: Centre[] = [];
    for (let i = Math.floor(south * 10); i <= Math.floor(north * 10); i++) {
      for (let j = Math.floor(west * 10); j <= Math.floor(east * 10); j++) {
        for (const centre of this.buckets.get(CentreIndex.key(i, j)) ?? []) {
          if (
            centre.latitude >= south &&
            centre.latitude <= north &&
            centre.longitude >= west &&
            centre.longitude <= east
          )
            out.push(centre);
        }
      }
    }
    return out;
  }
}

const MILES_PER_DEGREE = 69.05;

/** A cell's box widened by `miles` on every side. */
function padded(cell: Cell, miles: number): [number, number, number, number] {
  const [south, west, size] = cell;
  const dLat = miles / MILES_PER_DEGREE;
  const cos = Math.max(0.2, Math.cos(((south + size / 2) * Math.PI) / 180));
  const dLon = miles / (MILES_PER_DEGREE * cos);
  return [south - dLat, west - dLon, south + size + dLat, west + size + dLon];
}

const centreOf = (cell: Cell): Coordinates => ({ latitude: cell[0] + cell[2] / 2, longitude: cell[1] + cell[2] / 2 });

const corners = (cell: Cell): Coordinates[] => {
  const [south, west, size] = cell;
  return [
    { latitude: south, longitude: west },
    { latitude: south + size, longitude: west },
    { latitude: south, longitude: west + size },
    { latitude: south + size, longitude: west + size },
  ];
};

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
  /** The scope's ZIP code centres. */
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
  const near = (point: Coordinates) => origins.some((origin) => greatCircleMiles(origin, point) <= scope.radiusMiles);
  return {
    centres: all.filter(near),
    holds: (store) => {
      if (store.latitude !== null && store.longitude !== null)
        return near({ latitude: store.latitude, longitude: store.longitude });
      const facts = store.zip ? zipFacts(store.zip) : null;
      return facts !== null && near(facts);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The sweep

/** A new sweep of a scope for a chain's discovery. */
export function startSweep(scope: CoverageScope, discovery: RetailerDiscovery): SweepState {
  if (discovery.kind === 'ids') return { kind: 'ids', version: 1, next: 0, total: discovery.ids.length };
  const { centres } = scopeArea(scope);
  const cells = new Map<string, Cell>();
  for (const centre of centres) {
    // Every initial cell a store near this centre could stand in (the centre's cell and, near an
    // edge, its neighbours).
    const dLat = STORE_ZIP_MARGIN_MILES / MILES_PER_DEGREE;
    const dLon =
      STORE_ZIP_MARGIN_MILES / (MILES_PER_DEGREE * Math.max(0.2, Math.cos((centre.latitude * Math.PI) / 180)));
    for (const lat of [centre.latitude - dLat, centre.latitude, centre.latitude + dLat]) {
      for (const lon of [centre.longitude - dLon, centre.longitude, centre.longitude + dLon]) {
        const south = Math.floor(lat / INITIAL_CELL_DEGREES) * INITIAL_CELL_DEGREES;
        const west = Math.floor(lon / INITIAL_CELL_DEGREES) * INITIAL_CELL_DEGREES;
        cells.set(`${south}:${west}`, [south, west, INITIAL_CELL_DEGREES]);
      }
    }
  }
  const pending = [...cells.values()].sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return { kind: 'area', version: 1, pending, disks: [], asked: [], cellsProven: 0, cellsExhausted: 0 };
}

/** Whether the sweep has nothing left to ask. */
export function sweepDone(state: SweepState): boolean {
  return state.kind === 'ids' ? state.next >= state.total : state.pending.length === 0;
}

/** Points (or ids) asked so far, and a running estimate of all the sweep will ask. */
export function sweepProgress(state: SweepState): { done: number; planned: number } {
  if (state.kind === 'ids') return { done: state.next, planned: state.total };
  return { done: state.asked.length, planned: state.asked.length + state.pending.length };
}

/**
 * The sweep's working copy: indexes over its JSON state (disks by place, asked ZIP codes, the
 * scope's centres), rebuilt when a job resumes it.
 */
export class Sweep {
  readonly state: SweepState;
  private readonly scope: ScopeArea;
  private readonly scopeIndex: CentreIndex;
  private readonly allIndex: CentreIndex;
  private readonly askedSet: Set<string>;
  private readonly diskBuckets = new Map<string, Disk[]>();
  private readonly ids: readonly string[];
  /** The widest disk any answer can prove, which bounds the disk lookup. */
  private readonly reachMiles: number;

  constructor(scope: CoverageScope, discovery: RetailerDiscovery, state?: SweepState) {
    this.state = state ?? startSweep(scope, discovery);
    this.scope = scopeArea(scope);
    this.scopeIndex = new CentreIndex(this.scope.centres);
    this.allIndex = new CentreIndex(allCentres());
    this.ids = discovery.kind === 'ids' ? discovery.ids : [];
    this.reachMiles = discovery.kind === 'area' ? discovery.reachMiles : 0;
    this.askedSet = new Set(this.state.kind === 'area' ? this.state.asked : []);
    if (this.state.kind === 'area') for (const disk of this.state.disks) this.index(disk);
  }

  get area(): ScopeArea {
    return this.scope;
  }

  private index(disk: Disk) {
    const key = `${Math.floor(disk[0])}:${Math.floor(disk[1])}`;
    const bucket = this.diskBuckets.get(key);
    if (bucket) bucket.push(disk);
    else this.diskBuckets.set(key, [disk]);
  }

  /** Whether one proven disk holds every point of a box (its corners: a disk holds a small box when it holds its corners). */
  private covered(points: Coordinates[], centre: Coordinates): boolean {
    const reachDegrees = Math.ceil(this.reachMiles / 45) + 1;
    const lat = Math.floor(centre.latitude);
    const lon = Math.floor(centre.longitude);
    for (let i = -reachDegrees; i <= reachDegrees; i++) {
      for (let j = -reachDegrees * 2; j <= reachDegrees * 2; j++) {
        for (const disk of this.diskBuckets.get(`${lat + i}:${lon + j}`) ?? []) {
          const at = { latitude: disk[0], longitude: disk[1] };
          if (points.every((point) => greatCircleMiles(at, point) <= disk[2])) return true;
        }
      }
    }
    return false;
  }

  private cellCovered(cell: Cell): boolean {
    return this.covered(corners(cell), centreOf(cell));
  }

  /** Whether a store near this centre (within the margin) would stand inside a proven disk. */
  private neighbourhoodProven(centre: Coordinates): boolean {
    const box = padded([centre.latitude, centre.longitude, 0], STORE_ZIP_MARGIN_MILES);
    return this.covered(
      [
        { latitude: box[0], longitude: box[1] },
        { latitude: box[2], longitude: box[1] },
        { latitude: box[0], longitude: box[3] },
        { latitude: box[2], longitude: box[3] },
      ],
      centre,
    );
  }

  /** Whether a cell can hold a store of the scope (a scope ZIP code centre within the margin of it). */
  private inScope(cell: Cell): boolean {
    const [south, west, north, east] = padded(cell, STORE_ZIP_MARGIN_MILES);
    return this.scopeIndex.within(south, west, north, east).length > 0;
  }

  /** The ZIP code centre to ask for a cell: the one nearest its centre, not asked yet, whose neighbourhood no proof holds. */
  private pointFor(cell: Cell): Centre | null {
    const [south, west, north, east] = padded(cell, cell[2] <= MIN_CELL_DEGREES ? STORE_ZIP_MARGIN_MILES : 0);
    const middle = centreOf(cell);
    let best: Centre | null = null;
    let bestMiles = Infinity;
    for (const centre of this.allIndex.within(south, west, north, east)) {
      if (this.askedSet.has(centre.zip)) continue;
      const miles = greatCircleMiles(middle, centre);
      if (miles < bestMiles && !this.neighbourhoodProven(centre)) {
        best = centre;
        bestMiles = miles;
      }
    }
    return best;
  }

  /**
   * The next point (or id) to ask, settling without a call every cell a proof already covers;
   * null when the sweep is done.
   */
  next(): SweepStep | null {
    const state = this.state;
    if (state.kind === 'ids') return state.next < state.total ? { kind: 'id', id: this.ids[state.next]! } : null;
    while (state.pending.length > 0) {
      const cell = state.pending[0]!;
      if (this.cellCovered(cell)) {
        state.pending.shift();
        state.cellsProven++;
        continue;
      }
      const point = this.pointFor(cell);
      if (point)
        return { kind: 'point', point: { zip: point.zip, latitude: point.latitude, longitude: point.longitude } };
      state.pending.shift();
      if (cell[2] > MIN_CELL_DEGREES) {
        // Nothing left to ask inside a cell too big for its proofs: split it.
        state.pending.unshift(...this.children(cell));
      } else {
        state.cellsExhausted++;
      }
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
    return four.filter((child) => this.inScope(child));
  }

  /** Records the answer of the point `next()` gave: its proof, then the cell it was asked for settles or splits. */
  answered(point: DiscoveryPoint, provenMiles: number): void {
    const state = this.state;
    if (state.kind !== 'area') throw new Error('answered() is for area sweeps; idAnswered() for id sweeps');
    state.asked.push(point.zip);
    this.askedSet.add(point.zip);
    if (provenMiles > 0) {
      const disk: Disk = [point.latitude, point.longitude, Math.round(provenMiles * 1000) / 1000];
      state.disks.push(disk);
      this.index(disk);
    }
    const cell = state.pending[0];
    if (!cell) return;
    if (this.cellCovered(cell)) {
      state.pending.shift();
      state.cellsProven++;
    } else if (cell[2] > MIN_CELL_DEGREES) {
      state.pending.shift();
      // Later cells first in the queue's tail: the children of a split cell are settled together.
      state.pending.unshift(...this.children(cell));
    }
    // A minimum-size cell stays first: next() asks the next centre around it.
  }

  /** Records that the id `next()` gave was asked. */
  idAnswered(): void {
    if (this.state.kind !== 'ids') throw new Error('idAnswered() is for id sweeps');
    this.state.next++;
  }
}
