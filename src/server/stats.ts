// Statistics from the daily rollup (pure; queries/stats.ts reads the rows). Prices are per dozen.
import { EGG_TYPES, type EggType, type TrendDirection } from '#shared/vocabulary.ts';
import type { Stats, TrendRange } from '#shared/types.ts';

export interface DailyTypeAverage {
  day: string; // YYYY-MM-DD
  egg_type: EggType;
  average: number;
  observations: number;
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

function trendRange(days: string[], series: TrendRange['series']): TrendRange {
  const plotted = [...series.national, ...series.organic, ...series.standard].filter((v): v is number => v !== null);
  const national = series.national.filter((v): v is number => v !== null);
  const change = national.length >= 2 ? national.at(-1)! - national[0]! : 0;
  return {
    days,
    series,
    summary: {
      average: national.length ? round(national.reduce((a, b) => a + b, 0) / national.length) : null,
      high: plotted.length ? round(Math.max(...plotted)) : null,
      low: plotted.length ? round(Math.min(...plotted)) : null,
      trend: { value: round(Math.abs(change)), isDown: change < 0 },
    },
  };
}

export function computeStats(
  rows: DailyTypeAverage[],
  lowest: Stats['lowest_price'],
  windowDays: number,
): Stats {
  const latest = rows.reduce<string | null>((max, r) => (max === null || r.day > max ? r.day : max), null);
  const byDay = new Map<string, Map<EggType, DailyTypeAverage>>();
  for (const row of rows) {
    if (!byDay.has(row.day)) byDay.set(row.day, new Map());
    byDay.get(row.day)!.set(row.egg_type, row);
  }
  const nationalOn = (day: string): number | null => {
    const types = byDay.get(day);
    if (!types) return null;
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
    return r ? round(r.average) : null;
  };

  const days30 = latest ? Array.from({ length: windowDays }, (_, i) => addDays(latest, i - windowDays + 1)) : [];
  const seriesFor = (days: string[]): TrendRange['series'] => {
    const series = { national: days.map((d) => { const v = nationalOn(d); return v === null ? null : round(v); }) } as TrendRange['series'];
    for (const type of EGG_TYPES) series[type] = days.map((d) => typeOn(d, type));
    return series;
  };
  const days7 = days30.slice(-7);

  const current = latest ? nationalOn(latest) : null;
  const weekAgo = latest ? nationalOn(addDays(latest, -7)) : null;
  const pctChange = current !== null && weekAgo ? ((current - weekAgo) / weekAgo) * 100 : null;

  const nationalOver = (days: string[]) => days.map(nationalOn).filter((v): v is number => v !== null);
  const thisWeek = latest ? volatility(nationalOver(days7)) : null;
  const lastWeek = latest ? volatility(nationalOver(days30.slice(-14, -7))) : null;
  const volChange = thisWeek !== null && lastWeek !== null ? thisWeek - lastWeek : null;

  return {
    as_of: latest,
    national_average: {
      price_per_dozen: current === null ? null : round(current),
      trend: pctChange === null ? null : { value: round(Math.abs(pctChange)), direction: direction(round(pctChange)) },
    },
    weekly_volatility: {
      value: thisWeek === null ? null : round(thisWeek),
      trend: volChange === null ? null : { value: round(Math.abs(volChange)), direction: direction(round(volChange)) },
    },
    lowest_price: lowest,
    trends: {
      '7d': trendRange(days7, seriesFor(days7)),
      '30d': trendRange(days30, seriesFor(days30)),
    },
  };
}
