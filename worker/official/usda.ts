// USDA AMS Market News through the MyMarketNews API ("MARS", https://marsapi.ams.usda.gov): the
// weekly Retail Egg Feature Activity report (2757, section "Report Details": advertised carton
// prices by region and egg type, average, low and high, with the number of stores advertising;
// its environment is the egg type, its type the size and colour) and the daily National
// Shell Egg Index (2843, section "Report Detail Weighted": the weighted average wholesale price,
// in cents a dozen, of graded loose caged white large eggs). The key is sent as the HTTP basic-auth
// user with an empty password; without a key both sources are off. What this relies on, and how
// sure it is: test/official/SOURCES.md and docs/decisions/015-official-sources.md. MARS answers
// at most 180 days a request: a source holding nothing yet is asked for two years in such spans.
import { sourceHoldsFigures, type ObservationInput } from '#server/queries/official.ts';
import {
  USDA_WHOLESALE_SERIES_ID,
  usdaRetailSeriesId,
  type UsdaEggType,
  type UsdaRetailRegion,
} from '#shared/official.ts';
import { SourceFailure, type SourceContext, type SourceReader } from './source.ts';

export const RETAIL_REPORT = '2757';
export const RETAIL_SECTION = 'Report Details';
export const WHOLESALE_REPORT = '2843';
export const WHOLESALE_SECTION = 'Report Detail Weighted';
/** MARS answers at most this many days of a report per request. */
export const MAX_DAYS_PER_REQUEST = 180;
/** A source holding no figures yet is asked this far back (in spans of MAX_DAYS_PER_REQUEST). */
export const HISTORY_DAYS = 728;

// (the report writes "Southcentral"; spaces and case are ignored)
const REGIONS: Record<string, UsdaRetailRegion> = {
  national: 'national',
  northeast: 'northeast',
  southeast: 'southeast',
  midwest: 'midwest',
  southcentral: 'south_central',
  southwest: 'southwest',
  northwest: 'northwest',
  alaska: 'alaska',
  hawaii: 'hawaii',
};

const EGG_TYPES: Array<[RegExp, UsdaEggType]> = [
  [/cage[\s-]*free/i, 'cage_free'],
  [/organic/i, 'organic'],
  [/pasture/i, 'pasture_raised'],
  [/omega/i, 'omega_3'],
  [/nutrition|enhanced|specialty/i, 'nutritionally_enhanced'],
  [/conventional|caged|regular|white|brown/i, 'standard'],
];

type Row = Record<string, unknown>;

const field = (row: Row, names: string[]): unknown => {
  for (const name of names) if (row[name] !== undefined && row[name] !== null && row[name] !== '') return row[name];
  return undefined;
};
const number = (value: unknown): number | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const n = Number(value.replace(/[$,\s]/g, ''));
  return value.trim() !== '' && Number.isFinite(n) ? n : null;
};
const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** MM/DD/YYYY (MARS's dates) or YYYY-MM-DD to YYYY-MM-DD; null otherwise. */
export function marsDate(value: unknown): string | null {
  const raw = text(value).trim();
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(raw);
  if (us) return `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}`;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  return iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : null;
}

const mmddyyyy = (day: Date) =>
  `${String(day.getUTCMonth() + 1).padStart(2, '0')}/${String(day.getUTCDate()).padStart(2, '0')}/${day.getUTCFullYear()}`;

/** The `q` filter of a report: report_begin_date from `fromDays` days before `now` to `toDays` days before it. */
export function dateRange(now: Date, fromDays: number, toDays = 0): string {
  const from = new Date(now.getTime() - fromDays * 86_400_000);
  const to = new Date(now.getTime() - toDays * 86_400_000);
  return `report_begin_date=${mmddyyyy(from)}:${mmddyyyy(to)}`;
}

/**
 * The spans to ask, oldest first: the last `days` days, or, for a source holding nothing yet, its
 * history (HISTORY_DAYS) in spans MARS answers whole.
 */
export function askedSpans(days: number, holdsFigures: boolean): Array<[number, number]> {
  if (holdsFigures) return [[days, 0]];
  const spans: Array<[number, number]> = [];
  // (a span of 180 days counts both its ends)
  for (let to = 0; to <= HISTORY_DAYS; to += MAX_DAYS_PER_REQUEST)
    spans.unshift([Math.min(HISTORY_DAYS, to + MAX_DAYS_PER_REQUEST - 1), to]);
  return spans;
}

function results(body: string): Row[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new SourceFailure('USDA Market News answered something that is not JSON');
  }
  // (a report asked with all its sections answers an array of { reportSection, results })
  const sections =
    Array.isArray(json) && json.some((item) => typeof item === 'object' && item && 'reportSection' in item);
  const section = sections
    ? (json as Array<{ reportSection?: unknown; results?: unknown }>).find((item) =>
        /detail/i.test(text(item.reportSection)),
      )
    : null;
  const list = sections ? section?.results : Array.isArray(json) ? json : (json as { results?: unknown })?.results;
  if (!Array.isArray(list)) throw new SourceFailure('USDA Market News answered JSON without results');
  return list.filter((row): row is Row => typeof row === 'object' && row !== null);
}

/** A carton of a dozen: "12", "12 ct", "Dozen", "1 doz"; an absent package counts as one. */
const isDozen = (packageText: string) => packageText.trim() === '' || /doz|^\s*12\b/i.test(packageText);

