// One ZIP code of a scrape run, or one directory store of a coverage visit day, from the retailer
// to validated listings: locate the store (a ZIP's scrape; a visit knows its store's id), read
// every listing page (bounded), classify each product with the shared classifier, and keep only
// shell eggs with a count and a sane price. Reading writes nothing: the caller writes a ZIP's or a
// store's outcome in one statement (commitZipOutcome, commitVisit), or a batch of a chunk's stores
// (commitVisits).
import { classifyListing, type RejectReason, type SkipReason } from '#shared/eggs.ts';
import type { Sql } from '#server/db.ts';
import { PriceChangeNotifier } from '#server/queries/price-writes.ts';
import { writeZipOutcome } from '#server/queries/scrape-writes.ts';
import { writeVisit, writeVisits } from '#server/queries/coverage-visits.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import { zipToRegion } from '#shared/zip.ts';
import { greatCircleMiles, zipFacts } from '#server/geo.ts';
import {
  ScrapeError,
  type NotOnShelf,
  type RawListing,
  type RetailerLocation,
  type RetailerScraper,
  type ScrapeContext,
} from './types.ts';

/** Per-egg price bounds: outside them a price is a parsing slip or a marketplace oddity, not a shelf price. */
export const PRICE_PER_EGG_MIN = 0.05;
export const PRICE_PER_EGG_MAX = 2.5;

export type PipelineRejectReason = RejectReason | 'no-price' | 'price-out-of-range' | 'sold-by-weight';
export type PipelineSkipReason = SkipReason | NotOnShelf | 'duplicate';

export interface AcceptedListing {
  retailerProductId: string;
  title: string;
  brand: string | null;
  eggType: EggType;
  count: number;
  sizeGrade: string | null;
  price: number;
  regularPrice: number | null;
  inStock: boolean | null;
  url: string | null;
}

/** What reading one store's listings gave: shared by a ZIP's scrape and a directory store's visit. */
export interface ListingsOutcome {
  status: 'succeeded' | 'failed';
  /** Why it failed (ScrapeError kind: blocked, structure, http, config, rate-limited, no-store); null when it succeeded. */
  kind: ScrapeError['kind'] | null;
  message: string | null;
  pages: number;
  listingsSeen: number;
  nonProductTiles: number;
  accepted: AcceptedListing[];
  skipped: Partial<Record<PipelineSkipReason, number>>;
  rejected: Partial<Record<PipelineRejectReason, number>>;
  /** Up to five examples of rejected titles with their reason, for the run's log. */
  rejectedExamples: string[];
  requests: number;
  /** Requests sent again (timeouts, network errors, 5xx) and 429 waits, with their time (ms). */
  retries: number;
  rateLimitWaits: number;
  rateLimitWaitMs: number;
  /** The egress tier in use at the last request (it went through, or all its proxies rest); null before any. */
  egressTier: string | null;
  startedAt: Date;
}

export interface ZipOutcome extends ListingsOutcome {
  zip: string;
  location: RetailerLocation | null;
  /** The ZIP of the store location recorded (the store's own, else the requested one). */
  locationZip: string | null;
  region: Region | null;
}

