// The stand-in without a socket: a Transport for RetailerHttp that answers each request from the
// six stand-in handlers in this process (the real host of the URL picks the retailer, as the
// X-Forwarded-Host header does over HTTP). The discovery tests and bench ask thousands of locator
// calls this way; what the modules send and read is the same as over HTTP.
import type { StoreId } from '#shared/vocabulary.ts';
import { RetailerHttp, type Transport } from '../../worker/scrapers/http.ts';
import { SCRAPERS } from '../../worker/scrapers/index.ts';
import type { ScrapeContext } from '../../worker/scrapers/types.ts';
import { answer, createState } from './http-server.ts';
import { STAND_INS } from './server.ts';
import type { RetailerStandIn } from './types.ts';

export interface InProcessStandIn {
  transport: Transport;
  state: ReturnType<typeof createState>;
  /** Requests answered, by path. */
  calls: Map<string, number>;
}

/** The stand-in's handlers in this process (the metro network's: METRO_STAND_INS of metro-locators.ts). */
export function inProcessStandIn(handlers: RetailerStandIn[] = STAND_INS): InProcessStandIn {
  const state = createState();
  const calls = new Map<string, number>();
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    let body = '';
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers['content-type'] = 'application/json';
    } else if (request.form) body = new URLSearchParams(request.form).toString();
    const { response } = answer(
      {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers,
        body,
        host: url.host,
        cookies: { ...(request.cookies ?? {}) },
      },
      state,
      handlers,
    );
    calls.set(url.pathname, (calls.get(url.pathname) ?? 0) + 1);
    return { status: response.status, headers: response.headers ?? {}, body: response.body, url: request.url };
  };
  return { transport, state, calls };
}

/** A retailer module's context over the stand-in in this process, at zero delay and without retries. */
export function inProcessContext(store: StoreId, handlers: RetailerStandIn[] = STAND_INS): ScrapeContext {
  const scraper = SCRAPERS[store];
  const http = new RetailerHttp(scraper.storeName, scraper.origins, {
    delayMs: 0,
    retries: 0,
    transport: inProcessStandIn(handlers).transport,
  });
  return { http, maxPages: 1, term: 'eggs', credentials: { krogerClientId: 'id', krogerClientSecret: 'secret' } };
}
