// What a store's locations charge (docs/features/comparing.md, decision 010): for one store,
// region, egg type and pack size, the median of today's observed prices per dozen across its
// store locations, their range, how many locations that is, and the cheapest of them. Shared by
// the API's validation and OpenAPI document, the price card and the store page.
//
// What counts (docs/decisions/010-location-figures.md): each open location's cheapest in-stock
// current price of the combination read within TODAY_HOURS, under the app's one visibility rule
// (a store and region's sample prices are hidden once it has scraped ones). Sample and demo
// prices count, as they do in every other figure, and mark the figures `sample`.
import { z } from 'zod';
import { formatPrice } from './format.ts';
import { EGG_TYPES, REGIONS, type EggType, type Region } from './vocabulary.ts';

export const locationFiguresSchema = z.object({
  store_id: z.string(),
  region: z.enum(REGIONS),
  egg_type: z.enum(EGG_TYPES),
  count: z.number().int().describe('Pack size (eggs)'),
  locations: z.number().int().describe('Store locations with a price of this combination today (each counted once)'),
  median_per_dozen: z.number().describe("Median of the locations' prices per dozen"),
  lowest_per_dozen: z.number(),
  highest_per_dozen: z.number(),
  sample: z.boolean().describe('Whether any of them are sample or demo prices'),
  cheapest: z
    .object({
      entry_id: z.number().int(),
      product_id: z.number().int(),
      location_id: z.number().int(),
      price: z.number().describe('Shelf price of the pack'),
      price_per_dozen: z.number(),
      name: z.string().nullable(),
      city: z.string().nullable(),
      state: z.string().nullable(),
      zip: z.string(),
    })
    .describe('The cheapest location (then the lower shelf price, then the lower location id)'),
});
export type LocationFigures = z.infer<typeof locationFiguresSchema>;

export interface Combination {
  store_id: string;
  region: Region;
  egg_type: EggType;
  count: number;
}

export function combinationKey(c: Combination): string {
  return `${c.store_id}|${c.region}|${c.egg_type}|${c.count}`;
}

const stores = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'store' : 'stores'}`;

/**
 * The figures in words: 'median $3.47 a dozen across 812 stores, $2.97 to $4.28'. One location
 * has no median or range: '$3.47 a dozen at 1 store'; locations that all charge the same have no
 * range: '$3.47 a dozen at all 3 stores'.
 */
export function locationFiguresText(
  f: Pick<LocationFigures, 'locations' | 'median_per_dozen' | 'lowest_per_dozen' | 'highest_per_dozen'>,
): string {
  if (f.locations <= 1) return `${formatPrice(f.median_per_dozen)} a dozen at ${stores(1)}`;
  if (formatPrice(f.lowest_per_dozen) === formatPrice(f.highest_per_dozen))
    return `${formatPrice(f.median_per_dozen)} a dozen at all ${stores(f.locations)}`;
  return `median ${formatPrice(f.median_per_dozen)} a dozen across ${stores(f.locations)}, ${formatPrice(f.lowest_per_dozen)} to ${formatPrice(f.highest_per_dozen)}`;
}

/** Where the cheapest location is, in words: 'Burlington, VT', else its name, else its ZIP code. */
export function cheapestPlace(cheapest: LocationFigures['cheapest']): string {
  if (cheapest.city && cheapest.state) return `${cheapest.city}, ${cheapest.state}`;
  return cheapest.name ?? cheapest.zip;
}
