// The alert matching rule written out in TypeScript, one listing at a time: the oracle the tests
// hold the SQL matcher of src/server/queries/alerts.ts to.
import { DROP_MATCH_PERCENT, pricePerDozen, type Subscription } from '#shared/subscriptions.ts';
import type { EggType, Region, StoreId } from '#shared/vocabulary.ts';

/** A listing as the matching rule sees it. */
export interface MatchCandidate {
  store_id: string;
  region: Region;
  egg_type: EggType;
  count: number;
  price: number;
  /** The price of the same listing 7 days before (the latest at least 7 days older), if any. */
  reference_price: number | null;
}

/**
 * The one matching rule (docs/features/alerts.md): region, egg type and preferred stores (none means
 * all) must match; with a threshold, the price per dozen must be at or below it; without one, the
 * price must have dropped at least 5% against the price 7 days before. The SQL in
 * src/server/queries/alerts.ts implements the same rule; tests hold the two together.
 */
export function matchesSubscription(
  subscription: Pick<Subscription, 'region' | 'egg_type' | 'preferred_stores' | 'price_threshold'>,
  listing: MatchCandidate,
): boolean {
  if (subscription.region && listing.region !== subscription.region) return false;
  if (subscription.egg_type && listing.egg_type !== subscription.egg_type) return false;
  if (subscription.preferred_stores.length > 0 && !subscription.preferred_stores.includes(listing.store_id as StoreId))
    return false;
  if (subscription.price_threshold !== null)
    return pricePerDozen(listing.price, listing.count) <= subscription.price_threshold + 1e-9;
  if (listing.reference_price === null || listing.reference_price <= 0) return false;
  return (listing.reference_price - listing.price) / listing.reference_price >= DROP_MATCH_PERCENT / 100 - 1e-9;
}
