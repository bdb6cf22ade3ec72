// Scraper runs and their schedule: administrators only.
// A start writes the run and its graphile-worker job in one transaction and answers at once; the
// worker does the scraping (never inside a request).
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  nextDailyRun,
  SCRAPER_NAMES,
  scrapeAllInput,
  scrapeRunsCountInput,
  scrapeRunsInput,
  scrapeSettingsInput,
  scrapeStartInput,
} from '#shared/scrape.ts';
import { STORE_IDS, type StoreId } from '#shared/vocabulary.ts';
import { intParam } from '#shared/inputs.ts';
import { adminProcedure, router } from '../trpc.ts';
import {
  countRuns,
  getRun,
  getScrapeSettings,
  listRuns,
  queueRun,
  scraperStatuses,
  updateScrapeSettings,
} from '../queries/scrape.ts';
import { activeStoreIds, storeActive } from '../queries/stores.ts';

export const scrapeRouter = router({
  start: adminProcedure.input(scrapeStartInput).mutation(async ({ ctx, input }) => {
    const name = SCRAPER_NAMES[input.store];
    const runId = await ctx.sql.begin(async (tx) => {
      const active = await storeActive(tx, input.store);
      if (active === null) throw new TRPCError({ code: 'NOT_FOUND', message: `No store ${input.store}` });
      if (!active)
        throw new TRPCError({
          code: 'CONFLICT',
          message: `${name} is inactive; activate the store before scraping it.`,
        });
      return queueRun(tx, {
        store: input.store,
        zipCodes: input.zipCodes,
        requestedBy: ctx.user.id,
        trigger: 'manual',
      });
    });
    if (runId === null)
      throw new TRPCError({
        code: 'CONFLICT',
        message: `A ${name} scrape is already queued or running; wait for it to finish.`,
      });
    return {
      runId,
      store: input.store,
      status: 'queued' as const,
      zipCodes: input.zipCodes,
      message: `The ${name} scraper is queued for ${input.zipCodes.length} ZIP code${input.zipCodes.length === 1 ? '' : 's'}.`,
    };
  }),

  /**
   * Run all: every active store's scraper over the same ZIP codes, each queued in its own
   * transaction as a single start is. A store that already has a run queued or running is named
   * in the answer, not failed silently; with nothing queued at all the answer is a conflict.
   */
  startAll: adminProcedure.input(scrapeAllInput).mutation(async ({ ctx, input }) => {
    const active = new Set(await activeStoreIds(ctx.sql));
    const queued: Array<{ store: StoreId; runId: number }> = [];
    const busy: StoreId[] = [];
    for (const store of STORE_IDS.filter((id) => active.has(id))) {
      const runId = await ctx.sql.begin((tx) =>
        queueRun(tx, { store, zipCodes: input.zipCodes, requestedBy: ctx.user.id, trigger: 'manual' }),
      );
      if (runId === null) busy.push(store);
      else queued.push({ store, runId });
    }
    const names = (stores: StoreId[]) => stores.map((s) => SCRAPER_NAMES[s]).join(', ');
    const busyText = busy.length ? ` Already queued or running: ${names(busy)}.` : '';
    if (queued.length === 0) {
      throw new TRPCError({
        code: 'CONFLICT',
        message:
          active.size === 0
            ? 'No store is active; activate a store before scraping.'
            : `No scraper started: every active store already has a run queued or running (${names(busy)}).`,
      });
    }
    const zips = `${input.zipCodes.length} ZIP code${input.zipCodes.length === 1 ? '' : 's'}`;
    return {
      queued,
      busy,
      inactive: STORE_IDS.filter((id) => !active.has(id)),
      zipCodes: input.zipCodes,
      message: `Queued ${queued.length === 1 ? 'the scraper' : `${queued.length} scrapers`} for ${zips}: ${names(queued.map((q) => q.store))}.${busyText}`,
    };
  }),

  /** GET /api/scrape/status: the dashboard card's scraper (Walmart). */
  status: adminProcedure.query(async ({ ctx }) => (await scraperStatuses(ctx.sql)).walmart),

  /** GET /api/scrape/all-status: keyed walmart, target, kroger, albertsons, whole-foods, aldi. */
  allStatus: adminProcedure.query(({ ctx }) => scraperStatuses(ctx.sql)),

  runs: adminProcedure.input(scrapeRunsInput).query(({ ctx, input }) => listRuns(ctx.sql, input)),

  /** How many runs scrape.runs pages through (X-Total-Count). */
  runsCount: adminProcedure.input(scrapeRunsCountInput).query(({ ctx, input }) => countRuns(ctx.sql, input)),

  run: adminProcedure
    .input(z.object({ id: intParam('id', 1, 2_147_483_647) }).strict())
    .query(async ({ ctx, input }) => {
      const run = await getRun(ctx.sql, input.id);
      if (!run) throw new TRPCError({ code: 'NOT_FOUND', message: `No scrape run ${input.id}` });
      return run;
    }),

  settings: adminProcedure.query(async ({ ctx }) => {
    const settings = await getScrapeSettings(ctx.sql);
    return { ...settings, nextScheduledRun: nextDailyRun(settings)?.toISOString() ?? null };
  }),

  updateSettings: adminProcedure.input(scrapeSettingsInput).mutation(async ({ ctx, input }) => {
    const settings = await updateScrapeSettings(ctx.sql, input, ctx.user.id);
    return { ...settings, nextScheduledRun: nextDailyRun(settings)?.toISOString() ?? null };
  }),
});
