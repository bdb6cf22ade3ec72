// One retailer's egress (docs/features/scraping.md, "Running against the real sites"): its tiers
// of proxies, the session in use, the proxies resting or refused, the daily budget and the usage
// ledger. RetailerHttp asks it for a session before each request and tells it what came back.
//
// - A session is a proxy (none at the direct tier), a cookie jar and one browser identity
//   (transports.ts), kept together until it has answered sessionMaxUses requests or meets its first
//   wall; the next session takes the tier's next proxy.
// - Walled: the session retires and its proxy rests (proxyRestMinutes); the retailer moves one tier
//   up for the cool-off (src/shared/egress.ts), or at the last tier tries another of its proxies,
//   at most MAX_WALL_ROTATIONS times a request; then the request fails as blocked.
// - A proxy that refuses (407, no connection, no answer in time) is skipped for proxyRefusedMinutes;
//   the request goes on through the next proxy, or the next tier when none is left.
// - The tier in use is shared by every worker process (egress_tiers); resting and refused proxies
//   and sessions are the process's own.
import { CookieJar } from 'tough-cookie';
import {
  escalateTier,
  FIRST_TIER,
  redact,
  settleTier,
  type EgressSettings,
  type EgressTier,
  type ProxyEndpoint,
  type RetailerEgressSettings,
  type TierState,
  type TransportName,
} from '#shared/egress.ts';
import { utcDay } from '#shared/format.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import type { Db } from '#server/db.ts';
import { addUsage, readTier, requestsToday, writeTier, type UsageRow } from '#server/queries/egress.ts';
import { newIdentity, type Identity } from './transports.ts';

/** Other proxies of the last tier a walled request tries before it fails as blocked. */
export const MAX_WALL_ROTATIONS = 2;
/** How often the usage ledger is written while requests go on (ms). */
const LEDGER_FLUSH_MS = 10_000;

export interface Session {
  id: number;
  tier: string;
  tierIndex: number;
  proxy: ProxyEndpoint | null;
  identity: Identity;
  jar: CookieJar;
  /** Requests it has answered. */
  uses: number;
}

export interface EgressRules {
  coolOffMs: number;
  sessionMaxUses: number;
  restMs: number;
  refusedMs: number;
}

export function egressRules(settings: EgressSettings): EgressRules {
  return {
    coolOffMs: settings.tierCoolOffMinutes * 60_000,
    sessionMaxUses: settings.sessionMaxUses,
    restMs: settings.proxyRestMinutes * 60_000,
    refusedMs: settings.proxyRefusedMinutes * 60_000,
  };
}

/** The request cannot leave: no tier has a usable proxy. `walled`: every one rests after a wall. */
export class NoEgressError extends Error {
  constructor(
    message: string,
    readonly tier: string,
    readonly walled: boolean,
  ) {
    super(message);
  }
}

/** A wall's outcome for the request: another route to try, or none. */
export type WallOutcome = { next: 'escalated' | 'rotated'; event: string } | { next: 'exhausted'; event: string };

interface Mark {
  until: number;
  why: string;
  wall: boolean;
}

let sessionIds = 0;

export class RetailerEgress {
  private state: TierState = FIRST_TIER;
  private current: Session | null = null;
  /** Proxies resting (walled) or refused, by `tier#index`. */
  private readonly marks = new Map<string, Mark>();
  /** The next proxy each tier's next session takes. */
  private readonly cursor = new Map<string, number>();
  private readonly pending = new Map<string, UsageRow>();
  private flushTimer: NodeJS.Timeout | null = null;
  private day = '';
  private sentToday = 0;
  readonly name: string;

  constructor(
    readonly store: StoreId,
    readonly settings: RetailerEgressSettings,
    readonly rules: EgressRules,
    private readonly sql: Db | null = null,
    private readonly now: () => number = Date.now,
    name?: string,
  ) {
    this.name = name ?? SCRAPER_NAMES[store];
  }

  get transport(): TransportName {
    return this.settings.transport;
  }

  get tiers(): EgressTier[] {
    return this.settings.tiers;
  }

  /** Every proxy this retailer may use (for redacting texts). */
  get proxies(): ProxyEndpoint[] {
    return this.settings.tiers.flatMap((t) => t.proxies);
  }

  /** The tier in use now. */
  get tier(): EgressTier {
    return this.settings.tiers[this.state.index]!;
  }

  /** Reads the shared tier and today's requests (at the start of each job). */
  async load(): Promise<void> {
    if (!this.sql) return;
    const row = await readTier(this.sql, this.store);
    // A tier state written under other settings (tiers renamed or removed) no longer applies.
    this.state =
      row && this.settings.tiers[row.index]?.name === row.tier
        ? { index: row.index, coolUntil: row.coolUntil?.getTime() ?? null }
        : FIRST_TIER;
    this.day = utcDay(this.now());
    this.sentToday = (await requestsToday(this.sql, this.store)) + this.unflushed();
  }

