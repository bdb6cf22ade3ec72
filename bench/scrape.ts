// Scraper benchmarks, part of `npm run bench`:
// - ingest: 24,000 listings (2,000 store locations x 12 products) through the real write path
//   (commitZipOutcome: one transaction per ZIP that upserts the location and products, writes the
//   observations, whose trigger keeps price_entries, and records the ZIP's outcome), once as one
//   run and once as six runs at the same time (the six stores), beside COPY of the same 24,000
//   observation rows into an unindexed table in the same run: the floor of writing those rows.
// - parsing: each retailer's listing page from the stand-in, parsed by the module's pure parse
//   function (and classified), per page.
import postgres from 'postgres';
import { classifyListing } from '../src/shared/eggs.ts';
import { STORE_IDS, type EggType, type StoreId } from '../src/shared/vocabulary.ts';
import { zipToRegion } from '../src/shared/zip.ts';
import { openSql, type Sql } from '../src/server/db.ts';
import { migrate } from '../src/server/migrate.ts';
import { seedStores } from '../src/server/seed.ts';
import { answer, createState } from '../test/retailers/http-server.ts';
import { STAND_INS } from '../test/retailers/server.ts';
import { RetailerHttp, type Transport } from '../worker/scrapers/http.ts';
import { SCRAPERS } from '../worker/scrapers/index.ts';
import { commitZipOutcome, type AcceptedListing, type ZipOutcome } from '../worker/scrapers/pipeline.ts';
import { PriceChangeNotifier } from '../src/server/queries/price-writes.ts';
import { parseAldiSearch } from '../worker/scrapers/aldi.ts';
import { parseAlbertsonsSearch } from '../worker/scrapers/albertsons.ts';
import { parseKrogerProducts } from '../worker/scrapers/kroger.ts';
import { parseTargetSearch } from '../worker/scrapers/target.ts';
import { parseWalmartSearchPage } from '../worker/scrapers/walmart.ts';
import { parseWholeFoodsSearch } from '../worker/scrapers/whole-foods.ts';
import type { RawListing } from '../worker/scrapers/types.ts';
import { databaseUrl } from './database.ts';

export const INGEST_LOCATIONS = 2000;
export const INGEST_PRODUCTS = 12;
export const INGEST_TARGET_PER_S = 10_000;
const INGEST_DATABASE = 'eggwatch_bench_ingest';

const PACKS: Array<{ eggType: EggType; count: number }> = [
  { eggType: 'standard', count: 12 },
  { eggType: 'standard', count: 18 },
  { eggType: 'standard', count: 6 },
  { eggType: 'standard', count: 24 },
  { eggType: 'cage_free', count: 12 },
  { eggType: 'cage_free', count: 18 },
  { eggType: 'organic', count: 12 },
  { eggType: 'organic', count: 18 },
  { eggType: 'pasture_raised', count: 12 },
  { eggType: 'pasture_raised', count: 18 },
  { eggType: 'cage_free', count: 60 },
  { eggType: 'standard', count: 60 },
];

/** The first `n` ZIP codes of US states, spread over the ZIP range. */
function benchZips(n: number): string[] {
  const all: string[] = [];
  for (let z = 1000; z < 100_000; z++) {
    const zip = String(z).padStart(5, '0');
    if (zipToRegion(zip)) all.push(zip);
  }
  const step = all.length / n;
  return Array.from({ length: n }, (_, i) => all[Math.floor(i * step)]!);
}

function listingsFor(zip: string, index: number): AcceptedListing[] {
  return PACKS.map((pack, p) => {
    const price = Math.round((2 + ((index * 7 + p * 13) % 500) / 100) * (pack.count / 12) * 100) / 100;
    return {
      retailerProductId: `bench-${p}`,
      title: `Bench Farms ${pack.eggType} Large Eggs, ${pack.count} ct`,
      brand: 'Bench Farms',
      eggType: pack.eggType,
      count: pack.count,
      sizeGrade: 'Large',
      price,
      regularPrice: price,
      inStock: true,
      url: `https://example.test/p/${p}`,
    };
  });
}

function outcomeFor(zip: string, index: number): ZipOutcome {
  const accepted = listingsFor(zip, index);
  return {
    zip,
    status: 'succeeded',
    kind: null,
    message: null,
    location: {
      retailerLocationId: `L${index}`,
      name: `Bench store ${index}`,
      zip,
      city: null,
      state: null,
      address: null,
      latitude: null,
      longitude: null,
    },
    locationZip: zip,
    region: zipToRegion(zip),
    pages: 1,
    listingsSeen: accepted.length,
    nonProductTiles: 0,
    accepted,
    skipped: {},
    rejected: {},
    rejectedExamples: [],
    requests: 2,
    retries: 0,
    rateLimitWaits: 0,
    rateLimitWaitMs: 0,
    egressTier: null,
    startedAt: new Date(),
  };
}

