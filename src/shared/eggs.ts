// Egg-listing classifier: every product an "eggs" search returns at any retailer goes through
// classifyListing, which says whether it is a pack of shell chicken eggs and, if so, its egg
// type, egg count and size/grade. Pure and import-free apart from the vocabulary, so the browser
// can use it too. It works by rule, because it will meet titles no test has seen: a listing it
// cannot place is skipped or rejected with a reason (and counted by the scrapers), never guessed.
//
// Input text arrives decoded (no HTML entities). Matching is case-insensitive; trademark signs
// are dropped, curly quotes and dashes are straightened, and hyphen/space variants are accepted
// ("Cage-Free" = "Cage Free", "18-Count" = "18 Count").
//
// 1. Shell eggs or not: the first of these rules that matches decides.
//    a. No word "egg"/"eggs" (nor the shell-egg brand Eggland's) -> skipped 'not-eggs' (eggplant,
//       Eggo and eggnog spelled as one word land here).
//    b. Goods that are not food eggs -> 'not-eggs': candy (Cadbury, Reese's, Kinder, creme or
//       peanut-butter eggs, jelly beans...), Easter/plastic/fillable/toy eggs, dye and decorating
//       kits, eggnog, kitchen tools (cookers, poachers, separators, cartons, trays...), pet and
//       animal products, cosmetics, mayonnaise and sauces, drinks, egg noodles/pasta, wrappers.
//    c. Egg substitutes (JUST Egg, Egg Beaters, plant-based, vegan, replacers) -> 'egg-product'.
//       Before prepared foods, so a plant-based scramble is a substitute.
//    d. Eggs of other birds (quail, duck, goose, turkey, emu...) -> 'other-bird'. The bird word
//       must sit next to "egg(s)" (adjectives like "fresh" or "pickled" may come between), so a
//       "Turkey Sausage, Egg & Cheese" sandwich is not read as turkey eggs.
//    e. Prepared foods (hard-boiled, peeled, deviled, egg bites, egg salad, sandwiches, burritos,
//       frittatas, omelets, scrambles, patties, egg rolls, pickled eggs..., and eggs sold with
//       bacon, cheese, sausage or spinach) -> 'prepared'.
//    f. Egg products (liquid eggs, egg whites, yolks, powdered/dried/freeze-dried) -> 'egg-product'.
//       After prepared foods, so "Egg White Bites" are prepared. "Large White Eggs" names the shell
//       colour and is not "egg whites".
//    g. Other foods that merely contain egg (bread, cake, custard, baking mixes, "made with",
//       "egg-free") -> 'not-eggs'.
//    h. The optional category may only skip, never accept: a category naming substitutes, liquid
//       eggs or egg whites -> 'egg-product'; prepared/deli/frozen/meals -> 'prepared'; candy,
//       pasta, toys, pets, beauty, kitchen, bakery, snacks, drinks... -> 'not-eggs'. It skips
//       only when, with those phrases removed (an "egg"/"eggs" word next to one goes with it:
//       "Egg Substitutes", "Easter Eggs"), it no longer names eggs: stores file shell eggs under
//       "Eggs & Egg Substitutes", "Dairy, Eggs & Plant-Based Milk" or "Dairy & Eggs > Eggs & Egg
//       Substitutes", and those are not skipped; "Egg Substitutes" or "Candy" are.
//    i. A title whose only egg word is the singular "egg" and that has no shell-egg wording (no
//       grade, size, housing claim, dozen or "brown/white egg") -> 'not-eggs': shell eggs are sold
//       as "eggs", while "Creme Egg", "Kinder Joy Egg" and the like are singular.
//    Whatever is left is a pack of shell chicken eggs.
// 2. Egg type (eggTypeOf), first match wins (docs/features/scraping.md, 'What counts as eggs'):
//    pasture-raised / pastured -> pasture_raised; free-range -> cage_free (the app has no
//    free-range bucket, and free-range hens are cage-free); cage-free -> cage_free; organic (but
//    not "non-organic") -> organic; otherwise standard. So "Organic Pasture-Raised" is
//    pasture_raised and "Organic Free-Range" / "Organic Cage Free" are cage_free, even though
//    organic hens are cage-free by rule anyway: the documented order is kept. "Organic Valley" and
//    "O Organics" read as organic, which their eggs are. A brand that sells one housing type only
//    (egg-brands.ts) settles the type when the title states no housing ("Vital Farms Large Grade
//    A Eggs" is pasture-raised), and raises "organic" only to a type ranked above it (Vital
//    Farms' "Organic ... Eggs" is pasture-raised); it never lowers the title's claim (Pete &
//    Gerry's "Organic Large Eggs" stays organic). Other brands are not read.
// 3. Egg count (parseEggCount) from the title and the size text (Kroger "12 ct", ALDI
//    sellingSize), read together. Forms: "12 Count", "18 ct", "12ct", "18-Count", "18 Eggs",
//    "12 Large Brown Eggs", "24-Pack", "24 pk", "1 dozen", "1 DOZ", "2 dz", "1.5 Dozen",
//    "1 1/2 dozen", "One Dozen", "a dozen", "half dozen" (6), "two dozen" (24), "dozen" alone
//    (12), "carton/tray/flat of 30"; a size text that is a bare number ("12"). Multi-packs:
//    "Pack of 2" / "(2 Pack)" / "2 pk" / "2 cartons" / "2 Pack of 12" / "2 x 12" / "12 ct x 2"
//    multiply the per-carton count ("12 ct, Pack of 2" -> 24; "12 ct (Pack of 2) 24 ct" agrees
//    at 24). An N-pack ("N-pack", "N pk", "pack of N") with N < 6 is such a carton multiplier;
//    with N >= 6 it is an egg count ("24-Pack" -> 24; "6 Pack, 12 ct" disagrees).
//    Weights and volumes (oz, fl oz, lb), grades, "Omega-3", "Vitamin D3", "B12", "DHA" and the
//    "365" brand are ignored, as are a bare number in a title and "each"/"ea" (Whole Foods'
//    "1 each" is a selling unit, not an egg). Counts that disagree once dozens are multiplied ->
//    rejected 'conflicting-count'; none -> 'no-count'; not a whole number, < 2 or > 360 ->
//    'implausible-count'.
// 4. Size/grade (sizeGradeOf): 'Jumbo', 'Extra Large' (also XL, X-Large, Extra-Large), 'Large',
//    'Medium', 'Small', 'Peewee', or 'Mixed' ("assorted/mixed sizes", or two different size
//    words); "Extra Large" is never also read as "Large", and "small farms"/"small batch" are not
//    sizes. The USDA grade comes first when present: 'Grade AA Large', 'Grade A Extra Large';
//    'Grade A' alone without a size word; null when neither.
import { singleHousingBrand } from './egg-brands.ts';
import { EGG_TYPES, type EggType } from './vocabulary.ts';

