// The plan of a discovery sweep, pure (no I/O): which points a chain's locator is asked from so
// that few calls find every store of a scope, and when the scope is proven complete.
//
// What completes a sweep: every point of the land lies within its nearest ZIP code centre's margin
// (how far the land nearest that centre reaches, from the geodata's spacing of centres:
// worker/scrapers/discovery.ts). Every answer proves a disk around the ZIP code it was asked from,
// within which it lists every store: the radius asked when the answer holds fewer stores than the
// locator's documented limit, else its farthest store (how many of its stores were known before
// does not matter). A ZIP code centre of the scope is settled when proven disks, one or several
// together, hold every point within its margin (every store of its land was listed), or when it
// was asked itself or a ZIP code of its very centre was (its nearest stores were listed). The sweep is complete when every centre of
// the scope is settled.
//
// Where it asks: the scope's area is a grid of 2-degree cells. A cell is asked from its unsettled
// centre nearest its middle; when centres of the cell remain unsettled after the answer (a full
// answer proves only a small disk), the cell is split in four and each quarter asked again the
// same way, down to cells about a mile across, where the unsettled centres are asked one by one,
// nearest the middle first. So a locator that answers 200 stores within 100 miles settles a
// 2-degree cell in one call, and a nearest-only locator asks many points where stores are dense
// and few where they are sparse.
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

export interface SweepState {
  kind: 'area';
  version: 2;
  /** Cells still to settle, first to last. */
  pending: Cell[];
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
    state.version === 2 &&
    Array.isArray(state.pending) &&
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

/** A new sweep of a scope: the cells of its first grid (`size` degrees) that hold a centre of the scope. */
export function startSweep(scope: CoverageScope, size: number = INITIAL_CELL_DEGREES): SweepState {
  const cells = new Map<string, Cell>();
  for (const centre of scopeArea(scope).centres) {
    const south = Math.floor(centre.latitude / size) * size;
    const west = Math.floor(centre.longitude / size) * size;
    cells.set(`${south}:${west}`, [south, west, size]);
  }
  const pending = [...cells.values()].sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  return { kind: 'area', version: 2, pending, disks: [], asked: [], cellsProven: 0 };
}

/** Whether the sweep has nothing left to ask. */
export function sweepDone(state: SweepState): boolean {
  return state.pending.length === 0;
}

/**
 * Points asked so far, and an estimate of all the sweep will ask: each cell still pending asks at
 * least once, and a cell split after a full answer adds its quarters, so the estimate grows until
 * the sweep is done (then it is the count asked).
 */
export function sweepProgress(state: SweepState): { done: number; planned: number } {
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
  /** How many disks reached each unsettled centre when it was last tested. */
  private readonly tested = new Map<string, number>();

  private readonly discovery: RetailerDiscovery;
  /** Whether the last answer with stores measured their distances (radiusFor). */
  private measured = true;

  constructor(scope: CoverageScope, discovery: RetailerDiscovery, state?: SweepState) {
    this.discovery = discovery;
    this.state = state ?? startSweep(scope, initialCellDegrees(discovery.reachMiles));
    this.scope = scopeArea(scope);
    this.scopeIndex = new CentreIndex(this.scope.centres);
    this.asked = new Set(this.state.asked);
    for (const zip of this.state.asked) {
      const facts = zipFacts(zip);
      if (facts) this.askedPlaces.add(placeKey(facts));
    }
    for (const disk of this.state.disks) this.disks.add(disk);
  }

  get area(): ScopeArea {
    return this.scope;
  }

  /**
   * Whether a centre is settled: asked itself, or every point within the margin of it inside a
   * proven disk (one disk holding it all, or several together).
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
      coverPoints(centre, margin, step).every((point) =>
        overlapping.some(
          ([latitude, longitude, miles]) => greatCircleMiles({ latitude, longitude }, point) <= miles - slack,
        ),
      );
    if (!together) return false;
    this.proven.add(centre.zip);
    return true;
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

  /** The next point to ask, settling without a call every cell whose centres are settled; null when the sweep is done. */
  next(): DiscoveryPoint | null {
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
  answered(point: DiscoveryPoint, provenMiles: number, measured?: boolean): void {
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
