// The retailer stand-in: one HTTP server that answers each retailer's real paths and queries with
// bodies of the documented (recorded) shapes, so tests and the offline demo run the real scraper
// code with WALMART_ORIGIN... pointed at it. Each retailer contributes a handler.
import type { StoreId } from '#shared/vocabulary.ts';

export interface StandInRequest {
  method: string;
  /** Path without the query, e.g. /search */
  path: string;
  query: URLSearchParams;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: string;
  /** The real host the scraper meant (X-Forwarded-Host), e.g. redsky.target.com; '' when not sent. */
  host: string;
  /** Cookies of the Cookie header. */
  cookies: Record<string, string>;
}

export interface StandInResponse {
  status: number;
  headers?: Record<string, string>;
  body: string;
  /** Answer after this many ms (the slow scenario). */
  delayMs?: number;
}

export interface StandInState {
  /** Counts calls per key and returns the new count (1 on the first call): "a 500 then a success". */
  hit(key: string): number;
  /** Multiplies every price of a store (1 by default): tests and the demo move prices between runs. */
  priceFactor(store: StoreId): number;
  /** The network's closing switch: when true, each chain's closing store is gone from every locator (test/retailers/network.ts). */
  closingStoresClosed?(): boolean;
}

export interface RetailerStandIn {
  store: StoreId;
  /** Answers a request of this retailer, or null when the path is not one of its own. */
  handle(request: StandInRequest, state: StandInState): StandInResponse | null;
  /** The retailer's bot wall (what it answers an address it walls). */
  wall?(request: StandInRequest): StandInResponse;
}

export const json = (value: unknown, status = 200, headers: Record<string, string> = {}): StandInResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(value),
});

export const html = (body: string, status = 200, headers: Record<string, string> = {}): StandInResponse => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body,
});
