// `npm run bench -- egress`: the two transports (got-scraping and impit) against the retailer
// stand-in, direct and through a local proxy with credentials, beside a baseline measured in the
// same run: a bare node:http client sending the same requests (what HTTP itself costs here). Each
// (client, route) runs in a child process of its own, so its memory is its own: for every retailer,
// EGRESS_BENCH_ZIPS ZIP codes (default 8) located and their listing pages read (at most 2 a ZIP)
// with no delay, through the real scraper modules and RetailerHttp. Printed: pages (requests) a
// second and the ratio to the baseline of the same route, the peak resident memory above the
// child's start, and the listings read, which must be the same for every client. Written to
// bench/results/egress.json; docs/decisions/013-egress-transports.md records a run.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEgressSettings, TRANSPORTS } from '../src/shared/egress.ts';
import { STORE_IDS, type StoreId } from '../src/shared/vocabulary.ts';
import { EGRESS_ADDRESSES, startProxy } from '../test/egress/proxies.ts';
import { ordinaryZips } from '../test/directory-stores.ts';
import { startStandIn } from '../test/retailers/server.ts';
import { egressRules, RetailerEgress } from '../worker/egress/egress.ts';
import { RetailerHttp, type Transport } from '../worker/scrapers/http.ts';
import { SCRAPERS } from '../worker/scrapers/index.ts';

const HERE = fileURLToPath(import.meta.url);
const ZIPS = ordinaryZips(Number(process.env.EGRESS_BENCH_ZIPS ?? 8), 30001);
const CLIENTS = ['baseline', ...TRANSPORTS] as const;
type Client = (typeof CLIENTS)[number];
type Route = 'direct' | 'proxy';

interface ChildResult {
  client: Client;
  route: Route;
  requests: number;
  seconds: number;
  peakRssMb: number;
  listings: Record<StoreId, number>;
}

/** The floor: node:http, one request at a time, through the proxy in absolute form when there is one. */
function baselineTransport(proxyUrl: string | null): Transport {
  const proxy = proxyUrl ? new URL(proxyUrl) : null;
  return (request) =>
    new Promise((resolve, reject) => {
      const target = new URL(request.url);
      const body =
        request.json !== undefined
          ? JSON.stringify(request.json)
          : request.form
            ? new URLSearchParams(request.form).toString()
            : undefined;
      const headers: Record<string, string> = { ...request.headers, 'user-agent': 'Mozilla/5.0' };
      if (request.cookies && Object.keys(request.cookies).length)
        headers.cookie = Object.entries(request.cookies)
          .map(([k, v]) => `${k}=${v}`)
          .join('; ');
      if (request.json !== undefined) headers['content-type'] = 'application/json';
      if (request.form) headers['content-type'] = 'application/x-www-form-urlencoded';
      if (proxy)
        headers['proxy-authorization'] =
          `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
      const req = http.request(
        {
          host: proxy ? proxy.hostname : target.hostname,
          port: proxy ? proxy.port : target.port,
          path: proxy ? target.href : `${target.pathname}${target.search}`,
          method: request.method ?? 'GET',
          headers,
          timeout: request.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
              url: request.url,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

async function child(client: Client, route: Route, standInUrl: string, proxyUrl: string): Promise<ChildResult> {
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const vars = route === 'proxy' ? { SCRAPER_PROXY_URLS: proxyUrl } : {};
  const { settings } = parseEgressSettings(vars);
  const listings = {} as Record<StoreId, number>;
  let requests = 0;
  const started = performance.now();
  for (const store of STORE_IDS) {
    const scraper = SCRAPERS[store];
    const egress = new RetailerEgress(store, settings!.retailers[store], egressRules(settings!), null);
    const http = new RetailerHttp(scraper.storeName, scraper.origins, {
      originOverride: standInUrl,
      delayMs: 0,
      timeoutMs: 20_000,
      egress,
      transport: client === 'baseline' ? baselineTransport(route === 'proxy' ? proxyUrl : null) : client,
    });
    const ctx = {
      http,
      maxPages: 2,
      term: 'eggs',
      credentials: { krogerClientId: 'bench', krogerClientSecret: 'bench' },
    };
    listings[store] = 0;
    for (const zip of ZIPS) {
      const location = await scraper.locate(zip, ctx);
      if (!location) continue;
      for await (const page of scraper.listings(location, zip, ctx)) listings[store] += page.listings.length;
    }
    requests += http.requests;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { client, route, requests, seconds, peakRssMb: (peak - startRss) / 1_048_576, listings };
}

function runChild(client: Client, route: Route, standInUrl: string, proxyUrl: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = fork(HERE, ['--child', client, route, standInUrl, proxyUrl], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    proc.once('message', (message) => resolve(message as ChildResult));
    proc.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${client} ${route}: exit ${code}`))));
  });
}

export interface EgressBenchRow {
  client: Client;
  route: Route;
  pagesPerS: number;
  ratio: number;
  peakRssMb: number;
  listings: number;
  sameListings: boolean;
}

export async function measureEgress(log: (line: string) => void): Promise<EgressBenchRow[]> {
  const standIn = await startStandIn();
  const proxy = await startProxy({ username: 'bench', password: 'bench-pass', egressAddress: EGRESS_ADDRESSES.direct });
  const rows: EgressBenchRow[] = [];
  try {
    log(
      `Egress: ${ZIPS.length} ZIP codes a retailer, six retailers, each client in its own process; twice, the second kept`,
    );
    const results: ChildResult[] = [];
    for (const route of ['direct', 'proxy'] as const) {
      for (const client of CLIENTS) {
        await runChild(client, route, standIn.url, proxy.url); // warm-up (first runs compile and load)
        results.push(await runChild(client, route, standIn.url, proxy.url));
      }
    }
    const reference = results.find((r) => r.client === 'baseline' && r.route === 'direct')!.listings;
    for (const result of results) {
      const base = results.find((r) => r.client === 'baseline' && r.route === result.route)!;
      const perS = (r: ChildResult) => r.requests / r.seconds;
      rows.push({
        client: result.client,
        route: result.route,
        pagesPerS: perS(result),
        ratio: perS(result) / perS(base),
        peakRssMb: result.peakRssMb,
        listings: Object.values(result.listings).reduce((a, b) => a + b, 0),
        sameListings: STORE_IDS.every((s) => result.listings[s] === reference[s]),
      });
    }
  } finally {
    await proxy.close();
    await standIn.close();
  }
  fs.mkdirSync(path.join(path.dirname(HERE), 'results'), { recursive: true });
  fs.writeFileSync(
    path.join(path.dirname(HERE), 'results', 'egress.json'),
    JSON.stringify({ at: new Date().toISOString(), zips: ZIPS.length, rows }, null, 2),
  );
  return rows;
}

if (process.argv[2] === '--child') {
  const [, , , client, route, standInUrl, proxyUrl] = process.argv;
  const result = await child(client as Client, route as Route, standInUrl!, proxyUrl!);
  process.send!(result);
  process.disconnect();
}

/** The rows as a table (bench/run.ts prints it). */
export function egressTable(rows: EgressBenchRow[]): { headers: string[]; rows: string[][] } {
  return {
    headers: ['client', 'route', 'pages/s', 'x baseline', 'peak RSS MB', 'listings', 'same listings'],
    rows: rows.map((r) => [
      r.client,
      r.route,
      r.pagesPerS.toFixed(1),
      r.ratio.toFixed(2),
      r.peakRssMb.toFixed(1),
      String(r.listings),
      r.sameListings ? 'yes' : 'NO',
    ]),
  };
}
