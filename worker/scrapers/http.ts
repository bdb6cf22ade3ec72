// HTTP for one retailer, through its egress (worker/egress/): the transport chosen for it
// (got-scraping or impit), its tiers of proxies and its sessions. Politeness and faults live here
// so every retailer module gets the same rules:
// - one request at a time per retailer, evenly spaced (its requests a minute, else the delay);
// - bounded retries with exponential backoff and jitter on timeouts, network errors and 5xx; a
//   429, and a 503 that says when, wait for their Retry-After (too long: the ZIP fails as rate
//   limited);
// - bot walls (worker/egress/walls.ts: PerimeterX, Akamai, Imperva, Cloudflare, DataDome, F5,
//   403/412/435) move the retailer up a tier or to another proxy; with no route left the ZIP fails
//   with "blocked by {store}'s bot protection (its name)";
// - a proxy that refuses (407, no connection, no answer in time) is skipped for the next one;
// - the retailer's daily budget, counted over every kind of run, stops its requests for the day;
// - with an origin override (WALMART_ORIGIN...), every request to any of the retailer's hosts
//   goes to that origin with the real path and query, the real host in X-Forwarded-Host;
// - proxy credentials never reach a message, a log line or an error (redacted to host and port).
import type { z } from 'zod';
import { defaultEgressSettings, type TransportName } from '#shared/egress.ts';
import { egressRules, NoEgressError, RetailerEgress, type Session } from '../egress/egress.ts';
import {
  TRANSPORT_CLIENTS,
  transportFailure,
  type HttpRequest,
  type HttpResponse,
  type Transport,
} from '../egress/transports.ts';
import { recognizeWall, wallText } from '../egress/walls.ts';
import { DEFAULT_SCRAPE_CONFIG, type ScrapeHttpSettings } from '#shared/scrape.ts';
import { ScrapeError, StructureError } from './types.ts';

export type { HttpRequest, HttpResponse, Transport } from '../egress/transports.ts';
export { isBotWall } from '../egress/walls.ts';

/** One request as sent, for Test connection: where it went, how, and what came back. */
export interface AttemptTrace {
  host: string;
  path: string;
  tier: string;
  /** host:port of the proxy; null at the direct tier. */
  proxy: string | null;
  transport: TransportName;
  status: number | null;
  /** The wall recognised (its vendor's name, or "an unrecognised wall"); null when none. */
  wall: string | null;
  /** Why no answer came (redacted); null when one did. */
  error: string | null;
  ms: number;
}