export interface ListingText {
  title: string;
  /** The retailer's brand field when it keeps one apart from the title (Whole Foods, ALDI, Kroger). */
  brand?: string | null;
  sizeText?: string | null;
  category?: string | null;
}

export type SkipReason = 'egg-product' | 'prepared' | 'not-eggs' | 'other-bird';
export type RejectReason = 'no-count' | 'conflicting-count' | 'implausible-count';

export type Classification =
  | { kind: 'eggs'; eggType: EggType; count: number; sizeGrade: string | null }
  /** Not shell chicken eggs: skipped and counted. */
  | { kind: 'skipped'; reason: SkipReason; detail: string }
  /** Shell eggs the classifier cannot place: counted, never guessed. */
  | { kind: 'rejected'; reason: RejectReason; detail: string };

/** One count, counts that disagree (sorted, distinct), or null when the text gives none. */
export type CountResult = { count: number } | { conflict: number[] } | null;

export const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  'egg-product': 'egg products (liquid, whites, substitutes)',
  prepared: 'prepared egg foods (hard-boiled, bites, sandwiches)',
  'not-eggs': 'not eggs (candy, pasta, decorating kits, tools, other goods)',
  'other-bird': 'eggs of other birds (quail, duck, goose)',
};

export const REJECT_REASON_LABELS: Record<RejectReason, string> = {
  'no-count': 'no egg count in the title or size',
  'conflicting-count': 'egg counts that disagree',
  'implausible-count': 'implausible egg count',
};

/** Lower case, no trademark signs, straight quotes and dashes, single spaces. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[™®©℠]/g, ' ')
    .replace(/[‘’‛ʼ`´]/g, "'")
    .replace(/[‐‑‒–—―−]/g, '-')
    .replace(/½/g, ' 1/2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whole-word alternation over normalised text; alternatives are regex fragments. */
function anyOf(...alternatives: string[]): RegExp {
  return new RegExp(`\\b(?:${alternatives.join('|')})\\b`);
}

