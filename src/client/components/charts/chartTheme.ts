// What the shopper charts share: the series colours, a nivo theme that follows the Chakra
// colour mode through CSS variables (so it reads in dark mode without re-rendering), and the
// date and money formats of the axes and tooltips.
import type { LineSeries, LineSvgProps } from '@nivo/line';
import type { EggType, Region } from '#shared/vocabulary.ts';

/** Region colours. */
export const REGION_COLORS: Readonly<Record<Region, string>> = {
  northeast: '#3B82F6',
  midwest: '#8B5CF6',
  south: '#F59E0B',
  west: '#10B981',
};

/** Chart colours of the national average and each egg type. */
export const NATIONAL_COLOR = '#34C759';
export const EGG_TYPE_COLORS: Readonly<Record<EggType, string>> = {
  standard: '#94A3B8',
  cage_free: '#0369A1',
  organic: '#FFB300',
  pasture_raised: '#7E22CE',
};

/** A product's price history: its price per dozen in the brand colour, the BLS average beside it in grey. */
/** Shelf, advertised and wholesale (and the shelf outlook). */
export const COMPARISON_COLORS = { shelf: '#2F855A', advertised: '#3182CE', wholesale: '#B7791F', outlook: '#718096' };
export const HISTORY_PRICE_COLOR = 'var(--chakra-colors-brand-solid)';
export const HISTORY_BLS_COLOR = 'var(--chakra-colors-fg-muted)';
export const HISTORY_PRICE_LABEL = 'Price per dozen';
export const HISTORY_BLS_LABEL = 'BLS national average';

const v = (token: string) => `var(--chakra-colors-${token})`;

type ChartTheme = NonNullable<LineSvgProps<LineSeries>['theme']>;

export const chartTheme: ChartTheme = {
  text: { fill: v('fg-muted'), fontSize: 12, fontFamily: 'inherit' },
  axis: {
    domain: { line: { stroke: v('border'), strokeWidth: 1 } },
    ticks: { line: { stroke: v('border'), strokeWidth: 1 }, text: { fill: v('fg-muted'), fontSize: 11 } },
    legend: { text: { fill: v('fg'), fontSize: 12 } },
  },
  grid: { line: { stroke: v('border-muted'), strokeWidth: 1 } },
  crosshair: { line: { stroke: v('fg-muted'), strokeWidth: 1, strokeOpacity: 0.6 } },
  markers: {
    lineColor: v('fg-muted'),
    lineStrokeWidth: 1,
  },
  tooltip: {
    container: {
      background: v('bg-panel'),
      color: v('fg'),
      fontSize: 12,
      borderRadius: 6,
      boxShadow: '0 2px 8px rgba(0, 0, 0, 0.25)',
      border: `1px solid ${v('border')}`,
      padding: '6px 10px',
    },
  },
};

export const money = (value: number) => `$${value.toFixed(2)}`;

// One formatter each: toLocaleDateString builds a new one on every call, and the axes and
// tooltips format hundreds of dates while a chart draws.
const SHORT_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const MONTH_YEAR = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** 'Apr 7' from a Date at UTC midnight or a 'YYYY-MM-DD' day. */
export function shortDay(value: Date | string): string {
  return SHORT_DAY.format(typeof value === 'string' ? new Date(`${value}T00:00:00Z`) : value);
}

/** 'Apr 2025' from a Date at UTC midnight. */
export function monthYear(value: Date): string {
  return MONTH_YEAR.format(value);
}

/** A Date at UTC midnight of a 'YYYY-MM-DD' day. */
export function utcMidnight(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}
