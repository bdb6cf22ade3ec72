// The environment, parsed once with zod at boot: a bad value stops the process with a clear
// message instead of surfacing later. Nothing else in src/ or worker/ reads process.env (the lint
// rules enforce it: docs/decisions/012-layers-and-lint.md).
import fs from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseEgressSettings, type EgressSettings } from '#shared/egress.ts';
import { DEFAULT_SCRAPE_CONFIG } from '#shared/scrape.ts';

const SCRAPE = DEFAULT_SCRAPE_CONFIG;

const flag = z
  .enum(['1', '0', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/**
 * Which proxies' X-Forwarded-For to believe: the number of proxy hops in front of the app (1 for
 * one load balancer), or a comma-separated list of their addresses or CIDR ranges. Trusting every
 * hop would let a client pick its own address (and so its rate-limit counter). 'true' means 1.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((raw, ctx): false | number | string[] => {
    const value = (raw ?? '').trim();
    if (value === '' || value === '0' || value === 'false') return false;
    if (value === 'true') return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const list = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (list.length > 0 && list.every((part) => isIP(part.split('/')[0] ?? '') !== 0)) return list;
    ctx.addIssue({
      code: 'custom',
      message: 'must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses or CIDR ranges',
    });
    return z.NEVER;
  });

/** An http(s) origin such as http://127.0.0.1:4599 (a path is not allowed: requests keep their own). */
const origin = z.preprocess(
  emptyToUndefined,
  z
    .url({ protocol: /^https?$/ })
    .refine(
      (value) => new URL(value).pathname === '/' && !new URL(value).search,
      'must be an origin, e.g. http://127.0.0.1:4599',
    )
    .transform((value) => new URL(value).origin)
    .optional(),
);

/** An origin with a default (the real service) when unset or empty. */
const originOr = (fallback: string) => origin.transform((value) => value ?? fallback);

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  EMBEDDED_PG_DIR: z.string().default('.data/postgres'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy,
  // Requests per minute per IP to the public /api GETs (0 turns the limit off).
  PUBLIC_API_RATE_LIMIT: z.coerce.number().int().min(0).max(10_000_000).default(1200),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  ADMIN_SETUP_KEY: z.preprocess(emptyToUndefined, z.string().min(12, 'must be at least 12 characters').optional()),
  EXPOSE_RESET_TOKEN: flag,
  RESEND_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  EMAIL_FROM: z.string().default('EggWatch <alerts@eggwatch.local>'),
  // Scrapers (worker/scrapers): a stand-in origin per retailer replaces all of its hosts.
  WALMART_ORIGIN: origin,
  TARGET_ORIGIN: origin,
  KROGER_ORIGIN: origin,
  ALBERTSONS_ORIGIN: origin,
  WHOLE_FOODS_ORIGIN: origin,
  ALDI_ORIGIN: origin,
  SCRAPER_ORIGINS_ARE_RETAILERS: flag,
  KROGER_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  KROGER_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  TARGET_API_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[0-9a-f]{40}$/i, 'must be 40 hexadecimal characters')
      .optional(),
  ),
  ALBERTSONS_API_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[0-9a-f]{32}$/i, 'must be 32 hexadecimal characters')
      .optional(),
  ),
  SCRAPE_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(SCRAPE.http.delayMs),
  SCRAPE_RETRIES: z.coerce.number().int().min(0).max(10).default(SCRAPE.http.retries),
  SCRAPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(SCRAPE.http.timeoutMs),
  SCRAPE_BACKOFF_MS: z.coerce.number().int().min(0).max(60_000).default(SCRAPE.http.backoffBaseMs),
  SCRAPE_MAX_PAGES: z.coerce.number().int().min(1).max(25).default(SCRAPE.maxPages),
  ALERT_DIGEST_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(13),
  ALERT_IMMEDIATE_WINDOW_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  SCRAPE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(SCRAPE.heartbeatMs),
  SCRAPE_STALE_MS: z.coerce.number().int().min(500).max(3_600_000).default(SCRAPE.staleMs),
  // Price history kept: the observations of this many whole months before the current one (older
  // monthly partitions are dropped whole by the worker's prices__partitions task); unset keeps
  // everything. At least 12, so the product history's longest span (a year) stays whole.
  PRICE_HISTORY_RETENTION_MONTHS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(12).max(1200).optional()),
  // Stores per job of a coverage visit day (a crash loses at most one chunk's progress).
  COVERAGE_CHUNK_SIZE: z.coerce.number().int().min(1).max(500).default(SCRAPE.visitChunkSize),
  // Store visits of a chunk written together (one statement), at most; visits that come slower
  // than about one in 2 s are written one by one (a crash loses at most a batch).
  COVERAGE_VISIT_BATCH: z.coerce.number().int().min(1).max(100).default(SCRAPE.visitBatch.stores),
  // Official sources (worker/official; docs/features/data-sources.md). Never through the scrapers' proxies.
  BLS_API_ORIGIN: originOr('https://api.bls.gov'),
  BLS_API_KEY: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  USDA_MARS_ORIGIN: originOr('https://marsapi.ams.usda.gov'),
  USDA_MARS_API_KEY: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  APHIS_HPAI_URL: z
    .preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional())
    .transform(
      (value) =>
        value ??
        'https://publicdashboards.dl.usda.gov/t/MRP_PUB/views/VS_Avian_HPAIConfirmedDetections2022/HPAI2022ConfirmedDetections.csv',
    ),
});

export type Env = z.infer<typeof envSchema> & {
  /**
   * The scrapers' egress, read from SCRAPER_PROXY_URLS(_<RETAILER>), SCRAPER_PROXY_TIERS_<RETAILER>,
   * SCRAPER_TRANSPORT_<RETAILER>, SCRAPER_REQUESTS_PER_MINUTE_<RETAILER>, SCRAPER_DAILY_BUDGET_<RETAILER>
   * and the SCRAPER_TIER_COOL_OFF_MINUTES, SCRAPER_SESSION_MAX_USES, SCRAPER_PROXY_REST_MINUTES rules
   * (src/shared/egress.ts). Every retailer's egress (proxies with their credentials: never logged or returned as is). */
  egress: EgressSettings;
};

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  const egress = parseEgressSettings(source);
  const lines = [
    ...(result.success ? [] : result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)),
    // (each message names its variable and never echoes a value: a proxy URL holds a password)
    ...egress.errors.map((message) => `  ${message}`),
  ];
  if (!result.success || !egress.settings) throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  return { ...result.data, egress: egress.settings };
}

function load(): Env {
  // A local .env file fills in what the real environment leaves unset.
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  return parseEnv(process.env);
}

export const env: Env = load();

/**
 * The environment of a program this process starts (PostgreSQL's initdb and pg_ctl): this
 * process's own, as it stands, with the given overrides.
 */
export function childProcessEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}

export function publicUrl(e: Env = env): string {
  return e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
}
