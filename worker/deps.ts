import type { Sql } from '#server/db.ts';
import type { HttpOptions } from './scrapers/http.ts';
import type { RetailerCredentials } from './scrapers/types.ts';
import type { StoreId } from '#shared/vocabulary.ts';
import { VISIT_CHUNK_SIZE } from '#shared/coverage.ts';

/** What tasks need from the process: passed in, so tests give their own database and settings. */
export interface WorkerDeps {
  sql: Sql;
  email: {
    resendApiKey?: string | undefined;
    from: string;
    /** Resend's API address (tests point it at a local server). */
    resendBaseUrl?: string;
  };
  /** Scraper settings; defaults (DEFAULT_SCRAPE_CONFIG) for what is not given. */
  scrape?: Partial<ScrapeConfig>;
  /**
   * Aborts when the process is asked to stop (SIGTERM): long tasks finish their current step and
   * release the rest, before graphile-worker's own abort (5 s later) interrupts the step itself.
   */
  shutdown?: AbortSignal;
  /** Price history: whole months kept before the current one (PRICE_HISTORY_RETENTION_MONTHS); unset keeps all. */
  history?: { retentionMonths?: number | undefined };
  /**
   * Price alerts: the site's address for links in emails, the UTC hour of the digests, and the
   * minutes a visit day's immediate alerts gather before they are sent (0: as each chunk commits).
   */
  alerts?: { publicUrl: string; digestHourUtc: number; immediateWindowMinutes?: number };
}

export const DEFAULT_ALERTS = { publicUrl: 'http://localhost:3000', digestHourUtc: 13, immediateWindowMinutes: 10 };

export interface ScrapeConfig {
  /** Stand-in origin per retailer (WALMART_ORIGIN...). */
  origins: Partial<Record<StoreId, string>>;
  /** Prices read through a configured origin are the retailer's (a forwarding proxy), not demo prices. */
  originsAreRetailers: boolean;
  credentials: RetailerCredentials;
  http: Pick<HttpOptions, 'delayMs' | 'retries' | 'timeoutMs' | 'backoffBaseMs' | 'backoffCapMs' | 'maxRetryAfterMs'>;
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

export function scrapeConfig(deps: WorkerDeps): ScrapeConfig {
  const given = deps.scrape ?? {};
  return { ...DEFAULT_SCRAPE_CONFIG, ...given, http: { ...DEFAULT_SCRAPE_CONFIG.http, ...given.http } };
}
