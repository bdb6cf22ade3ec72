// The official sources EggWatch reads beside its own scraped prices, and the series each gives
// (docs/features/data-sources.md). Shared by the worker (what to ask), the server (what to answer)
// and the browser (how to label it).
import { z } from 'zod';
import { dayParam } from './inputs.ts';

export const OFFICIAL_SOURCES = ['bls', 'usda_retail', 'usda_wholesale', 'aphis_hpai'] as const;
export type OfficialSource = (typeof OFFICIAL_SOURCES)[number];

export interface OfficialSourceInfo {
  name: string;
  publisher: string;
  what: string;
  terms: string;
  /** How often the worker asks, in words. */
  cadence: string;
  /** Hours between two scheduled fetches. */
  everyHours: number;
  /** Where a reader can check a figure. */
  link: string;
}

export const OFFICIAL_SOURCE_INFO: Record<OfficialSource, OfficialSourceInfo> = {
  bls: {
    name: 'BLS average prices',
    publisher: 'U.S. Bureau of Labor Statistics',
    what: 'Monthly average retail price of a dozen grade A large eggs (the West: grade AA), nationally and by region, from the Consumer Price Index survey.',
    terms: 'Public domain (U.S. government work); read through the BLS Public Data API within its daily limits.',
    cadence: 'every 12 hours',
    everyHours: 12,
    link: 'https://data.bls.gov/timeseries/APU0000708111',
  },
  usda_retail: {
    name: 'USDA advertised retail prices',
    publisher: 'USDA Agricultural Marketing Service, Market News',
    what: 'Weekly retail egg feature activity: advertised carton prices (average, low, high) by region and egg type, with the number of stores advertising.',
    terms: 'Public domain (U.S. government work); read through the MyMarketNews API with a free key.',
    cadence: 'every 6 hours',
    everyHours: 6,
    link: 'https://mymarketnews.ams.usda.gov/viewReport/2757',
  },
  usda_wholesale: {
    name: 'USDA National Shell Egg Index',
    publisher: 'USDA Agricultural Marketing Service, Market News',
    what: 'Daily wholesale price index of large white shell eggs, national, per dozen.',
    terms: 'Public domain (U.S. government work); read through the MyMarketNews API with a free key.',
    cadence: 'every 6 hours',
    everyHours: 6,
    link: 'https://mymarketnews.ams.usda.gov/viewReport/2843',
  },
  aphis_hpai: {
    name: 'APHIS bird-flu detections',
    publisher: 'USDA Animal and Plant Health Inspection Service',
    what: 'Confirmed highly pathogenic avian influenza in commercial table-egg layer flocks: state, date confirmed, birds affected.',
    terms: 'Public domain (U.S. government work); a CSV published without a key.',
    cadence: 'every 12 hours',
    everyHours: 12,
    link: 'https://www.aphis.usda.gov/livestock-poultry-disease/avian/avian-influenza/hpai-detections/commercial-backyard-flocks',
  },
};

export type BlsRegion = 'national' | 'northeast' | 'midwest' | 'south' | 'west';

export interface BlsSeriesInfo {
  id: string;
  region: BlsRegion;
  item: string;
  grade: 'A' | 'AA';
  /** Still published by BLS (a discontinued series is kept from data/ and not asked for). */
  current: boolean;
}

/**
 * The BLS average-price egg series. BLS publishes no grade A large series for the West (there is
 * no APU0400708111); the West is grade AA (APU0400708112). The national grade AA series ended in
 * December 1997 and is not asked for. data/SOURCES.md gives each series' provenance.
 */
export const BLS_SERIES: readonly BlsSeriesInfo[] = [
  { id: 'APU0000708111', region: 'national', item: 'Eggs, grade A, large, per doz.', grade: 'A', current: true },
  { id: 'APU0100708111', region: 'northeast', item: 'Eggs, grade A, large, per doz.', grade: 'A', current: true },
  { id: 'APU0200708111', region: 'midwest', item: 'Eggs, grade A, large, per doz.', grade: 'A', current: true },
  { id: 'APU0300708111', region: 'south', item: 'Eggs, grade A, large, per doz.', grade: 'A', current: true },
  { id: 'APU0400708112', region: 'west', item: 'Eggs, grade AA, large, per doz.', grade: 'AA', current: true },
  { id: 'APU0000708112', region: 'national', item: 'Eggs, grade AA, large, per doz.', grade: 'AA', current: false },
];

