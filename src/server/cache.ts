// Read-through cache for public data. Every entry belongs to the data version it was computed
// in; a NOTIFY from the database (prices changed, rollup refreshed) bumps the version in every
// web process, so a cached answer never outlives the data behind it. A TTL bounds the damage if
// a notification is ever missed, and a size cap bounds memory under arbitrary query strings.
//
// While new prices arrive (a scrape run notifies once a second), the first request for a key after
// a change computes the new answer, and requests that come while it does get the previous answer
// instead of queueing behind it, for at most `serveStaleMs` after the data it came from changed.
// Without that, under load every request for a large answer (the whole price list) waited for a
// rebuild that the next notification made stale again, and its throughput collapsed while a scrape
// ran (measured in docs/decisions/006-load.md). A lone request still always waits for the new data.
import crypto from 'node:crypto';
import { utcDay } from '#shared/format.ts';
import type { Sql } from './db.ts';
import { ALL_SOURCES, SOURCE_CHANNELS, type DataSource } from './data-sources.ts';

interface Slot {
  version: number;
  expires: number;
  value: unknown;
  /** What it was computed from (data-sources.ts): a change to any of them drops it. */
  sources: readonly DataSource[];
  /** Its place in the eviction order (the cache's `used` count when it last moved to the back). */
  used: number;
}

/** By default, the previous answer is served during a rebuild for at most this long after its data changed. */
export const DEFAULT_SERVE_STALE_MS = 2000;

export class DataCache {
  version = 1;
  private readonly slots = new Map<string, Slot>();
  private readonly pending = new Map<string, Promise<unknown>>();
  /** The latest answer of each key computed before the current version, while a rebuild may want it. */
  private readonly previous = new Map<string, { version: number; value: unknown; expires: number }>();
  /** Counts moves to the back of the eviction order. */
  private used = 0;
  /** When each recent version ended (the data changed), for the staleness bound. */
  private readonly endedAt = new Map<number, number>();

  constructor(
    private readonly options: { maxEntries?: number; ttlMs?: number; enabled?: boolean; serveStaleMs?: number } = {},
  ) {}

  get enabled(): boolean {
    return this.options.enabled ?? true;
  }

  /**
   * The current value of key if one is cached, synchronously (undefined otherwise): for callers
   * that can answer a hit without preparing what a computation would need.
   */
  peek<T>(key: string): T | undefined {
    return this.fresh(key)?.value as T | undefined;
  }

