// The worker's scraper settings from the environment (env.ts parsed it once).
import type { Env } from '#server/env.ts';
import { DEFAULT_SCRAPE_CONFIG, type ScrapeConfig } from '#shared/scrape.ts';

export function scrapeConfigFromEnv(env: Env): ScrapeConfig {
  const origins: ScrapeConfig['origins'] = {};
  if (env.WALMART_ORIGIN) origins.walmart = env.WALMART_ORIGIN;
  if (env.TARGET_ORIGIN) origins.target = env.TARGET_ORIGIN;
  if (env.KROGER_ORIGIN) origins.kroger = env.KROGER_ORIGIN;
  if (env.ALBERTSONS_ORIGIN) origins.albertsons = env.ALBERTSONS_ORIGIN;
  if (env.WHOLE_FOODS_ORIGIN) origins['whole-foods'] = env.WHOLE_FOODS_ORIGIN;
  if (env.ALDI_ORIGIN) origins.aldi = env.ALDI_ORIGIN;
  return {
    ...DEFAULT_SCRAPE_CONFIG,
    origins,
    originsAreRetailers: env.SCRAPER_ORIGINS_ARE_RETAILERS,
    egress: env.egress,
    credentials: {
      targetApiKey: env.TARGET_API_KEY,
      albertsonsApiKey: env.ALBERTSONS_API_KEY,
      krogerClientId: env.KROGER_CLIENT_ID,
      krogerClientSecret: env.KROGER_CLIENT_SECRET,
    },
    http: {
      ...DEFAULT_SCRAPE_CONFIG.http,
      delayMs: env.SCRAPE_DELAY_MS,
      retries: env.SCRAPE_RETRIES,
      timeoutMs: env.SCRAPE_TIMEOUT_MS,
      backoffBaseMs: env.SCRAPE_BACKOFF_MS,
    },
    maxPages: env.SCRAPE_MAX_PAGES,
    heartbeatMs: env.SCRAPE_HEARTBEAT_MS,
    staleMs: Math.max(env.SCRAPE_STALE_MS, env.SCRAPE_HEARTBEAT_MS * 3),
    visitChunkSize: env.COVERAGE_CHUNK_SIZE,
    visitBatch: { ...DEFAULT_SCRAPE_CONFIG.visitBatch, stores: env.COVERAGE_VISIT_BATCH },
  };
}
