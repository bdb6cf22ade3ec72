import { describe, expect, it } from 'vitest';
import {
  REJECT_REASON_LABELS,
  SKIP_REASON_LABELS,
  classifyListing,
  eggTypeOf,
  parseEggCount,
  sizeGradeOf,
  type Classification,
  type RejectReason,
  type SkipReason,
} from './eggs.ts';
import type { EggType } from './vocabulary.ts';

const eggs = (eggType: EggType, count: number, sizeGrade: string | null): Classification => ({
  kind: 'eggs',
  eggType,
  count,
  sizeGrade,
});
/** Skipped because the title contains `matched` (as normalised: lower case, no ™/®). */
const skip = (reason: SkipReason, matched: string): Classification => ({
  kind: 'skipped',
  reason,
  detail: `"${matched}" in title`,
});
const NO_EGG_WORD: Classification = { kind: 'skipped', reason: 'not-eggs', detail: 'no "egg" in title' };
const SINGULAR_EGG: Classification = {
  kind: 'skipped',
  reason: 'not-eggs',
  detail: '"egg" without shell-egg wording',
};
const reject = (reason: RejectReason, detail: string): Classification => ({ kind: 'rejected', reason, detail });
const NO_COUNT = reject('no-count', 'no egg count in title or size');

type Row = [store: string, title: string, sizeText: string | null, expected: Classification];

