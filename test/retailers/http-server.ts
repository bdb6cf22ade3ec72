// The stand-in HTTP server for a list of retailer handlers: routes each request to the handler
// that owns its path and answers 404 otherwise. Control paths under /__standin/ let tests and the
// demo move prices and read what was requested. server.ts serves all six retailers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import type { RetailerStandIn, StandInRequest, StandInResponse, StandInState } from './types.ts';

export interface LoggedRequest {
  method: string;
  host: string;
  path: string;
  query: string;
  store: StoreId | null;
  status: number;
  /** The address the request came from (a proxy's egress address when it came through one). */
  from: string;
  userAgent: string;
}

export interface StandInServer {
  url: string;
  port: number;
  requests: LoggedRequest[];
  setPriceFactor(store: StoreId, factor: number): void;
  /** The network's closing switch: on, each chain's closing store is gone from the locators (a store that closes between two sweeps). */
  setClosingStoresClosed(closed: boolean): void;
  /** Forgets the call counts (so a flaky scenario fails once again) and the request log. */
  reset(): void;
  /** Which client addresses each retailer walls (answers with its bot wall), as StandInOptions.walls. */
  setWalls(walls: Partial<Record<StoreId, readonly string[]>>): void;
  close(): Promise<void>;
}

function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) cookies[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return cookies;
}

/** Answers one request: the first handler that owns the path. */
export function answer(
  request: StandInRequest,
  state: StandInState,
  handlers: RetailerStandIn[],
): { response: StandInResponse; store: StoreId | null } {
  for (const handler of handlers) {
    const response = handler.handle(request, state);
    if (response) return { response, store: handler.store };
  }
  return {
    response: {
      status: 404,
      headers: { 'content-type': 'text/plain' },
      body: `No stand-in for ${request.method} ${request.path}`,
    },
    store: null,
  };
}

export function createState(): StandInState & {
  counts: Map<string, number>;
  factors: Map<StoreId, number>;
  closing: { closed: boolean };
} {
  const counts = new Map<string, number>();
  const factors = new Map<StoreId, number>();
  const closing = { closed: false };
  return {
    counts,
    factors,
    closing,
    closingStoresClosed: () => closing.closed,
    hit(key) {
      const next = (counts.get(key) ?? 0) + 1;
      counts.set(key, next);
      return next;
    },
    priceFactor: (store) => factors.get(store) ?? 1,
  };
}

export interface StandInOptions {
  port?: number;
  host?: string;
  /** How long the slow scenario answers take (default: the handlers' SLOW_MS). */
  slowMs?: number;
  /**
   * Client addresses each retailer walls, as the real sites wall datacenter addresses: a request
   * of that retailer from one of them gets the retailer's bot wall. Tests and the demo send the
   * requests they want read through a local proxy whose egress address is not walled.
   */
  walls?: Partial<Record<StoreId, readonly string[]>>;
}

export async function serveStandIns(handlers: RetailerStandIn[], options: StandInOptions = {}): Promise<StandInServer> {
  const state = createState();
  const requests: LoggedRequest[] = [];
  let walls = options.walls ?? {};
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = Buffer.concat(chunks).toString('utf8');
      if (url.pathname.startsWith('/__standin/')) return control(url, req.method ?? 'GET', body, res);
      const request: StandInRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
        ),
        body,
        host: String(req.headers['x-forwarded-host'] ?? ''),
        cookies: parseCookies(req.headers.cookie),
      };
      const from = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
      let result: ReturnType<typeof answer>;
      try {
        result = answer(request, state, handlers);
        const walledBy = result.store ? walls[result.store] : undefined;
        if (result.store && walledBy?.includes(from)) {
          const handler = handlers.find((h) => h.store === result.store)!;
          result = {
            response: handler.wall?.(request) ?? {
              status: 403,
              headers: { 'content-type': 'text/plain' },
              body: 'Forbidden',
            },
            store: result.store,
          };
        }
      } catch (error) {
        result = { response: { status: 500, body: `stand-in error: ${(error as Error).message}` }, store: null };
      }
      const { response, store } = result;
      requests.push({
        method: request.method,
        host: request.host,
        path: request.path,
        query: url.search,
        store,
        status: response.status,
        from,
        userAgent: request.headers['user-agent'] ?? '',
      });
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(response.status, response.headers ?? {});
        res.end(response.body);
      };
      if (response.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, options.slowMs ?? response.delayMs);
        timers.add(timer);
      } else send();
    });
  });

  function control(url: URL, method: string, body: string, res: http.ServerResponse) {
    const reply = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (url.pathname === '/__standin/requests') return reply(200, requests);
    if (url.pathname === '/__standin/price-factor' && method === 'POST') {
      try {
        const { store, factor } = JSON.parse(body) as { store: StoreId; factor: number };
        if (!STORE_IDS.includes(store) || !(factor > 0 && factor < 10))
          return reply(400, { message: 'store and a factor between 0 and 10 are required' });
        state.factors.set(store, factor);
        return reply(200, { store, factor });
      } catch {
        return reply(400, { message: 'JSON body expected' });
      }
    }
    if (url.pathname === '/__standin/close-stores' && method === 'POST') {
      try {
        const { closed } = JSON.parse(body) as { closed?: unknown };
        if (typeof closed !== 'boolean') return reply(400, { message: 'closed (true or false) is required' });
        state.closing.closed = closed;
        return reply(200, { closed });
      } catch {
        return reply(400, { message: 'JSON body expected' });
      }
    }
    if (url.pathname === '/__standin/reset' && method === 'POST') {
      state.counts.clear();
      requests.length = 0;
      return reply(200, { ok: true });
    }
    return reply(404, { message: 'unknown control path' });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setPriceFactor: (store, factor) => state.factors.set(store, factor),
    setClosingStoresClosed: (closed) => {
      state.closing.closed = closed;
    },
    reset() {
      state.counts.clear();
      requests.length = 0;
    },
    setWalls(next) {
      walls = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
