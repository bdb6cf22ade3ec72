// What the Near you section writes about an answer of prices.near: the scope label, each row's
// location, distance and change since the day before. Pure, so it is tested alone.
import type { NearEntry, NearResult } from '#shared/near.ts';
import { formatPlace, formatPrice } from '#shared/format.ts';
import { REGION_LABELS } from '#shared/vocabulary.ts';

const MILES = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** '2.3 mi', '1,204.0 mi'. */
export function formatMiles(miles: number): string {
  return `${MILES.format(miles)} mi`;
}

/**
 * A row's distance: '2.3 mi', or 'in 10001' where it is not measured (the retailer gave no
 * coordinates, so only the store's ZIP code is known).
 */
export function formatDistance(entry: Pick<NearEntry, 'distance_miles' | 'zip'>): string {
  return entry.distance_miles === null ? `in ${entry.zip}` : formatMiles(entry.distance_miles);
}

/** What a screen reader and a tooltip say of an unmeasured distance. */
export const DISTANCE_UNKNOWN = 'distance unknown';

/** A row's location: its name (or city) and where it is (city, ZIP). */
export function locationOf(entry: Pick<NearEntry, 'location_name' | 'city' | 'state' | 'zip'>): {
  name: string;
  place: string;
} {
  const place = formatPlace(entry);
  const name = entry.location_name?.trim() || entry.city?.trim() || `ZIP ${entry.zip}`;
  return { name, place: name === entry.city?.trim() ? entry.zip : place };
}

export type ScopeNote =
  | { kind: 'radius'; text: string }
  | { kind: 'widened'; text: string }
  | { kind: 'region'; text: string }
  | { kind: 'none'; title: string; text: string }
  | { kind: 'far'; title: string; text: string };

const miles = (radius: number) => `${radius} ${radius === 1 ? 'mile' : 'miles'}`;

/** The label above the results: how far they reach, and whether the search had to go further. */
export function scopeNote(
  result: Pick<
    NearResult,
    'zip' | 'city' | 'state' | 'region' | 'radius' | 'scope' | 'radius_used' | 'total' | 'nearest'
  >,
): ScopeNote {
  const region = REGION_LABELS[result.region];
  const count = `${result.total} ${result.total === 1 ? 'price' : 'prices'}`;
  const where = formatPlace({ city: result.city, state: result.state, zip: result.zip });
  switch (result.scope) {
    case 'radius':
      return {
        kind: 'radius',
        text: `${count} within ${miles(result.radius_used ?? result.radius)} of ${where}, cheapest per dozen first.`,
      };
    case 'widened':
      return {
        kind: 'widened',
        text: `No stores within ${miles(result.radius)} of ${result.zip}. Showing stores within ${miles(result.radius_used ?? 50)}.`,
      };
    case 'region':
      return {
        kind: 'region',
        text: `No stores within 50 miles of ${result.zip}. Showing the cheapest in the ${region}.`,
      };
    case 'none':
      return {
        kind: 'none',
        title: `No prices near ${result.zip}`,
        text: `No store within 50 miles, nor anywhere in the ${region}, has prices for this egg type and pack size yet.`,
      };
    case 'far': {
      const nearest = result.nearest;
      return {
        kind: 'far',
        title: `No store known near ${where}`,
        text: nearest
          ? `The nearest store with prices is ${nearest.store_name} in ${formatPlace(nearest)}, ${formatMiles(nearest.distance_miles)} away.`
          : 'No store with prices is known within a few hundred miles.',
      };
    }
  }
}

export type ChangeView =
  | { direction: 'none'; text: '—'; description: string }
  | { direction: 'up' | 'down' | 'same'; text: string; description: string };

/** The change of the pack price since the previous day: '▲ $0.20', '▼ $0.10', 'No change', or '—'. */
export function changeOf(entry: Pick<NearEntry, 'change' | 'previous_price'>): ChangeView {
  if (entry.change === null || entry.previous_price === null)
    return { direction: 'none', text: '—', description: 'No price the day before' };
  const was = `was ${formatPrice(entry.previous_price)} the day before`;
  // Cents decide: a change that rounds to $0.00 is no change to a shopper.
  const cents = Math.round(entry.change * 100);
  if (cents === 0) return { direction: 'same', text: 'No change', description: `Unchanged, ${was}` };
  const amount = formatPrice(Math.abs(cents) / 100);
  return cents > 0
    ? { direction: 'up', text: `▲ ${amount}`, description: `Up ${amount}, ${was}` }
    : { direction: 'down', text: `▼ ${amount}`, description: `Down ${amount}, ${was}` };
}