// Titles in each retailer's style: real ones quoted from the retailers' pages plus real brands and
// lines, and the other things an "eggs" search returns. sizeText is Kroger's items[].size or
// ALDI's sellingSize; the other stores put the count in the title only.
const CORPUS: Row[] = [
  // Walmart: "<Brand> <claims> <size> <colour> Eggs, <N> Count|ct"
  ['walmart', 'Great Value Large White Eggs, 12 Count', null, eggs('standard', 12, 'Large')],
  ['walmart', 'Great Value Cage-Free Large White Eggs, 12 Count', null, eggs('cage_free', 12, 'Large')],
  ['walmart', 'Marketside Cage Free Large Brown Eggs, 18 ct', null, eggs('cage_free', 18, 'Large')],
  ['walmart', 'Marketside Organic Cage Free Large Brown Eggs, 12 Count', null, eggs('cage_free', 12, 'Large')],
  ['walmart', 'Great Value Large White Eggs, 18 Count', null, eggs('standard', 18, 'Large')],
  ['walmart', 'Great Value Large White Eggs, 60 Count', null, eggs('standard', 60, 'Large')],
  ['walmart', 'Great Value Extra Large White Eggs, 12 Count', null, eggs('standard', 12, 'Extra Large')],
  ['walmart', 'Great Value Jumbo White Eggs, 12 Count', null, eggs('standard', 12, 'Jumbo')],
  ['walmart', 'Great Value Medium White Eggs, 18 Count', null, eggs('standard', 18, 'Medium')],
  ['walmart', 'Great Value Grade A Large White Eggs, 30 Count', null, eggs('standard', 30, 'Grade A Large')],
  ['walmart', 'Marketside Pasture-Raised Large Brown Eggs, 12 Count', null, eggs('pasture_raised', 12, 'Large')],
  ['walmart', 'Marketside Free Range Large Brown Eggs, 12 Count', null, eggs('cage_free', 12, 'Large')],
  ['walmart', 'Great Value Organic Free Range Large Brown Eggs, 18 Count', null, eggs('cage_free', 18, 'Large')],
  ['walmart', "Eggland's Best Classic Large White Eggs, 18 Count", null, eggs('standard', 18, 'Large')],
  ['walmart', "Eggland's Best Cage Free Large Brown Eggs, 12 Count", null, eggs('cage_free', 12, 'Large')],
  ['walmart', 'Vital Farms Pasture-Raised Large Brown Eggs, 12 Count', null, eggs('pasture_raised', 12, 'Large')],
  ['walmart', 'Great Value Large White Eggs, 5 Dozen / 60-Count', null, eggs('standard', 60, 'Large')],
  ['walmart', "Eggland's Best Classic Large White Eggs, 12 Count (Pack of 2)", null, eggs('standard', 24, 'Large')],
  ['walmart', 'Great Value Large White Eggs, 12 Count, 2 Pack', null, eggs('standard', 24, 'Large')],
  ['walmart', 'Vital Farms Pasture-Raised Large Eggs, 24-Pack', null, eggs('pasture_raised', 24, 'Large')],
  [
    'walmart',
    "Eggland's Best Large White Eggs, 18 ct (1 Dozen)",
    null,
    reject('conflicting-count', 'counts 12, 18 disagree'),
  ],
  ['walmart', 'Egg Beaters Original Liquid Egg Substitute, 32 oz', null, skip('egg-product', 'egg beaters')],
  ['walmart', 'Great Value 100% Liquid Egg Whites, 32 oz', null, skip('egg-product', 'liquid')],
  ['walmart', 'Marketside Hard-Boiled Eggs, 6 Count', null, skip('prepared', 'hard-boiled')],
  ['walmart', 'Marketside Peeled Hard Boiled Eggs, 12 Count', null, skip('prepared', 'peeled')],
  [
    'walmart',
    'Jimmy Dean Delights Turkey Sausage, Egg White & Cheese English Muffin Sandwiches, 4 Count, 18 oz',
    null,
    skip('prepared', 'sausage'),
  ],
  ['walmart', 'Cadbury Mini Eggs Milk Chocolate Candy, 10 oz Bag', null, skip('not-eggs', 'cadbury')],
  ['walmart', 'Cadbury Creme Egg Milk Chocolate Eggs, 5 Count', null, skip('not-eggs', 'cadbury')],
  ['walmart', "Reese's Milk Chocolate Peanut Butter Eggs, 1.2 oz, 6 Count", null, skip('not-eggs', "reese's")],
  ['walmart', 'Kinder Joy Eggs with Toy, 3 Count', null, skip('not-eggs', 'kinder')],
  ['walmart', 'Whoppers Robin Eggs Malted Milk Candy, 9 oz', null, skip('not-eggs', 'whoppers')],
  ['walmart', 'Way To Celebrate Easter Plastic Eggs, 24 Count', null, skip('not-eggs', 'easter')],
  ['walmart', 'PAAS Classic Egg Decorating Kit', null, skip('not-eggs', 'paas')],
  ['walmart', 'Dash Rapid Egg Cooker, 6 Egg Capacity, Aqua', null, skip('not-eggs', 'cooker')],
  ['walmart', 'Great Value Wide Egg Noodles, 12 oz', null, skip('not-eggs', 'noodles')],
  ['walmart', 'Reames Frozen Homestyle Egg Noodles, 24 oz', null, skip('not-eggs', 'noodles')],
  ['walmart', 'Great Value Eggnog, 64 fl oz', null, NO_EGG_WORD],
  ['walmart', 'Zesty Paws Freeze-Dried Egg Yolk Treats for Dogs, 3 oz', null, skip('not-eggs', 'treats')],
  ['walmart', 'Great Value Egg Roll Wrappers, 16 oz', null, skip('not-eggs', 'wrappers')],
  ['walmart', "Hellmann's Real Mayonnaise Made with 100% Cage-Free Eggs, 30 oz", null, skip('not-eggs', 'mayonnaise')],

  // Target: "<description> - <N>ct[ - <brand>]"
  [
    'target',
    'Grade A Large Eggs - 12ct - Good & Gather™ (Packaging May Vary)',
    null,
    eggs('standard', 12, 'Grade A Large'),
  ],
  ['target', 'Vital Farms Pasture-Raised Grade A Large Eggs - 12ct', null, eggs('pasture_raised', 12, 'Grade A Large')],
  ['target', 'Grade A Large Eggs - 18ct - Good & Gather™', null, eggs('standard', 18, 'Grade A Large')],
  [
    'target',
    'Cage-Free Fresh Grade A Large Brown Eggs - 12ct - Good & Gather™',
    null,
    eggs('cage_free', 12, 'Grade A Large'),
  ],
  [
    'target',
    'Organic Cage-Free Fresh Grade A Large Brown Eggs - 12ct - Good & Gather™',
    null,
    eggs('cage_free', 12, 'Grade A Large'),
  ],
  [
    'target',
    'Pasture-Raised Grade A Large Brown Eggs - 12ct - Good & Gather™',
    null,
    eggs('pasture_raised', 12, 'Grade A Large'),
  ],
  ['target', 'Grade A Extra Large Eggs - 12ct - Good & Gather™', null, eggs('standard', 12, 'Grade A Extra Large')],
  ['target', 'Grade A Large Eggs - 2dz - Good & Gather™', null, eggs('standard', 24, 'Grade A Large')],
  ['target', 'Organic Grade A Large Brown Eggs - 6ct - Good & Gather™', null, eggs('organic', 6, 'Grade A Large')],
  ['target', "Pete & Gerry's Organic Free Range Large Brown Eggs - 12ct", null, eggs('cage_free', 12, 'Large')],
  ['target', "Nellie's Free Range Large Brown Eggs - 12ct", null, eggs('cage_free', 12, 'Large')],
  ['target', 'Happy Egg Co. Free Range Large Brown Eggs - 12ct', null, eggs('cage_free', 12, 'Large')],
  ['target', "Eggland's Best Classic Grade A Large White Eggs - 18ct", null, eggs('standard', 18, 'Grade A Large')],
  ['target', 'Vital Farms Pasture-Raised Hard-Boiled Eggs - 6ct', null, skip('prepared', 'hard-boiled')],
  ['target', 'Egg White Bites with Spinach & Feta - 4.6oz/2ct - Good & Gather™', null, skip('prepared', 'bites')],
  ['target', 'Cadbury Mini Eggs Milk Chocolate Candy - 9oz', null, skip('not-eggs', 'cadbury')],
  ['target', 'Wide Egg Noodles - 12oz - Good & Gather™', null, skip('not-eggs', 'noodles')],
  ['target', 'JUST Egg Folded Plant-Based Egg - 8oz', null, skip('egg-product', 'just egg')],
  ['target', 'Kinder Joy Egg - 0.7oz', null, skip('not-eggs', 'kinder')],
  ['target', 'Egg Hunt Plastic Fillable Eggs - 48ct - Spritz™', null, skip('not-eggs', 'egg hunt')],
  ['target', 'Dash Mini Egg Bite Maker - Black', null, skip('not-eggs', 'maker')],

  // Kroger: description without a count; the count is in items[].size
  ['kroger', 'Kroger® Grade A Large White Eggs', '12 ct', eggs('standard', 12, 'Grade A Large')],
  ['kroger', 'Simple Truth Natural Cage Free Large Brown Eggs', '18 ct', eggs('cage_free', 18, 'Large')],
  ['kroger', 'Simple Truth Organic® Grade A Large Brown Eggs', '12 ct', eggs('organic', 12, 'Grade A Large')],
  ['kroger', 'Kroger® Grade A Extra Large White Eggs', '12 ct', eggs('standard', 12, 'Grade A Extra Large')],
  ['kroger', 'Kroger® Grade A Jumbo White Eggs', '12 ct', eggs('standard', 12, 'Grade A Jumbo')],
  ['kroger', 'Kroger® Grade A Medium White Eggs', '18 ct', eggs('standard', 18, 'Grade A Medium')],
  ['kroger', 'Kroger® Grade AA Large White Eggs', '60 ct', eggs('standard', 60, 'Grade AA Large')],
  [
    'kroger',
    'Simple Truth Organic® Pasture Raised Grade A Large Brown Eggs',
    '12 ct',
    eggs('pasture_raised', 12, 'Grade A Large'),
  ],
  ['kroger', "Eggland's Best Grade A Large White Eggs", '18 ct', eggs('standard', 18, 'Grade A Large')],
  ['kroger', 'Vital Farms® Pasture-Raised Organic Large Brown Eggs', '12 ct', eggs('pasture_raised', 12, 'Large')],
  ['kroger', 'Kroger® Grade A Large White Eggs 2 Dozen', null, eggs('standard', 24, 'Grade A Large')],
  ['kroger', 'Kroger® Grade A Large White Eggs', '24 oz', NO_COUNT],
  [
    'kroger',
    'Kroger® Grade A Large White Eggs 18 Count',
    '12 ct',
    reject('conflicting-count', 'counts 12, 18 disagree'),
  ],
  ['kroger', 'Kroger® 100% Liquid Egg Whites', '32 oz', skip('egg-product', 'liquid')],
  ['kroger', 'Kroger® Hard Cooked Peeled Eggs', '6 ct', skip('prepared', 'hard cooked')],
  ['kroger', 'Kroger® Egg Salad', '12 oz', skip('prepared', 'salad')],
  ['kroger', 'Kroger® Wide Egg Noodles', '16 oz', skip('not-eggs', 'noodles')],
  ['kroger', 'Simple Truth™ Plant-Based Egg Substitute', '16 oz', skip('egg-product', 'plant-based')],

  // Albertsons / Safeway: "<Brand> Eggs <claims> <size> <grade> - <N> Count"
  ['albertsons', 'Lucerne Eggs Large Grade A Family Pack - 18 Count', null, eggs('standard', 18, 'Grade A Large')],
  ['albertsons', 'Lucerne Eggs Large Grade AA - 12 Count', null, eggs('standard', 12, 'Grade AA Large')],
  ['albertsons', 'Lucerne Farms Eggs Cage Free Large Brown - 12 Count', null, eggs('cage_free', 12, 'Large')],
  ['albertsons', 'O Organics Eggs Organic Large Brown Cage Free - 12 Count', null, eggs('cage_free', 12, 'Large')],
  ['albertsons', 'O Organics Organic Eggs Large Brown - 18 Count', null, eggs('organic', 18, 'Large')],
  ['albertsons', 'Lucerne Eggs Extra Large Grade AA - 12 Count', null, eggs('standard', 12, 'Grade AA Extra Large')],
  ['albertsons', 'Lucerne Eggs Jumbo Grade A - 12 Count', null, eggs('standard', 12, 'Grade A Jumbo')],
  ['albertsons', 'Lucerne Eggs Medium Grade A - 12 Count', null, eggs('standard', 12, 'Grade A Medium')],
  ['albertsons', 'Lucerne Eggs Large Grade A - 5 Dozen', null, eggs('standard', 60, 'Grade A Large')],
  ['albertsons', 'Open Nature Eggs Pasture Raised Large Brown - 12 Count', null, eggs('pasture_raised', 12, 'Large')],
  ['albertsons', "Eggland's Best Eggs Cage Free Large Brown - 12 Count", null, eggs('cage_free', 12, 'Large')],
  ['albertsons', 'Vital Farms Eggs Pasture Raised Large - 12 Count', null, eggs('pasture_raised', 12, 'Large')],
  ['albertsons', 'Lucerne Best Of The Egg Liquid Egg Substitute - 32 Oz', null, skip('egg-product', 'substitute')],
  ['albertsons', 'Lucerne Egg Whites 100% Liquid - 16 Oz', null, skip('egg-product', 'egg whites')],
  ['albertsons', 'Lucerne Eggs Hard Boiled Peeled - 6 Count', null, skip('prepared', 'hard boiled')],
  ['albertsons', 'Signature SELECT Egg Noodles Extra Wide - 12 Oz', null, skip('not-eggs', 'noodles')],

  // Whole Foods: the count only in the name, when at all
  ['whole-foods', 'Organic Grade A Large Brown Eggs', null, NO_COUNT],
  ['whole-foods', '365 by Whole Foods Market, Organic Large Brown Eggs, 12 Count', null, eggs('organic', 12, 'Large')],
  [
    'whole-foods',
    '365 by Whole Foods Market, Cage Free Large Brown Eggs, 18 Count',
    null,
    eggs('cage_free', 18, 'Large'),
  ],
  [
    'whole-foods',
    '365 by Whole Foods Market, Organic Grade A Large Brown Eggs, 6 Count',
    null,
    eggs('organic', 6, 'Grade A Large'),
  ],
  ['whole-foods', 'Vital Farms, Pasture Raised Large Brown Eggs, 12 Count', null, eggs('pasture_raised', 12, 'Large')],
  [
    'whole-foods',
    "Pete And Gerry's, Organic Free Range Large Brown Eggs, 12 Count",
    null,
    eggs('cage_free', 12, 'Large'),
  ],
  [
    'whole-foods',
    'Handsome Brook Farms, Pasture Raised Organic Large Brown Eggs, 12 Count',
    null,
    eggs('pasture_raised', 12, 'Large'),
  ],
  [
    'whole-foods',
    'Vital Farms, Organic Pasture-Raised Extra Large Eggs, 12 ct',
    null,
    eggs('pasture_raised', 12, 'Extra Large'),
  ],
  ['whole-foods', "Nellie's Free Range Eggs, Large Brown, 18 Count", null, eggs('cage_free', 18, 'Large')],
  [
    'whole-foods',
    'Organic Valley, Organic Free Range Large Brown Eggs, 12 Count',
    null,
    eggs('cage_free', 12, 'Large'),
  ],
  ['whole-foods', 'Organic Valley Pasture Raised Large Brown Eggs, 1 Dozen', null, eggs('pasture_raised', 12, 'Large')],
  ['whole-foods', '365 by Whole Foods Market, Organic Liquid Egg Whites, 16 oz', null, skip('egg-product', 'liquid')],
  ['whole-foods', 'Vital Farms, Pasture-Raised Hard Boiled Eggs, 6 Count', null, skip('prepared', 'hard boiled')],
  ['whole-foods', 'Simply Eggless Plant-Based Egg, 12 oz', null, skip('egg-product', 'simply eggless')],

  // ALDI: name plus sellingSize
  ['aldi', 'Goldhen Grade A Large White Eggs', '1 dozen', eggs('standard', 12, 'Grade A Large')],
  ['aldi', 'Goldhen Grade A Large White Eggs', '18 ct', eggs('standard', 18, 'Grade A Large')],
  ['aldi', 'Goldhen Grade A Large White Eggs', '12', eggs('standard', 12, 'Grade A Large')],
  ['aldi', 'Goldhen Grade A Large White Eggs, 5 Dozen', '5 dozen', eggs('standard', 60, 'Grade A Large')],
  ['aldi', 'Goldhen Cage Free Grade A Large Brown Eggs', '12 ct', eggs('cage_free', 12, 'Grade A Large')],
  ['aldi', 'Goldhen Grade A Extra Large White Eggs', '12 ct', eggs('standard', 12, 'Grade A Extra Large')],
  ['aldi', 'Simply Nature Organic Cage Free Grade A Large Brown Eggs', '12 ct', eggs('cage_free', 12, 'Grade A Large')],
  [
    'aldi',
    'Simply Nature Pasture Raised Grade A Large Brown Eggs',
    '12 ct',
    eggs('pasture_raised', 12, 'Grade A Large'),
  ],
  ['aldi', 'Goldhen Large White Eggs', null, NO_COUNT],
  ['aldi', 'Goldhen Hard-Cooked Peeled Eggs', '6 ct', skip('prepared', 'hard-cooked')],
  ['aldi', 'Specially Selected Egg Noodles', '12 oz', skip('not-eggs', 'noodles')],
  ['aldi', 'Goldhen Liquid Egg Whites', '16 oz', skip('egg-product', 'liquid')],
  ['aldi', 'Choceur Milk Chocolate Easter Eggs', '5.3 oz', skip('not-eggs', 'chocolate')],

  // Upper case, several claims, other brands and forms
  [
    'walmart',
    'VITAL FARMS PASTURE-RAISED LARGE GRADE A EGGS, 12 CT',
    null,
    eggs('pasture_raised', 12, 'Grade A Large'),
  ],
  ['walmart', 'GREAT VALUE LARGE WHITE EGGS, 18 COUNT', null, eggs('standard', 18, 'Large')],
  ['kroger', "EGGLAND'S BEST ORGANIC LARGE BROWN EGGS 12CT", null, eggs('organic', 12, 'Large')],
  ['kroger', 'EGG BEATERS ORIGINAL 16 OZ', null, skip('egg-product', 'egg beaters')],
  ['walmart', "Pete & Gerry's Organic Free-Range Eggs Large, 18 ct", null, eggs('cage_free', 18, 'Large')],
  ['walmart', "Phil's Fresh Eggs Free Range Large Brown Eggs, 12 ct", null, eggs('cage_free', 12, 'Large')],
  ['walmart', 'Born Free Cage Free Grade A Large Brown Eggs, 12 ct', null, eggs('cage_free', 12, 'Grade A Large')],
  ['walmart', 'Egg Innovations Free Range Large Brown Eggs, 12 ct', null, eggs('cage_free', 12, 'Large')],
  ['walmart', "Sauder's Eggs Grade A Large White Eggs, 18 ct", null, eggs('standard', 18, 'Grade A Large')],
  ['walmart', 'Land O Lakes Omega-3 Large Brown Eggs, 12 ct', null, eggs('standard', 12, 'Large')],
  ['walmart', 'Land O Lakes Cage Free Large Brown Eggs with Omega 3, 18 Count', null, eggs('cage_free', 18, 'Large')],
  ['walmart', 'Cal-Maine Farms Grade A Large White Eggs, 30 Count', null, eggs('standard', 30, 'Grade A Large')],
  ['walmart', "Eggland's Best Organic Large Brown Eggs, 12 ct", null, eggs('organic', 12, 'Large')],
  ['walmart', 'Happy Egg Heritage Breeds Free Range Large Brown Eggs, 18 ct', null, eggs('cage_free', 18, 'Large')],
  ['walmart', 'Happy Egg Free Range Large Brown, 12 ct', null, eggs('cage_free', 12, 'Large')],
  [
    'walmart',
    "Davidson's Safest Choice Pasteurized Large Grade AA Eggs, 12 ct",
    null,
    eggs('standard', 12, 'Grade AA Large'),
  ],
  [
    'walmart',
    "Eggland's Best Classic Large White Eggs Grade A, 12 ct, Pack of 2",
    null,
    eggs('standard', 24, 'Grade A Large'),
  ],
  ['walmart', 'Organic Pasture Raised Large Brown Eggs, 2 Pack of 12', null, eggs('pasture_raised', 24, 'Large')],
  [
    'walmart',
    'Pasture-Raised Organic Grade A Large Brown Eggs (18-Count / 1.5 Dozen)',
    null,
    eggs('pasture_raised', 18, 'Grade A Large'),
  ],
  [
    'walmart',
    "Member's Mark Cage Free Grade A Large White Eggs, 2 dozen",
    null,
    eggs('cage_free', 24, 'Grade A Large'),
  ],
  ['walmart', 'H-E-B Grade AA Cage Free Large Brown Eggs, 12 ct', null, eggs('cage_free', 12, 'Grade AA Large')],
  ['walmart', 'Kirkland Signature Cage Free Large Grade AA Eggs, 24 ct', null, eggs('cage_free', 24, 'Grade AA Large')],
  ['target', 'Vital Farms Pasture-Raised Large Eggs, Half Dozen', null, eggs('pasture_raised', 6, 'Large')],
  ['target', "Nellie's Free Range Large Brown Eggs, One Dozen", null, eggs('cage_free', 12, 'Large')],
  ['whole-foods', 'Local Farm Fresh Brown Eggs, Mixed Sizes, 1 Dozen', null, eggs('standard', 12, 'Mixed')],
  ['whole-foods', 'Farm Fresh Peewee Brown Eggs, 18 ct', null, eggs('standard', 18, 'Peewee')],
  [
    'walmart',
    "Pete & Gerry's Organic Eggs from Small Family Farms, Large, 12 ct",
    null,
    // The title says organic; the brand (free-range, ranked below organic) never lowers it.
    eggs('organic', 12, 'Large'),
  ],
  ['whole-foods', 'Blue Sky Family Farms Easter Egger Blue Eggs, 12 ct', null, eggs('standard', 12, null)],
  ['walmart', 'Farm Fresh Large Eggs, 1 ct', null, reject('implausible-count', 'count 1')],
  ['walmart', 'Farm Fresh Large Eggs, 1.3 Dozen', null, reject('implausible-count', 'count 15.6')],
  ['walmart', 'Free Range Egg', null, NO_COUNT],

  // Other birds
  ['walmart', 'Quail Eggs, 18 Count', null, skip('other-bird', 'quail eggs')],
  ['whole-foods', 'Fresh Duck Eggs, Jumbo, 6 ct', null, skip('other-bird', 'duck eggs')],
  ['whole-foods', 'Farm Fresh Turkey Eggs, 6 ct', null, skip('other-bird', 'turkey eggs')],
  ['kroger', 'Pickled Quail Eggs', '15 oz', skip('other-bird', 'quail eggs')],
  ['whole-foods', 'Goose Egg', '1 each', skip('other-bird', 'goose egg')],
  ['walmart', 'Emu Egg, 1 ct', null, skip('other-bird', 'emu egg')],

  // Prepared, products and other goods an "eggs" search returns
  ['walmart', 'Pickled Eggs, Hot & Spicy, 16 oz', null, skip('prepared', 'pickled')],
  ['walmart', 'Chicken Egg Rolls, 6 ct', null, skip('prepared', 'egg rolls')],
  ['walmart', 'Marketside Deviled Eggs, 8 ct', null, skip('prepared', 'deviled')],
  ['walmart', 'Pasture Raised Egg Bites, Uncured Bacon & Cheddar, 2 ct', null, skip('prepared', 'egg bites')],
  ['walmart', 'Egg Frittata with Spinach & Feta, 2 ct', null, skip('prepared', 'frittata')],
  ['walmart', 'Vital Farms Frittata with Spinach, 2 ct', null, NO_EGG_WORD],
  ['walmart', 'Mountain House Scrambled Eggs with Bacon, Freeze-Dried', null, skip('prepared', 'scrambled')],
  ['walmart', "Bob's Red Mill Egg Replacer, 12 oz", null, skip('egg-product', 'replacer')],
  ['walmart', 'OvaEasy Powdered Whole Eggs, 4.5 oz', null, skip('egg-product', 'powdered')],
  ['walmart', 'Great Value Egg Yolks, 16 oz', null, skip('egg-product', 'egg yolks')],
  ['walmart', 'Deviled Egg Carrier with Lid', null, skip('not-eggs', 'carrier')],
  ['walmart', 'Challah Egg Bread, 16 oz', null, skip('not-eggs', 'challah')],
  ['walmart', 'Mrs. Smith’s Egg Custard Pie, 24 oz', null, skip('not-eggs', 'custard')],
  ['walmart', 'Paper Pulp Egg Cartons, 12 Count, 10 Pack', null, skip('not-eggs', 'egg cartons')],
  ['walmart', 'OXO Good Grips Egg Separator', null, skip('not-eggs', 'separator')],
  ['walmart', 'Egg Tray for Refrigerator, Holds 18 Eggs', null, skip('not-eggs', 'egg tray')],
  ['walmart', 'Great Value Large White Eggs, Tray of 30', null, eggs('standard', 30, 'Large')],
  ['walmart', 'Egg Yolk Face Mask', null, skip('not-eggs', 'face')],
  ['walmart', 'Eggplant, 1 each', null, NO_EGG_WORD],
  ['walmart', 'Eggo Homestyle Waffles, 10 ct', null, NO_EGG_WORD],
  ['target', 'Kinder Joy Egg', null, skip('not-eggs', 'kinder')],
  ['target', 'Hollow Egg', null, SINGULAR_EGG],
];

