import { z } from 'zod';
import { dashboardInput, priceListInput } from '#shared/inputs.ts';
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { selectListing } from '#shared/sort.ts';
import { clampPage, pageCount, pageItems } from '#shared/pagination.ts';
import { eggTypeSchema, regionSchema, storeIdSchema } from '#shared/schemas.ts';
import { publicProcedure, router } from '../trpc.ts';
import { listPriceEntries, recentHistory } from '../queries/prices.ts';

/** One exact combination a price card can be switched to: every field is required, none is 'all'. */
export const priceLookupInput = z
  .object({
    store: storeIdSchema,
    region: regionSchema,
    egg_type: eggTypeSchema,
    count: z.coerce.number({ message: 'count must be a number' }).int('count must be a whole number').min(1).max(360),
  })
  .strict();

export const pricesRouter = router({
  /** Current price entries, optionally filtered and paged (GET /api/egg-prices). */
  list: publicProcedure.input(priceListInput.optional()).query(({ ctx, input = {} }) =>
    ctx.cache.get(`prices.list:${JSON.stringify(input)}`, () =>
      listPriceEntries(
        ctx.sql,
        { store: input.store, region: input.region, eggType: input.egg_type, count: input.count },
        { limit: input.limit, offset: input.offset },
      ),
    ),
  ),

  /**
   * The dashboard's Egg Prices list: SPEC §5's filter, one entry per store and sort, applied by
   * the shared domain rules to the current entries, then one page of them with each entry's
   * last 7 days of prices for its sparkline.
   */
  dashboard: publicProcedure.input(dashboardInput).query(({ ctx, input }) =>
    ctx.cache.get(`prices.dashboard:${JSON.stringify(input)}`, async () => {
      const all = await ctx.cache.get('prices.all', () => listPriceEntries(ctx.sql));
      const listing = selectListing(all, input.filters ?? DEFAULT_FILTERS);
      const pages = pageCount(listing.length, input.pageSize);
      const page = clampPage(input.page, pages);
      const items = pageItems(listing, page, input.pageSize);
      const history = await recentHistory(ctx.sql, items.map((e) => e.id));
      return {
        items: items.map((entry) => ({ ...entry, history: history.get(entry.id) ?? [entry.price] })),
        total: listing.length,
        page,
        pageSize: input.pageSize,
        pageCount: pages,
      };
    }),
  ),

  /**
   * The observed current price of one store, region, egg type and pack size, with its recent
   * history for the sparkline, or null when that store has no such product there (a price card
   * then shows an estimate instead).
   */
  lookup: publicProcedure.input(priceLookupInput).query(({ ctx, input }) =>
    ctx.cache.get(`prices.lookup:${JSON.stringify(input)}`, async () => {
      const [entry] = await listPriceEntries(
        ctx.sql,
        { store: input.store, region: input.region, eggType: input.egg_type, count: input.count },
        { limit: 1 },
      );
      if (!entry) return null;
      const history = await recentHistory(ctx.sql, [entry.id]);
      return { ...entry, history: history.get(entry.id) ?? [entry.price] };
    }),
  ),
});
