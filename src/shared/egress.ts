// Egress: how each retailer's requests leave the machine (docs/features/scraping.md, "Running
// against the real sites"). The pure rules shared by the worker, which sends the requests, and the
// web process, which shows the configuration to administrators: reading the SCRAPER_PROXY_* and
// SCRAPER_TRANSPORT_* settings, redacting proxy credentials to host and port, and the arithmetic
// of proxy tiers (escalate when walled, step back down after a cool-off). No I/O.
import { z } from 'zod';
import { STORE_IDS, type StoreId } from './vocabulary.ts';
import { zipToRegion } from './zip.ts';

export const TRANSPORTS = ['got-scraping', 'impit'] as const;
export type TransportName = (typeof TRANSPORTS)[number];
export const DEFAULT_TRANSPORT: TransportName = 'got-scraping';

/** The tier that uses no proxy. */
export const DIRECT_TIER = 'direct';
/** The name of the one tier a retailer gets from SCRAPER_PROXY_URLS(_<RETAILER>) without tiers. */
export const PROXY_TIER = 'proxy';

export const PROXY_PROTOCOLS = ['http', 'https', 'socks5', 'socks5h'] as const;
export type ProxyProtocol = (typeof PROXY_PROTOCOLS)[number];
const DEFAULT_PORTS: Record<ProxyProtocol, number> = { http: 80, https: 443, socks5: 1080, socks5h: 1080 };

/** Walls recognised by name, from the markers their vendors document (worker/egress/walls.ts). */
export const WALL_NAMES = ['PerimeterX', 'Akamai', 'Imperva', 'Cloudflare', 'DataDome', 'F5'] as const;
export type WallName = (typeof WALL_NAMES)[number];

/** Defaults of the egress rules (each can be set in the environment; .env.example says why). */
export const EGRESS_DEFAULTS = {
  /** A tier that walls is skipped this long, then tried again one step down. */
  tierCoolOffMinutes: 30,
  /** A session (proxy, cookies, browser identity) retires after this many answered requests. */
  sessionMaxUses: 50,
  /** A proxy that was walled rests this long before it is used again. */
  proxyRestMinutes: 15,
  /** A proxy that refused (407, no connection, no answer in time) is skipped this long. */
  proxyRefusedMinutes: 5,
} as const;

/** A proxy as configured. `url` holds its credentials: only the transports ever see it. */
export interface ProxyEndpoint {
  url: string;
  protocol: ProxyProtocol;
  host: string;
  port: number;
  /** host:port, what logs, screens, run details and answers show. */
  label: string;
  username: string;
  password: string;
}

export interface EgressTier {
  name: string;
  /** Empty for the direct tier. */
  proxies: ProxyEndpoint[];
}

export interface RetailerEgressSettings {
  /** In order of escalation: the first is used until it walls. */
  tiers: EgressTier[];
  transport: TransportName;
  /** Requests a minute (one at a time, evenly spaced); null: the global delay (SCRAPE_DELAY_MS). */
  requestsPerMinute: number | null;
  /** Requests a UTC day, every kind counted (ZIP runs, discovery, visits, tests); null: no cap. */
  dailyBudget: number | null;
}

export interface EgressSettings {
  retailers: Record<StoreId, RetailerEgressSettings>;
  tierCoolOffMinutes: number;
  sessionMaxUses: number;
  proxyRestMinutes: number;
  proxyRefusedMinutes: number;
}

/** The Kroger products API allows 10,000 calls a day per application; its default cap stays under. */
export const KROGER_EGRESS_DAILY_BUDGET = 9_000;

/** WALMART, TARGET, ..., WHOLE_FOODS: the suffix of a retailer's variables. */
export function envSuffix(store: StoreId): string {
  return store.toUpperCase().replace(/-/g, '_');
}

/** The variables a retailer's egress reads, by what they set. */
export function egressVariables(store: StoreId) {
  const s = envSuffix(store);
  return {
    urls: `SCRAPER_PROXY_URLS_${s}`,
    tiers: `SCRAPER_PROXY_TIERS_${s}`,
    transport: `SCRAPER_TRANSPORT_${s}`,
    requestsPerMinute: `SCRAPER_REQUESTS_PER_MINUTE_${s}`,
    dailyBudget: `SCRAPER_DAILY_BUDGET_${s}`,
  };
}

