// The HTTP client of the official sources (BLS, USDA Market News, APHIS). Government APIs are
// asked from the server's own address, never through the retailers' egress: no proxy of
// SCRAPER_PROXY_URLS(_<RETAILER>) or SCRAPER_PROXY_TIERS_<RETAILER>, and no HTTP(S)_PROXY of the
// environment either (every request goes out on an agent of this client's own, which has no
// proxy; NO_PROXY semantics for every host). Each request is counted against the source's daily
// limit before it is sent; a 429 or 503 with Retry-After is honoured (the source is not asked
// again before it); an answer is read whole and returned with its status for the caller to keep.
import http from 'node:http';
import https from 'node:https';
import type { Sql } from '#server/db.ts';
import { takeRequest } from '#server/queries/official.ts';
import type { OfficialSource } from '#shared/official.ts';

export interface OfficialRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A JSON body (sets Content-Type). */
  json?: unknown;
  /** HTTP basic authentication (the user; the password is empty when not given). */
  basicAuth?: { user: string; password?: string };
}

export interface OfficialResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The source must not be asked before `until` (its Retry-After, or its daily limit reached). */
export class NotBefore extends Error {
  constructor(
    readonly until: Date,
    message: string,
  ) {
    super(message);
    this.name = 'NotBefore';
  }
}

/** No answer came (connection refused, reset, timed out). */
export class NoAnswer extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoAnswer';
  }
}

export interface OfficialHttpOptions {
  sql: Sql;
  source: OfficialSource;
  /** Requests a UTC day at most (counted in the database, shared by every worker). */
  dailyLimit: number;
  timeoutMs?: number;
  /** Retry-After longer than this is capped to it (a misconfigured source must not stop us for weeks). */
  maxRetryAfterMs?: number;
  now?: () => Date;
}

const USER_AGENT = 'EggWatch/0.1 (egg price tracker; official data reader)';

/** Seconds or an HTTP date, as Retry-After carries it; null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now: Date): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

const nextUtcMidnight = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

export class OfficialHttp {
  // Agents of this client's own: no proxy, whatever the environment says.
  private readonly httpAgent = new http.Agent({ keepAlive: false });
  private readonly httpsAgent = new https.Agent({ keepAlive: false });
  private readonly timeoutMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: OfficialHttpOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 24 * 3600_000;
    this.now = options.now ?? (() => new Date());
  }

  async request(request: OfficialRequest, signal?: AbortSignal): Promise<OfficialResponse> {
    const now = this.now();
    if (!(await takeRequest(this.options.sql, this.options.source, this.options.dailyLimit)))
      throw new NotBefore(
        nextUtcMidnight(now),
        `the daily limit of ${this.options.dailyLimit} requests to this source is reached`,
      );
    const response = await this.send(request, signal);
    if (response.status === 429 || response.status === 503) {
      const wait = retryAfterMs(response.headers['retry-after'], now);
      if (wait !== null)
        throw new NotBefore(
          new Date(now.getTime() + Math.min(wait, this.maxRetryAfterMs)),
          `HTTP ${response.status} with Retry-After: ${String(response.headers['retry-after'])}`,
        );
    }
    return response;
  }

  private send(request: OfficialRequest, signal?: AbortSignal): Promise<OfficialResponse> {
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    const body = request.json === undefined ? undefined : Buffer.from(JSON.stringify(request.json));
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      accept: 'application/json, text/csv;q=0.9, */*;q=0.5',
      ...request.headers,
    };
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(body.length);
    }
    if (request.basicAuth)
      headers.authorization = `Basic ${Buffer.from(`${request.basicAuth.user}:${request.basicAuth.password ?? ''}`).toString('base64')}`;
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(
        url,
        {
          method: request.method ?? 'GET',
          headers,
          agent: secure ? this.httpsAgent : this.httpAgent,
          timeout: this.timeoutMs,
          signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', (error) => reject(new NoAnswer(`${url.host}: ${error.message}`)));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (error) => reject(new NoAnswer(`${url.host}: ${error.message}`)));
      if (body) req.write(body);
      req.end();
    });
  }
}