describe('classifyListing: corpus of retailer titles', () => {
  it('has at least 110 titles, none twice', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(110);
    const keys = CORPUS.map(([, title, sizeText]) => `${title}|${sizeText ?? ''}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(CORPUS)('%s: %s (size %s)', (_store, title, sizeText, expected) => {
    expect(classifyListing({ title, sizeText })).toEqual(expected);
  });
});

describe('classifyListing: category', () => {
  it.each([
    // The category can skip what the title alone would accept...
    ['Simply Egg Original, 16 fl oz', 'Egg Substitutes', 'egg-product'],
    ['Hollow Milk Eggs, 12 Count', 'Seasonal Candy', 'not-eggs'],
    ['Southwest Style Egg Bakes, 2 ct', 'Frozen Breakfast', 'prepared'],
    ['Large Eggs, 12 Count', 'Pet Supplies', 'not-eggs'],
    // ...when, without the matched phrase (and an egg word next to it), it no longer names eggs.
    ['Lucerne Large Eggs - 18 Count', 'Egg Substitutes', 'egg-product'],
    ['Lucerne Large Eggs - 18 Count', 'Candy', 'not-eggs'],
    ['Lucerne Large Eggs - 18 Count', 'Easter Eggs', 'not-eggs'],
    ['Lucerne Large Eggs - 18 Count', 'Frozen Eggs', 'prepared'],
    ['Lucerne Large Eggs - 18 Count', 'Liquid Eggs & Egg Whites', 'egg-product'],
    ['Lucerne Large Eggs - 18 Count', 'Deli > Plant-Based Egg Alternatives', 'egg-product'],
  ] as const)('%s in "%s" is skipped as %s', (title, category, reason) => {
    expect(classifyListing({ title, category })).toEqual({
      kind: 'skipped',
      reason,
      detail: `category "${category}"`,
    });
  });

  it('never accepts: a title rule still wins over an egg category', () => {
    expect(classifyListing({ title: 'Hollow Egg', category: 'Eggs' })).toEqual(SINGULAR_EGG);
    expect(classifyListing({ title: 'Liquid Egg Whites, 32 oz', category: 'Dairy, Eggs & Cheese' })).toEqual(
      skip('egg-product', 'liquid'),
    );
  });

  it.each([
    'Eggs & Egg Substitutes',
    'Dairy, Eggs & Plant-Based Milk',
    'Dairy & Eggs > Eggs & Egg Substitutes',
    'Eggs & Substitutes',
    'Dairy, Eggs & Frozen',
    'Deli & Eggs',
  ])('accepts shell eggs in a category that names eggs besides a skipping phrase: "%s"', (category) => {
    expect(classifyListing({ title: 'Lucerne Large Eggs - 18 Count', category })).toEqual(
      eggs('standard', 18, 'Large'),
    );
  });

  it('leaves shell eggs in the stores’ egg categories alone', () => {
    for (const category of ['Dairy', 'Dairy, Eggs & Cheese', 'Eggs', 'dairy-eggs', 'Dairy & Eggs', '', null]) {
      expect(classifyListing({ title: 'Kroger® Grade A Large White Eggs', sizeText: '12 ct', category })).toEqual(
        eggs('standard', 12, 'Grade A Large'),
      );
    }
  });
});

describe('classifyListing: shell eggs or not', () => {
  it.each([
    ['Large White Eggs, 12 ct', eggs('standard', 12, 'Large')],
    ['Large Egg Whites, 32 oz', skip('egg-product', 'egg whites')],
    ['Eggs White Large, 12 ct', eggs('standard', 12, 'Large')],
    ['All Whites 100% Liquid Egg Whites, 16 oz', skip('egg-product', 'all whites')],
    ["Eggland's Best Grade A Large, 12 ct", eggs('standard', 12, 'Grade A Large')],
    ['Happy Egg Free Range, 12 ct', eggs('cage_free', 12, null)],
    ['Egg-Free Cookie Dough, 16 oz', skip('not-eggs', 'egg-free')],
    ['Egg Free Vegan Mayo', skip('not-eggs', 'mayo')],
    ['Vegan Egg Salad', skip('egg-product', 'vegan')],
    ['Easter Egger Brown & Blue Eggs, 12 ct', eggs('standard', 12, null)],
    ['Turkey Sausage, Egg & Cheese Croissant Sandwiches, 4 ct', skip('prepared', 'sausage')],
    ['Hard Boiled Quail Eggs, 12 ct', skip('other-bird', 'quail eggs')],
    ['JUST Egg Plant-Based Scramble, 16 fl oz', skip('egg-product', 'just egg')],
    ['Pasture-Raised Eggs from hens fed a plant-based diet, 12 ct', eggs('pasture_raised', 12, null)],
    ['Cadbury Creme Egg', skip('not-eggs', 'cadbury')],
    ['Creme Egg', skip('not-eggs', 'creme egg')],
    ['Egg', SINGULAR_EGG],
    ['Large Brown Egg, 12 ct', eggs('standard', 12, 'Large')],
    ['Eggnog', NO_EGG_WORD],
    ['Egg Nog, 1 qt', skip('not-eggs', 'egg nog')],
    ['', NO_EGG_WORD],
  ] as const)('%s', (title, expected) => {
    expect(classifyListing({ title })).toEqual(expected);
  });
});

describe('classifyListing: count', () => {
  it('reads the size text and the title together', () => {
    expect(classifyListing({ title: 'Large Eggs', sizeText: '18 ct' })).toEqual(eggs('standard', 18, 'Large'));
    expect(classifyListing({ title: 'Large Eggs, 18 ct', sizeText: '1.5 dozen' })).toEqual(
      eggs('standard', 18, 'Large'),
    );
    expect(classifyListing({ title: 'Large Eggs (Pack of 2)', sizeText: '12 ct' })).toEqual(
      eggs('standard', 24, 'Large'),
    );
    expect(classifyListing({ title: 'Large Eggs, 12 ct', sizeText: '  ' })).toEqual(eggs('standard', 12, 'Large'));
  });

  it('treats a bare-number size text as a count but not a bare number in the title', () => {
    expect(classifyListing({ title: 'Large Eggs', sizeText: '30' })).toEqual(eggs('standard', 30, 'Large'));
    expect(classifyListing({ title: 'Large Eggs, 12' })).toEqual(NO_COUNT);
  });

  it('ignores a weight in the size text', () => {
    expect(classifyListing({ title: 'Large Eggs, 12 ct', sizeText: '24 oz' })).toEqual(eggs('standard', 12, 'Large'));
    expect(classifyListing({ title: 'Large Eggs', sizeText: '1.5 lb' })).toEqual(NO_COUNT);
  });

  it('rejects counts it cannot trust', () => {
    expect(classifyListing({ title: 'Large Eggs, 12 ct', sizeText: '18 ct' })).toEqual(
      reject('conflicting-count', 'counts 12, 18 disagree'),
    );
    expect(classifyListing({ title: 'Large Eggs, 1.5 ct' })).toEqual(reject('implausible-count', 'count 1.5'));
    expect(classifyListing({ title: 'Large Eggs, 0 ct' })).toEqual(reject('implausible-count', 'count 0'));
    expect(classifyListing({ title: 'Large Eggs, 30 Dozen' })).toEqual(eggs('standard', 360, 'Large'));
    expect(classifyListing({ title: 'Large Eggs, 31 Dozen' })).toEqual(reject('implausible-count', 'count 372'));
    expect(classifyListing({ title: 'Large Eggs, Pack of 2' })).toEqual(NO_COUNT);
  });
});

describe('parseEggCount', () => {
  it.each([
    ['12 Count', 12],
    ['18 ct', 18],
    ['12ct', 12],
    ['12 Ct.', 12],
    ['- 12ct -', 12],
    ['18-Count', 18],
    ['60-count', 60],
    ['24-Pack', 24],
    ['24 pk', 24],
    ['18 Eggs', 18],
    ['12 Large Brown Eggs', 12],
    ['Twelve Large Eggs', 12],
    ['1 dozen', 12],
    ['1 DOZ', 12],
    ['2 dz', 24],
    ['5 Dozen', 60],
    ['1.5 Dozen', 18],
    ['1 1/2 dozen', 18],
    ['1½ dozen', 18],
    ['1/2 dozen', 6],
    ['One Dozen', 12],
    ['a dozen', 12],
    ['Dozen', 12],
    ['half dozen', 6],
    ['Half-Dozen', 6],
    ['two dozen', 24],
    ['(18-Count / 1.5 Dozen)', 18],
    ['5 Dozen / 60-Count', 60],
    ['12 ct, Pack of 2', 24],
    ['12 Count (Pack of 2)', 24],
    ['2 Pack of 12', 24],
    ['2 pk, 12 ct', 24],
    ['(2 Pack) 18 ct', 36],
    ['2 x 12 ct', 24],
    ['12ct x 2', 24],
    ['2 Cartons of 12 Eggs', 24],
    ['12 Count (Pack of 2), 24 Count Total', 24],
    ['18 Count (Pack of 1)', 18],
    ['Pack of 12 Eggs', 12],
    ['Family Pack of 18', 18],
    ['Flat of 30', 30],
    ['24-Pack, 2 Dozen', 24],
    ['Grade AA Large Eggs, 12 ct, 24 oz', 12],
    ['Omega-3 Eggs, 12 ct', 12],
    ['Omega 3 Eggs, 18 ct', 18],
    ['Vitamin D3 Eggs, 6 ct', 6],
    ['365 Organic Eggs, 12 ct', 12],
    ['12', 12],
    ['1 ct', 1],
    ['1.5 ct', 1.5],
    ['1.3 dozen', 15.6],
  ])('%s -> %d', (text, count) => {
    expect(parseEggCount(text)).toEqual({ count });
  });

  it.each([
    '24 oz',
    '32 fl oz',
    '1.5 lb',
    'Grade AA',
    'Omega-3',
    'Omega 3 Eggs',
    'Vitamin D3 Eggs',
    'B12 Eggs',
    'Pack of 2',
    '2 Pack',
    '1 each',
    '12 ea',
    'Large Eggs',
    'Large Eggs, 12',
    '365 by Whole Foods Market',
    '',
  ])('%s -> null', (text) => {
    expect(parseEggCount(text)).toBeNull();
  });

  it.each([
    ['12 ct, 18 ct', [12, 18]],
    ['18 ct (1 Dozen)', [12, 18]],
    ['12 Count / 2 Dozen', [12, 24]],
    ['12 ct, Pack of 2, Pack of 3', [24, 36]],
    ['18 Eggs, 24-Pack', [18, 24]],
    ['6 Pack, 12 ct', [6, 12]],
  ])('%s -> conflict', (text, conflict) => {
    expect(parseEggCount(text)).toEqual({ conflict });
  });
});

describe('eggTypeOf', () => {
  it.each([
    ['Vital Farms Organic Pasture-Raised Extra Large Eggs', 'pasture_raised'],
    ['VITAL FARMS PASTURE RAISED LARGE EGGS', 'pasture_raised'],
    ['Pastured Eggs', 'pasture_raised'],
    ['Free Range Organic Pasture Raised Eggs', 'pasture_raised'],
    ["Pete & Gerry's Organic Free-Range Eggs Large", 'cage_free'],
    ['Free Range Eggs', 'cage_free'],
    ['FREE-RANGE EGGS', 'cage_free'],
    ['Freerange Eggs', 'cage_free'],
    ['Marketside Organic Cage Free Large Brown Eggs', 'cage_free'],
    ['Cage-Free Eggs', 'cage_free'],
    ['CAGEFREE EGGS', 'cage_free'],
    ['Simple Truth Organic Grade A Large Brown Eggs', 'organic'],
    ['Organic Valley Large Brown Eggs', 'organic'],
    ['O Organics Eggs Large Brown', 'organic'],
    ['Non-Organic Large Eggs', 'standard'],
    ['Grade A Large White Eggs', 'standard'],
    ["Eggland's Best Classic Large White Eggs Grade A", 'standard'],
    // A brand that sells one housing type settles a title that states none (egg-brands.ts).
    ['Vital Farms Large Eggs', 'pasture_raised'],
    ['Green Pasture Farms Large Eggs', 'standard'],
    ['Range Free Eggs', 'standard'],
  ] as const)('%s -> %s', (title, type) => {
    expect(eggTypeOf(title)).toBe(type);
  });
});

describe('eggTypeOf with the brand (a brand that sells one housing type)', () => {
  it.each([
    // Whole Foods and ALDI keep the brand apart from the title.
    ['Large Grade A Eggs, 18 CT', 'Vital Farms', 'pasture_raised'],
    ['Organic Grade A XL Eggs, 12 CT', 'Vital Farms', 'pasture_raised'],
    ['Organic Grade A XL Eggs, 12 CT', 'VITAL FARMS', 'pasture_raised'],
    // A brand never lowers the title's "organic"; it raises it only to a type ranked above it.
    ['Organic Large Brown Eggs, 12 ct', "Pete and Gerry's", 'organic'],
    ['Organic Large Brown Eggs, 12 ct', 'Pete & Gerry’s Organic Eggs', 'organic'],
    ['Organic Large Grade A Eggs, 18 CT', "Pete & Gerry's", 'organic'],
    ['Organic Large Brown Eggs, 12 ct', "Nellie's Free Range", 'organic'],
    ['Large Brown Eggs, 18 ct', "Nellie's Free Range", 'cage_free'],
    ['Large Eggs, 12 ct', 'The Happy Egg Co.', 'cage_free'],
    ['Large Eggs, 12 ct', 'happy egg', 'cage_free'],
    // Or the title leads with it.
    ['Vital Farms Organic Grade A XL Eggs, 12 ct', null, 'pasture_raised'],
    ["Pete & Gerry's Organic Large Brown Eggs", undefined, 'organic'],
    ["Pete & Gerry's Large Brown Eggs", undefined, 'cage_free'],
    // The title's own housing claim always wins.
    ['Organic Free Range Large Brown Eggs', 'Vital Farms', 'cage_free'],
    ['Pasture Raised Large Eggs', "Nellie's", 'pasture_raised'],
    ['Cage Free Large Eggs', 'Vital Farms', 'cage_free'],
    // Brands that sell several housing types, or none of the table, say nothing.
    ['Organic Large Brown Eggs', "Eggland's Best", 'organic'],
    ['Large White Eggs', 'Great Value', 'standard'],
    ['Large White Eggs', '', 'standard'],
    ['Large White Eggs', null, 'standard'],
    // A brand named elsewhere than at the start is not the listing's brand.
    ['Large Eggs (compare to Vital Farms)', 'Simply Nature', 'standard'],
  ] as const)('%s by %s -> %s', (title, brand, type) => {
    expect(eggTypeOf(title, brand)).toBe(type);
  });

  it('reaches classifyListing through its brand field', () => {
    expect(classifyListing({ title: 'Large Grade A Eggs, 18 CT', brand: 'Vital Farms' })).toMatchObject({
      kind: 'eggs',
      eggType: 'pasture_raised',
      count: 18,
    });
    expect(classifyListing({ title: 'Large Grade A Eggs, 18 CT' })).toMatchObject({
      kind: 'eggs',
      eggType: 'standard',
      count: 18,
    });
  });
});

describe('sizeGradeOf', () => {
  it.each([
    ['Grade AA Large Eggs', 'Grade AA Large'],
    ['Large Grade AA Eggs', 'Grade AA Large'],
    ['Grade A Extra Large Eggs', 'Grade A Extra Large'],
    ['Extra Large Eggs', 'Extra Large'],
    ['Extra-Large Eggs', 'Extra Large'],
    ['X-Large Eggs', 'Extra Large'],
    ['XL Brown Eggs', 'Extra Large'],
    ['EXTRA LARGE GRADE A', 'Grade A Extra Large'],
    ['Jumbo Eggs', 'Jumbo'],
    ['Grade AA Jumbo', 'Grade AA Jumbo'],
    ['Large White Eggs', 'Large'],
    ['Lg Eggs', 'Large'],
    ['Medium Eggs', 'Medium'],
    ['Small Eggs', 'Small'],
    ['Peewee Eggs', 'Peewee'],
    ['Pee Wee Eggs', 'Peewee'],
    ['Assorted Sizes', 'Mixed'],
    ['Grade A Mixed Sizes', 'Grade A Mixed'],
    ['Medium & Large Eggs', 'Mixed'],
    ['Grade A Eggs', 'Grade A'],
    ['USDA Grade AA Eggs', 'Grade AA'],
    ['Grade-A Large', 'Grade A Large'],
    ['Eggs from Small Family Farms, Large', 'Large'],
    ['Brown Eggs', null],
    ['Cage Free Eggs, 12 ct', null],
    ['Gradea Eggs', null],
  ] as const)('%s -> %s', (title, grade) => {
    expect(sizeGradeOf(title)).toBe(grade);
  });
});

describe('reason labels', () => {
  it('label every reason', () => {
    expect(SKIP_REASON_LABELS).toEqual({
      'egg-product': 'egg products (liquid, whites, substitutes)',
      prepared: 'prepared egg foods (hard-boiled, bites, sandwiches)',
      'not-eggs': 'not eggs (candy, pasta, decorating kits, tools, other goods)',
      'other-bird': 'eggs of other birds (quail, duck, goose)',
    });
    expect(REJECT_REASON_LABELS).toEqual({
      'no-count': 'no egg count in the title or size',
      'conflicting-count': 'egg counts that disagree',
      'implausible-count': 'implausible egg count',
    });
  });
});

describe('a size field in "each"', () => {
  it('reads "12 ea" as twelve eggs, and "1 each" as the selling unit, not a count', () => {
    expect(classifyListing({ title: 'Goldhen Grade A Large White Eggs', sizeText: '12 ea' })).toEqual(
      eggs('standard', 12, 'Grade A Large'),
    );
    expect(classifyListing({ title: 'Organic Large Brown Eggs, 12 ct', sizeText: '1 each' })).toEqual(
      eggs('organic', 12, 'Large'),
    );
    expect(classifyListing({ title: 'Organic Large Brown Eggs', sizeText: '1 each' })).toEqual(NO_COUNT);
  });
});