/** Every egress variable name (env.ts declares them; .env.example documents them). */
export const EGRESS_VARIABLE_NAMES: readonly string[] = [
  'SCRAPER_PROXY_URLS',
  'SCRAPER_TIER_COOL_OFF_MINUTES',
  'SCRAPER_SESSION_MAX_USES',
  'SCRAPER_PROXY_REST_MINUTES',
  ...STORE_IDS.flatMap((store) => Object.values(egressVariables(store))),
];

/** A setting that cannot be read; its message names the variable and never echoes its value. */
export class EgressConfigError extends Error {}

/**
 * One proxy URL: http://, https://, socks5:// or socks5h:// with an optional user and password
 * (percent-encoded), a host and a port (the scheme's default when left out); no path or query.
 */
export function parseProxyUrl(raw: string, where: string): ProxyEndpoint {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new EgressConfigError(`${where} is not a URL (expected e.g. http://user:password@host:port)`);
  }
  const protocol = url.protocol.replace(/:$/, '') as ProxyProtocol;
  if (!PROXY_PROTOCOLS.includes(protocol))
    throw new EgressConfigError(`${where} must start with http://, https://, socks5:// or socks5h://`);
  if (!url.hostname) throw new EgressConfigError(`${where} has no host`);
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash)
    throw new EgressConfigError(`${where} must be a proxy's address alone, without a path or query`);
  let username: string;
  let password: string;
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw new EgressConfigError(`${where} has a user or password that is not percent-encoded correctly`);
  }
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[protocol];
  const host = url.hostname;
  return {
    url: `${protocol}://${url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : ''}${host}:${port}`,
    protocol,
    host,
    port,
    label: `${host}:${port}`,
    username,
    password,
  };
}

/** A comma-separated list of proxy URLs (empty entries are ignored). */
export function parseProxyList(raw: string, variable: string): ProxyEndpoint[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, i) => parseProxyUrl(part, `${variable} (proxy ${i + 1})`));
}

const TIER_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * A retailer's tiers: `;`-separated, in order of escalation. Each is `direct` (no proxy),
 * `<name>=<comma-separated proxy URLs>`, or a bare `<name>` that takes the retailer's proxy list
 * (SCRAPER_PROXY_URLS_<RETAILER>, else SCRAPER_PROXY_URLS).
 */
export function parseTiers(raw: string, pool: ProxyEndpoint[], variable: string): EgressTier[] {
  const tiers: EgressTier[] = [];
  const parts = raw
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new EgressConfigError(`${variable} names no tier`);
  for (const [i, part] of parts.entries()) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    const where = `${variable} (tier ${i + 1})`;
    if (!TIER_NAME.test(name))
      throw new EgressConfigError(
        `${where}: a tier name is a lower-case word such as direct, datacenter or residential`,
      );
    if (tiers.some((t) => t.name === name)) throw new EgressConfigError(`${where}: the tier ${name} is named twice`);
    if (name === DIRECT_TIER) {
      if (eq >= 0) throw new EgressConfigError(`${where}: the direct tier uses no proxy, so it takes no URLs`);
      tiers.push({ name, proxies: [] });
      continue;
    }
    const proxies = eq < 0 ? pool : parseProxyList(part.slice(eq + 1), `${where} ${name}`);
    if (proxies.length === 0)
      throw new EgressConfigError(
        `${where}: the tier ${name} has no proxy (give ${name}=<URLs>, or set the retailer's proxy list)`,
      );
    tiers.push({ name, proxies });
  }
  return tiers;
}

function positiveInt(raw: string | undefined, variable: string, max: number, min = 1): number | null {
  const value = raw?.trim();
  if (!value) return null;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new EgressConfigError(`${variable} must be a whole number from ${min} to ${max.toLocaleString('en-US')}`);
  return Number(value);
}

/**
 * Every retailer's egress from the environment's variables (src/server/env.ts hands them over).
 * Errors name each variable that cannot be read; `settings` is null when there is one.
 */
