// What `npm run demo`'s official stand-in publishes for USDA Market News and APHIS: made-up
// figures (no captured history of theirs can be served), generated deterministically, in the
// bodies' shapes the parsers read (test/official/SOURCES.md):
// - report 2757 (advertised carton prices by region and egg type, with the stores advertising),
//   weekly over the demo's history (the sample catalogue's days), each region's figure drawn
//   from the sample shelf price of the matching EggWatch region a week ahead, below it as
//   advertised prices are;
// - report 2843 (the National Shell Egg Index, cents a dozen), each weekday over the same days,
//   drawn from the Northeast's sample shelf price of standard eggs three weeks ahead, amplified
//   as wholesale swings are, with noise: the comparison chart measures that lead;
// - the APHIS CSV (the captured file's columns, dates and separators), detections in layer and
//   other flocks since February 2022, in the spring and autumn waves the real outbreak had.
import { sampleAnchors, readMarketCsv, sampleShelfPerDozen, SAMPLE_DAYS } from '#server/seed.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import type { MarsRow } from './standin.ts';

const DAY_MS = 86_400_000;
/** Weeks the demo's wholesale index leads the Northeast's shelf price of standard eggs. */
export const DEMO_WHOLESALE_LEAD_WEEKS = 3;
/** The section of each report the worker asks for, as the stand-in keys its rows. */
export const DEMO_RETAIL_KEY = '2757/Report Details';
export const DEMO_WHOLESALE_KEY = '2843/Report Detail Weighted';

/** FNV-1a, mixed (murmur3's finalizer), in [0, 1): the same figures on every machine and every run. */
function unit(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 0x100000000;
}

const dayNumberOf = (date: Date) => Math.floor(date.getTime() / DAY_MS);
const mmddyyyy = (dayNumber: number) => {
  const d = new Date(dayNumber * DAY_MS);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
};
/** M/D/YYYY, as the captured APHIS file writes its dates. */
const aphisDay = (dayNumber: number) => {
  const d = new Date(dayNumber * DAY_MS);
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
};
const cents = (dollars: number) => (Math.round(dollars * 100) / 100).toFixed(2);

/** USDA's retail regions, as the report spells them, with the EggWatch region whose shelf they follow. */
const RETAIL_REGIONS: Array<{ name: string; region: Region | 'national'; stores: number }> = [
  { name: 'National', region: 'national', stores: 14_800 },
  { name: 'Northeast', region: 'northeast', stores: 2_900 },
  { name: 'Southeast', region: 'south', stores: 3_400 },
  { name: 'Midwest', region: 'midwest', stores: 2_700 },
  { name: 'Southcentral', region: 'south', stores: 2_100 },
  { name: 'Southwest', region: 'west', stores: 2_300 },
  { name: 'Northwest', region: 'west', stores: 1_300 },
];

/** The report's environments for EggWatch's egg types, and the share of stores advertising each. */
const ENVIRONMENTS: Array<{ environment: string; eggType: EggType; share: number }> = [
  { environment: 'Conventional', eggType: 'standard', share: 0.62 },
  { environment: 'Cage-Free', eggType: 'cage_free', share: 0.21 },
  { environment: 'USDA Organic', eggType: 'organic', share: 0.11 },
  { environment: 'Pasture Raised', eggType: 'pasture_raised', share: 0.05 },
];

const REGIONS: Region[] = ['northeast', 'midwest', 'south', 'west'];

/** Reports 2757 and 2843 over the demo's history up to `today`, keyed as the stand-in serves them. */
export function demoMarsReports(today: Date = new Date()): Record<string, MarsRow[]> {
  const anchors = sampleAnchors(readMarketCsv());
  const last = dayNumberOf(today);
  const first = last - SAMPLE_DAYS + 1;
  const shelf = (region: Region | 'national', eggType: EggType, day: number) =>
    region === 'national'
      ? REGIONS.reduce((sum, r) => sum + sampleShelfPerDozen(r, eggType, day, anchors), 0) / REGIONS.length
      : sampleShelfPerDozen(region, eggType, day, anchors);

  // 2843: weekdays; graded loose caged white large (the row the worker keeps) and a brown row.
  const wholesale: MarsRow[] = [];
  const driver = (day: number) => shelf('northeast', 'standard', day);
  let level = 0;
  for (let d = first - 28; d < first; d += 1) level += driver(d + DEMO_WHOLESALE_LEAD_WEEKS * 7) / 28;
  for (let d = first; d <= last; d += 1) {
    const weekday = new Date(d * DAY_MS).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const ahead = driver(d + DEMO_WHOLESALE_LEAD_WEEKS * 7) / level - 1;
    const dollars = level * 0.62 * (1 + 4 * ahead + 0.05 * (unit(`2843:${d}`) - 0.5));
    const common = {
      report_date: mmddyyyy(d),
      report_begin_date: mmddyyyy(d),
      report_end_date: mmddyyyy(d),
      egg_type: 'Graded Loose',
      environment: 'Caged',
      class: 'Large',
      price_unit: 'cents per dozen',
      volume_unit: 'cases',
    };
    wholesale.push(
      {
        ...common,
        color: 'White',
        wtd_avg_price: (dollars * 100).toFixed(2),
        volume: String(9_000 + Math.round(unit(`2843:v:${d}`) * 4_000)),
      },
      {
        ...common,
        color: 'Brown',
        wtd_avg_price: (dollars * 112).toFixed(2),
        volume: String(600 + Math.round(unit(`2843:b:${d}`) * 300)),
      },
    );
  }

  // 2757: weekly (the week's Friday), each region and environment, Large White dozens (the
  // most advertised carton) and Large Brown dozens at fewer stores.
  const retail: MarsRow[] = [];
  const firstFriday = first + ((5 - new Date(first * DAY_MS).getUTCDay() + 7) % 7);
  for (let friday = firstFriday; friday <= last; friday += 7) {
    const monday = friday - 4;
    for (const region of RETAIL_REGIONS) {
      for (const env of ENVIRONMENTS) {
        // (the ad is planned a week ahead of the shelf: the mean of next week's shelf days)
        let ahead = 0;
        for (let d = monday + 7; d < monday + 14; d += 1) ahead += shelf(region.region, env.eggType, d) / 7;
        for (const [type, factor, storeShare] of [
          ['Large White', 1, 1],
          ['Large Brown', 1.08, 0.35],
        ] as const) {
          const key = `2757:${region.name}:${env.environment}:${type}:${friday}`;
          const avg = ahead * 0.88 * factor * (1 + 0.008 * (unit(key) - 0.5));
          const stores = Math.round(region.stores * env.share * storeShare * (0.8 + 0.4 * unit(`${key}:s`)));
          retail.push({
            report_begin_date: mmddyyyy(monday),
            report_end_date: mmddyyyy(friday),
            report_date: mmddyyyy(friday),
            region: region.name,
            commodity: 'Eggs',
            type,
            environment: env.environment,
            package_size: '12',
            price_avg: cents(avg),
            price_min: cents(avg * (0.68 + 0.06 * unit(`${key}:lo`))),
            price_max: cents(avg * (1.22 + 0.1 * unit(`${key}:hi`))),
            store_count: String(Math.max(1, stores)),
          });
        }
      }
    }
  }
  return { [DEMO_RETAIL_KEY]: retail, [DEMO_WHOLESALE_KEY]: wholesale };
}

