// Nationwide coverage (admin area's Coverage tab, /api/coverage): administrators only. A start
// writes its coverage run and its job in one transaction and answers at once; the worker sweeps
// and visits in the retailer's queue (never inside a request).
import { z } from 'zod';
import {
  coverageDiscoverInput,
  coveragePlanInput,
  coverageScopeSchema,
  coverageStoreSchema,
  planCost,
  scopeText,
} from '#shared/coverage.ts';
import { DEFAULT_SCRAPE_CONFIG, SCRAPER_NAMES } from '#shared/scrape.ts';
import { adminProcedure, router } from '../trpc.ts';
import type { Context } from '../context.ts';
import { savePlan, scopeSize, startDiscovery, startVisitDay } from '../queries/coverage.ts';
import { coverageFigures, requestsPerVisit } from '../queries/coverage-figures.ts';

const delayOf = (ctx: Context) => ctx.config.scrapeDelayMs ?? DEFAULT_SCRAPE_CONFIG.http.delayMs;

export const coverageScopeSizeInput = z.object({ store: coverageStoreSchema, scope: coverageScopeSchema }).strict();

export const coverageRouter = router({
  /** Every retailer's figures, its running or latest discovery and visit day, and its plan with its cost. */
  overview: adminProcedure.query(({ ctx }) => coverageFigures(ctx.sql, { delayMs: delayOf(ctx) })),

  discover: adminProcedure.input(coverageDiscoverInput).mutation(async ({ ctx, input }) => {
    const { runId } = await startDiscovery(ctx.sql, {
      store: input.store,
      scope: input.scope,
      userId: ctx.user.id,
      trigger: 'manual',
    });
    return {
      runId,
      store: input.store,
      status: 'queued' as const,
      scope: input.scope,
      message: `${SCRAPER_NAMES[input.store]} discovery is queued: ${scopeText(input.scope)}.`,
    };
  }),

  savePlan: adminProcedure.input(coveragePlanInput).mutation(async ({ ctx, input }) => {
    const delayMs = delayOf(ctx);
    const plan = await savePlan(ctx.sql, { ...input, userId: ctx.user.id, delayMs });
    const [storesInScope, perVisit] = await Promise.all([
      scopeSize(ctx.sql, input.store, plan.scope),
      requestsPerVisit(ctx.sql),
    ]);
    const cost = planCost({
      storesInScope,
      requestsPerVisit: perVisit[input.store].value,
      revisitDays: plan.revisitDays,
      dailyRequestBudget: plan.dailyRequestBudget,
      delayMs,
    });
    return { ...plan, storesInScope, requestsPerVisit: perVisit[input.store], cost };
  }),

  visit: adminProcedure.input(z.object({ store: coverageStoreSchema }).strict()).mutation(async ({ ctx, input }) => {
    const { runId } = await startVisitDay(ctx.sql, { store: input.store, userId: ctx.user.id, trigger: 'manual' });
    return {
      runId,
      store: input.store,
      status: 'queued' as const,
      message: `${SCRAPER_NAMES[input.store]} visit day is queued.`,
    };
  }),

  /** Known stores of a retailer inside a draft scope: the plan form's cost before saving. */
  scopeSize: adminProcedure.input(coverageScopeSizeInput).query(async ({ ctx, input }) => ({
    store: input.store,
    storesInScope: await scopeSize(ctx.sql, input.store, input.scope),
  })),
});