export function parseEgressSettings(vars: Readonly<Record<string, string | undefined>>): {
  settings: EgressSettings | null;
  errors: string[];
} {
  const errors: string[] = [];
  const attempt = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof EgressConfigError)) throw error;
      errors.push(error.message);
      return fallback;
    }
  };
  const shared = attempt(() => parseProxyList(vars.SCRAPER_PROXY_URLS ?? '', 'SCRAPER_PROXY_URLS'), []);
  const retailers = {} as Record<StoreId, RetailerEgressSettings>;
  for (const store of STORE_IDS) {
    const names = egressVariables(store);
    const own = vars[names.urls]?.trim();
    // "none" keeps a retailer direct although SCRAPER_PROXY_URLS names proxies for the others.
    const pool =
      own === undefined || own === ''
        ? shared
        : own.toLowerCase() === 'none'
          ? []
          : attempt(() => parseProxyList(own, names.urls), []);
    const tiersRaw = vars[names.tiers]?.trim();
    const tiers = tiersRaw
      ? attempt(() => parseTiers(tiersRaw, pool, names.tiers), [{ name: DIRECT_TIER, proxies: [] }])
      : pool.length > 0
        ? [{ name: PROXY_TIER, proxies: pool }]
        : [{ name: DIRECT_TIER, proxies: [] }];
    const transportRaw = vars[names.transport]?.trim().toLowerCase();
    let transport: TransportName = DEFAULT_TRANSPORT;
    if (transportRaw) {
      if ((TRANSPORTS as readonly string[]).includes(transportRaw)) transport = transportRaw as TransportName;
      else errors.push(`${names.transport} must be one of ${TRANSPORTS.join(', ')}`);
    }
    const requestsPerMinute = attempt(
      () => positiveInt(vars[names.requestsPerMinute], names.requestsPerMinute, 600),
      null,
    );
    const budget = attempt(() => positiveInt(vars[names.dailyBudget], names.dailyBudget, 1_000_000), null);
    retailers[store] = {
      tiers,
      transport,
      requestsPerMinute,
      dailyBudget: budget ?? (store === 'kroger' ? KROGER_EGRESS_DAILY_BUDGET : null),
    };
  }
  const minutes = (name: string, fallback: number, max: number, min = 1) =>
    attempt(() => positiveInt(vars[name], name, max, min), null) ?? fallback;
  const settings: EgressSettings = {
    retailers,
    tierCoolOffMinutes: minutes('SCRAPER_TIER_COOL_OFF_MINUTES', EGRESS_DEFAULTS.tierCoolOffMinutes, 1440),
    sessionMaxUses: minutes('SCRAPER_SESSION_MAX_USES', EGRESS_DEFAULTS.sessionMaxUses, 100_000),
    // (0 for a rotating gateway: one address that gives a new exit for every session)
    proxyRestMinutes: minutes('SCRAPER_PROXY_REST_MINUTES', EGRESS_DEFAULTS.proxyRestMinutes, 1440, 0),
    proxyRefusedMinutes: EGRESS_DEFAULTS.proxyRefusedMinutes,
  };
  return { settings: errors.length ? null : settings, errors };
}

/** Egress with no variable set: every retailer direct through got-scraping. */
export function defaultEgressSettings(): EgressSettings {
  return parseEgressSettings({}).settings!;
}

// -------------------------------------------------------------------------------------------------
// Redaction: a proxy is shown as host:port, never with its user or password.

/** The part of a URL between the scheme and the host that carries a user and password. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/**
 * A text with every URL's user and password removed, and every given proxy's user and password
 * (as written and percent-decoded) replaced, wherever they appear: what an error message, a log
 * line or an answer may say about a proxy.
 */
export function redact(text: string, proxies: readonly ProxyEndpoint[] = []): string {
  let out = text.replace(URL_USERINFO, '$1');
  const secrets = new Set<string>();
  for (const proxy of proxies) {
    for (const value of [proxy.password, proxy.username]) {
      if (value.length < 4) continue;
      secrets.add(value);
      secrets.add(encodeURIComponent(value));
    }
  }
  // Longest first, so a password that contains the user name is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('[redacted]');
  return out;
}

/** What the admin area shows of a retailer's egress: proxies by host and port only. */
export interface RedactedRetailerEgress {
  tiers: Array<{ name: string; proxies: Array<{ label: string; protocol: ProxyProtocol; authenticated: boolean }> }>;
  transport: TransportName;
  requestsPerMinute: number | null;
  dailyBudget: number | null;
}

export function redactRetailerEgress(settings: RetailerEgressSettings): RedactedRetailerEgress {
  return {
    tiers: settings.tiers.map((tier) => ({
      name: tier.name,
      proxies: tier.proxies.map((p) => ({ label: p.label, protocol: p.protocol, authenticated: p.username !== '' })),
    })),
    transport: settings.transport,
    requestsPerMinute: settings.requestsPerMinute,
    dailyBudget: settings.dailyBudget,
  };
}