  /**
   * Returns the cached value for key, computing it once even under concurrent requests. `sources`
   * says what the value is computed from (data-sources.ts); by default, everything that changes.
   */
  async get<T>(key: string, compute: () => Promise<T>, sources?: readonly DataSource[]): Promise<T> {
    if (!this.enabled) return compute();
    const slot = this.fresh(key);
    if (slot) return slot.value as T;
    const inFlight = this.pending.get(key);
    if (inFlight) {
      const stale = this.stale(key);
      return stale ? (stale.value as T) : (inFlight as Promise<T>);
    }
    const version = this.version;
    const expires = this.expiry(Date.now());
    const reads = sources ?? ALL_SOURCES;
    const promise = compute()
      .then((value) => {
        if (version === this.version) this.set(key, value, version, expires, reads);
        else this.keepPrevious(key, version, value, expires);
        return value;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, promise);
    return promise;
  }

  /** Key's slot if it holds an answer of the current data, moved to the back of the eviction order. */
  private fresh(key: string): Slot | undefined {
    if (!this.enabled) return undefined;
    const slot = this.slots.get(key);
    if (!slot || slot.version !== this.version || slot.expires <= Date.now()) return undefined;
    // Least recently used goes first: a hit moves the entry to the back of the eviction order,
    // unless it is among the most recently moved quarter already (a hot entry is not moved on
    // every hit, which cost a cached read a measurable part of its CPU under load).
    if (this.used - slot.used > (this.options.maxEntries ?? 500) / 4) {
      this.slots.delete(key);
      slot.used = ++this.used;
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** The previous answer of key if its data changed at most serveStaleMs ago. */
  private stale(key: string): { value: unknown } | null {
    const previous = this.previous.get(key);
    if (!previous) return null;
    const ended = this.endedAt.get(previous.version);
    const now = Date.now();
    if (
      ended === undefined ||
      now - ended > (this.options.serveStaleMs ?? DEFAULT_SERVE_STALE_MS) ||
      previous.expires <= now
    ) {
      this.previous.delete(key);
      return null;
    }
    return previous;
  }

  private keepPrevious(key: string, version: number, value: unknown, expires: number): void {
    if ((this.options.serveStaleMs ?? DEFAULT_SERVE_STALE_MS) <= 0) return;
    const kept = this.previous.get(key);
    if (kept && kept.version > version) return;
    this.previous.delete(key);
    if (this.previous.size >= (this.options.maxEntries ?? 500)) {
      const oldest = this.previous.keys().next().value;
      if (oldest !== undefined) this.previous.delete(oldest);
    }
    this.previous.set(key, { version, value, expires });
  }

  /**
   * When an answer computed from a moment on stops being served: after the time to live, and no
   * later than the end of that moment's UTC day (windows that end today, a price history or a
   * week's change, move at midnight even when no price does).
   */
  private expiry(startedAt: number): number {
    currentUtcDay(startedAt);
    return Math.min(startedAt + (this.options.ttlMs ?? 300_000), dayEnds);
  }

  private set(key: string, value: unknown, version: number, expires: number, sources: readonly DataSource[]): void {
    const max = this.options.maxEntries ?? 500;
    if (this.slots.size >= max && !this.slots.has(key)) {
      const oldest = this.slots.keys().next().value;
      if (oldest !== undefined) this.slots.delete(oldest);
    }
    this.slots.set(key, { version, value, expires, used: ++this.used, sources });
  }

  /**
   * A source of data changed (every source when none is named): the answers computed from it are
   * dropped (kept as previous answers for the rebuild's concurrent requests), the others stay.
   * Computations under way when it happens are not kept as current, whatever they read.
   */
  invalidate(source?: DataSource): void {
    const now = Date.now();
    for (const [key, slot] of this.slots) {
      if (source !== undefined && !slot.sources.includes(source)) continue;
      if (slot.expires > now) this.keepPrevious(key, slot.version, slot.value, slot.expires);
      this.slots.delete(key);
    }
    this.endedAt.set(this.version, now);
    // Answers past the bound serve nothing more: let them go.
    for (const key of this.previous.keys()) this.stale(key);
    for (const [version, at] of this.endedAt) if (now - at > 60_000) this.endedAt.delete(version);
    this.version++;
    for (const slot of this.slots.values()) slot.version = this.version;
  }

  /** Subscribes to the database's change notifications; returns an unsubscribe function. */
  async listen(sql: Sql): Promise<() => Promise<void>> {
    const subscriptions = await Promise.all(
      (Object.entries(SOURCE_CHANNELS) as Array<[DataSource, string]>).map(([source, channel]) =>
        sql.listen(channel, () => this.invalidate(source)),
      ),
    );
    return async () => {
      await Promise.all(subscriptions.map((s) => s.unlisten()));
    };
  }
}

let day = '';
let dayStarts = 0;
let dayEnds = 0;

/**
 * Today's UTC date, 'YYYY-MM-DD' (the day a price history's window ends), and when it ends, which
 * bounds every cached answer's life. Worked out again only when the day changes: formatting a
 * date for every cached read was a measurable part of its CPU under load.
 */
export function currentUtcDay(now = Date.now()): string {
  if (now < dayStarts || now >= dayEnds) {
    const date = new Date(now);
    day = utcDay(date);
    dayStarts = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    dayEnds = dayStarts + 86_400_000;
  }
  return day;
}

export function etagOf(body: Buffer | string): string {
  return `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
}
