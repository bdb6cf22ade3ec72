import { compareByTypeInput } from '#shared/inputs.ts';
import { cachedProcedure, router } from '../trpc.ts';
import { compareByType } from '../queries/compare.ts';

export const compareRouter = router({
  /**
   * The compare page for one egg type: the summary figures of its current entries, one page of
   * them (cheapest per dozen first, with 7 days of history) with their total, the pack sizes and a
   * 30-day per-region series. An unknown egg type is a BAD_REQUEST with the egg-type schema's
   * message.
   */
  byType: cachedProcedure(['prices', 'rollups'], compareByTypeInput).query(({ ctx, input }) =>
    compareByType(
      ctx.sql,
      { eggType: input.eggType, region: input.region, count: input.count },
      { page: input.page, pageSize: input.pageSize },
    ),
  ),
});
