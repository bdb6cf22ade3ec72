// HTTP for one retailer, through got-scraping (browser-like headers and TLS). Politeness and
// faults live here so every retailer module gets the same rules:
// - one request at a time per retailer, with a delay between requests;
// - bounded retries with exponential backoff and jitter on timeouts, network errors and 5xx;
//   a 429 waits for its Retry-After (when that is too long, the ZIP fails as rate limited);
// - bot walls (PerimeterX "Robot or human?", Akamai "Access Denied", a Cloudflare challenge,
//   Imperva, 403/412/435) fail the ZIP with "blocked by {store}'s bot protection";
// - with an origin override (WALMART_ORIGIN...), every request to any of the retailer's hosts
//   goes to that origin with the real path and query, the real host in X-Forwarded-Host.
import { gotScraping } from 'got-scraping';
import type { z } from 'zod';
import { DEFAULT_SCRAPE_CONFIG, type ScrapeHttpSettings } from '#shared/scrape.ts';
import { ScrapeError, StructureError } from './types.ts';

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A JSON body (sets Content-Type). */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** Sent as one Cookie header. */
  cookies?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The URL requested (the real one, before any origin override). */
  url: string;
}

/** Sends one request; the default goes through got-scraping. Tests may pass their own. */
export type Transport = (
  request: HttpRequest & { timeoutMs: number; signal?: AbortSignal | undefined },
) => Promise<HttpResponse>;

export interface HttpOptions extends ScrapeHttpSettings {
  /** Stand-in origin (e.g. http://127.0.0.1:4599) that replaces every one of the retailer's origins. */
  originOverride?: string | undefined;
  signal?: AbortSignal | undefined;
  transport?: Transport;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Notified before each wait and retry, for the run's log. */
  onEvent?: (event: string) => void;
  /**
   * The first request waits the delay too: the client serves a job of the retailer's queue, which
   * may start the moment the previous job (on any worker) has had its last answer.
   */
  spacedFromStart?: boolean;
}

const RETRYABLE_STATUS = new Set([500, 502, 503, 504, 520, 521, 522, 523, 524, 529]);
/** 403/412 from a bot manager, 435 is Target's PerimeterX block of the whole RedSky API. */
const BLOCK_STATUS = new Set([403, 412, 435]);

/**
 * Titles that only bot walls and challenge pages carry: a page with one is a wall, however large.
 * Anchored at the start of the title, so "Access Denied: The Novel - Walmart.com" is not one.
 */
const BOT_WALL_TITLE = new RegExp(
  '<title[^>]*>\\s*(?:' +
    [
      'Robot or human\\?', // Walmart (PerimeterX), served with HTTP 200
      'Access Denied', // Akamai
      'Just a moment(?:\\.\\.\\.|…|&hellip;)', // Cloudflare challenge
      'Attention Required!\\s*(?:\\||&#124;|&vert;)\\s*Cloudflare', // Cloudflare block
      'Pardon Our Interruption', // Imperva / Incapsula
      'Request Rejected', // F5 BIG-IP application firewall ("The requested URL was rejected")
    ].join('|') +
    ')',
  'i',
);

/**
 * Texts of bot-wall and challenge pages. Several also appear on normal pages (Imperva's
 * _Incapsula_Resource script and Cloudflare's challenge-platform script run on the Albertsons and
 * Target home pages, fetched for their web keys; PerimeterX and DataDome tags run on store pages),
 * so they mark a wall only on a short page without page data (WALL_SIZE_LIMIT, PAGE_DATA).
 */