export interface HttpOptions extends ScrapeHttpSettings {
  /** Stand-in origin (e.g. http://127.0.0.1:4599) that replaces every one of the retailer's origins. */
  originOverride?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The client that sends requests: a name (the retailer's egress chooses by default), or a function (tests). */
  transport?: Transport | TransportName;
  /** The retailer's egress: tiers, proxies, sessions, budget, ledger. Default: direct, in memory. */
  egress?: RetailerEgress;
  /** Hears of every request as sent (Test connection). */
  onAttempt?: (attempt: AttemptTrace) => void;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock the spacing between requests is measured by (ms; Date.now by default). */
  now?: () => number;
  /** Notified before each wait and retry, for the run's log. */
  onEvent?: (event: string) => void;
  /**
   * The first request waits the delay too: the client serves a job of the retailer's queue, which
   * may start the moment the previous job (on any worker) has had its last answer.
   */
  spacedFromStart?: boolean;
}

const RETRYABLE_STATUS = new Set([500, 502, 503, 504, 520, 521, 522, 523, 524, 529]);

/** Retry-After in ms (seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The URL actually requested: the retailer's own, or the stand-in origin with the same path and query. */
export function routeUrl(
  url: string,
  origins: readonly string[],
  override: string | undefined,
): { target: string; host: string } {
  const parsed = new URL(url);
  if (!origins.includes(parsed.origin)) throw new Error(`${parsed.origin} is not one of this retailer's origins`);
  if (!override) return { target: parsed.href, host: parsed.host };
  return { target: new URL(`${parsed.pathname}${parsed.search}`, override).href, host: parsed.host };
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ScrapeError('aborted', 'stopped: the worker is shutting down'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ScrapeError('aborted', 'stopped: the worker is shutting down'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Most proxies one request skips (refused) before it gives up. */
const MAX_PROXY_HOPS = 20;

/** One retailer's HTTP: serialised, spaced, retried, routed through its egress, aware of bot walls. */
export class RetailerHttp {
  private queue: Promise<unknown> = Promise.resolve();
  private lastRequestAt = 0;
  private readonly options: HttpOptions;
  private readonly transport: Transport;
  private readonly transportName: TransportName;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  readonly egress: RetailerEgress;
  /** Requests sent (attempts included, through any proxy), for the run's report and the budgets. */
  requests = 0;
  /** Requests sent again after a timeout, a network error or a 5xx answer. */
  retries = 0;
  /** 429 answers whose Retry-After was waited out, and the time waited (ms). */
  rateLimitWaits = 0;
  rateLimitWaitMs = 0;
  /** The egress tier in use at the last request (the one it went through, or whose proxies all rest). */
  lastTier: string | null = null;

  constructor(
    readonly storeName: string,
    readonly origins: readonly string[],
    options: Partial<HttpOptions> = {},
  ) {
    this.options = { ...DEFAULT_SCRAPE_CONFIG.http, ...options };
    this.egress = options.egress ?? directEgress(storeName);
    const chosen = options.transport ?? this.egress.transport;
    this.transport = typeof chosen === 'function' ? chosen : TRANSPORT_CLIENTS[chosen];
    this.transportName = typeof chosen === 'function' ? this.egress.transport : chosen;
    this.sleep = options.sleep ?? abortableSleep;
    this.now = options.now ?? Date.now;
    if (options.spacedFromStart) this.lastRequestAt = this.now();
  }

  /** GET or POST; answers a 2xx response's text, or throws ScrapeError. */
  request(request: HttpRequest): Promise<HttpResponse> {
    // One at a time: each request starts after the previous one has finished (and its delay).
    const run = this.queue.then(() => this.send(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A JSON body, validated by the schema when given; anything else is a structure failure. */
  async json<T = unknown>(request: HttpRequest, schema?: z.ZodType<T>, what = 'JSON'): Promise<T> {
    const response = await this.request({ ...request, headers: { accept: 'application/json', ...request.headers } });
    return parseJsonBody(response.body, schema, what);
  }

  /** Writes the egress usage counted so far (a job calls it when it ends). */
  flush(): Promise<void> {
    return this.egress.flush();
  }

  private backoff(attempt: number): number {
    const random = this.options.random ?? Math.random;
    const ceiling = Math.min(this.options.backoffCapMs, this.options.backoffBaseMs * 2 ** attempt);
    // "Equal jitter": half the step fixed, half random, so retries of many clients spread out.
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  }

  private event(text: string): void {
    this.options.onEvent?.(this.egress.redact(text));
  }

  private aborted(): ScrapeError {
    return new ScrapeError('aborted', 'stopped: the worker is shutting down');
  }

  private async send(request: HttpRequest): Promise<HttpResponse> {
    const { signal } = this.options;
    const { target, host } = routeUrl(request.url, this.origins, this.options.originOverride);
    const path = new URL(request.url).pathname;
    const headers = { ...request.headers, ...(this.options.originOverride ? { 'x-forwarded-host': host } : {}) };
    let attempt = 0;
    let hops = 0;
    let rotations = 0;
    for (;;) {
      const wait = this.lastRequestAt + this.options.delayMs - this.now();
      if (wait > 0 && this.lastRequestAt > 0) await this.sleep(wait, signal);
      if (signal?.aborted) throw this.aborted();
      let session: Session;
      try {
        session = await this.egress.session((text) => this.event(text));
      } catch (error) {
        if (!(error instanceof NoEgressError)) throw error;
        this.lastTier = error.tier;
        if (error.walled)
          throw new ScrapeError(
            'blocked',
            this.egress.redact(`blocked by ${possessive(this.storeName)} bot protection: ${error.message}`),
          );
        throw new ScrapeError('http', this.egress.redact(error.message));
        throw error;
      }
      const spent = this.egress.budgetSpent();
      if (spent) throw new ScrapeError('rate-limited', spent);
      this.requests++;
      this.lastTier = session.tier;
      const trace = (status: number | null, wall: string | null, error: string | null) =>
        this.options.onAttempt?.({
          host,
          path,
          tier: session.tier,
          proxy: session.proxy?.label ?? null,
          transport: this.transportName,
          status,
          wall,
          error: error === null ? null : this.egress.redact(error),
          ms: Date.now() - started,
        });
      const via = session.proxy ? ` through ${session.proxy.label} (${session.tier})` : '';
      const started = Date.now();
      let response: HttpResponse;
      try {
        response = await this.transport({
          ...request,
          url: target,
          headers,
          cookies: this.egress.cookiesFor(session, target, request.cookies),
          timeoutMs: this.options.timeoutMs,
          signal,
          proxy: session.proxy,
          identity: session.identity,
        });
      } catch (error) {
        if (signal?.aborted) throw this.aborted();
        const failure = transportFailure(error);
        if (!failure) throw redactError(error, this.egress);
        this.egress.record(session.tier, 'failure');
        trace(null, null, failure.detail);
        if (session.proxy) {
          // The proxy refused or never answered: the next proxy (or tier) carries the request.
          this.egress.refused(session, describeFailure(failure.detail));
          if (++hops > MAX_PROXY_HOPS)
            throw new ScrapeError('http', `${this.storeName} could not be reached through any proxy`);
          this.event(
            `${this.storeName}: proxy ${session.proxy.label} (${session.tier}) ${describeFailure(failure.detail)}; trying the next`,
          );
          continue;
        }
        if (attempt >= this.options.retries) {
          throw new ScrapeError(
            'http',
            this.egress.redact(`${this.storeName} did not answer (${failure.detail}) after ${attempt + 1} attempts`),
          );
        }
        const pause = this.backoff(attempt++);
        this.event(`${this.storeName}: ${failure.detail}; retrying in ${pause} ms`);
        await this.sleep(pause, signal);
        this.retries++;
        continue;
      } finally {
        this.lastRequestAt = this.now();
      }

      const { status } = response;
      this.egress.keepCookies(session, target, response.headers['set-cookie']);
      if (status === 407 && session.proxy) {
        this.egress.record(session.tier, 'failure');
        trace(status, null, 'the proxy refused the credentials (407)');
        this.egress.refused(session, 'refused the credentials (407)');
        if (++hops > MAX_PROXY_HOPS)
          throw new ScrapeError('http', `${this.storeName} could not be reached through any proxy`);
        this.event(
          `${this.storeName}: proxy ${session.proxy.label} (${session.tier}) refused the credentials (407); trying the next`,
        );
        continue;
      }
      const wall = recognizeWall(status, response.headers, response.body);
      if (status === 429 || (status === 503 && !wall && response.headers['retry-after'] !== undefined)) {
        this.egress.record(session.tier, 'failure');
        trace(status, null, null);
        const retryAfter = parseRetryAfter(response.headers['retry-after']) ?? this.backoff(attempt);
        if (retryAfter > this.options.maxRetryAfterMs || attempt >= this.options.retries) {
          throw new ScrapeError(
            'rate-limited',
            `rate limited by ${this.storeName} (HTTP ${status}; retry after ${Math.ceil(retryAfter / 1000)} s)`,
          );
        }
        attempt++;
        this.event(`${this.storeName}: HTTP ${status}; waiting ${retryAfter} ms as Retry-After asks`);
        await this.sleep(retryAfter, signal);
        this.rateLimitWaits++;
        this.rateLimitWaitMs += retryAfter;
        continue;
      }
      if (wall) {
        this.egress.record(session.tier, 'wall');
        trace(status, wallText(wall), null);
        const outcome = await this.egress.walled(session, wallText(wall), rotations);
        this.event(outcome.event);
        if (outcome.next === 'exhausted') {
          throw new ScrapeError(
            'blocked',
            `blocked by ${possessive(this.storeName)} bot protection${wall.name ? ` (${wall.name})` : ''}${via}`,
          );
        }
        if (outcome.next === 'rotated') rotations++;
        continue;
      }
      if (RETRYABLE_STATUS.has(status)) {
        this.egress.record(session.tier, 'failure');
        trace(status, null, null);
        if (attempt >= this.options.retries)
          throw new ScrapeError('http', `${this.storeName} answered HTTP ${status} after ${attempt + 1} attempts`);
        const pause = this.backoff(attempt++);
        this.event(`${this.storeName}: HTTP ${status}; retrying in ${pause} ms`);
        await this.sleep(pause, signal);
        this.retries++;
        continue;
      }
      this.egress.record(session.tier, 'answered');
      this.egress.answered(session);
      trace(status, null, null);
      if (status === 401) throw new ScrapeError('http', `${this.storeName} refused the credentials (HTTP 401)`);
      if (status < 200 || status >= 300)
        throw new ScrapeError('http', `${this.storeName} answered HTTP ${status} for ${path}`);
      return { ...response, url: request.url };
    }
  }
}

/** A retailer's egress when none is given: direct, through got-scraping, nothing stored. */
function directEgress(storeName: string): RetailerEgress {
  const settings = defaultEgressSettings();
  // (the store id only names the database rows, and this egress writes none)
  return new RetailerEgress('walmart', settings.retailers.walmart, egressRules(settings), null, Date.now, storeName);
}

function describeFailure(detail: string): string {
  if (detail === 'timed out') return 'did not answer in time';
  if (detail === 'ECONNREFUSED') return 'refused the connection';
  return detail;
}

/** An unexpected error from a transport, with any proxy credentials removed from its text. */
function redactError(error: unknown, egress: RetailerEgress): unknown {
  if (!(error instanceof Error)) return error;
  const clean = egress.redact(error.message);
  if (clean === error.message && !(error.stack && egress.redact(error.stack) !== error.stack)) return error;
  const copy = new Error(clean);
  copy.name = error.name;
  copy.stack = error.stack ? egress.redact(error.stack) : clean;
  return copy;
}

/** "Walmart's", "Albertsons'". */
export function possessive(name: string): string {
  return name.endsWith('s') ? `${name}'` : `${name}'s`;
}

/** Parses a JSON body; invalid JSON or a schema mismatch is a structure failure naming what was expected. */
export function parseJsonBody<T = unknown>(body: string, schema?: z.ZodType<T>, what = 'JSON'): T {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new StructureError(
      `expected ${what === 'JSON' ? 'JSON' : `JSON (${what})`}, got ${body.trimStart().startsWith('<') ? 'an HTML page' : 'unreadable text'}`,
    );
  }
  return schema ? parseValue(value, schema, what) : (value as T);
}

/** Validates parsed data (a page's embedded JSON...); a mismatch is a structure failure naming what was expected. */
export function parseValue<T>(value: unknown, schema: z.ZodType<T>, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new StructureError(
      `${what}: ${issue.path.join('.') || 'body'} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`,
    );
  }
  return result.data;
}
