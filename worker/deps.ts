import type { Sql } from '#server/db.ts';
import { DEFAULT_SCRAPE_CONFIG, type ScrapeConfig } from '#shared/scrape.ts';
import type { OfficialConfig } from './official/config.ts';

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
  /** The official sources' origins and keys (BLS, USDA MARS, APHIS); absent, none is fetched. */
  official?: OfficialConfig;
  alerts?: { publicUrl: string; digestHourUtc: number; immediateWindowMinutes?: number };
}

export const DEFAULT_ALERTS = { publicUrl: 'http://localhost:3000', digestHourUtc: 13, immediateWindowMinutes: 10 };

export function scrapeConfig(deps: WorkerDeps): ScrapeConfig {
  const given = deps.scrape ?? {};
  return { ...DEFAULT_SCRAPE_CONFIG, ...given, http: { ...DEFAULT_SCRAPE_CONFIG.http, ...given.http } };
}
