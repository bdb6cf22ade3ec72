// The six retailer modules, by store id.
import type { StoreId } from '#shared/vocabulary.ts';
import { albertsons } from './albertsons.ts';
import { aldi } from './aldi.ts';
import { kroger } from './kroger.ts';
import { target } from './target.ts';
import { walmart } from './walmart.ts';
import { wholeFoods } from './whole-foods.ts';
import type { RetailerScraper } from './types.ts';

export const SCRAPERS: Record<StoreId, RetailerScraper> = {
  walmart,
  target,
  kroger,
  albertsons,
  'whole-foods': wholeFoods,
  aldi,
};
