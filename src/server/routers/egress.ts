// Egress (admin area's Data Scrapers and Coverage tabs, /api/scrapers/...): administrators only.
// Each retailer's egress as configured, redacted to hosts and ports (the credentials stay in the
// environment and never leave the server), the tier in use, its last 24 hours by tier, and Test
// connection: a start writes the test and its job in one transaction and answers at once; the
// worker sends the requests (never inside a request).
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  defaultEgressSettings,
  egressTestInput,
  redactRetailerEgress,
  spacingMs,
  type EgressTestResult,
} from '#shared/egress.ts';
import { SCRAPER_NAMES } from '#shared/scrape.ts';
import { STORE_IDS } from '#shared/vocabulary.ts';
import { DEFAULT_SCRAPE_CONFIG } from '#shared/scrape.ts';
import { enforce, LIMITS } from '../auth/rate-limit.ts';
import { adminProcedure, router } from '../trpc.ts';
import type { Context } from '../context.ts';
import {
  getTest,
  latestTests,
  queueTest,
  readTiers,
  requestsToday,
  usageLastDay,
  type EgressTestRow,
} from '../queries/egress.ts';

const settingsOf = (ctx: Context) => ctx.config.egress ?? defaultEgressSettings();

export function testView(row: EgressTestRow) {
  return {
    id: row.id,
    store: row.store,
    zipCode: row.zip,
    status: row.status,
    message: row.message,
    result: (row.result ?? null) as EgressTestResult | null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
export type EgressTestView = ReturnType<typeof testView>;

export const egressRouter = router({
  /** Every retailer's egress: tiers and proxies (host and port), transport, pace, budget, tier in use, last 24 hours. */
  overview: adminProcedure.query(async ({ ctx }) => {
    const settings = settingsOf(ctx);
    const delayMs = ctx.config.scrapeDelayMs ?? DEFAULT_SCRAPE_CONFIG.http.delayMs;
    const [usage, tiers, tests] = await Promise.all([usageLastDay(ctx.sql), readTiers(ctx.sql), latestTests(ctx.sql)]);
    return Promise.all(
      STORE_IDS.map(async (store) => {
        const retailer = settings.retailers[store];
        const view = redactRetailerEgress(retailer);
        const now = tiers.find((t) => t.store === store);
        // The tier in use: the stored one when it is one of today's tiers and its cool-off holds.
        const current =
          now && retailer.tiers[now.index]?.name === now.tier && (now.coolUntil === null || now.coolUntil > new Date())
            ? now
            : null;
        const seen = usage.filter((u) => u.store === store);
        const names = [...view.tiers.map((t) => t.name), ...seen.map((u) => u.tier)];
        const test = tests.find((t) => t.store === store);
        return {
          store,
          name: SCRAPER_NAMES[store],
          ...view,
          requestsPerMinute: retailer.requestsPerMinute ?? Math.round(60_000 / Math.max(delayMs, 1)),
          paceSource: retailer.requestsPerMinute === null ? ('delay' as const) : ('retailer' as const),
          spacingMs: retailer.requestsPerMinute === null ? delayMs : spacingMs(retailer.requestsPerMinute),
          tierInUse: {
            name: current?.tier ?? view.tiers[0]!.name,
            coolUntil: current?.coolUntil?.toISOString() ?? null,
            reason: current && current.index > 0 ? current.reason : null,
          },
          requestsToday: await requestsToday(ctx.sql, store),
          lastDay: [...new Set(names)].map((tier) => {
            const row = seen.find((u) => u.tier === tier);
            return {
              tier,
              configured: view.tiers.some((t) => t.name === tier),
              requests: row?.requests ?? 0,
              walls: row?.walls ?? 0,
              failures: row?.failures ?? 0,
            };
          }),
          latestTest: test ? testView(test) : null,
        };
      }),
    );
  }),

  /** Test connection: queued for the worker; 409 while one of the retailer's is queued or running. */
  test: adminProcedure.input(egressTestInput).mutation(async ({ ctx, input }) => {
    await enforce(ctx, [[`egress-test:${ctx.user.id}`, LIMITS.egressTestPerAdmin]]);
    const name = SCRAPER_NAMES[input.store];
    const id = await ctx.sql.begin((tx) =>
      queueTest(tx, { store: input.store, zip: input.zipCode, requestedBy: ctx.user.id }),
    );
    if (id === null)
      throw new TRPCError({
        code: 'CONFLICT',
        message: `A ${name} connection test is already queued or running; wait for it to finish.`,
      });
    const row = await getTest(ctx.sql, id);
    return { ...testView(row!), message: `The ${name} connection test is queued for ${input.zipCode}.` };
  }),

  /** One test, as it stands. */
  testResult: adminProcedure
    .input(
      z
        .object({
          id: z.coerce.number().int().positive().max(2_147_483_647),
          store: z.enum(STORE_IDS, { message: `store must be one of ${STORE_IDS.join(', ')}` }).optional(),
        })
        .strict(),
    )
    .query(async ({ ctx, input }) => {
      const row = await getTest(ctx.sql, input.id);
      if (!row || (input.store && row.store !== input.store))
        throw new TRPCError({ code: 'NOT_FOUND', message: `No connection test ${input.id}` });
      return testView(row);
    }),
});
