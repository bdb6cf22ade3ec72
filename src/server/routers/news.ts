// The news ticker (SPEC §2): price events computed from the data, cached until prices change.
import { publicProcedure, router } from '../trpc.ts';
import { tickerEvents } from '../queries/price-events.ts';

export const newsRouter = router({
  ticker: publicProcedure.query(({ ctx }) => ctx.cache.get('news.ticker', () => tickerEvents(ctx.sql))),
});