async function freshDatabase(adminUrl: string, template: string | null): Promise<{ url: string }> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${INGEST_DATABASE}" with (force)`);
    await admin.unsafe(`create database "${INGEST_DATABASE}"${template ? ` template "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  return { url: databaseUrl(adminUrl, INGEST_DATABASE) };
}

async function withTemplate(adminUrl: string): Promise<string> {
  const template = `${INGEST_DATABASE}_tpl`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${template}" with (force)`);
    await admin.unsafe(`create database "${template}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(adminUrl, template);
  const sql = await openSql(url, { max: 2 });
  try {
    await migrate(sql, url);
    await sql.begin((tx) => seedStores(tx));
  } finally {
    await sql.end();
  }
  return template;
}

async function newRuns(sql: Sql, assignment: Map<StoreId, string[]>): Promise<Map<StoreId, number>> {
  const runs = new Map<StoreId, number>();
  for (const [store, zips] of assignment) {
    const [run] = await sql<{ id: number }[]>`
      insert into scrape_runs (store_id, zip_codes, total, status, started_at, worker_id)
      values (${store}, ${sql.array(zips)}::text[], ${zips.length}, 'running', now(), 'bench') returning id`;
    runs.set(store, run!.id);
  }
  return runs;
}

async function ingest(adminUrl: string, template: string, zips: string[], stores: StoreId[]): Promise<number> {
  const { url } = await freshDatabase(adminUrl, template);
  const sql = await openSql(url, { max: stores.length + 1 });
  try {
    const assignment = new Map<StoreId, string[]>(stores.map((s) => [s, []]));
    zips.forEach((zip, i) => assignment.get(stores[i % stores.length]!)!.push(zip));
    const runs = await newRuns(sql, assignment);
    const started = performance.now();
    await Promise.all(
      [...assignment].map(async ([store, list]) => {
        const notifier = new PriceChangeNotifier(sql);
        for (const zip of list) {
          await commitZipOutcome(sql, {
            runId: runs.get(store)!,
            workerId: 'bench',
            store,
            outcome: outcomeFor(zip, zips.indexOf(zip)),
            demo: false,
            notifier,
          });
        }
        await notifier.flush();
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const [check] = await sql<{ n: number }[]>`select count(*)::int as n from price_observations`;
    if (check!.n !== zips.length * INGEST_PRODUCTS)
      throw new Error(`ingest wrote ${check!.n} observations, expected ${zips.length * INGEST_PRODUCTS}`);
    return seconds;
  } finally {
    await sql.end();
  }
}

async function copyBaseline(adminUrl: string, template: string, zips: string[]): Promise<number> {
  const { url } = await freshDatabase(adminUrl, template);
  const sql = await openSql(url, { max: 1 });
  try {
    await sql`
      create table copy_baseline (product_id integer, location_id integer, price numeric(8,2), regular_price numeric(8,2),
        in_stock boolean, observed_at timestamptz, observed_on date, scrape_run_id integer, source text)`;
    const now = new Date().toISOString();
    const lines: string[] = [];
    zips.forEach((zip, i) =>
      listingsFor(zip, i).forEach((l, p) =>
        lines.push(`${p + 1}\t${i + 1}\t${l.price}\t${l.regularPrice}\tt\t${now}\t${now.slice(0, 10)}\t1\tscrape\n`),
      ),
    );
    const started = performance.now();
    const stream = await sql`copy copy_baseline from stdin`.writable();
    await new Promise<void>((resolve, reject) => {
      stream.on('error', reject);
      stream.on('finish', resolve);
      stream.write(lines.join(''));
      stream.end();
    });
    const seconds = (performance.now() - started) / 1000;
    const [check] = await sql<{ n: number }[]>`select count(*)::int as n from copy_baseline`;
    if (check!.n !== lines.length) throw new Error('COPY baseline row count mismatch');
    return seconds;
  } finally {
    await sql.end();
  }
}

export interface IngestResult {
  listings: number;
  /** Every measurement (listings/s), three of each: the machine's own variance shows. */
  samples: { oneRun: number[]; sixRuns: number[]; copy: number[] };
  oneRunSeconds: number;
  sixRunsSeconds: number;
  copySeconds: number;
  oneRunPerS: number;
  sixRunsPerS: number;
  copyPerS: number;
  target: number;
  met: boolean;
}

export async function measureIngest(adminUrl: string, log: (line: string) => void): Promise<IngestResult> {
  log(
    `Scraper ingest: ${INGEST_LOCATIONS} locations x ${INGEST_PRODUCTS} products through commitZipOutcome, and COPY of the same rows (three of each; medians)`,
  );
  const template = await withTemplate(adminUrl);
  const zips = benchZips(INGEST_LOCATIONS);
  const listings = zips.length * INGEST_PRODUCTS;
  try {
    // Three of each, interleaved; the median is reported.
    const copy: number[] = [];
    const one: number[] = [];
    const six: number[] = [];
    for (let i = 0; i < 3; i++) {
      copy.push(await copyBaseline(adminUrl, template, zips));
      one.push(await ingest(adminUrl, template, zips, ['walmart']));
      six.push(await ingest(adminUrl, template, zips, [...STORE_IDS]));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    const copySeconds = median(copy);
    const oneRunSeconds = median(one);
    const sixRunsSeconds = median(six);
    const perS = (values: number[]) => values.map((v) => Math.round(listings / v));
    const result = {
      listings,
      samples: { oneRun: perS(one), sixRuns: perS(six), copy: perS(copy) },
      oneRunSeconds,
      sixRunsSeconds,
      copySeconds,
      oneRunPerS: listings / oneRunSeconds,
      sixRunsPerS: listings / sixRunsSeconds,
      copyPerS: listings / copySeconds,
      target: INGEST_TARGET_PER_S,
      met: listings / sixRunsSeconds >= INGEST_TARGET_PER_S,
    };
    return result;
  } finally {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${INGEST_DATABASE}" with (force)`).catch(() => {});
    await admin.unsafe(`drop database if exists "${template}" with (force)`).catch(() => {});
    await admin.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing: the listing pages a real run reads, from the stand-in (answered in process, no network).

const LISTING_PAGES: Record<StoreId, { path: RegExp; parse: (body: string) => { listings: RawListing[] } }> = {
  walmart: { path: /^\/search$/, parse: parseWalmartSearchPage },
  target: { path: /plp_search_v2$/, parse: parseTargetSearch },
  kroger: { path: /^\/v1\/products$/, parse: parseKrogerProducts },
  albertsons: { path: /pgmsearch\/v1\/search\/products$/, parse: parseAlbertsonsSearch },
  'whole-foods': { path: /^\/api\/search$/, parse: (body) => parseWholeFoodsSearch(body) },
  aldi: { path: /^\/v3\/product-search$/, parse: parseAldiSearch },
};

export interface ParseResult {
  store: StoreId;
  pages: number;
  bytesPerPage: number;
  listingsPerPage: number;
  parseMsPerPage: number;
  classifyMsPerPage: number;
}

export async function measureParsing(runs = 200): Promise<ParseResult[]> {
  const results: ParseResult[] = [];
  for (const store of STORE_IDS) {
    const bodies: string[] = [];
    const state = createState();
    const transport: Transport = async (request) => {
      const url = new URL(request.url);
      const cookies = { ...request.cookies };
      const body =
        request.json !== undefined
          ? JSON.stringify(request.json)
          : request.form
            ? new URLSearchParams(request.form).toString()
            : '';
      const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      if (request.json !== undefined) headers['content-type'] = 'application/json';
      if (request.form) headers['content-type'] = 'application/x-www-form-urlencoded';
      const { response } = answer(
        {
          method: request.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers,
          body,
          host: headers['x-forwarded-host'] ?? '',
          cookies,
        },
        state,
        STAND_INS,
      );
      if (response.status === 200 && LISTING_PAGES[store].path.test(url.pathname)) bodies.push(response.body);
      return { status: response.status, headers: response.headers ?? {}, body: response.body, url: request.url };
    };
    const scraper = SCRAPERS[store];
    const http = new RetailerHttp(scraper.storeName, scraper.origins, {
      delayMs: 0,
      transport,
      originOverride: 'http://stand-in.invalid',
    });
    const ctx = {
      http,
      maxPages: 8,
      term: 'eggs',
      credentials: { krogerClientId: 'bench', krogerClientSecret: 'bench' },
    };
    const location = await scraper.locate('10001', ctx);
    if (!location) throw new Error(`${store}: the stand-in located no store`);
    for await (const page of scraper.listings(location, '10001', ctx)) void page;
    if (bodies.length === 0) throw new Error(`${store}: no listing page was recorded`);

    const { parse } = LISTING_PAGES[store];
    let listings = 0;
    const parseStarted = performance.now();
    for (let i = 0; i < runs; i++) for (const body of bodies) listings = parse(body).listings.length;
    const parseMs = (performance.now() - parseStarted) / (runs * bodies.length);
    const parsed = bodies.map((body) => parse(body).listings);
    const classifyStarted = performance.now();
    for (let i = 0; i < runs; i++)
      for (const page of parsed)
        for (const l of page) classifyListing({ title: l.title, sizeText: l.sizeText, category: l.category });
    const classifyMs = (performance.now() - classifyStarted) / (runs * bodies.length);
    results.push({
      store,
      pages: bodies.length,
      bytesPerPage: Math.round(bodies.reduce((n, b) => n + Buffer.byteLength(b), 0) / bodies.length),
      listingsPerPage: Math.round(parsed.reduce((n, p) => n + p.length, 0) / parsed.length),
      parseMsPerPage: parseMs,
      classifyMsPerPage: classifyMs,
    });
    void listings;
  }
  return results;
}