// ---------------------------------------------------------------------------------------------
// 1. Shell eggs or not

const EGG_WORD = /\beggs?\b|\begg[\s-]?land'?s\b/;
const PLURAL_EGGS = /\beggs\b|\begg[\s-]?land'?s\b/;

const CANDY = anyOf(
  'chocolates?',
  'candy',
  'candies',
  'candied',
  'confection\\w*',
  'cadbury',
  "reese'?s",
  'kinder',
  'robin eggs?',
  'whoppers',
  "hershey'?s",
  'lindt',
  'russell stover',
  'peeps',
  'jelly[\\s-]?beans?',
  'crem(?:e|a) eggs?',
  'cream eggs?',
  'marshmallows?',
  'peanut[\\s-]?butter eggs?',
  'caramel',
  'truffles?',
  'malted milk',
  'mini eggs',
  'gumm(?:y|ies)',
  'lollipops?',
  "m&m'?s",
  'nestle',
  'ferrero',
  'snickers',
  'butterfinger',
  'toffee',
  'praline',
  'fondant',
  'sugar eggs?',
  'sweets',
);
const TOYS_AND_KITS = anyOf(
  'plastic',
  'fillable',
  'toys?',
  'surprise',
  'easter(?![\\s-]+egger)',
  'egg hunts?',
  'plush',
  'squishy',
  'slime',
  'putty',
  'pi[nñ]ata',
  'cascarones',
  'confetti',
  'ornaments?',
  'decor',
  'decorations?',
  'figurines?',
  'wooden',
  'ceramic',
  'books?',
  'hatchimals',
  'nest eggs?',
  'dyes?',
  'dyeing',
  'tie[\\s-]?dye',
  'decorating',
  'decorate',
  'colou?ring',
  'paas',
  'stickers?',
  'paint\\w*',
  'markers?',
  'crafts?',
  'shrink[\\s-]?wraps?',
);
const TOOLS = anyOf(
  'cookers?',
  'poachers?',
  'poaching pans?',
  'separators?',
  'slicers?',
  'timers?',
  'boilers?',
  'steamers?',
  'incubators?',
  'candlers?',
  'peelers?',
  'piercers?',
  'cutters?',
  'whisk(?:s|es)?',
  'spatulas?',
  'tongs',
  'molds?',
  'moulds?',
  'makers?',
  'machines?',
  'appliances?',
  'pans?',
  'egg rings?',
  'egg cups?',
  'egg beater(?!s)',
  'empty',
  'skelter',
  'refrigerator',
  'fridge',
  'drawers?',
  'stainless',
  'silicone',
  'egg (?:cartons?|holders?|trays?|racks?|crates?|baskets?|storage|containers?|toppers?|dispensers?|organi[sz]ers?)',
  'non[\\s-]?stick',
  'dishwasher',
  'electric',
  'bpa',
  'countertop',
  'utensils?',
  'gadgets?',
  'labels?',
  'stamps?',
  'big green egg',
  'carriers?',
  'lids?',
  'grills?',
  'chairs?',
  'pillows?',
  'mattress',
  'cushions?',
);
const ANIMALS = anyOf(
  'dogs?',
  'pupp(?:y|ies)',
  'cats?',
  'kittens?',
  'pets?',
  'canine',
  'feline',
  'chews?',
  'kibble',
  'treats?',
  'bird (?:food|seed)',
  'wild birds?',
  'parrots?',
  'layer (?:feed|pellets|crumbles)',
  '(?:chicken|poultry) feed',
  'oyster shell',
  'hatching',
  'reptiles?',
);
const COSMETICS = anyOf(
  'shampoo',
  'conditioner',
  'hair',
  'masks?',
  'serum',
  'lotion',
  'moisturi[sz]er',
  'cleanser',
  'soap',
  'face',
  'facial',
  'skin',
  'skincare',
  'cosmetics?',
  'makeup',
  'sponges?',
  'beauty',
  'blenders?',
  'lip',
  'nail',
  'bath',
  'shower',
  'body wash',
  'scrub',
  'perfume',
  'fragrance',
  'candles?',
);
const CONDIMENTS = anyOf('mayonnaise', 'mayo', 'aioli', 'dressings?', 'hollandaise', 'sauces?');
const DRINKS_AND_SUPPLEMENTS = anyOf(
  'egg[\\s-]?nogs?',
  'nog',
  'shakes?',
  'smoothies?',
  'beverages?',
  'drinks?',
  'latte',
  'soda',
  'beer',
  'wine',
  'liqueur',
  'cocktails?',
  'supplements?',
  'capsules?',
  'tablets?',
  'softgels?',
  'membrane',
  'collagen',
);
const PASTA = anyOf(
  'noodles?',
  'pasta',
  'spaghetti',
  'fettuccine',
  'linguine',
  'lasagn[ae]',
  'macaroni',
  'pappardelle',
  'tagliatelle',
  'sp[aä]etzle',
  'sp[aä]tzle',
  'dumplings?',
  'wontons?',
  'wrappers?',
  'skins',
  'gnocchi',
  'ravioli',
  'tortellini',
  'ramen',
  'udon',
  'lo mein',
  'chow mein',
  'orzo',
  'penne',
  'rotini',
  'fusilli',
  'egg[\\s-]plants?(?![\\s-]*based)',
);
const SUBSTITUTES = anyOf(
  'substitutes?',
  'replacers?',
  'replacements?',
  'egg alternatives?',
  'plant[\\s-]*based(?![\\s-]+(?:diet|feed))',
  'vegan',
  'just egg',
  'egg[\\s-]?beaters',
  "better'?n eggs",
  'zero egg',
  'neat egg',
  'simply eggless',
  "crack'?d",
);
const BIRDS = '(?:quail|ducks?|goose|geese|turkey|emu|ostrich|pheasant|guinea[\\s-]?(?:fowl|hen)|partridge|rhea)';
const BIRD_EGG_ADJECTIVES =
  '(?:fresh|farm|raw|whole|large|jumbo|medium|small|pickled|canned|salted|preserved|organic|pastured?|raised|' +
  'free|range|brown|white|blue|green|speckled|grade|a|aa|hard|boiled|cooked)';
