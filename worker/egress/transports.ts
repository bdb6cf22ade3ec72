// The two HTTP clients a retailer's requests can go through (docs/decisions/013-egress-transports.md):
// got-scraping (the stack's default: generated browser headers, a browser-like TLS cipher list)
// and impit (a real browser's TLS and HTTP/2 fingerprint, on Rust's reqwest). Both take every
// proxy form: http:// and https:// proxies natively, socks5:// through socks-proxy-agent for
// got-scraping and natively for impit. A session's identity keeps one browser per session: the
// same generated headers for got-scraping (its session token), the same impersonated browser for
// impit (one client per session, its own connections).
import { gotScraping } from 'got-scraping';
import { Impit, type Browser } from 'impit';
import { SocksProxyAgent } from 'socks-proxy-agent';
import type { ProxyEndpoint, TransportName } from '#shared/egress.ts';

export interface HttpRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A JSON body (sets Content-Type). */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** Sent as one Cookie header (over the session's own cookies of the same names). */
  cookies?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The URL requested (the real one, before any origin override). */
  url: string;
}

/** A session's browser identity, kept for every request of the session. */
export interface Identity {
  /** got-scraping's session token: the same generated headers (and so TLS profile) each time. */
  readonly token: object;
  /** The browser impit impersonates. */
  readonly browser: Extract<Browser, 'chrome' | 'firefox'>;
  /** impit's client for the session (made on its first request). */
  impit?: Impit;
}

export interface TransportRequest extends HttpRequest {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** The proxy the request goes through; absent for the direct tier. */
  proxy?: ProxyEndpoint | null;
  /** The session's identity; absent when the caller keeps none (a transport then makes one up). */
  identity?: Identity;
}

/** Sends one request. RetailerHttp picks got-scraping or impit; tests may pass their own. */
export type Transport = (request: TransportRequest) => Promise<HttpResponse>;

/**
 * A request that got no answer from the retailer: the reason decides what RetailerHttp does next
 * (a proxy that refused is skipped; a direct timeout is retried). `detail` is for messages and is
 * redacted by the caller.
 */
export class TransportFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'connect' | 'proxy-auth' | 'network',
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'TransportFailure';
  }
}

const NETWORK_CODES =
  /^(ETIMEDOUT|ECONNRESET|ECONNREFUSED|EPIPE|ENOTFOUND|EAI_AGAIN|ECONNABORTED|EHOSTUNREACH|ENETUNREACH|ERR_GOT_REQUEST_ERROR|ERR_STREAM_PREMATURE_CLOSE|ERR_SOCKS_CONNECTION_FAILED)$/;
/** impit's error classes (named after their class) that mean no answer came. */
const IMPIT_TIMEOUTS = new Set(['TimeoutError', 'ConnectTimeout', 'ReadTimeout', 'WriteTimeout', 'PoolTimeout']);
const IMPIT_NETWORK = new Set([
  'ConnectError',
  'ReadError',
  'WriteError',
  'CloseError',
  'NetworkError',
  'TransportError',
  'ProxyError',
  'ProxyTunnelError',
  'RemoteProtocolError',
  'ProtocolError',
]);

/**
 * The failure an error from any transport stands for, or null for an error that is not about the
 * network (a programming error: it propagates as is).
 */
export function transportFailure(error: unknown): TransportFailure | null {
  if (error instanceof TransportFailure) return error;
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: string }).code ?? '';
  const name = error.name;
  if (name === 'ProxyAuthRequired' || /\bresponded with 407\b/.test(error.message))
    return new TransportFailure('proxy-auth', 'the proxy refused the credentials (407)');
  if (name === 'TimeoutError' || code === 'ETIMEDOUT' || IMPIT_TIMEOUTS.has(name))
    return new TransportFailure('timeout', 'timed out');
  if (code === 'ECONNREFUSED' || (name === 'ConnectError' && /refused|tcp connect error/i.test(error.message)))
    return new TransportFailure('connect', 'ECONNREFUSED');
  if (name === 'ProxyTunnelError' || /The proxy responded with/i.test(error.message))
    return new TransportFailure('connect', firstLine(error.message));
  if (NETWORK_CODES.test(code)) return new TransportFailure('network', code);
  if (name === 'RequestError' || name === 'ReadError')
    return new TransportFailure('network', code || firstLine(error.message));
  if (IMPIT_NETWORK.has(name)) return new TransportFailure(name === 'ConnectError' ? 'connect' : 'network', name);
  return null;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 200);
}

function cookieHeader(request: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.cookies && Object.keys(request.cookies).length > 0) {
    headers.cookie = Object.entries(request.cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  }
  return headers;
}

let identities = 0;
/** A new browser identity; sessions alternate Chrome and Firefox. */
export function newIdentity(): Identity {
  return { token: {}, browser: identities++ % 2 === 0 ? 'chrome' : 'firefox' };
}

export const gotTransport: Transport = async (request) => {
  const proxy = request.proxy ?? null;
  const socks = proxy?.protocol.startsWith('socks') ?? false;
  const agent = socks ? new SocksProxyAgent(proxy!.url) : null;
  const response = await gotScraping({
    url: request.url,
    method: request.method ?? 'GET',
    headers: cookieHeader(request),
    ...(request.json !== undefined ? { json: request.json } : {}),
    ...(request.form ? { form: request.form } : {}),
    timeout: { request: request.timeoutMs },
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: true,
    responseType: 'text',
    sessionToken: (request.identity ?? newIdentity()).token,
    ...(proxy && !socks ? { proxyUrl: proxy.url } : {}),
    // (HTTP/2 goes through got-scraping's own agents, which know no SOCKS)
    ...(agent ? { agent: { http: agent, https: agent }, http2: false } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  return { status: response.statusCode, headers: response.headers, body: String(response.body), url: request.url };
};

export const impitTransport: Transport = async (request) => {
  const identity = request.identity ?? newIdentity();
  // One client per session: its proxy, browser and connections stay the session's.
  identity.impit ??= new Impit({
    browser: identity.browser,
    ...(request.proxy ? { proxyUrl: request.proxy.url } : {}),
    timeout: request.timeoutMs,
    followRedirects: true,
  });
  const headers = cookieHeader(request);
  let body: string | undefined;
  if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    headers['content-type'] = 'application/json';
  } else if (request.form) {
    body = new URLSearchParams(request.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const response = await identity.impit.fetch(request.url, {
    method: request.method ?? 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
    timeout: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const text = await response.text();
  const out: HttpResponse['headers'] = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return { status: response.status, headers: out, body: text, url: request.url };
};

export const TRANSPORT_CLIENTS: Record<TransportName, Transport> = {
  'got-scraping': gotTransport,
  impit: impitTransport,
};
