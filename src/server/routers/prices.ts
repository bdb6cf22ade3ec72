import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { dashboardInput, entryFiltersInput, priceListInput } from '#shared/inputs.ts';
import { historyInput, nearInput, type HistoryResult, type NearResult } from '#shared/near.ts';
import { DEFAULT_FILTERS } from '#shared/filters.ts';
import { selectListing } from '#shared/sort.ts';
import { clampPage, pageCount, pageItems } from '#shared/pagination.ts';
import { eggTypeSchema, regionSchema, storeIdSchema } from '#shared/schemas.ts';
import { cachedProcedure, router } from '../trpc.ts';
import { countPriceEntries, listPriceEntries, nearestEntry, recentHistory } from '../queries/prices.ts';
import { cheapestPerStore } from '../queries/cheapest.ts';
import { nearEntries } from '../queries/near.ts';
import { productHistory } from '../queries/history.ts';
import { zipFacts } from '../geo.ts';
import {
  priceMapInput,
  priceMapCheapestInput,
  type PriceMapResult,
  type PriceMapCheapestResult,
} from '#shared/price-map.ts';
import { cheapestInState, readPriceMap } from '../queries/price-map.ts';
import { requireStore } from '../queries/stores.ts';
import { locationFigures } from '../queries/location-figures.ts';
import { combinationKey } from '#shared/location-figures.ts';

/**
 * One exact combination a price card can be switched to: every field is required, none is 'all';
 * location (the card's store location) is preferred among equally near prices.
 */
export const priceLookupInput = z
  .object({
    store: storeIdSchema,
    region: regionSchema,
    egg_type: eggTypeSchema,
    count: z.coerce.number({ message: 'count must be a number' }).int('count must be a whole number').min(1).max(360),
    location: z.coerce
      .number({ message: 'location must be a number' })
      .int('location must be a whole number')
      .positive()
      .max(2_147_483_647)
      .optional(),
  })
  .strict();