const OTHER_BIRDS = new RegExp(
  `\\b${BIRDS}(?:'s)?(?:[\\s,-]+${BIRD_EGG_ADJECTIVES})*[\\s,-]+eggs?\\b|\\beggs?\\s*[,:-]\\s*${BIRDS}\\b|\\bbalut\\b`,
);
const PREPARED = anyOf(
  'hard[\\s-]*boiled',
  'hard[\\s-]*cooked',
  'soft[\\s-]*boiled',
  'boiled',
  'cooked',
  'peeled',
  'devil?led',
  'stuffed',
  'egg bites?',
  'bites',
  'sous[\\s-]*vide',
  'salads?',
  'sandwich(?:es)?',
  "egg[\\s-]?'?wich(?:es)?",
  'burritos?',
  'wraps?',
  'croissants?',
  'biscuits?',
  'english muffins?',
  'mc ?muffins?',
  'frittatas?',
  'omel(?:et|ette)s?',
  'scrambles?',
  'scrambled',
  'quiches?',
  'patt(?:y|ies)',
  'egg rolls?',
  'eggs? benedict',
  'egg drop',
  'fried rice',
  'breakfast (?:bowls?|sandwich(?:es)?|burritos?|skillets?|platters?|sticks?|tacos?|pizzas?)',
  'bowls?',
  'tacos?',
  'pickled',
  'marinated',
  'smoked',
  'tea eggs?',
  'century eggs?',
  'scotch eggs?',
  'ready[\\s-]to[\\s-]eat',
  'heat (?:&|and) eat',
  'snack (?:packs?|box(?:es)?|trays?)',
  'protein (?:packs?|box(?:es)?|bistro|snacks?)',
  'bistro box(?:es)?',
  'meals?',
  'entrees?',
  'cheese',
  'bacon',
  'sausages?',
  'ham',
  'hash browns?',
  'potato(?:es)?',
  'spinach',
  'veggies?',
);
const EGG_PRODUCT_FORMS = anyOf(
  'liquid',
  'egg[\\s-]*whites?',
  'all whites',
  'whites only',
  '100% whites',
  'egg[\\s-]*yolks?',
  'yolks only',
  'powder(?:ed)?',
  'dried',
  'dehydrated',
  'freeze[\\s-]*dried',
  'frozen',
  'egg products?',
);
const FOODS_WITH_EGG = anyOf(
  'breads?',
  'brioche',
  'challah',
  'buns?',
  'bagels?',
  'rolls?',
  'muffins?',
  'cakes?',
  'cupcakes?',
  'cookies?',
  'brownies?',
  'pancakes?',
  'waffles?',
  'crepes?',
  'pies?',
  'tarts?',
  'custards?',
  'puddings?',
  'flan',
  'ice cream',
  'gelato',
  'cereals?',
  'bars?',
  'chips',
  'crackers?',
  'snacks?',
  'soups?',
  'seasonings?',
  'spices?',
  'rubs?',
  'batter',
  'dough',
  'flour',
  'rice',
  'tamales?',
  'empanadas?',
  'pastr(?:y|ies)',
  'donuts?',
  'doughnuts?',
  'kolaches?',
  'meringues?',
  '(?:cake|muffin|pancake|waffle|baking|bread|cookie|brownie|custard|pudding|drink|seasoning) mix(?:es)?',
  'made with',
  'contains',
  'egg[\\s-]*free(?![\\s-]*range)',
  'eggless',
  'no eggs?',
  'without eggs?',
);