  /**
   * The session for the next request: the current one, or a new one at the tier in use (after a
   * cool-off has passed, one tier down) with its next usable proxy; a tier without one is left for
   * the next. Throws NoEgressError when no tier has a usable proxy, ScrapeError-free: the caller
   * words it. `onEvent` hears of a step down or a skipped tier.
   */
  async session(onEvent: (event: string) => void): Promise<Session> {
    const settled = settleTier(this.state, this.now(), this.rules.coolOffMs);
    if (settled !== this.state) {
      const from = this.tier.name;
      await this.setState(
        settled,
        `the cool-off after a wall at ${this.tiers[settled.index + 1]?.name ?? from} passed`,
      );
      this.retire();
      onEvent(`${this.name}: stepping down from the ${from} tier to ${this.tier.name} after its cool-off`);
    }
    if (this.current && this.current.tierIndex === this.state.index) return this.current;
    this.retire();
    for (;;) {
      const tier = this.tier;
      if (tier.proxies.length === 0) return (this.current = this.open(tier, null));
      const proxy = this.nextProxy(tier);
      if (proxy) return (this.current = this.open(tier, proxy));
      const reasons = this.tierMarks(tier);
      const up = escalateTier(this.state, this.tiers.length, this.now(), this.rules.coolOffMs);
      if (!up) {
        const walled = tier.proxies.every((proxy) => this.marks.get(this.key(tier, proxy))?.wall === true);
        throw new NoEgressError(
          walled
            ? `every proxy of the ${tier.name} tier rests after a wall (${reasons})`
            : `no usable proxy for ${this.name}: ${reasons}`,
          tier.name,
          walled,
        );
      }
      await this.setState(up, `no usable proxy at ${tier.name}`);
      onEvent(`${this.name}: no usable proxy at the ${tier.name} tier (${reasons}); moving to ${this.tier.name}`);
    }
  }

  /** The session's request was answered (not walled): it retires after sessionMaxUses. */
  answered(session: Session): void {
    session.uses++;
    if (session.uses >= this.rules.sessionMaxUses && this.current === session) this.current = null;
  }

  /**
   * The session was walled: it retires, its proxy rests, and the retailer escalates, or rotates
   * to another proxy of the last tier (`rotations` so far this request), or has nowhere to go.
   */
  async walled(session: Session, wall: string, rotations: number): Promise<WallOutcome> {
    if (this.current === session) this.current = null;
    const where = session.proxy ? `${session.tier} tier (${session.proxy.label})` : `${session.tier} tier`;
    if (session.proxy) this.mark(session, this.rules.restMs, `walled (${wall})`, true);
    const up = escalateTier(
      { index: session.tierIndex, coolUntil: this.state.coolUntil },
      this.tiers.length,
      this.now(),
      this.rules.coolOffMs,
    );
    if (up && up.index > this.state.index) {
      await this.setState(up, `walled by ${wall} at ${session.tier}`);
      return {
        next: 'escalated',
        event: `${this.name}: walled by ${wall} at the ${where}; moving to the ${this.tier.name} tier for ${Math.round(this.rules.coolOffMs / 60_000)} min`,
      };
    }
    if (up) return { next: 'escalated', event: `${this.name}: walled by ${wall} at the ${where}; already moved up` };
    const tier = this.tiers[session.tierIndex]!;
    if (rotations < MAX_WALL_ROTATIONS && tier.proxies.length > 1 && this.nextProxy(tier, false))
      return { next: 'rotated', event: `${this.name}: walled by ${wall} at the ${where}; trying another proxy` };
    return { next: 'exhausted', event: `${this.name}: walled by ${wall} at the ${where}; no other route` };
  }

  /** The session's proxy refused (407, no connection, no answer in time): skipped for a while. */
  refused(session: Session, why: string): void {
    if (this.current === session) this.current = null;
    if (session.proxy) this.mark(session, this.rules.refusedMs, why, false);
  }