/** Every proxy of every retailer (for redacting any text the worker writes). */
export function allProxies(settings: EgressSettings): ProxyEndpoint[] {
  return STORE_IDS.flatMap((store) => settings.retailers[store].tiers.flatMap((tier) => tier.proxies));
}

// -------------------------------------------------------------------------------------------------
// Tier arithmetic. A retailer uses tier `index` (0: the first); walled there, it moves one tier up
// and stays until `coolUntil`; when the cool-off has passed it steps one tier down (with a new
// cool-off, unless it is back at the first tier), so it comes back down one step at a time.

export interface TierState {
  index: number;
  /** Epoch ms until which the tier holds; null at the first tier. */
  coolUntil: number | null;
}

export const FIRST_TIER: TierState = { index: 0, coolUntil: null };

/** The tier to use now: the state itself, or one step down once its cool-off has passed. */
export function settleTier(state: TierState, now: number, coolOffMs: number): TierState {
  if (state.index === 0 || state.coolUntil === null || now < state.coolUntil) return state;
  const index = state.index - 1;
  return { index, coolUntil: index === 0 ? null : now + coolOffMs };
}

/** Walled at `state`: one tier up for the cool-off, or null when there is no higher tier. */
export function escalateTier(state: TierState, tierCount: number, now: number, coolOffMs: number): TierState | null {
  if (state.index + 1 >= tierCount) return null;
  return { index: state.index + 1, coolUntil: now + coolOffMs };
}

/** Minimum spacing between two requests (ms) for a number of requests a minute. */
export function spacingMs(requestsPerMinute: number): number {
  return Math.ceil(60_000 / requestsPerMinute);
}

// -------------------------------------------------------------------------------------------------
// Test connection: one locator call and one product-list call for a ZIP code through a retailer's
// egress, run by the worker; what the admin area and POST /api/scrapers/{store}/test show.

/** One request a test sent. */
export interface EgressTestAttempt {
  /** What the request was for: finding the store, or its first page of listings. */
  step: 'locator' | 'listings';
  host: string;
  path: string;
  tier: string;
  /** host:port of the proxy; null at the direct tier. */
  proxy: string | null;
  transport: TransportName;
  status: number | null;
  /** The wall recognised (PerimeterX, Akamai, Imperva, Cloudflare, DataDome, F5, or "an unrecognised wall"). */
  wall: string | null;
  /** Why no answer came (a proxy that refused, a timeout...); null when one did. */
  error: string | null;
  ms: number;
}

export interface EgressTestResult {
  transport: TransportName;
  attempts: EgressTestAttempt[];
  /** The store the locator found for the ZIP code, or null. */
  store: { id: string | null; name: string | null; zip: string | null } | null;
  /** Stores the locator answered (1 when a store was found). */
  stores: number;
  /** Listings on the first page, and how many of them were egg prices kept. */
  listings: number;
  eggPrices: number;
  durationMs: number;
}

export const egressTestInput = z
  .object({
    store: z.enum(STORE_IDS, { message: `store must be one of ${STORE_IDS.join(', ')}` }),
    zipCode: z
      .string({ message: 'zipCode must be a 5-digit ZIP code' })
      .trim()
      .regex(/^\d{5}$/, 'zipCode must be a 5-digit ZIP code')
      .refine((zip) => zipToRegion(zip) !== null, 'zipCode must be a ZIP code of a US state'),
  })
  .strict();
export type EgressTestInput = z.input<typeof egressTestInput>;

/** A test's outcome in a line: "Walmart answered through residential (127.0.0.1:8000) ...". */
export function testSummary(result: EgressTestResult): string {
  const last = result.attempts.at(-1);
  const walls = result.attempts.filter((a) => a.wall !== null).length;
  const route = last ? `${last.tier}${last.proxy ? ` (${last.proxy})` : ''}` : 'no route';
  const requests = `${result.attempts.length} request${result.attempts.length === 1 ? '' : 's'}`;
  return (
    `${requests} in ${(result.durationMs / 1000).toFixed(1)} s through ${route} with ${result.transport}` +
    (walls ? `; ${walls} walled` : '') +
    `; ${result.stores} store${result.stores === 1 ? '' : 's'} and ${result.listings} listing${result.listings === 1 ? '' : 's'} read (${result.eggPrices} egg price${result.eggPrices === 1 ? '' : 's'})`
  );
}
