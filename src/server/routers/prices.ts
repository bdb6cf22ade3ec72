import { dashboardInput, priceListInput } from '#shared/inputs.ts';
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { selectListing } from '#shared/sort.ts';
import { clampPage, pageCount, pageItems } from '#shared/pagination.ts';
import { publicProcedure, router } from '../trpc.ts';
import { listPriceEntries, recentHistory } from '../queries/prices.ts';

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
});
