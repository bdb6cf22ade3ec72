// Read-through cache for public data. Every entry belongs to the data version it was computed
// in; a NOTIFY from the database (prices changed, rollup refreshed) bumps the version in every
// web process, so a cached answer never outlives the data behind it. A TTL bounds the damage if
// a notification is ever missed, and a size cap bounds memory under arbitrary query strings.
import crypto from 'node:crypto';
import type { Sql } from './db.ts';

export const DATA_CHANNELS = ['eggwatch_prices', 'eggwatch_rollups'] as const;

interface Slot {
  version: number;
  expires: number;
  value: unknown;
}

export class DataCache {
  version = 1;
  private readonly slots = new Map<string, Slot>();
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly options: { maxEntries?: number; ttlMs?: number; enabled?: boolean } = {},
  ) {}

  get enabled(): boolean {
    return this.options.enabled ?? true;
  }

  /** Returns the cached value for key, computing it once even under concurrent requests. */
  async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.enabled) return compute();
    const slot = this.slots.get(key);
    if (slot && slot.version === this.version && slot.expires > Date.now()) {
      // Least recently used goes first: a hit moves the entry to the back of the eviction order.
      this.slots.delete(key);
      this.slots.set(key, slot);
      return slot.value as T;
    }
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight as Promise<T>;
    const version = this.version;
    const promise = compute()
      .then((value) => {
        if (version === this.version) this.set(key, value, version);
        return value;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, promise);
    return promise;
  }

  private set(key: string, value: unknown, version: number): void {
    const max = this.options.maxEntries ?? 500;
    if (this.slots.size >= max && !this.slots.has(key)) {
      const oldest = this.slots.keys().next().value;
      if (oldest !== undefined) this.slots.delete(oldest);
    }
    this.slots.set(key, { version, value, expires: Date.now() + (this.options.ttlMs ?? 300_000) });
  }

  invalidate(): void {
    this.version++;
    this.slots.clear();
  }

  /** Subscribes to the database's change notifications; returns an unsubscribe function. */
  async listen(sql: Sql): Promise<() => Promise<void>> {
    const subscriptions = await Promise.all(DATA_CHANNELS.map((channel) => sql.listen(channel, () => this.invalidate())));
    return async () => {
      await Promise.all(subscriptions.map((s) => s.unlisten()));
    };
  }
}

export function etagOf(body: Buffer | string): string {
  return `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
}
