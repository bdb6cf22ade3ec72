// Scraper runs and settings: the inputs the admin screens send (shared with the API's validation)
// and the shapes the status calls answer.
import { z } from 'zod';
import { STORE_IDS, STORE_NAMES, type StoreId } from './vocabulary.ts';
import { zipListSchema } from './zip-list.ts';
import { listLimit, listOffset } from './inputs.ts';
import { REJECT_REASON_LABELS, SKIP_REASON_LABELS } from './eggs.ts';
import { VISIT_CHUNK_SIZE } from './coverage.ts';
import { defaultEgressSettings, type EgressSettings } from './egress.ts';
import { plural } from './format.ts';

export const MAX_SCRAPE_ZIPS = 25;

/** Default scraper ZIP codes. */
export const DEFAULT_SCRAPE_ZIPS = ['10001', '60611', '90210', '30301', '77001'] as const;

export const SCRAPER_NAMES: Record<StoreId, string> = STORE_NAMES;

export const scraperIdSchema = z.enum(STORE_IDS, { message: `store must be one of ${STORE_IDS.join(', ')}` });

/** A manual run's ZIP list (zip-list.ts): at most 25 distinct ZIP codes of US states. */
export const zipCodesSchema = zipListSchema({
  max: MAX_SCRAPE_ZIPS,
  tooMany: (given) => `At most ${MAX_SCRAPE_ZIPS} ZIP codes per run (${given} given)`,
});

export const scrapeStartInput = z.object({ store: scraperIdSchema, zipCodes: zipCodesSchema }).strict();
export type ScrapeStartInput = z.input<typeof scrapeStartInput>;

/** Run all: every active store's scraper over one ZIP list. */
export const scrapeAllInput = z.object({ zipCodes: zipCodesSchema }).strict();

/** The ZIP list's problem as the API would state it, or null when it would be accepted. */
export function zipListProblem(zipCodes: string[]): string | null {
  const result = zipCodesSchema.safeParse(zipCodes);
  return result.success ? null : result.error.issues.map((issue) => issue.message).join(' ');
}

/** The most recent runs first, optionally of one store; paged like every list (10 by default). */
export const scrapeRunsInput = z
  .object({
    store: scraperIdSchema.optional(),
    limit: listLimit.optional(),
    offset: listOffset.optional(),
  })
  .strict();
export const scrapeRunsCountInput = scrapeRunsInput.pick({ store: true });

export const scrapeSettingsInput = z
  .object({
    dailyEnabled: z.boolean({ message: 'dailyEnabled must be true or false' }),
    hourUtc: z
      .number({ message: 'hourUtc must be a number' })
      .int('hourUtc must be a whole hour')
      .min(0, 'hourUtc must be 0 to 23')
      .max(23, 'hourUtc must be 0 to 23'),
    zipCodes: zipCodesSchema,
  })
  .strict();
export type ScrapeSettingsInput = z.input<typeof scrapeSettingsInput>;

/** Configured keys and credentials of the retailers' APIs (TARGET_API_KEY, ALBERTSONS_API_KEY, KROGER_CLIENT_ID/SECRET). */
export interface RetailerCredentials {
  targetApiKey?: string | undefined;
  albertsonsApiKey?: string | undefined;
  krogerClientId?: string | undefined;
  krogerClientSecret?: string | undefined;
}

/** The pace and patience of a retailer's HTTP client (worker/scrapers/http.ts). */
export interface ScrapeHttpSettings {
  /** Pause between two requests to this retailer (ms). */
  delayMs: number;
  /** Retries after the first attempt, for timeouts, network errors, 5xx and 429. */
  retries: number;
  timeoutMs: number;
  /** First backoff step (ms); doubles each retry, with jitter, capped at backoffCapMs. */
  backoffBaseMs: number;
  backoffCapMs: number;
  /** Longest Retry-After honoured (ms); a longer one fails the ZIP as rate limited. */
  maxRetryAfterMs: number;
}

/**
 * The scrapers' settings: the worker runs with them, and the server states what they imply (a
 * coverage plan's cost is counted in the delay between a retailer's requests).
 */