interface SkipRule {
  reason: SkipReason;
  pattern: RegExp;
}

/** Title rules in precedence order (header, 1b-1g): the first match decides. */
const TITLE_RULES: readonly SkipRule[] = [
  { reason: 'not-eggs', pattern: CANDY },
  { reason: 'not-eggs', pattern: TOYS_AND_KITS },
  { reason: 'not-eggs', pattern: TOOLS },
  { reason: 'not-eggs', pattern: ANIMALS },
  { reason: 'not-eggs', pattern: COSMETICS },
  { reason: 'not-eggs', pattern: CONDIMENTS },
  { reason: 'not-eggs', pattern: DRINKS_AND_SUPPLEMENTS },
  { reason: 'not-eggs', pattern: PASTA },
  { reason: 'egg-product', pattern: SUBSTITUTES },
  { reason: 'other-bird', pattern: OTHER_BIRDS },
  { reason: 'prepared', pattern: PREPARED },
  { reason: 'egg-product', pattern: EGG_PRODUCT_FORMS },
  { reason: 'not-eggs', pattern: FOODS_WITH_EGG },
];

/** Category rules (header, 1h): they can only skip. */
const CATEGORY_RULES: readonly SkipRule[] = [
  {
    reason: 'egg-product',
    pattern: anyOf(
      'substitutes?',
      'replacers?',
      'plant[\\s-]*based',
      'vegan',
      'liquid eggs?',
      'egg whites?',
      'egg products?',
    ),
  },
  {
    reason: 'prepared',
    pattern: anyOf(
      'prepared',
      'deli',
      'frozen',
      'meals?',
      'sandwich(?:es)?',
      'ready[\\s-]to[\\s-]eat',
      'grab (?:&|and) go',
    ),
  },
  {
    reason: 'not-eggs',
    pattern: anyOf(
      'candy',
      'chocolates?',
      'confection\\w*',
      'pasta',
      'noodles?',
      'toys?',
      'easter',
      'seasonal',
      'party',
      'crafts?',
      'pets?',
      'dogs?',
      'cats?',
      'beauty',
      'personal care',
      'kitchen',
      'cookware',
      'appliances?',
      'tools?',
      'bakery',
      'snacks?',
      'beverages?',
      'drinks?',
      'sauces?',
      'condiments?',
      'dressings?',
      'household',
      'supplements?',
      'vitamins?',
    ),
  },
];

const EGG_WORD_ONLY = /\beggs?\b/;

/**
 * The first category rule that matches, when the category, without every phrase the rules match
 * (with an "egg"/"eggs" word right before or after it), no longer names eggs; else null. So
 * "Egg Substitutes" and "Candy" skip, "Eggs & Egg Substitutes" does not (header, 1h).
 */
function categorySkipReason(category: string): SkipReason | null {
  let reason: SkipReason | null = null;
  let rest = category;
  for (const rule of CATEGORY_RULES) {
    const phrase = new RegExp(`(?:\\beggs?[\\s-]+)?${rule.pattern.source}(?:[\\s-]+eggs?\\b)?`, 'g');
    const removed = rest.replace(phrase, ' ; ');
    if (removed !== rest) {
      reason ??= rule.reason;
      rest = removed;
    }
  }
  return reason !== null && !EGG_WORD_ONLY.test(rest) ? reason : null;
}

// ---------------------------------------------------------------------------------------------
// 2. Egg type

/** The housing claim of a title alone, by the precedence in the header (2). */
function titleEggType(title: string): EggType {
  const text = normalize(title);
  if (/\bpasture[\s-]*raised\b|\bpastured\b/.test(text)) return 'pasture_raised';
  if (/\bfree[\s-]*range\b/.test(text)) return 'cage_free';
  if (/\bcage[\s-]*free\b/.test(text)) return 'cage_free';
  if (/(?<!\bnon[\s-]?)\borganics?\b/.test(text)) return 'organic';
  return 'standard';
}