export const BLS_SERIES_BY_ID = new Map(BLS_SERIES.map((s) => [s.id, s]));

/** USDA's retail report regions, as EggWatch names them. */
export const USDA_RETAIL_REGIONS = [
  'national',
  'northeast',
  'southeast',
  'midwest',
  'south_central',
  'southwest',
  'northwest',
  'alaska',
  'hawaii',
] as const;
export type UsdaRetailRegion = (typeof USDA_RETAIL_REGIONS)[number];

/** The egg types the retail report gives, mapped to EggWatch's (standard = conventional). */
export const USDA_EGG_TYPES = [
  'standard',
  'cage_free',
  'organic',
  'pasture_raised',
  'omega_3',
  'nutritionally_enhanced',
] as const;
export type UsdaEggType = (typeof USDA_EGG_TYPES)[number];

/** EggWatch's four regions (the Census regions) to USDA's retail regions that lie within them. */
export const APP_REGION_TO_USDA: Record<'northeast' | 'midwest' | 'south' | 'west', UsdaRetailRegion> = {
  northeast: 'northeast',
  midwest: 'midwest',
  south: 'southeast',
  west: 'southwest',
};

export type OfficialSeriesId =
  | { kind: 'bls'; id: string; source: 'bls' }
  | { kind: 'usda-retail'; id: string; source: 'usda_retail'; region: UsdaRetailRegion; eggType: UsdaEggType }
  | { kind: 'usda-wholesale'; id: string; source: 'usda_wholesale' }
  | { kind: 'aphis-layers'; id: string; source: 'aphis_hpai'; state: string };

const STATE_CODES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR'.split(
    ' ',
  ),
);

/** A series id of the API (`APU0000708111`, `usda-retail:<region>:<egg_type>`, ...), or null. */
export function parseOfficialSeriesId(raw: string): OfficialSeriesId | null {
  if (BLS_SERIES_BY_ID.has(raw)) return { kind: 'bls', id: raw, source: 'bls' };
  const retail = /^usda-retail:([a-z_]+):([a-z_0-9]+)$/.exec(raw);
  if (retail) {
    const region = retail[1] as UsdaRetailRegion;
    const eggType = retail[2] as UsdaEggType;
    if (!USDA_RETAIL_REGIONS.includes(region) || !USDA_EGG_TYPES.includes(eggType)) return null;
    return { kind: 'usda-retail', id: raw, source: 'usda_retail', region, eggType };
  }
  if (raw === 'usda-wholesale:national') return { kind: 'usda-wholesale', id: raw, source: 'usda_wholesale' };
  const aphis = /^aphis-layers:([A-Z]{2})$/.exec(raw);
  if (aphis && (aphis[1] === 'US' || STATE_CODES.has(aphis[1]!)))
    return { kind: 'aphis-layers', id: raw, source: 'aphis_hpai', state: aphis[1]! };
  return null;
}

export const usdaRetailSeriesId = (region: UsdaRetailRegion, eggType: UsdaEggType) =>
  `usda-retail:${region}:${eggType}`;
export const USDA_WHOLESALE_SERIES_ID = 'usda-wholesale:national';
export const aphisSeriesId = (state: string) => `aphis-layers:${state}`;

const STATE_NAMES: Record<string, string> = {
  alabama: 'AL',
  alaska: 'AK',
  arizona: 'AZ',
  arkansas: 'AR',
  california: 'CA',
  colorado: 'CO',
  connecticut: 'CT',
  delaware: 'DE',
  'district of columbia': 'DC',
  florida: 'FL',
  georgia: 'GA',
  hawaii: 'HI',
  idaho: 'ID',
  illinois: 'IL',
  indiana: 'IN',
  iowa: 'IA',
  kansas: 'KS',
  kentucky: 'KY',
  louisiana: 'LA',
  maine: 'ME',
  maryland: 'MD',
  massachusetts: 'MA',
  michigan: 'MI',
  minnesota: 'MN',
  mississippi: 'MS',
  missouri: 'MO',
  montana: 'MT',
  nebraska: 'NE',
  nevada: 'NV',
  'new hampshire': 'NH',
  'new jersey': 'NJ',
  'new mexico': 'NM',
  'new york': 'NY',
  'north carolina': 'NC',
  'north dakota': 'ND',
  ohio: 'OH',
  oklahoma: 'OK',
  oregon: 'OR',
  pennsylvania: 'PA',
  'rhode island': 'RI',
  'south carolina': 'SC',
  'south dakota': 'SD',
  tennessee: 'TN',
  texas: 'TX',
  utah: 'UT',
  vermont: 'VT',
  virginia: 'VA',
  washington: 'WA',
  'west virginia': 'WV',
  wisconsin: 'WI',
  wyoming: 'WY',
  'puerto rico': 'PR',
};