export interface ScrapeConfig {
  /** Stand-in origin per retailer (WALMART_ORIGIN...). */
  origins: Partial<Record<StoreId, string>>;
  /** Prices read through a configured origin are the retailer's (a forwarding proxy), not demo prices. */
  originsAreRetailers: boolean;
  credentials: RetailerCredentials;
  /** How each retailer's requests leave: tiers of proxies, transport, pace, daily budget (egress.ts). */
  egress: EgressSettings;
  http: ScrapeHttpSettings;
  maxPages: number;
  /** How often a running scrape proves it is alive (ms). */
  heartbeatMs: number;
  /** A running scrape whose heartbeat is older than this (ms) is recovered. */
  staleMs: number;
  /** Stores per coverage__visit job (a crash loses at most one chunk's progress). */
  visitChunkSize: number;
  /**
   * A chunk's visits are written in batches (one statement each: writeVisits) of at most `stores`
   * stores, and a batch is written as soon as its first visit is `ms` old or a visit alone took
   * that long (slow visits are written one by one): the run's live counters advance per batch, and
   * a crash loses at most the batch's visits (visited again when the chunk resumes).
   */
  visitBatch: { stores: number; ms: number };
}

export const DEFAULT_SCRAPE_CONFIG: ScrapeConfig = {
  origins: {},
  originsAreRetailers: false,
  credentials: {},
  egress: defaultEgressSettings(),
  http: {
    delayMs: 1500,
    retries: 3,
    timeoutMs: 20_000,
    backoffBaseMs: 1000,
    backoffCapMs: 30_000,
    maxRetryAfterMs: 120_000,
  },
  maxPages: 8,
  heartbeatMs: 10_000,
  staleMs: 45_000,
  visitChunkSize: VISIT_CHUNK_SIZE,
  visitBatch: { stores: 10, ms: 2000 },
};

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface ZipResult {
  zip: string;
  status: 'succeeded' | 'failed';
  message: string | null;
  locationName: string | null;
  listingsSeen: number;
  accepted: number;
  observations: number;
  /** Listings left out, by reason (SKIPPED_REASON_LABELS): not the store's shelf, repeats, not shell eggs. */
  skipped: Record<string, number>;
  /** Shell eggs rejected, by reason (REJECTED_REASON_LABELS): no count, no price... */
  rejected: Record<string, number>;
  /** Requests sent to the retailer for this ZIP code, retries included. */
  requests: number;
  /** Requests sent again after a timeout, a network error or a 5xx answer. */
  retries: number;
  /** 429 answers whose Retry-After was waited out, and the time waited (ms). */
  rateLimitWaits: number;
  rateLimitWaitMs: number;
  finishedAt: string;
}

export interface ScrapeRun {
  id: number;
  store: StoreId;
  status: RunStatus;
  trigger: 'manual' | 'schedule';
  demo: boolean;
  zipCodes: string[];
  /** ZIP codes finished (succeeded or failed) of total. */
  progress: number;
  total: number;
  listingsSeen: number;
  accepted: number;
  skipped: Record<string, number>;
  rejected: Record<string, number>;
  observationsWritten: number;
  message: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  zips: ZipResult[];
}

export interface ScraperStatus {
  active: boolean;
  /** When the latest run started (or was queued), ISO; null when never run. */
  lastRun: string | null;
  nextScheduledRun: string | null;
  message: string;
  /** The latest run with its progress, or null. */
  run: ScrapeRun | null;
  /** When prices from this store last arrived (a run that wrote prices), ISO, or null. */
  lastSuccessAt: string | null;
  /** Older than 48 hours (or never). */
  stale: boolean;
}

export const STALE_AFTER_HOURS = 48;

/** '6 ZIP codes', '1 ZIP code'. */
const zipCodes = (total: number) => plural(total, 'ZIP code');

/**
 * A run's progress in one wording, for the status box and anywhere else it is shown: 'Queued:
 * waiting for a worker to start the Walmart scraper.' or 'Running: 2 of 5 ZIP codes done, 40
 * listings seen, 12 egg prices so far.'
 */
