// Brands whose every shell egg comes from one housing type, so the brand settles the egg type when
// a title is silent about housing ("Vital Farms Large Grade A Eggs, 18 CT"), and raises a title
// that says only "organic" when its type ranks above organic ("Vital Farms Organic Grade A XL
// Eggs" is pasture-raised). A brand never lowers what the title says: "Pete & Gerry's Organic
// Large Brown Eggs" stays organic, though all its eggs are free-range too. Whole Foods and ALDI
// keep the brand apart from the title, and some titles never repeat it. A title's own housing
// claim always wins ("... Organic Pasture-Raised ..." is pasture-raised whatever the brand), and a
// brand not in this table says nothing: most brands (Eggland's Best, Organic Valley, Great
// Value...) sell several housing types. Free-range counts as cage-free, as it does for titles
// (src/shared/eggs.ts).
//
// Each entry rests on the brand's own statement that all its eggs are of that type:
// - Vital Farms: "All of Vital Farms' eggs are pasture-raised" (the company, interviewed at
//   https://www.themanual.com/food-and-drink/feasting-vital-farms/); its FAQ
//   (https://vitalfarms.com/faqs/) describes every hen as pasture-raised; real Whole Foods and
//   ALDI listings title its eggs "Large Grade A Eggs, 18 CT" or "Organic Grade A XL Eggs".
// - Pete & Gerry's: "Certified Humane Free Range, which is what all Pete & Gerry's Organic Eggs
//   are" (https://peteandgerrys.com/category/uncategorized/; FAQ https://peteandgerrys.com/faqs/:
//   "All of our free range eggs are 100% USDA Organic").
// - Nellie's Free Range: "we're very proud to raise all our hens in a Certified Humane, free
//   range environment" (https://nelliesfreerange.com/certified-humane-free-range/free-range/).
// - The Happy Egg Co.: "the only 100% 'Free Range' on pasture egg company" (its press release of
//   2014-02-25, http://www.marketwired.com/press-release/the-happy-egg-co-applauds-agriculture-act-but-calls-for-higher-cage-free-standards-1882676.htm).
import type { EggType } from './vocabulary.ts';

export interface SingleHousingBrand {
  name: string;
  /** Matches the brand in normalised text (lower case, straight apostrophes, single spaces). */
  pattern: RegExp;
  eggType: EggType;
}

export const SINGLE_HOUSING_BRANDS: readonly SingleHousingBrand[] = [
  { name: 'Vital Farms', pattern: /^vital farms\b/, eggType: 'pasture_raised' },
  { name: "Pete & Gerry's", pattern: /^pete (?:&|and|n) gerry'?s\b/, eggType: 'cage_free' },
  { name: "Nellie's Free Range", pattern: /^nellie'?s\b/, eggType: 'cage_free' },
  { name: 'The Happy Egg Co.', pattern: /^(?:the )?happy egg\b/, eggType: 'cage_free' },
];

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[™®©℠]/g, ' ')
    .replace(/[‘’‛ʼ`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The brand of the table a listing is of: its brand field when it names one, else a title that
 * starts with one (Walmart and Target titles lead with the brand). Null for any other brand.
 */
export function singleHousingBrand(brand: string | null | undefined, title: string): SingleHousingBrand | null {
  const candidates = [brand, title]
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    .map(normalise);
  for (const text of candidates) {
    const found = SINGLE_HOUSING_BRANDS.find((entry) => entry.pattern.test(text));
    if (found) return found;
  }
  return null;
}