/** States with commercial layer flocks, with their counties and a typical flock size. */
const LAYER_STATES: Array<[string, string[], number]> = [
  ['Iowa', ['Sioux', 'Buena Vista', 'Osceola', 'Wright'], 3_000_000],
  ['Ohio', ['Darke', 'Mercer', 'Union'], 1_500_000],
  ['Indiana', ['Jay', 'Elkhart', 'Adams'], 1_200_000],
  ['Pennsylvania', ['Lancaster', 'Lebanon'], 900_000],
  ['Colorado', ['Weld'], 1_400_000],
  ['California', ['Riverside', 'Merced', 'Stanislaus'], 700_000],
  ['Minnesota', ['Kandiyohi', 'Morrison'], 600_000],
  ['Nebraska', ['Dixon'], 1_300_000],
  ['Arizona', ['Maricopa'], 2_000_000],
  ['Washington', ['Franklin', 'Yakima'], 800_000],
  ['Missouri', ['Jasper'], 500_000],
  ['Maryland', ['Cecil'], 450_000],
  ['Utah', ['Cache'], 1_100_000],
  ['Texas', ['Parmer'], 900_000],
];
const OTHER_FLOCKS: Array<[string, string, string, number]> = [
  ['Minnesota', 'Meeker', 'Commercial Turkeys', 45_000],
  ['South Dakota', 'Beadle', 'Commercial Turkeys', 38_000],
  ['North Carolina', 'Wayne', 'Commercial Broiler Chickens', 120_000],
  ['Maine', 'Knox', 'Backyard Mixed Species (non-poultry)', 40],
  ['Michigan', 'Macomb', 'Backyard Mixed Species (poultry)', 120],
  ['Wisconsin', 'Jefferson', 'Commercial Pullet Chickens', 250_000],
];

/** How busy a day of the year is: the spring and autumn waves, quiet in summer. */
function season(day: number): number {
  const d = new Date(day * DAY_MS);
  const month = d.getUTCMonth();
  return [0.6, 0.7, 0.9, 0.8, 0.3, 0.05, 0.03, 0.05, 0.2, 0.6, 0.9, 0.8][month]!;
}

const quoted = (n: number) => (n >= 1000 ? `"${n.toLocaleString('en-US')}"` : String(n));

/** The APHIS CSV from 8 February 2022 to `today`, as the captured file writes it (CRLF lines). */
export function demoAphisCsv(today: Date = new Date()): string {
  const lines = ['State,County,Date Confirmed,Flock Type,Flock Size'];
  const start = dayNumberOf(new Date('2022-02-08T00:00:00Z'));
  const last = dayNumberOf(today);
  for (let d = start; d <= last; d += 1) {
    const busy = season(d);
    // (about one layer flock a week at the waves' height, a few other flocks a week)
    if (unit(`layer:${d}`) < busy * 0.16) {
      const [state, counties, size] = LAYER_STATES[Math.floor(unit(`layer:s:${d}`) * LAYER_STATES.length)]!;
      const county = counties[Math.floor(unit(`layer:c:${d}`) * counties.length)]!;
      const flock = Math.round(size * (0.3 + 1.4 * unit(`layer:n:${d}`)));
      lines.push(`${state},${county},${aphisDay(d)},Commercial Layer Chickens,${quoted(flock)}`);
    }
    if (unit(`other:${d}`) < busy * 0.5) {
      const [state, county, type, size] = OTHER_FLOCKS[Math.floor(unit(`other:s:${d}`) * OTHER_FLOCKS.length)]!;
      lines.push(
        `${state},${county},${aphisDay(d)},${type},${quoted(Math.round(size * (0.5 + unit(`other:n:${d}`))))}`,
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
