// Scraper runs and their schedule (SPEC §2 Data Scrapers, §7 scrape calls): administrators only.
// A start writes the run and its graphile-worker job in one transaction and answers at once; the
// worker does the scraping (never inside a request).
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { nextDailyRun, SCRAPER_NAMES, scrapeRunsInput, scrapeSettingsInput, scrapeStartInput } from '#shared/scrape.ts';
import { adminProcedure, router } from '../trpc.ts';
import { getRun, getScrapeSettings, listRuns, queueRun, scraperStatuses, updateScrapeSettings } from '../queries/scrape.ts';

export const scrapeRouter = router({
  start: adminProcedure.input(scrapeStartInput).mutation(async ({ ctx, input }) => {
    const name = SCRAPER_NAMES[input.store];
    const runId = await ctx.sql.begin(async (tx) => {
      const [store] = await tx<Array<{ active: boolean }>>`select active from stores where id = ${input.store}`;
      if (!store) throw new TRPCError({ code: 'NOT_FOUND', message: `No store ${input.store}` });
      if (!store.active) throw new TRPCError({ code: 'CONFLICT', message: `${name} is inactive; activate the store before scraping it.` });
      return queueRun(tx, { store: input.store, zipCodes: input.zipCodes, requestedBy: ctx.user.id, trigger: 'manual' });
    });
    if (runId === null) throw new TRPCError({ code: 'CONFLICT', message: `A ${name} scrape is already queued or running; wait for it to finish.` });
    return {
      runId,
      store: input.store,
      status: 'queued' as const,
      zipCodes: input.zipCodes,
      message: `The ${name} scraper is queued for ${input.zipCodes.length} ZIP code${input.zipCodes.length === 1 ? '' : 's'}.`,
    };
  }),

  /** SPEC §7 GET /api/scrape/status: the dashboard card's scraper (Walmart). */
  status: adminProcedure.query(async ({ ctx }) => (await scraperStatuses(ctx.sql)).walmart),

  /** SPEC §7 GET /api/scrape/all-status: keyed walmart, target, kroger, albertsons, whole-foods, aldi. */
  allStatus: adminProcedure.query(({ ctx }) => scraperStatuses(ctx.sql)),

  runs: adminProcedure.input(scrapeRunsInput).query(({ ctx, input }) => listRuns(ctx.sql, input)),

  run: adminProcedure.input(z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }).strict()).query(async ({ ctx, input }) => {
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
