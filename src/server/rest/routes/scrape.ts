// The scraper calls, the run history and the daily schedule: administrators only.
import { z } from 'zod';
import { RUN_STATUSES, scrapeAllInput, scrapeRunsInput, scrapeSettingsInput } from '#shared/scrape.ts';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { route, type RestRoute } from '../route.ts';

const zipList = z.object({
  zipCodes: z.array(z.string()).describe('5-digit ZIP codes of US states; trimmed, duplicates dropped, at most 25'),
});

const zipResult = z.object({
  zip: z.string(),
  status: z.enum(['succeeded', 'failed']),
  message: z.string().nullable(),
  locationName: z.string().nullable(),
  listingsSeen: z.number(),
  accepted: z.number(),
  observations: z.number(),
  skipped: z.record(z.string(), z.number()).describe('Listings left out, by reason'),
  rejected: z.record(z.string(), z.number()).describe('Shell eggs rejected, by reason'),
  requests: z.number(),
  retries: z.number().describe('requests sent again after a timeout, a network error or a 5xx answer'),
  rateLimitWaits: z.number().describe('429 answers whose Retry-After was waited out'),
  rateLimitWaitMs: z.number(),
  finishedAt: z.string(),
});

const runSchema = z.object({
  id: z.number(),
  store: z.enum(STORE_IDS),
  status: z.enum(RUN_STATUSES),
  trigger: z.enum(['manual', 'schedule']),
  demo: z.boolean(),
  zipCodes: z.array(z.string()),
  progress: z.number(),
  total: z.number(),
  listingsSeen: z.number(),
  accepted: z.number(),
  skipped: z.record(z.string(), z.number()),
  rejected: z.record(z.string(), z.number()),
  observationsWritten: z.number(),
  message: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  zips: z.array(zipResult),
});

const statusSchema = z.object({
  active: z.boolean(),
  lastRun: z.string().nullable(),
  nextScheduledRun: z.string().nullable(),
  message: z.string(),
  run: runSchema.nullable(),
  lastSuccessAt: z.string().nullable(),
  stale: z.boolean(),
});

const settingsSchema = z.object({
  dailyEnabled: z.boolean(),
  hourUtc: z.number(),
  zipCodes: z.array(z.string()),
  updatedAt: z.string(),
  nextScheduledRun: z.string().nullable(),
});

export const scrapeRoutes: RestRoute[] = [
  route({
    method: 'POST',
    path: '/scrape/:store',
    summary: "Start a store's scraper over ZIP codes; 202 with the run id",
    procedure: 'scrape.start',
    params: { store: `The scraper: ${STORE_IDS.join(', ')}` },
    body: zipList,
    response: z.object({
      runId: z.number(),
      store: z.enum(STORE_IDS),
      status: z.literal('queued'),
      zipCodes: z.array(z.string()),
      message: z.string(),
    }),
    status: 202,
    auth: 'admin',
    errors: { 409: "A run of this store's scraper is queued or running, or the store is inactive" },
  }),
  route({
    method: 'POST',
    path: '/scrape/all',
    summary:
      "Start every active store's scraper over the same ZIP codes; stores with a run already queued or running are listed in busy",
    procedure: 'scrape.startAll',
    body: scrapeAllInput,
    status: 202,
    auth: 'admin',
    response: z.object({
      queued: z.array(z.object({ store: z.enum(STORE_IDS), runId: z.number() })),
      busy: z.array(z.enum(STORE_IDS)),
      inactive: z.array(z.enum(STORE_IDS)),
      zipCodes: z.array(z.string()),
      message: z.string(),
    }),
    errors: { 409: 'No scraper could start: every active one is busy' },
  }),
  route({
    method: 'GET',
    path: '/scrape/status',
    summary: "The Walmart scraper's status (active, lastRun, nextScheduledRun, message)",
    procedure: 'scrape.status',
    response: statusSchema,
    auth: 'admin',
  }),
  route({
    method: 'GET',
    path: '/scrape/all-status',
    summary: 'Every scraper status, keyed by store id',
    procedure: 'scrape.allStatus',
    response: z.record(z.enum(STORE_IDS), statusSchema),
    auth: 'admin',
  }),
  route({
    method: 'GET',
    path: '/scrape/runs',
    summary: 'Scraper runs, the most recent first, with progress, counts and per-ZIP outcomes',
    procedure: 'scrape.runs',
    query: scrapeRunsInput,
    response: z.array(runSchema),
    auth: 'admin',
    list: { defaultLimit: 10, total: ({ input, call }) => call('scrape.runsCount', input) as Promise<number> },
  }),
  route({
    method: 'GET',
    path: '/scrape/runs/:id',
    summary: 'One scraper run',
    procedure: 'scrape.run',
    params: { id: "The run's id (runId of its start)" },
    response: runSchema,
    auth: 'admin',
    errors: { 404: 'No run with that id' },
  }),
  route({
    method: 'GET',
    path: '/scrape/settings',
    summary: 'The daily scraping schedule',
    procedure: 'scrape.settings',
    response: settingsSchema,
    auth: 'admin',
  }),
  route({
    method: 'PUT',
    path: '/scrape/settings',
    summary: 'Change the daily scraping schedule (on or off, UTC hour, ZIP codes)',
    procedure: 'scrape.updateSettings',
    body: scrapeSettingsInput,
    response: settingsSchema,
    auth: 'admin',
  }),
];
