// The BLS benchmark lines (national and the four regions; the West only as grade AA)
// for a range of years, month by month. A month BLS did not publish is null, a gap in the line.
// Pure, without nivo, so a page can draw the legend and notes before the chart chunk loads.
import { REGION_LABELS, type Region } from '#shared/vocabulary.ts';
import { REGION_COLORS } from './chartTheme.ts';

/**
 * The national line is drawn in the text colour (dark, or light in dark mode): the national
 * average's green (#34C759) is too close to the West's (#10B981) to tell apart when both are drawn.
 */
export const BENCHMARK_NATIONAL_COLOR = 'var(--chakra-colors-fg)';
/** Today's EggWatch average: a grey dashed reference line. */
export const BENCHMARK_REFERENCE_COLOR = 'var(--chakra-colors-fg-muted)';

export interface MarketSeriesData {
  series_id: string;
  region: string;
  grade: 'A' | 'AA';
  points: ReadonlyArray<{ period: string; price: number }>;
}

export const BENCHMARK_RANGES = [1, 5, 10] as const;
export type BenchmarkRange = (typeof BENCHMARK_RANGES)[number];

const AREAS = ['national', 'northeast', 'midwest', 'south', 'west'] as const;
type Area = (typeof AREAS)[number];

export interface BenchmarkLine {
  area: Area;
  series_id: string;
  grade: 'A' | 'AA';
  label: string;
  color: string;
  /** One value per month of `months`; null where BLS published none. */
  values: Array<number | null>;
  /** The series' latest published month overall ('YYYY-MM'). */
  lastPeriod: string | null;
}

export interface Benchmark {
  /** 'YYYY-MM' months, oldest first, ending on the latest month any series has. */
  months: string[];
  lines: BenchmarkLine[];
}

function monthsBack(last: string, count: number): string[] {
  const [year, month] = last.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(year, month - 1 - (count - 1 - i), 1));
    return date.toISOString().slice(0, 7);
  });
}

function labelOf(area: Area, grade: 'A' | 'AA'): string {
  const name = area === 'national' ? 'National' : REGION_LABELS[area as Region];
  return grade === 'AA' ? `${name} (grade AA)` : name;
}

/** The series each area is shown with: its grade A series, or grade AA when BLS has no grade A one (the West). */
function pick(series: readonly MarketSeriesData[], area: Area): MarketSeriesData | undefined {
  const own = series.filter((s) => s.region === area);
  return own.find((s) => s.grade === 'A') ?? own.find((s) => s.grade === 'AA');
}

export function benchmarkLines(series: readonly MarketSeriesData[], years: BenchmarkRange): Benchmark {
  const chosen = AREAS.map((area) => ({ area, data: pick(series, area) })).filter(
    (c): c is { area: Area; data: MarketSeriesData } => c.data !== undefined,
  );
  const last = chosen
    .map((c) => c.data.points.at(-1)?.period)
    .filter((p): p is string => p !== undefined)
    .sort()
    .at(-1);
  if (!last) return { months: [], lines: [] };
  const months = monthsBack(last, years * 12);
  return {
    months,
    lines: chosen.map(({ area, data }) => {
      const prices = new Map(data.points.map((p) => [p.period, p.price]));
      return {
        area,
        series_id: data.series_id,
        grade: data.grade,
        label: labelOf(area, data.grade),
        color: area === 'national' ? BENCHMARK_NATIONAL_COLOR : REGION_COLORS[area],
        values: months.map((m) => prices.get(m) ?? null),
        lastPeriod: data.points.at(-1)?.period ?? null,
      };
    }),
  };
}

/** 'May 2026' from 'YYYY-MM'. */
export function formatPeriod(period: string): string {
  return new Date(`${period}-01T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