/**
 * The egg type: the title's housing claim. A brand that sells one housing type only
 * (src/shared/egg-brands.ts) settles the type when the title states none, and raises "organic" to
 * its type only when that type ranks above organic in EGG_TYPES (Vital Farms: pasture-raised); it
 * never lowers what the title says (Pete & Gerry's "Organic ..." stays organic).
 */
export function eggTypeOf(title: string, brand?: string | null): EggType {
  const claimed = titleEggType(title);
  if (claimed !== 'standard' && claimed !== 'organic') return claimed;
  const branded = singleHousingBrand(brand, title)?.eggType;
  if (!branded) return claimed;
  if (claimed === 'standard') return branded;
  return EGG_TYPES.indexOf(branded) > EGG_TYPES.indexOf(claimed) ? branded : claimed;
}

// ---------------------------------------------------------------------------------------------
// 3. Egg count

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  half: 0.5,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  eighteen: 18,
  twenty: 20,
  'twenty-four': 24,
  'twenty four': 24,
  thirty: 30,
  'thirty-six': 36,
  'thirty six': 36,
  sixty: 60,
};

/** A number not glued to a word or decimal before it ("Omega-3", "B12" and "2.5" tails do not count). */
const NUM_START = '(?<![\\w.])(?<!\\d\\/)(?<![a-z]-)';
const DIGITS = '\\d+\\s+\\d+\\/\\d+|\\d+\\/\\d+|\\d+(?:\\.\\d+)?';
const COUNT_WORDS =
  'twenty[\\s-]four|thirty[\\s-]six|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|' +
  'eighteen|twenty|thirty|sixty';
/** Numbers before a count unit. */
const NUM = `${NUM_START}(${DIGITS}|(?:${COUNT_WORDS})\\b)`;
/** Numbers before "dozen", which may also be "a", "an" or "half". */
const DOZEN_NUM = `${NUM_START}(${DIGITS}|(?:${COUNT_WORDS}|a|an|half)\\b)`;
const DOZEN_UNIT = '(?:dozens?|doz|dz)\\b\\.?';
const COUNT_UNIT = '(?:counts?|cts?|cnt)\\b\\.?';
/** Words that may stand between a number and "eggs": "12 Large Brown Eggs". */
const EGG_ADJECTIVES =
  '(?:extra|x|xl|large|jumbo|medium|small|peewee|brown|white|blue|green|fresh|farm|organic|natural|cage|free|' +
  'range|pasture|pastured|raised|grade|a|aa|whole|shell|chicken|heirloom|heritage)';

function parseNumber(raw: string): number {
  const word = NUMBER_WORDS[raw.replace(/\s+/g, ' ')];
  if (word !== undefined) return word;
  const mixed = /^(\d+)\s+(\d+)\/(\d+)$/.exec(raw);
  if (mixed) return Number(mixed[1]) + Number(mixed[2]) / Number(mixed[3]);
  const fraction = /^(\d+)\/(\d+)$/.exec(raw);
  if (fraction) return Number(fraction[1]) / Number(fraction[2]);
  return Number(raw);
}

/** "dozen" units count 12, anything else (ct, count, eggs, none) 1. */
function unitFactor(unit: string | undefined): number {
  return unit !== undefined && /^(?:dozens?|doz|dz)/.test(unit) ? 12 : 1;
}

/** Text that must not be read as a count: nutrition claims and the "365" brand. */
const NOT_COUNTS = [
  /\bomega[\s-]*\d+s?\b/g,
  /\bvitamins?\s+[a-z]\d*\b/g,
  /\b(?:d3|b12|dha)\b/g,
  /\b\d+(?:\.\d+)?\s*(?:mg|mcg|g|grams?|oz|ounces?|fl|lbs?|pounds?|kg|ml|l|liters?|%)(?![\w])/g,
  /^365\b|\b365 (?:by|everyday)\b/g,
];

/**
 * The egg count of a title or size text ("12 ct", "1.5 Dozen", "12 Count (Pack of 2)"): one
 * count, the distinct counts when they disagree, or null when there is none. The count is not
 * checked for plausibility here (classifyListing does that), so "1.5 ct" gives 1.5.
 */
