import { marketSeriesInput } from '#shared/inputs.ts';
import { cachedProcedure, router } from '../trpc.ts';
import { marketSeries } from '../queries/market.ts';

export const marketRouter = router({
  /** BLS monthly average price series (grade A large; the West only as grade AA). */
  series: cachedProcedure(['official'], marketSeriesInput.optional()).query(({ ctx, input = {} }) =>
    marketSeries(ctx.sql, {
      from: input.from ? `${input.from}-01` : undefined,
      regions: input.region && input.region !== 'all' ? [input.region] : undefined,
    }),
  ),
});