export const pricesRouter = router({
  /** Today's median price of a dozen per state, with its change since last week (GET /api/egg-prices/by-state). */
  map: cachedProcedure(['prices', 'rollups'], priceMapInput.optional()).query(
    ({ ctx, input }): Promise<PriceMapResult> => {
      const { egg_type, count } = priceMapInput.parse(input ?? {});
      return readPriceMap(ctx.sql, { eggType: egg_type, count });
    },
  ),

  /** A state's cheapest entries today (GET /api/egg-prices/by-state/{state}). */
  mapCheapest: cachedProcedure(['prices'], priceMapCheapestInput).query(
    ({ ctx, input }): Promise<PriceMapCheapestResult> =>
      cheapestInState(ctx.sql, {
        state: input.state,
        eggType: input.egg_type,
        count: input.count,
        limit: input.limit,
        offset: input.offset,
      }),
  ),

  /** Current price entries, optionally filtered and paged (GET /api/egg-prices). */
  list: cachedProcedure(['prices'], priceListInput.optional()).query(async ({ ctx, input = {} }) => {
    if (input.store) await requireStore(ctx.sql, input.store);
    return listPriceEntries(
      ctx.sql,
      { store: input.store, region: input.region, eggType: input.egg_type, count: input.count },
      { limit: input.limit, offset: input.offset },
    );
  }),

  /** How many current entries the filters match (X-Total-Count of a paged GET /api/egg-prices). */
  count: cachedProcedure(['prices'], entryFiltersInput.optional()).query(async ({ ctx, input = {} }) => {
    if (input.store) await requireStore(ctx.sql, input.store);
    return countPriceEntries(ctx.sql, {
      store: input.store,
      region: input.region,
      eggType: input.egg_type,
      count: input.count,
    });
  }),

  /**
   * Near you: the current entries around a ZIP code ranked by price per dozen, within the radius,
   * else the next larger radius that has any, else the ZIP's census region (src/shared/near.ts).
   */
  near: cachedProcedure(['prices'], nearInput).query(async ({ ctx, input }): Promise<NearResult> => {
    const place = zipFacts(input.zip);
    if (!place) throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown ZIP code ${input.zip}` });
    const found = await nearEntries(ctx.sql, {
      origin: place,
      zip: place.zip,
      region: place.region,
      radius: input.radius,
      eggType: input.egg_type,
      count: input.count,
      limit: input.limit,
      offset: input.offset,
    });
    return {
      zip: place.zip,
      city: place.city,
      state: place.state,
      region: place.region,
      radius: input.radius,
      scope: found.scope,
      radius_used: found.radiusUsed,
      total: found.total,
      entries: found.entries,
      nearest: found.nearest,
    };
  }),

  /**
   * A product's daily prices at one location over 30, 90 or 365 days, with the BLS national average
   * beside them. The span ends today (UTC); no cached answer outlives the UTC day it was computed on.
   */
  history: cachedProcedure(['prices', 'official'], historyInput).query(
    async ({ ctx, input }): Promise<HistoryResult> => {
      const history = await productHistory(ctx.sql, {
        productId: input.id,
        locationId: input.location,
        days: input.days,
      });
      if (!history)
        throw new TRPCError({
          code: 'NOT_FOUND',
          message: `No price history for product ${input.id} at location ${input.location}`,
        });
      return history;
    },
  ),

  /**
   * The dashboard's Egg Prices list: each store's cheapest pack per dozen within the filters
   * (cheapestPerStore, the rule every screen uses), sorted by the shared listing rule
   * (selectListing), then one page of them with each entry's last 7 days of prices for its sparkline.
   */
  dashboard: cachedProcedure(['prices', 'rollups'], dashboardInput).query(async ({ ctx, input }) => {
    const filters = input.filters ?? DEFAULT_FILTERS;
    const { entries: chosen, fromFigures } = await cheapestPerStore(ctx.sql, {
      store: filters.store === 'all' ? undefined : filters.store,
      eggType: filters.eggType === 'all' ? undefined : filters.eggType,
      region: filters.region === 'all' ? undefined : filters.region,
      count: filters.countRange ?? undefined,
    });
    // The same rules over the chosen entries keep them all, in the same order.
    const listing = selectListing(chosen, filters);
    const pages = pageCount(listing.length, input.pageSize);
    const page = clampPage(input.page, pages);
    const items = pageItems(listing, page, input.pageSize);
    // What each card's store charges across its locations: one query for this page's cards only,
    // as of the same rollup refresh as the listing when it was chosen from the store figures.
    const [history, figures] = await Promise.all([
      recentHistory(
        ctx.sql,
        items.map((e) => e.id),
      ),
      locationFigures(ctx.sql, items, { precomputed: fromFigures }),
    ]);
    return {
      items: items.map((entry) => ({
        ...entry,
        history: history.get(entry.id) ?? [entry.price],
        locations: figures.get(combinationKey(entry)) ?? null,
      })),
      total: listing.length,
      page,
      pageSize: input.pageSize,
      pageCount: pages,
    };
  }),

  /**
   * The observed current price of one store, region, egg type and pack size, or, when the store
   * has none, its nearest observed price (nearestEntry), which a price card shows as the named
   * basis of an estimate; with its recent history for the sparkline and what the store's
   * locations charge for that combination today (null when none has a price of it today). null
   * when the store has no price at all.
   */
  lookup: cachedProcedure(['prices'], priceLookupInput).query(async ({ ctx, input }) => {
    const entry = await nearestEntry(ctx.sql, {
      store: input.store,
      region: input.region,
      eggType: input.egg_type,
      count: input.count,
      location: input.location,
    });
    if (!entry) return null;
    const wanted = { store_id: input.store, region: input.region, egg_type: input.egg_type, count: input.count };
    const [history, figures] = await Promise.all([
      recentHistory(ctx.sql, [entry.id]),
      locationFigures(ctx.sql, [wanted]),
    ]);
    return {
      ...entry,
      history: history.get(entry.id) ?? [entry.price],
      locations: figures.get(combinationKey(wanted)) ?? null,
    };
  }),
});