const BOT_WALL_MARKERS: RegExp[] = [
  /Robot or human\?/i,
  /px-captcha|_pxCaptcha|perimeterx/i,
  /<title>\s*Access Denied\s*<\/title>/i,
  /You don't have permission to access .* on this server/i,
  /errors\.edgesuite\.net/i,
  /<title>\s*Just a moment\.\.\.\s*<\/title>/i,
  /cf-chl-|challenge-platform|cf_chl_opt/i,
  /Attention Required! \| Cloudflare/i,
  /Pardon Our Interruption/i,
  /_Incapsula_Resource|Incapsula incident ID/i,
  /geo\.captcha-delivery\.com|datadome/i,
];
/** Wall pages are small; a page this long (characters) is a wall only by its title. */
const WALL_SIZE_LIMIT = 40_000;
/** Page data no wall carries: Next.js data, JSON-LD, app state, the key configs read from home pages. */
const PAGE_DATA =
  /__NEXT_DATA__|application\/ld\+json|__PRELOADED_STATE__|__INITIAL_STATE__|__APOLLO_STATE__|__TGT_DATA__|SWY\.CONFIGSERVICE|apimProgramSubscriptionKey|redsky\.target\.com|"itemStacks"/;
/** A captcha answer in a JSON body (Target from datacenter addresses). */
const JSON_BOT_MARKERS = /"captchaRelativeURL"|"px_captcha"|"blockScript"/;

/**
 * Whether a response is a bot wall: a blocking status (403/412/435); in a JSON body a captcha
 * answer; in a page a wall title, or any wall marker when the page is short and carries no page
 * data (a normal page that merely loads the bot manager's scripts is not a wall).
 */
export function isBotWall(status: number, body: string): boolean {
  if (BLOCK_STATUS.has(status)) return true;
  const start = body.trimStart()[0];
  if (start === '{' || start === '[') return JSON_BOT_MARKERS.test(body);
  if (BOT_WALL_TITLE.test(body)) return true;
  if (body.length >= WALL_SIZE_LIMIT || PAGE_DATA.test(body)) return false;
  return BOT_WALL_MARKERS.some((marker) => marker.test(body));
}

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

