// The news ticker: price events computed from the data, cached until prices change.
import { cachedProcedure, router } from '../trpc.ts';
import { tickerEvents } from '../queries/price-events.ts';

export const newsRouter = router({
  ticker: cachedProcedure(['prices', 'rollups']).query(({ ctx }) => tickerEvents(ctx.sql)),
});