/** A state's two-letter code from its name or code ("Iowa", "IA"), or null. */
export function stateCode(raw: string): string | null {
  const value = raw.trim();
  if (/^[A-Za-z]{2}$/.test(value) && STATE_CODES.has(value.toUpperCase())) return value.toUpperCase();
  return STATE_NAMES[value.toLowerCase()] ?? null;
}
export const isStateCode = (value: string) => STATE_CODES.has(value);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "October 2026" from "2026-10" or "2026-10-01". */
export function monthName(period: string): string {
  const [y, m] = period.split('-');
  return `${MONTH_NAMES[Number(m) - 1] ?? m} ${y}`;
}

/** "13 Nov" from "2026-11-13". */
export function shortDay(day: string): string {
  const [, m, d] = day.split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1] ?? m}`;
}

/**
 * When BLS's next month is expected: BLS publishes a month's average prices with the CPI, about
 * two weeks after the month ends (the 10th to the 15th of the month after). The estimate is the
 * 15th of the month after the next period; the page says it is an estimate.
 */
export function blsNextDue(lastPeriod: string): string {
  const [y, m] = lastPeriod.split('-').map(Number) as [number, number];
  const due = new Date(Date.UTC(y, m - 1 + 2, 15));
  return due.toISOString().slice(0, 10);
}

/**
 * The benchmark's line of provenance: "BLS, October 2026, released 13 Nov; next due about 15 Dec"
 * (or, past that day, "the next month is overdue (expected about 15 Jun)").
 */
export function benchmarkProvenance(
  latest: { period: string; publishedOn: string | null } | null,
  today: string = new Date().toISOString().slice(0, 10),
): string | null {
  if (!latest) return null;
  const released = latest.publishedOn ? `, released ${shortDay(latest.publishedOn)}` : '';
  const due = blsNextDue(latest.period);
  const next =
    due < today ? `the next month is overdue (expected about ${shortDay(due)})` : `next due about ${shortDay(due)}`;
  return `BLS, ${monthName(latest.period)}${released}; ${next}`;
}

// ---- API shapes (GET /api/official/sources, GET /api/official/series/{seriesId}) ----

/** A day of the official series' span, documented with what it bounds. */
const officialDay = (name: string, what: string) => dayParam(name).describe(`YYYY-MM-DD: ${what}`);

export const officialSeriesInput = z.object({
  seriesId: z
    .string()
    .min(1)
    .max(120)
    .describe('APU0000708111, usda-retail:<region>:<egg_type>, usda-wholesale:national or aphis-layers:<state or US>'),
  from: officialDay('from', 'the first period included').optional(),
  to: officialDay('to', 'the last period included').optional(),
});

/** APHIS's layer-flock detections summed by state from a week on (the map page's bird-flu section). */
export const detectionsByStateInput = z.object({
  from: officialDay('from', 'the first week included'),
});

export const officialStatusSchema = z
  .enum(['ok', 'failing', 'off', 'not-fetched'])
  .describe(
    'ok: read; failing: its last fetch failed (the last good data still shown); off: not configured (no key); not-fetched: not read yet',
  );

export const officialSourceSchema = z.object({
  source: z.enum(OFFICIAL_SOURCES),
  name: z.string(),
  publisher: z.string(),
  what: z.string(),
  terms: z.string(),
  cadence: z.string(),
  link: z.string(),
  status: officialStatusSchema,
  offReason: z.string().nullable(),
  lastPeriod: z.string().nullable().describe('YYYY-MM-DD: the newest period held'),
  lastPublishedOn: z.string().nullable().describe('YYYY-MM-DD: the day the newest period was published'),
  lastFetchedAt: z.string().nullable().describe('ISO time of the last fetch whose answer was read'),
  failingSince: z.string().nullable(),
  nextFetch: z
    .enum(['scheduled', 'first', 'off'])
    .describe(
      "scheduled: the worker asks at the schedule's first tick at or after nextFetchAt; first: never fetched, so asked at the schedule's next tick (every 15 minutes, on UTC quarter hours); off: not asked",
    ),
  nextFetchAt: z
    .string()
    .nullable()
    .describe(
      'ISO time the source is due again (the later of its next due time and a Retry-After); null when first or off',
    ),
  nextReleaseExpected: z
    .string()
    .nullable()
    .describe('YYYY-MM-DD: when the source is expected to publish next (an estimate)'),
});
export type OfficialSourceView = z.infer<typeof officialSourceSchema>;

export const officialPointSchema = z.object({
  period: z.string().describe('YYYY-MM-DD'),
  value: z.number(),
  valueText: z.string().describe('the value as the source wrote it'),
  unit: z.string(),
  publishedOn: z.string().nullable().describe('YYYY-MM-DD; null when the day is not known'),
  fetchedAt: z.string(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  stores: z.number().nullable(),
  revisions: z.array(
    z.object({ value: z.number(), valueText: z.string(), publishedOn: z.string().nullable(), replacedAt: z.string() }),
  ),
});

export const officialSeriesSchema = z.object({
  seriesId: z.string(),
  source: z.enum(OFFICIAL_SOURCES),
  points: z.array(officialPointSchema),
});
export type OfficialSeriesView = z.infer<typeof officialSeriesSchema>;

/**
 * The worker looks for due official sources every this many minutes, on the quarter hours of UTC
 * (official__schedule in worker/tasks.ts's crontab); a source never fetched is due at once.
 */
export const OFFICIAL_SCHEDULE_MINUTES = 15;

/** The schedule's first tick at or after `time`: when the worker queues a source due then. */
export function scheduleTickAt(time: Date): Date {
  const step = OFFICIAL_SCHEDULE_MINUTES * 60_000;
  return new Date(Math.ceil(time.getTime() / step) * step);
}

/** When the source is expected to publish its next period, from its newest one (an estimate). */
export function nextReleaseExpected(source: OfficialSource, lastPeriod: string | null): string | null {
  if (!lastPeriod) return null;
  if (source === 'bls') return blsNextDue(lastPeriod);
  const day = new Date(`${lastPeriod}T00:00:00Z`);
  if (source === 'usda_retail') day.setUTCDate(day.getUTCDate() + 7);
  else if (source === 'usda_wholesale') {
    day.setUTCDate(day.getUTCDate() + 1);
    while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  } else return null; // APHIS publishes a detection when it is confirmed
  return day.toISOString().slice(0, 10);
}

// ---- Shelf, advertised and wholesale ----

export const comparisonInput = z.object({
  region: z.enum(['northeast', 'midwest', 'south', 'west']),
  eggType: z.enum(['standard', 'cage_free', 'organic', 'pasture_raised']),
});

export interface ComparisonWeek {
  /** The week's Monday, YYYY-MM-DD. */
  week: string;
  /** EggWatch's own shelf price per dozen (the week's mean of daily averages). */
  shelf: number | null;
  /** USDA's advertised price per dozen for the region and egg type. */
  advertised: number | null;
  /** The National Shell Egg Index, in dollars a dozen. */
  wholesale: number | null;
}

export interface Comparison {
  region: string;
  usdaRegion: UsdaRetailRegion;
  eggType: string;
  weeks: ComparisonWeek[];
  /** No scraped price is held for the region and egg type: the shelf line is the sample catalogue. */
  shelfIsSample: boolean;
  /** Shelf prices' lag behind wholesale, or null where the history does not show one. */
  shelfLead: { weeks: number; correlation: number; pairs: number } | null;
  advertisedLead: { weeks: number; correlation: number; pairs: number } | null;
  /** The shelf outlook, with its backtest; `shown` only when the backtest beat no change. */
  outlook: {
    shown: boolean;
    modelError: number;
    naiveError: number;
    backtestWeeks: number;
    points: Array<{ week: string; shelf: number }>;
  } | null;
  /** The newest advertised figure: "advertised in the Northeast this week: $4.12 a dozen, 1,840 stores". */
  latestAdvertised: {
    week: string;
    price: number;
    low: number | null;
    high: number | null;
    stores: number | null;
  } | null;
}
