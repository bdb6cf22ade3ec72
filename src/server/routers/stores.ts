import {
  storeIdInput,
  storeInsightsInput,
  storeInsightsPageInput,
  storeLocationsCountInput,
  storeLocationsInput,
  storePricesInput,
} from '#shared/inputs.ts';
import { cachedProcedure, publicProcedure, router } from '../trpc.ts';
import { listStores, requireStore } from '../queries/stores.ts';
import { listPriceEntries } from '../queries/prices.ts';
import { storeFilterOptions, storeInsights } from '../queries/insights.ts';
import { storeLocationFigures } from '../queries/location-figures.ts';
import { countLocations, listLocations } from '../queries/coverage.ts';

export const storesRouter = router({
  list: cachedProcedure([]).query(({ ctx }) => listStores(ctx.sql)),

  byId: cachedProcedure([], storeIdInput).query(({ ctx, input }) => requireStore(ctx.sql, input.storeId)),

  prices: cachedProcedure(['prices'], storePricesInput).query(async ({ ctx, input }) => {
    await requireStore(ctx.sql, input.storeId);
    return listPriceEntries(
      ctx.sql,
      { store: input.storeId, region: input.region, eggType: input.egg_type, count: input.count },
      { limit: input.limit, offset: input.offset },
    );
  }),

  /**
   * The store page's insights, daily series and competitive analysis under its filters, with one
   * page of its entries (cheapest per dozen first) and their total.
   */
  insights: cachedProcedure(['prices', 'rollups'], storeInsightsPageInput).query(async ({ ctx, input }) => {
    await requireStore(ctx.sql, input.storeId);
    return storeInsights(
      ctx.sql,
      input.storeId,
      { region: input.region, eggType: input.egg_type, count: input.count },
      { page: input.page, pageSize: input.pageSize },
    );
  }),

  /** The store page's filter options: the regions, egg types and pack sizes of its visible prices. */
  filterOptions: cachedProcedure(['prices', 'rollups'], storeIdInput).query(async ({ ctx, input }) => {
    await requireStore(ctx.sql, input.storeId);
    return storeFilterOptions(ctx.sql, input.storeId);
  }),

  /**
   * What the store's locations charge today for each region, egg type and pack size under the
   * filters: the median per dozen, its range, how many locations and the cheapest of them.
   */
  locationFigures: cachedProcedure(['prices', 'rollups'], storeInsightsInput).query(async ({ ctx, input }) => {
    await requireStore(ctx.sql, input.storeId);
    return storeLocationFigures(ctx.sql, input.storeId, {
      region: input.region,
      eggType: input.egg_type,
      count: input.count,
    });
  }),

  /**
   * A chain's known open stores (its directory, grown by discovery) with address, coordinates and
   * when each last gave prices, by state, city and name; paged. Not cached: discovery changes it.
   */
  locations: publicProcedure.input(storeLocationsInput).query(async ({ ctx, input }) => {
    await requireStore(ctx.sql, input.storeId);
    return listLocations(ctx.sql, {
      store: input.storeId,
      state: input.state,
      limit: input.limit,
      offset: input.offset,
    });
  }),

  /** How many stores stores.locations matches before limit and offset (X-Total-Count). */
  locationsCount: publicProcedure.input(storeLocationsCountInput).query(async ({ ctx, input }) => {
    await requireStore(ctx.sql, input.storeId);
    return countLocations(ctx.sql, { store: input.storeId, state: input.state });
  }),
});
