import { cachedProcedure, router } from '../trpc.ts';
import { readStats } from '../queries/stats.ts';

export const statsRouter = router({
  /** National average, weekly volatility, lowest price and the 7- and 30-day trend series. */
  get: cachedProcedure(['prices', 'rollups']).query(({ ctx }) => readStats(ctx.sql)),
});