export function runProgressText(
  run: Pick<ScrapeRun, 'store' | 'status' | 'progress' | 'total' | 'listingsSeen' | 'accepted'>,
): string {
  if (run.status === 'queued') return `Queued: waiting for a worker to start the ${SCRAPER_NAMES[run.store]} scraper.`;
  return `Running: ${run.progress} of ${zipCodes(run.total)} done, ${plural(run.listingsSeen, 'listing')} seen, ${plural(run.accepted, 'egg price')} so far.`;
}

/** The run history's ZIP column: '5 of 6 ZIP codes succeeded' once finished, '2 of 6 ZIP codes done' before. */
export function runZipSummary(run: Pick<ScrapeRun, 'status' | 'total' | 'progress' | 'zips'>): string {
  if (run.status === 'queued' || run.status === 'running') return `${run.progress} of ${zipCodes(run.total)} done`;
  return `${run.zips.filter((z) => z.status === 'succeeded').length} of ${zipCodes(run.total)} succeeded`;
}

/** '2 retries', '1 rate-limit wait (30 s)', 'no retries': how hard a ZIP code was to read. */
export function zipRetriesText(zip: Pick<ZipResult, 'retries' | 'rateLimitWaits' | 'rateLimitWaitMs'>): string {
  const parts = [zip.retries === 0 ? 'no retries' : `${zip.retries} ${zip.retries === 1 ? 'retry' : 'retries'}`];
  parts.push(
    zip.rateLimitWaits === 0
      ? 'no rate-limit waits'
      : `${plural(zip.rateLimitWaits, 'rate-limit wait')} (${Math.round(zip.rateLimitWaitMs / 1000)} s)`,
  );
  return parts.join(', ');
}

/** The next daily slot at hour:00 UTC strictly after now, or null when daily scraping is off. */
export function nextDailyRun(
  settings: { dailyEnabled: boolean; hourUtc: number },
  now: Date = new Date(),
): Date | null {
  if (!settings.dailyEnabled) return null;
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), settings.hourUtc));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * What a run's skipped and rejected counts (keyed by reason) mean, for the admin screens: the
 * classifier's reasons (src/shared/eggs.ts) and the scraper pipeline's own.
 */
export const SKIPPED_REASON_LABELS: Readonly<Record<string, string>> = {
  ...SKIP_REASON_LABELS,
  marketplace: "marketplace sellers' offers (not the store's shelf)",
  'online-only': 'sold online only, not stocked at the store',
  duplicate: 'listed twice (sponsored repeats)',
};

export const REJECTED_REASON_LABELS: Readonly<Record<string, string>> = {
  ...REJECT_REASON_LABELS,
  'no-price': 'no price at this store',
  'price-out-of-range': 'price outside sane bounds',
  'sold-by-weight': 'priced by weight, not by the pack',
};

/**
 * What a run or a ZIP code left out and why: "Skipped 15 marketplace sellers' offers (not the
 * store's shelf), 11 listed twice (sponsored repeats). Rejected 1 no price at this store." Each
 * part only when it has a count; 'Nothing skipped or rejected.' when neither has.
 */
export function reasonCountsText(counts: {
  skipped: Readonly<Record<string, number>>;
  rejected: Readonly<Record<string, number>>;
}): string {
  const skipped = describeReasonCounts(counts.skipped, SKIPPED_REASON_LABELS);
  const rejected = describeReasonCounts(counts.rejected, REJECTED_REASON_LABELS);
  const parts = [skipped && `Skipped ${skipped}.`, rejected && `Rejected ${rejected}.`].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : 'Nothing skipped or rejected.';
}

/** '9 marketplace sellers' offers (not the store's shelf), 3 not eggs (...)': most first; '' for none. */
export function describeReasonCounts(
  counts: Readonly<Record<string, number>>,
  labels: Readonly<Record<string, string>>,
): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([reason, n]) => `${n} ${labels[reason] ?? reason}`)
    .join(', ');
}