export function parseEggCount(text: string): CountResult {
  let rest = normalize(text);
  if (/^\d+$/.test(rest)) return { count: Number(rest) };
  for (const pattern of NOT_COUNTS) rest = rest.replace(pattern, ' ; ');

  const counts: number[] = [];
  const packs: number[] = [];
  const multipliers: number[] = [];
  /** Applies a pattern everywhere, blanking what it read so later patterns cannot read it again. */
  const take = (pattern: string, read: (groups: (string | undefined)[]) => void) => {
    rest = rest.replace(new RegExp(pattern, 'g'), (...args: unknown[]) => {
      const groups = args.slice(1, -2).map((g) => (typeof g === 'string' ? g : undefined));
      read(groups);
      return ' ; ';
    });
  };
  const num = (raw: string | undefined) => parseNumber(raw ?? '');

  // "2 Pack of 12", "2 cartons of 1 dozen": carton multiplier times per-carton count.
  const unit = `(?:[\\s-]*(${DOZEN_UNIT}|${COUNT_UNIT}|eggs?\\b))?`;
  take(`${NUM}[\\s-]*(?:packs?|pks?|cartons?)\\s+of\\s+(${DIGITS}|${COUNT_WORDS})${unit}`, (g) => {
    multipliers.push(num(g[0]));
    counts.push(num(g[1]) * unitFactor(g[2]));
  });
  // "2 x 12 ct", "3 × 18".
  take(`${NUM_START}(\\d+)\\s*[x×]\\s*(${DIGITS})${unit}`, (g) => {
    multipliers.push(num(g[0]));
    counts.push(num(g[1]) * unitFactor(g[2]));
  });
  // "12 ct x 2".
  take(`(?<=(?:\\d|\\b)(?:cts?|count|eggs|dozen|doz|pack|pk)\\.?)\\s*[x×]\\s*(\\d+)\\b`, (g) =>
    multipliers.push(num(g[0])),
  );
  // "Pack of 2", "case of 6": read as an N-pack below (with an egg unit after the number, as in
  // "pack of 12 eggs", the unit patterns read it as a count).
  take(
    `\\b(?:pack|set|lot|bundle|case|multipack)\\s+of\\s+(\\d+)\\b(?![\\s-]*(?:${DOZEN_UNIT}|${COUNT_UNIT}|eggs?\\b))`,
    (g) => packs.push(num(g[0])),
  );
  // "carton of 12", "flat of 30" (no unit after: with one, the unit patterns read it).
  take(`\\b(?:carton|box|tray|flat|crate)\\s+of\\s+(\\d+)\\b(?![\\s-]*(?:${DOZEN_UNIT}|${COUNT_UNIT}|eggs?\\b))`, (g) =>
    counts.push(num(g[0])),
  );
  // "2 packs", "2 cartons" (plural or carton: always cartons, never eggs).
  take(`${NUM}[\\s-]*(?:packs|pks|cartons?)\\b`, (g) => multipliers.push(num(g[0])));
  // "1.5 Dozen", "half-dozen", "a dozen", "2 dz", then "dozen" alone.
  take(`${DOZEN_NUM}[\\s-]*${DOZEN_UNIT}`, (g) => counts.push(num(g[0]) * 12));
  take(`\\b(?:dozens?|doz)\\b\\.?`, () => counts.push(12));
  // "12 Count", "18-ct", "12ct".
  take(`${NUM}[\\s-]*${COUNT_UNIT}`, (g) => counts.push(num(g[0])));
  // "18 Eggs", "12 Large Brown Eggs".
  take(`${NUM}(?:[\\s-]+${EGG_ADJECTIVES})*[\\s-]*eggs?\\b`, (g) => counts.push(num(g[0])));
  // "24-Pack", "18 pk", "(2 Pack)".
  take(`${NUM}[\\s-]*(?:pack|pk)\\b`, (g) => packs.push(num(g[0])));

  // An N-pack ("N-pack", "pack of N") of fewer than 6 is a carton multiplier, otherwise eggs.
  for (const pack of packs) (pack < 6 ? multipliers : counts).push(pack);
  // Decimal dozens ("1.3 dozen") must not leave float noise such as 15.600000000000001.
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  const bases = distinct(counts.map(round));
  const factors = distinct(multipliers.filter((m) => m !== 1));
  if (bases.length === 0) return null;
  if (factors.length === 0) {
    return bases.length === 1 && bases[0] !== undefined ? { count: bases[0] } : { conflict: bases };
  }
  const [factor] = factors;
  if (factors.length === 1 && factor !== undefined) {
    const [base, total] = bases;
    if (base !== undefined && (bases.length === 1 || (bases.length === 2 && total === base * factor))) {
      return { count: round(base * factor) };
    }
  }
  return { conflict: distinct(bases.flatMap((b) => factors.map((f) => round(b * f)))) };
}