const gotTransport: Transport = async (request) => {
  const headers: Record<string, string> = { ...request.headers };
  if (request.cookies && Object.keys(request.cookies).length > 0) {
    headers.cookie = Object.entries(request.cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  }
  const response = await gotScraping({
    url: request.url,
    method: request.method ?? 'GET',
    headers,
    ...(request.json !== undefined ? { json: request.json } : {}),
    ...(request.form ? { form: request.form } : {}),
    timeout: { request: request.timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: true,
    responseType: 'text',
    ...(request.signal ? { signal: request.signal } : {}),
  });
  return { status: response.statusCode, headers: response.headers, body: String(response.body), url: request.url };
};

const NETWORK_CODES =
  /^(ETIMEDOUT|ECONNRESET|ECONNREFUSED|EPIPE|ENOTFOUND|EAI_AGAIN|ECONNABORTED|EHOSTUNREACH|ENETUNREACH|ERR_GOT_REQUEST_ERROR|ERR_STREAM_PREMATURE_CLOSE)$/;

function isNetworkError(error: unknown): error is Error & { code?: string } {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? '';
  return (
    error.name === 'TimeoutError' ||
    error.name === 'RequestError' ||
    error.name === 'ReadError' ||
    NETWORK_CODES.test(code)
  );
}

/** One retailer's HTTP: serialised, delayed, retried, and aware of bot walls. */
export class RetailerHttp {
  private queue: Promise<unknown> = Promise.resolve();
  private lastRequestAt = 0;
  private readonly options: HttpOptions;
  private readonly transport: Transport;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Requests sent (attempts included), for the run's report. */
  requests = 0;
  /** Requests sent again after a timeout, a network error or a 5xx answer. */
  retries = 0;
  /** 429 answers whose Retry-After was waited out, and the time waited (ms). */
  rateLimitWaits = 0;
  rateLimitWaitMs = 0;

  constructor(
    readonly storeName: string,
    readonly origins: readonly string[],
    options: Partial<HttpOptions> = {},
  ) {
    this.options = { ...DEFAULT_SCRAPE_CONFIG.http, ...options };
    this.transport = options.transport ?? gotTransport;
    this.sleep = options.sleep ?? abortableSleep;
    if (options.spacedFromStart) this.lastRequestAt = Date.now();
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

  private backoff(attempt: number): number {
    const random = this.options.random ?? Math.random;
    const ceiling = Math.min(this.options.backoffCapMs, this.options.backoffBaseMs * 2 ** attempt);
    // "Equal jitter": half the step fixed, half random, so retries of many clients spread out.
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  }

  private async send(request: HttpRequest): Promise<HttpResponse> {
    const { signal } = this.options;
    const { target, host } = routeUrl(request.url, this.origins, this.options.originOverride);
    const headers = { ...request.headers, ...(this.options.originOverride ? { 'x-forwarded-host': host } : {}) };
    for (let attempt = 0; ; attempt++) {
      const wait = this.lastRequestAt + this.options.delayMs - Date.now();
      if (wait > 0 && this.lastRequestAt > 0) await this.sleep(wait, signal);
      if (signal?.aborted) throw new ScrapeError('aborted', 'stopped: the worker is shutting down');
      this.requests++;
      let response: HttpResponse;
      try {
        response = await this.transport({
          ...request,
          url: target,
          headers,
          timeoutMs: this.options.timeoutMs,
          signal,
        });
      } catch (error) {
        if (signal?.aborted) throw new ScrapeError('aborted', 'stopped: the worker is shutting down');
        if (!isNetworkError(error)) throw error;
        if (attempt >= this.options.retries) {
          throw new ScrapeError(
            'http',
            `${this.storeName} did not answer (${describeNetworkError(error)}) after ${attempt + 1} attempts`,
          );
        }
        const pause = this.backoff(attempt);
        this.options.onEvent?.(`${this.storeName}: ${describeNetworkError(error)}; retrying in ${pause} ms`);
        await this.sleep(pause, signal);
        this.retries++;
        continue;
      } finally {
        this.lastRequestAt = Date.now();
      }

      const { status } = response;
      if (status === 429) {
        const retryAfter = parseRetryAfter(response.headers['retry-after']) ?? this.backoff(attempt);
        if (retryAfter > this.options.maxRetryAfterMs || attempt >= this.options.retries) {
          throw new ScrapeError(
            'rate-limited',
            `rate limited by ${this.storeName} (HTTP 429; retry after ${Math.ceil(retryAfter / 1000)} s)`,
          );
        }
        this.options.onEvent?.(`${this.storeName}: HTTP 429; waiting ${retryAfter} ms as Retry-After asks`);
        await this.sleep(retryAfter, signal);
        this.rateLimitWaits++;
        this.rateLimitWaitMs += retryAfter;
        continue;
      }
      if (isBotWall(status, response.body))
        throw new ScrapeError('blocked', `blocked by ${possessive(this.storeName)} bot protection`);
      if (RETRYABLE_STATUS.has(status)) {
        if (attempt >= this.options.retries)
          throw new ScrapeError('http', `${this.storeName} answered HTTP ${status} after ${attempt + 1} attempts`);
        const pause = this.backoff(attempt);
        this.options.onEvent?.(`${this.storeName}: HTTP ${status}; retrying in ${pause} ms`);
        await this.sleep(pause, signal);
        this.retries++;
        continue;
      }
      if (status === 401) throw new ScrapeError('http', `${this.storeName} refused the credentials (HTTP 401)`);
      if (status < 200 || status >= 300)
        throw new ScrapeError('http', `${this.storeName} answered HTTP ${status} for ${new URL(request.url).pathname}`);
      return { ...response, url: request.url };
    }
  }
}

/** "Walmart's", "Albertsons'". */
export function possessive(name: string): string {
  return name.endsWith('s') ? `${name}'` : `${name}'s`;
}

function describeNetworkError(error: Error & { code?: string }): string {
  if (error.name === 'TimeoutError' || error.code === 'ETIMEDOUT') return 'timed out';
  return error.code ?? error.message;
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
