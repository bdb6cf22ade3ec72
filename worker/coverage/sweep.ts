// The plan of a discovery sweep, pure (no I/O): which points a chain's locator is asked from so
// that few calls find every store of a scope, and when the scope is proven complete.
//
// What completes a sweep: stores stand near where people live, within STORE_ZIP_MARGIN_MILES of a
// ZIP code centre (worker/scrapers/discovery.ts). Every answer proves a disk around the ZIP code it
// was asked from, within which it lists every store: the radius asked when the answer is not
// full, else its farthest store (how many of its stores were known before does not matter). A ZIP
// code centre of the scope is settled when proven disks, one or several together, hold every point
// within the margin around it (every store near it was listed), or when it was asked itself (its
// nearest stores were listed). The sweep is complete when every centre of the scope is settled.
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
    centres: all.filter((centre) => within(centre, scope.radiusMiles + STORE_ZIP_MARGIN_MILES)),
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

/** A new sweep of a scope: its 2-degree cells that hold a centre of the scope. */
export function startSweep(scope: CoverageScope): SweepState {
  const cells = new Map<string, Cell>();
  for (const centre of scopeArea(scope).centres) {
    const south = Math.floor(centre.latitude / INITIAL_CELL_DEGREES) * INITIAL_CELL_DEGREES;
    const west = Math.floor(centre.longitude / INITIAL_CELL_DEGREES) * INITIAL_CELL_DEGREES;
    cells.set(`${south}:${west}`, [south, west, INITIAL_CELL_DEGREES]);
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
    // Widened by the margin: a centre's bucket then holds every disk that meets its margin.
    const reach = miles + STORE_ZIP_MARGIN_MILES + 1;
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
  /** The disks that may hold a point or meet the margin around it (those whose widened box overlaps its 1-degree bucket). */
  near(point: Coordinates): readonly Disk[] {
    return this.buckets.get(`${Math.floor(point.latitude)}:${Math.floor(point.longitude)}`) ?? [];
  }
  /** Whether one disk holds every point given (points within a mile or two of each other). */
  holds(points: Coordinates[]): boolean {
    return this.near(points[0]!).some(([latitude, longitude, miles]) =>
      points.every((point) => greatCircleMiles({ latitude, longitude }, point) <= miles),
    );
  }
}

/** Spacing of the points that test whether proven disks together cover a centre's margin (miles). */
const COVER_STEP_MILES = 0.4;
/** Every point of the margin lies within this of a test point. */
const COVER_SLACK_MILES = COVER_STEP_MILES / Math.SQRT2;

/**
 * Test points of the disk STORE_ZIP_MARGIN_MILES around a centre: the centres of a grid's squares
 * that meet the disk. When each lies COVER_SLACK_MILES inside some proven disk, its whole square is
 * proven, so the whole margin is, whichever disks prove which part.
 */
function coverPoints(centre: Coordinates): Coordinates[] {
  const reach = STORE_ZIP_MARGIN_MILES + COVER_SLACK_MILES;
  const steps = Math.ceil(reach / COVER_STEP_MILES);
  const cos = Math.max(0.2, Math.cos((centre.latitude * Math.PI) / 180));
  const points: Coordinates[] = [];
  for (let i = -steps; i <= steps; i++) {
    for (let j = -steps; j <= steps; j++) {
      const dy = i * COVER_STEP_MILES;
      const dx = j * COVER_STEP_MILES;
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
  private readonly disks = new DiskIndex();
  /** Centres the disks have settled (disks only accumulate, so a settled centre stays settled). */
  private readonly proven = new Set<string>();
  /** How many disks reached each unsettled centre when it was last tested. */
  private readonly tested = new Map<string, number>();

  constructor(scope: CoverageScope, _discovery: RetailerDiscovery, state?: SweepState) {
    this.state = state ?? startSweep(scope);
    this.scope = scopeArea(scope);
    this.scopeIndex = new CentreIndex(this.scope.centres);
    this.asked = new Set(this.state.asked);
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
    if (this.asked.has(centre.zip) || this.proven.has(centre.zip)) return true;
    const overlapping = this.disks
      .near(centre)
      .filter(
        ([latitude, longitude, miles]) =>
          greatCircleMiles({ latitude, longitude }, centre) < miles + STORE_ZIP_MARGIN_MILES,
      );
    // Tested again only once another disk reaches it.
    if (overlapping.length === 0 || this.tested.get(centre.zip) === overlapping.length) return false;
    this.tested.set(centre.zip, overlapping.length);
    const whole = overlapping.some(
      ([latitude, longitude, miles]) =>
        greatCircleMiles({ latitude, longitude }, centre) + STORE_ZIP_MARGIN_MILES <= miles,
    );
    const together =
      whole ||
      coverPoints(centre).every((point) =>
        overlapping.some(
          ([latitude, longitude, miles]) =>
            greatCircleMiles({ latitude, longitude }, point) <= miles - COVER_SLACK_MILES,
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
      const point = this.pointFor(state.pending[0]!);
      if (point) return { zip: point.zip, latitude: point.latitude, longitude: point.longitude };
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
  answered(point: DiscoveryPoint, provenMiles: number): void {
    const state = this.state;
    state.asked.push(point.zip);
    this.asked.add(point.zip);
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