  /** Counts one request for the ledger and the daily budget. */
  record(tier: string, outcome: 'answered' | 'wall' | 'failure'): void {
    const now = this.now();
    if (utcDay(now) !== this.day) {
      this.day = utcDay(now);
      this.sentToday = 0;
    }
    this.sentToday++;
    const hour = new Date(Math.floor(now / 3_600_000) * 3_600_000);
    const key = `${hour.toISOString()}|${tier}`;
    const row = this.pending.get(key) ?? { hour, tier, requests: 0, walls: 0, failures: 0 };
    row.requests++;
    if (outcome === 'wall') row.walls++;
    if (outcome === 'failure') row.failures++;
    this.pending.set(key, row);
    if (this.sql && !this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush().catch(() => {}), LEDGER_FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  /** The budget is spent for the UTC day: the text saying so, else null. */
  budgetSpent(): string | null {
    const budget = this.settings.dailyBudget;
    if (budget === null) return null;
    if (utcDay(this.now()) !== this.day) {
      this.day = utcDay(this.now());
      this.sentToday = 0;
    }
    if (this.sentToday < budget) return null;
    return `${this.name}'s daily request budget (${budget.toLocaleString('en-US')} requests) is spent; requests go on after midnight UTC`;
  }

  /** Writes the usage counted since the last write. */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.sql || this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending.clear();
    try {
      await addUsage(this.sql, this.store, rows);
    } catch (error) {
      // Counted again with the next write.
      for (const row of rows) {
        const key = `${row.hour.toISOString()}|${row.tier}`;
        const later = this.pending.get(key);
        this.pending.set(
          key,
          later
            ? {
                ...row,
                requests: row.requests + later.requests,
                walls: row.walls + later.walls,
                failures: row.failures + later.failures,
              }
            : row,
        );
      }
      throw error;
    }
  }

  /** A text with this retailer's proxy credentials removed. */
  redact(text: string): string {
    return redact(text, this.proxies);
  }

  /** Cookies for a request: the session's, under the request's own of the same names. */
  cookiesFor(session: Session, url: string, own: Record<string, string> | undefined): Record<string, string> {
    const cookies: Record<string, string> = {};
    for (const cookie of session.jar.getCookiesSync(url)) cookies[cookie.key] = cookie.value;
    return { ...cookies, ...own };
  }

  /** Keeps what the answer set in the session's jar. */
  keepCookies(session: Session, url: string, setCookie: string | string[] | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [])
      session.jar.setCookieSync(line, url, { ignoreError: true });
  }

  private unflushed(): number {
    let n = 0;
    for (const row of this.pending.values()) if (utcDay(row.hour.getTime()) === this.day) n += row.requests;
    return n;
  }

  private open(tier: EgressTier, proxy: ProxyEndpoint | null): Session {
    return {
      id: ++sessionIds,
      tier: tier.name,
      tierIndex: this.state.index,
      proxy,
      identity: newIdentity(),
      jar: new CookieJar(),
      uses: 0,
    };
  }

  private retire(): void {
    this.current = null;
  }

  private key(tier: EgressTier, proxy: ProxyEndpoint): string {
    return `${tier.name}#${tier.proxies.indexOf(proxy)}`;
  }

  /** The tier's next proxy neither resting nor refused (advancing the rotation unless `take` is false). */
  private nextProxy(tier: EgressTier, take = true): ProxyEndpoint | null {
    const start = this.cursor.get(tier.name) ?? 0;
    const now = this.now();
    for (let i = 0; i < tier.proxies.length; i++) {
      const at = (start + i) % tier.proxies.length;
      const proxy = tier.proxies[at]!;
      const mark = this.marks.get(this.key(tier, proxy));
      if (mark && mark.until > now) continue;
      if (take) this.cursor.set(tier.name, at + 1);
      return proxy;
    }
    return null;
  }

  private mark(session: Session, ms: number, why: string, wall: boolean): void {
    const tier = this.tiers[session.tierIndex]!;
    this.marks.set(this.key(tier, session.proxy!), { until: this.now() + ms, why, wall });
  }

  private tierMarks(tier: EgressTier): string {
    return tier.proxies
      .map((proxy) => `${proxy.label} ${this.marks.get(this.key(tier, proxy))?.why ?? 'unusable'}`)
      .join('; ');
  }

  private async setState(state: TierState, reason: string): Promise<void> {
    this.state = state;
    if (!this.sql) return;
    await writeTier(this.sql, this.store, {
      index: state.index,
      tier: this.tier.name,
      coolUntil: state.coolUntil === null ? null : new Date(state.coolUntil),
      reason: this.redact(reason),
    });
  }
}

/** One RetailerEgress per retailer for each set of worker dependencies (a worker process's tasks share them). */
const registries = new WeakMap<object, Map<StoreId, RetailerEgress>>();

export function egressFor(owner: object, store: StoreId, settings: EgressSettings, sql: Db | null): RetailerEgress {
  let registry = registries.get(owner);
  if (!registry) registries.set(owner, (registry = new Map()));
  let egress = registry.get(store);
  if (!egress)
    registry.set(store, (egress = new RetailerEgress(store, settings.retailers[store], egressRules(settings), sql)));
  return egress;
}