/** A store of the directory (store_locations), visited by the retailer's own id (no locator call). */
export interface DirectoryStore {
  /** store_locations.id */
  id: number;
  retailerLocationId: string;
  zip: string;
  region: Region;
  name: string | null;
  city: string | null;
  state: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface VisitOutcome extends ListingsOutcome {
  store: DirectoryStore;
}

function bump<K extends string>(counts: Partial<Record<K, number>>, key: K): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * The census region of a ZIP code: from the geodata (geo.ts), else from the USPS prefix table for
 * a ZIP of a state that is newer than the geodata (the scrape API accepts every ZIP of a state).
 */
function zipRegion(zip: string): Region | null {
  return zipFacts(zip)?.region ?? zipToRegion(zip);
}

/**
 * Where a located store is: the retailer's own coordinates when its locator gives a valid pair,
 * else the centroid of the location's ZIP code; the retailer's city and state, else the ZIP's.
 */
/** Farther than this from its ZIP code's centre, a store's own coordinates are not believed. */
export const IMPLAUSIBLE_MILES = 150;

export function locationPlace(
  location: RetailerLocation,
  locationZip: string,
): {
  city: string | null;
  state: string | null;
  latitude: number | null;
  longitude: number | null;
  coordinatesSource: 'retailer' | 'zip' | null;
} {
  const facts = zipFacts(locationZip);
  const { latitude, longitude } = location;
  const state = location.state?.trim().toUpperCase();
  const valid =
    latitude !== null &&
    longitude !== null &&
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180;
  // A retailer's point far from its own ZIP code (0,0, a flipped sign, another store's) is a slip
  // in its data: the ZIP's centre is the better guess then.
  const retailer = valid && (!facts || greatCircleMiles({ latitude, longitude }, facts) <= IMPLAUSIBLE_MILES);
  return {
    city: location.city?.trim() || facts?.city || null,
    state: state && /^[A-Z]{2}$/.test(state) ? state : (facts?.state ?? null),
    latitude: retailer ? latitude : (facts?.latitude ?? null),
    longitude: retailer ? longitude : (facts?.longitude ?? null),
    coordinatesSource: retailer ? 'retailer' : facts ? 'zip' : null,
  };
}

/** Classifies one raw listing; the accepted listing, or why it was skipped or rejected. */
export function acceptListing(
  raw: RawListing,
):
  | { kind: 'accepted'; listing: AcceptedListing }
  | { kind: 'skipped'; reason: SkipReason; detail: string }
  | { kind: 'rejected'; reason: PipelineRejectReason; detail: string } {
  const classified = classifyListing({
    title: raw.title,
    brand: raw.brand,
    sizeText: raw.sizeText,
    category: raw.category,
  });
  if (classified.kind !== 'eggs') return classified;
  if (raw.soldByWeight)
    return { kind: 'rejected', reason: 'sold-by-weight', detail: 'priced by weight, not by the pack' };
  if (raw.price === null || !Number.isFinite(raw.price) || raw.price <= 0)
    return { kind: 'rejected', reason: 'no-price', detail: 'no price' };
  const perEgg = raw.price / classified.count;
  if (perEgg < PRICE_PER_EGG_MIN || perEgg > PRICE_PER_EGG_MAX || raw.price >= 1000) {
    return {
      kind: 'rejected',
      reason: 'price-out-of-range',
      detail: `$${raw.price.toFixed(2)} for ${classified.count} eggs`,
    };
  }
  const regular =
    raw.regularPrice !== null && raw.regularPrice > 0 && raw.regularPrice < 1000
      ? Math.round(raw.regularPrice * 100) / 100
      : null;
  return {
    kind: 'accepted',
    listing: {
      retailerProductId: raw.retailerProductId.slice(0, 200),
      title: raw.title.slice(0, 500),
      brand: raw.brand?.slice(0, 200) ?? null,
      eggType: classified.eggType,
      count: classified.count,
      sizeGrade: classified.sizeGrade,
      price: Math.round(raw.price * 100) / 100,
      regularPrice: regular,
      inStock: raw.inStock,
      url: raw.url?.slice(0, 2000) ?? null,
    },
  };
}

function emptyOutcome(): ListingsOutcome {
  return {
    status: 'failed',
    kind: null,
    message: null,
    pages: 0,
    listingsSeen: 0,
    nonProductTiles: 0,
    accepted: [],
    skipped: {},
    rejected: {},
    rejectedExamples: [],
    requests: 0,
    retries: 0,
    rateLimitWaits: 0,
    rateLimitWaitMs: 0,
    egressTier: null,
    startedAt: new Date(),
  };
}

/**
 * Reads every listing page of a store (at most ctx.maxPages) into the outcome: each product once
 * (a repeat is skipped as a duplicate), off-shelf tiles skipped with their reason, the rest through
 * the shared classifier. Sets the succeeded outcome's message; the caller handles ScrapeErrors.
 */
async function readListings(
  scraper: RetailerScraper,
  location: RetailerLocation,
  zip: string,
  ctx: ScrapeContext,
  outcome: ListingsOutcome,
  storeLabel: string,
): Promise<void> {
  const seen = new Set<string>();
  const notes = new Set<string>();
  for await (const page of scraper.listings(location, zip, ctx)) {
    outcome.pages++;
    outcome.nonProductTiles += page.nonProductTiles;
    for (const note of page.notes ?? []) notes.add(note);
    for (const raw of page.listings) {
      outcome.listingsSeen++;
      if (seen.has(raw.retailerProductId)) {
        bump(outcome.skipped, 'duplicate');
        continue;
      }
      seen.add(raw.retailerProductId);
      if (raw.notOnShelf) {
        bump(outcome.skipped, raw.notOnShelf);
        continue;
      }
      const result = acceptListing(raw);
      if (result.kind === 'accepted') outcome.accepted.push(result.listing);
      else if (result.kind === 'skipped') bump(outcome.skipped, result.reason);
      else {
        bump(outcome.rejected, result.reason);
        if (outcome.rejectedExamples.length < 5)
          outcome.rejectedExamples.push(`${result.reason}: ${raw.title.slice(0, 120)} (${result.detail})`);
      }
    }
  }
  outcome.status = 'succeeded';
  const kept = outcome.accepted.length;
  outcome.message = kept > 0 ? null : `no egg prices found at ${storeLabel} (${outcome.listingsSeen} listings seen)`;
  if (kept === 0 && outcome.listingsSeen === 0 && outcome.pages === 0)
    outcome.message = 'the retailer returned no listing pages';
  if (notes.size > 0) outcome.message = [outcome.message, ...notes].filter(Boolean).join('; ');
}

/**
 * Runs `read` against the retailer, turning a retailer failure (blocked, structure, HTTP...) into
 * a failed outcome with its kind, and counting the requests it sent. A shutdown ('aborted') and
 * other errors propagate: nothing is written, and the resumed run reads the store again.
 */
async function withCounts(outcome: ListingsOutcome, ctx: ScrapeContext, read: () => Promise<void>): Promise<void> {
  const { requests, retries, rateLimitWaits, rateLimitWaitMs } = ctx.http;
  try {
    await read();
  } catch (error) {
    if (!(error instanceof ScrapeError) || error.kind === 'aborted') throw error;
    outcome.status = 'failed';
    outcome.kind = error.kind;
    outcome.message = error.message;
    outcome.accepted = [];
  } finally {
    outcome.requests = ctx.http.requests - requests;
    outcome.retries = ctx.http.retries - retries;
    outcome.rateLimitWaits = ctx.http.rateLimitWaits - rateLimitWaits;
    outcome.rateLimitWaitMs = ctx.http.rateLimitWaitMs - rateLimitWaitMs;
    outcome.egressTier = ctx.http.lastTier;
  }
}

/** Scrapes one ZIP. Retailer failures (blocked, structure, HTTP) become a failed outcome; other errors propagate. */
export async function scrapeZip(scraper: RetailerScraper, zip: string, ctx: ScrapeContext): Promise<ZipOutcome> {
  const outcome: ZipOutcome = { ...emptyOutcome(), zip, location: null, locationZip: null, region: null };
  await withCounts(outcome, ctx, async () => {
    const location = await scraper.locate(zip, ctx);
    if (!location) throw new ScrapeError('no-store', `no ${scraper.storeName} store near ${zip}`);
    outcome.location = location;
    // The store's own ZIP when the locator gives one in a US state, else the ZIP asked for.
    const own = location.zip && zipRegion(location.zip) ? location.zip : null;
    outcome.locationZip = own ?? zip;
    outcome.region = zipRegion(outcome.locationZip);
    if (!outcome.region) throw new ScrapeError('no-store', `${zip} is not a ZIP code of a US state`);
    await readListings(scraper, location, zip, ctx, outcome, location.name ?? `the store near ${zip}`);
  });
  return outcome;
}

/**
 * Visits one store of the directory by the retailer's own id: its listings as a ZIP's scrape reads
 * them (the same classification and counts), without asking the locator again. Retailer failures
 * become a failed outcome with their kind; a shutdown and other errors propagate.
 */
export async function visitStore(
  scraper: RetailerScraper,
  store: DirectoryStore,
  ctx: ScrapeContext,
): Promise<VisitOutcome> {
  const outcome: VisitOutcome = { ...emptyOutcome(), store };
  const location: RetailerLocation = {
    retailerLocationId: store.retailerLocationId,
    name: store.name,
    zip: store.zip,
    city: store.city,
    state: store.state,
    address: store.address,
    latitude: store.latitude,
    longitude: store.longitude,
  };
  await withCounts(outcome, ctx, () =>
    readListings(
      scraper,
      location,
      store.zip,
      ctx,
      outcome,
      store.name ?? `${scraper.storeName} store ${store.retailerLocationId}`,
    ),
  );
  return outcome;
}

/** The run was taken over by another worker (recovered while this one was thought dead). */
export class RunLostError extends Error {}

/**
 * Writes one ZIP's outcome (one atomic statement) as the run's owner: the run must still be
 * running under this worker, so a worker thought dead cannot write after another has taken the
 * run over. A ZIP already written (a doubled job) is left as it is.
 */
export async function commitZipOutcome(
  sql: Sql,
  {
    runId,
    workerId,
    store,
    outcome,
    demo,
    notifier,
  }: {
    runId: number;
    workerId: string;
    store: string;
    outcome: ZipOutcome;
    demo: boolean;
    notifier?: PriceChangeNotifier;
  },
): Promise<void> {
  const result = await writeZipOutcome(sql, {
    runId,
    ownerWorkerId: workerId,
    storeId: store,
    zip: outcome.zip,
    status: outcome.status,
    message: outcome.message,
    startedAt: outcome.startedAt,
    pages: outcome.pages,
    listingsSeen: outcome.listingsSeen,
    skipped: outcome.skipped as Record<string, number>,
    rejected: outcome.rejected as Record<string, number>,
    requests: outcome.requests,
    retries: outcome.retries,
    rateLimitWaits: outcome.rateLimitWaits,
    rateLimitWaitMs: outcome.rateLimitWaitMs,
    location:
      outcome.location && outcome.region && outcome.locationZip
        ? {
            zip: outcome.locationZip,
            region: outcome.region,
            retailerLocationId: outcome.location.retailerLocationId,
            name: outcome.location.name,
            address: outcome.location.address,
            ...locationPlace(outcome.location, outcome.locationZip),
          }
        : null,
    // A stand-in's price was never published by the retailer: its product is not linked to the
    // retailer's real page, where a shopper would find another price or none.
    listings: demo ? outcome.accepted.map((listing) => ({ ...listing, url: null })) : outcome.accepted,
    source: demo ? 'demo' : 'scrape',
    deferNotify: notifier !== undefined,
  });
  if (result === 'not-owner') throw new RunLostError();
  if (notifier && typeof result === 'object' && result.observations > 0) await notifier.changed();
}

/**
 * Writes one store's visit (one atomic statement, writeVisit) as the run's owner. A visit already
 * written (a chunk run again) is left as it is; a run taken over by another worker throws
 * RunLostError. Answers the observations written (0 when nothing was).
 */
export async function commitVisit(
  sql: Sql,
  {
    runId,
    workerId,
    store,
    chunk,
    outcome,
    demo,
    notifier,
  }: {
    runId: number;
    workerId: string;
    store: string;
    chunk: number;
    outcome: VisitOutcome;
    demo: boolean;
    notifier?: PriceChangeNotifier;
  },
): Promise<number> {
  const result = await writeVisit(sql, {
    runId,
    storeId: store,
    locationId: outcome.store.id,
    chunk,
    status: outcome.status,
    kind: outcome.kind,
    message: outcome.message,
    startedAt: outcome.startedAt,
    requests: outcome.requests,
    listingsSeen: outcome.listingsSeen,
    egressTier: outcome.egressTier,
    // A stand-in's price was never published by the retailer: no link to the retailer's page.
    listings: demo ? outcome.accepted.map((listing) => ({ ...listing, url: null })) : outcome.accepted,
    source: demo ? 'demo' : 'scrape',
    ownerWorkerId: workerId,
    deferNotify: notifier !== undefined,
  });
  if (result === 'not-owner') throw new RunLostError();
  if (result === 'already-written') return 0;
  if (notifier && result.observations > 0) await notifier.changed();
  return result.observations;
}

/**
 * Writes a batch of a chunk's store visits (one atomic statement, writeVisits) as the run's owner:
 * all of them or none. Stores already written (a chunk run again) are left as they are; a run taken
 * over by another worker throws RunLostError. Answers each store's observations written (store id
 * to count; 0 for a store written already).
 */
export async function commitVisits(
  sql: Sql,
  {
    runId,
    workerId,
    store,
    chunk,
    outcomes,
    demo,
    notifier,
  }: {
    runId: number;
    workerId: string;
    store: string;
    chunk: number;
    outcomes: VisitOutcome[];
    demo: boolean;
    notifier?: PriceChangeNotifier;
  },
): Promise<Map<number, number>> {
  if (outcomes.length === 0) return new Map();
  const result = await writeVisits(sql, {
    runId,
    storeId: store,
    chunk,
    // A stand-in's price was never published by the retailer: no link to the retailer's page.
    source: demo ? 'demo' : 'scrape',
    ownerWorkerId: workerId,
    deferNotify: notifier !== undefined,
    visits: outcomes.map((outcome) => ({
      locationId: outcome.store.id,
      status: outcome.status,
      kind: outcome.kind,
      message: outcome.message,
      startedAt: outcome.startedAt,
      requests: outcome.requests,
      listingsSeen: outcome.listingsSeen,
      egressTier: outcome.egressTier,
      listings: demo ? outcome.accepted.map((listing) => ({ ...listing, url: null })) : outcome.accepted,
    })),
  });
  if (result === 'not-owner') throw new RunLostError();
  const written = new Map(outcomes.map((outcome) => [outcome.store.id, result.written.get(outcome.store.id) ?? 0]));
  if (notifier && [...written.values()].some((n) => n > 0)) await notifier.changed();
  return written;
}
