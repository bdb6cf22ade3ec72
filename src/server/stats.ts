// Statistics from the daily rollup (pure; queries/stats.ts reads the rows). Prices are per dozen.
//
// Each series (national, and each egg type's) is drawn and compared only over its history: from
// its first comparable day (the latest switch from sample to retailers' prices behind it, or its
// first day of prices) on. A change needs its whole span inside that history; until then it is
// null and the series' history_days says how far it has got (docs/decisions/008).
import { EGG_TYPES, type EggType, type TrendDirection } from '#shared/vocabulary.ts';
import type { Stats, TrendRange } from '#shared/types.ts';

export interface DailyTypeAverage {
  day: string; // YYYY-MM-DD
  egg_type: EggType;
  average: number;
  observations: number;
  /** Some of the day's prices of this type are sample or demo prices. */
  sample: boolean;
}

export type SeriesKey = 'national' | EggType;

/** A series' first comparable day and its days with prices since. */
export interface SeriesHistory {
  start: string;
  days: number;
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
const direction = (change: number): TrendDirection => (change > 0 ? 'up' : change < 0 ? 'down' : 'stable');

function addDays(day: string, delta: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + delta);
  return date.toISOString().slice(0, 10);
}

/** Coefficient of variation in percent: how far daily averages stray from their mean. */
function volatility(values: number[]): number | null {
  if (values.length < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  return (Math.sqrt(variance) / mean) * 100;
}

const CHART_LINES = ['national', 'organic', 'standard'] as const;

export function computeStats(
  rows: DailyTypeAverage[],
  lowest: Stats['lowest_price'],
  windowDays: number,
  histories: Partial<Record<SeriesKey, SeriesHistory>>,
): Stats {
  const latest = rows.reduce<string | null>((max, r) => (max === null || r.day > max ? r.day : max), null);
  const byDay = new Map<string, Map<EggType, DailyTypeAverage>>();
  for (const row of rows) {
    if (!byDay.has(row.day)) byDay.set(row.day, new Map());
    byDay.get(row.day)!.set(row.egg_type, row);
  }
  /** Whether the day lies in the series' history (so does every later day). */
  const inHistory = (key: SeriesKey, day: string) => {
    const start = histories[key]?.start;
    return start !== undefined && day >= start;
  };
  const nationalOn = (day: string): number | null => {
    const types = byDay.get(day);
    if (!types || !inHistory('national', day)) return null;
    let weighted = 0;
    let count = 0;
    for (const r of types.values()) {
      weighted += r.average * r.observations;
      count += r.observations;
    }
    return count ? weighted / count : null;
  };
  const typeOn = (day: string, type: EggType) => {
    const r = byDay.get(day)?.get(type);
    return r && inHistory(type, day) ? round(r.average) : null;
  };
  const valueOn = (key: SeriesKey, day: string) => {
    if (key !== 'national') return typeOn(day, key);
    const value = nationalOn(day);
    return value === null ? null : round(value);
  };
  /** Whether the series' price on that day rests on sample or demo prices. */
  const sampleOn = (key: SeriesKey, day: string) => {
    const types = byDay.get(day);
    if (!types || valueOn(key, day) === null) return false;
    return key === 'national' ? [...types.values()].some((r) => r.sample) : Boolean(types.get(key)?.sample);
  };
  const historyDays = (key: SeriesKey) => histories[key]?.days ?? 0;

  const days30 = latest ? Array.from({ length: windowDays }, (_, i) => addDays(latest, i - windowDays + 1)) : [];
  const days7 = days30.slice(-7);

  function trendRange(days: string[]): TrendRange {
    const series = { national: days.map((d) => valueOn('national', d)) } as TrendRange['series'];
    for (const type of EGG_TYPES) series[type] = days.map((d) => typeOn(d, type));
    const plotted = CHART_LINES.flatMap((key) => series[key]).filter((v): v is number => v !== null);
    const national = series.national.filter((v): v is number => v !== null);
    const first = series.national[0];
    const last = series.national.at(-1);
    const change =
      days.length > 0 && inHistory('national', days[0]!) && first != null && last != null ? last - first : null;
    return {
      days,
      series,
      summary: {
        average: national.length ? round(national.reduce((a, b) => a + b, 0) / national.length) : null,
        high: plotted.length ? round(Math.max(...plotted)) : null,
        low: plotted.length ? round(Math.min(...plotted)) : null,
        trend: change === null ? null : { value: round(Math.abs(change)), isDown: change < 0 },
      },
      history_days: {
        national: historyDays('national'),
        standard: historyDays('standard'),
        cage_free: historyDays('cage_free'),
        organic: historyDays('organic'),
        pasture_raised: historyDays('pasture_raised'),
      },
      sample: days.some((d) => CHART_LINES.some((key) => sampleOn(key, d))),
    };
  }

  const current = latest ? nationalOn(latest) : null;
  const weekAgoDay = latest ? addDays(latest, -7) : null;
  const weekAgo = weekAgoDay && inHistory('national', weekAgoDay) ? nationalOn(weekAgoDay) : null;
  const pctChange = current !== null && weekAgo ? ((current - weekAgo) / weekAgo) * 100 : null;

  const nationalOver = (days: string[]) => days.map(nationalOn).filter((v): v is number => v !== null);
  const lastWeekDays = days30.slice(-14, -7);
  const thisWeek = days7.length === 7 && inHistory('national', days7[0]!) ? volatility(nationalOver(days7)) : null;
  const lastWeek =
    lastWeekDays.length === 7 && inHistory('national', lastWeekDays[0]!)
      ? volatility(nationalOver(lastWeekDays))
      : null;
  const volChange = thisWeek !== null && lastWeek !== null ? thisWeek - lastWeek : null;
  const sampleOver = (days: string[]) => days.some((d) => sampleOn('national', d));

  return {
    as_of: latest,
    national_average: {
      price_per_dozen: current === null ? null : round(current),
      trend: pctChange === null ? null : { value: round(Math.abs(pctChange)), direction: direction(round(pctChange)) },
      history_days: historyDays('national'),
      sample: latest !== null && sampleOver(pctChange === null ? [latest] : [latest, weekAgoDay!]),
    },
    weekly_volatility: {
      value: thisWeek === null ? null : round(thisWeek),
      trend: volChange === null ? null : { value: round(Math.abs(volChange)), direction: direction(round(volChange)) },
      history_days: historyDays('national'),
      // The week the value is read from (and the week before, when the change is given); with no
      // value yet, the days it will be read from.
      sample: sampleOver(volChange === null ? days7 : days30.slice(-14)),
    },
    lowest_price: lowest,
    trends: {
      '7d': trendRange(days7),
      '30d': trendRange(days30),
    },
  };
}
