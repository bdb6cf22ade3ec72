import { router } from '../trpc.ts';
import { adminRouter } from './admin.ts';
import { authRouter } from './auth.ts';
import { alertsRouter } from './alerts.ts';
import { usersRouter } from './users.ts';
import { compareRouter } from './compare.ts';
import { marketRouter } from './market.ts';
import { pricesRouter } from './prices.ts';
import { statsRouter } from './stats.ts';
import { storesRouter } from './stores.ts';
import { scrapeRouter } from './scrape.ts';
import { newsRouter } from './news.ts';
import { outboxRouter } from './outbox.ts';
import { coverageRouter } from './coverage.ts';
import { egressRouter } from './egress.ts';
import { officialRouter } from './official.ts';
import { policiesRouter } from './policies.ts';

export const appRouter = router({
  prices: pricesRouter,
  stores: storesRouter,
  stats: statsRouter,
  market: marketRouter,
  auth: authRouter,
  users: usersRouter,
  alerts: alertsRouter,
  admin: adminRouter,
  compare: compareRouter,
  scrape: scrapeRouter,
  news: newsRouter,
  outbox: outboxRouter,
  coverage: coverageRouter,
  egress: egressRouter,
  official: officialRouter,
  policies: policiesRouter,
});

export type AppRouter = typeof appRouter;