function distinct(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// 4. Size and grade

const SIZES: readonly (readonly [string, RegExp])[] = [
  ['Jumbo', /\bjumbo\b/g],
  ['Extra Large', /\b(?:extra[\s-]*(?:large|lg)|x[\s-]*large|x[\s-]*lg|xlg|xl)\b/g],
  ['Large', /\b(?:large|lg|lrg)\b/g],
  ['Medium', /\b(?:medium|med)\b/g],
  ['Small', /\bsmall\b(?![\s-]+(?:family[\s-]+)?(?:farms?|batch|flocks?))/g],
  ['Peewee', /\bpee[\s-]*wee\b/g],
];

/** 'Grade AA Large', 'Extra Large', 'Grade A', 'Mixed'... or null (header, 4). */
export function sizeGradeOf(title: string): string | null {
  let text = normalize(title);
  const gradeMatch = /\bgrade[\s-]+(aa|a)\b/.exec(text);
  const grade = gradeMatch?.[1] === undefined ? null : `Grade ${gradeMatch[1].toUpperCase()}`;
  const found: string[] = [];
  if (/\b(?:assorted|mixed|various)[\s-]+sizes?\b/.test(text)) {
    found.push('Mixed');
  } else {
    for (const [size, pattern] of SIZES) {
      // Blank each size once read, so "extra large" is not read again as "large".
      text = text.replace(pattern, () => {
        if (!found.includes(size)) found.push(size);
        return ' ; ';
      });
    }
  }
  const size = found.length === 0 ? null : found.length === 1 ? (found[0] ?? null) : 'Mixed';
  if (grade && size) return `${grade} ${size}`;
  return grade ?? size;
}

// ---------------------------------------------------------------------------------------------
// The classifier

function skipped(reason: SkipReason, detail: string): Classification {
  return { kind: 'skipped', reason, detail };
}

function rejected(reason: RejectReason, detail: string): Classification {
  return { kind: 'rejected', reason, detail };
}

/** Why the listing is not shell chicken eggs, or null when it is (header, 1). */
function skipReason(input: ListingText): Classification | null {
  const title = normalize(input.title);
  if (!EGG_WORD.test(title)) return skipped('not-eggs', 'no "egg" in title');
  for (const rule of TITLE_RULES) {
    const match = rule.pattern.exec(title);
    if (match) return skipped(rule.reason, `"${match[0]}" in title`);
  }
  const category = input.category?.trim();
  if (category) {
    const reason = categorySkipReason(normalize(category));
    if (reason) return skipped(reason, `category "${category}"`);
  }
  if (!PLURAL_EGGS.test(title)) {
    const shellWording =
      sizeGradeOf(title) !== null ||
      titleEggType(title) !== 'standard' ||
      /\b(?:dozen|doz)\b|\b(?:brown|white|blue)\s+egg\b/.test(title);
    if (!shellWording) return skipped('not-eggs', '"egg" without shell-egg wording');
  }
  return null;
}

/** Classifies one search result (header). */
export function classifyListing(input: ListingText): Classification {
  const skip = skipReason(input);
  if (skip) return skip;

  const size = input.sizeText?.trim() ?? '';
  // A size text that is a bare number ("12") is a count; a title's bare number is not. In a size
  // field "12 ea" is twelve eggs, but "1 each" is the selling unit (one carton), not a count.
  const each = /^(\d+)\s*(?:ea|each)\.?$/i.exec(size);
  const sizeAsCount = /^\d+$/.test(size) ? `${size} ct` : each ? (Number(each[1]) >= 2 ? `${each[1]} ct` : '') : size;
  const counted = parseEggCount(sizeAsCount ? `${input.title} ; ${sizeAsCount}` : input.title);
  if (counted === null) return rejected('no-count', 'no egg count in title or size');
  if ('conflict' in counted) return rejected('conflicting-count', `counts ${counted.conflict.join(', ')} disagree`);
  const { count } = counted;
  if (!Number.isInteger(count) || count < 2 || count > 360) {
    return rejected('implausible-count', `count ${count}`);
  }
  return { kind: 'eggs', eggType: eggTypeOf(input.title, input.brand), count, sizeGrade: sizeGradeOf(input.title) };
}
