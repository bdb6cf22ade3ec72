// The REST table: every path under /api, by domain.
import type { RestRoute } from '../route.ts';
import { accountRoutes } from './accounts.ts';
import { coverageRoutes } from './coverage.ts';
import { egressRoutes } from './egress.ts';
import { officialRoutes } from './official.ts';
import { priceRoutes } from './prices.ts';
import { scrapeRoutes } from './scrape.ts';
import { storeRoutes } from './stores.ts';
import { alertRoutes } from './alerts.ts';

export const REST_ROUTES: readonly RestRoute[] = [
  ...priceRoutes,
  ...storeRoutes,
  ...accountRoutes,
  ...alertRoutes,
  ...scrapeRoutes,
  ...coverageRoutes,
  ...egressRoutes,
  ...officialRoutes,
];
