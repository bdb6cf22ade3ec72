import { priceListInput } from '#shared/inputs.ts';
import { publicProcedure, router } from '../trpc.ts';
import { listPriceEntries } from '../queries/prices.ts';

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
});