/**
 * The retail feature report's rows ("Report Details") as figures: one per region, egg type and
 * week, for cartons of a dozen. The egg type is the row's environment (Conventional, Cage-Free,
 * USDA Organic, Pasture Raised, ...); its type is the size and colour ("Large White"), and liquid
 * eggs are left out. Where a region, egg type and week has several cartons (sizes, colours), the
 * one the most stores advertised is kept, as published.
 */
export function parseRetail(body: string): ObservationInput[] {
  const kept = new Map<string, { stores: number; observation: ObservationInput }>();
  for (const row of results(body)) {
    const region =
      REGIONS[
        text(field(row, ['region', 'region_name']))
          .replace(/[\s_-]+/g, '')
          .toLowerCase()
      ];
    const typeText = text(field(row, ['environment', 'production_method', 'type', 'egg_type', 'commodity']));
    const eggType = EGG_TYPES.find(([pattern]) => pattern.test(typeText))?.[1];
    if (/liquid/i.test(text(field(row, ['type', 'commodity', 'section'])))) continue;
    if (!isDozen(text(field(row, ['package_size', 'package', 'unit'])))) continue;
    const period = marsDate(field(row, ['report_end_date', 'report_date', 'report_begin_date']));
    const raw = field(row, ['price_avg', 'weighted_avg_price', 'wtd_avg_price', 'avg_price']);
    const value = number(raw);
    if (!region || !eggType || !period || value === null || value <= 0) continue;
    const stores = number(field(row, ['store_count', 'stores', 'number_of_stores', 'store_ct']));
    const seriesId = usdaRetailSeriesId(region, eggType);
    const key = `${seriesId}|${period}`;
    const previous = kept.get(key);
    if (previous && previous.stores >= (stores ?? 0)) continue;
    kept.set(key, {
      stores: stores ?? 0,
      observation: {
        seriesId,
        period,
        valueText: text(raw).trim(),
        value,
        unit: 'USD per dozen (advertised)',
        detail: {
          low: number(field(row, ['price_min', 'low_price', 'price_low'])),
          high: number(field(row, ['price_max', 'high_price', 'price_high'])),
          stores,
        },
        publishedOn: marsDate(field(row, ['published_date', 'report_date'])) ?? period,
      },
    });
  }
  return [...kept.values()].map((k) => k.observation);
}

/** The National Shell Egg Index: graded loose caged white large, in cents a dozen as published. */
export function parseWholesale(body: string): ObservationInput[] {
  const out: ObservationInput[] = [];
  for (const row of results(body)) {
    const matches =
      /graded loose/i.test(text(row.egg_type)) &&
      /^caged$/i.test(text(row.environment).trim()) &&
      /^white$/i.test(text(row.color).trim()) &&
      /^large$/i.test(text(row.class).trim());
    if (!matches) continue;
    const period = marsDate(row.report_date);
    const value = number(row.wtd_avg_price);
    if (!period || value === null || value <= 0) continue;
    out.push({
      seriesId: USDA_WHOLESALE_SERIES_ID,
      period,
      valueText: text(row.wtd_avg_price).trim(),
      value,
      unit: text(row.price_unit).trim() || 'cents per dozen',
      detail: { volume: number(row.volume) },
      publishedOn: marsDate(field(row, ['published_date', 'report_date'])) ?? period,
    });
  }
  return out;
}

async function ask(ctx: SourceContext, path: string, span: [number, number]) {
  const url = `${ctx.config.mars.origin}/services/v1.2/reports/${path}?q=${encodeURIComponent(dateRange(ctx.now, span[0], span[1]))}`;
  const response = await ctx.http.request({ url, basicAuth: { user: ctx.config.mars.apiKey ?? '' } }, ctx.signal);
  if (response.status === 401 || response.status === 403) {
    await ctx.keep(url, response, 'refused', `HTTP ${response.status}`);
    throw new SourceFailure(`USDA Market News refused the key (HTTP ${response.status})`);
  }
  if (response.status !== 200) {
    await ctx.keep(url, response, 'failed', `HTTP ${response.status}`);
    throw new SourceFailure(`USDA Market News answered HTTP ${response.status}`);
  }
  return { url, response };
}

const off = (config: { mars: { apiKey?: string | undefined } }) =>
  config.mars.apiKey ? null : 'No USDA MyMarketNews key (USDA_MARS_API_KEY) is set: this source is off.';

function reader(
  source: 'usda_retail' | 'usda_wholesale',
  path: string,
  days: number,
  parse: (body: string) => ObservationInput[],
): SourceReader {
  return {
    source,
    off,
    dailyLimit: () => 200,
    async read(ctx) {
      const held = await sourceHoldsFigures(ctx.sql, source);
      const observations: ObservationInput[] = [];
      let fetchId = 0;
      for (const span of askedSpans(days, held)) {
        const { url, response } = await ask(ctx, path, span);
        try {
          observations.push(...parse(response.body));
        } catch (error) {
          await ctx.keep(url, response, 'refused', error instanceof Error ? error.message : String(error));
          throw error;
        }
        fetchId = await ctx.keep(url, response, 'parsed');
      }
      return { fetchId, observations, summary: `${observations.length} figures of report ${path.split('/')[0]}` };
    },
  };
}

// (five weeks of the weekly report, so a late revision is seen; a month of the daily index; two
// years of each while nothing is held)
export const usdaRetailReader = reader(
  'usda_retail',
  `${RETAIL_REPORT}/${encodeURIComponent(RETAIL_SECTION)}`,
  35,
  parseRetail,
);
export const usdaWholesaleReader = reader(
  'usda_wholesale',
  `${WHOLESALE_REPORT}/${encodeURIComponent(WHOLESALE_SECTION)}`,
  30,
  parseWholesale,
);
