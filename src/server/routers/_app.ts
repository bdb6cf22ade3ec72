import { router } from '../trpc.ts';
import { marketRouter } from './market.ts';
import { pricesRouter } from './prices.ts';
import { statsRouter } from './stats.ts';
import { storesRouter } from './stores.ts';

export const appRouter = router({
  prices: pricesRouter,
  stores: storesRouter,
  stats: statsRouter,
  market: marketRouter,
});

export type AppRouter = typeof appRouter;
