// The line chart under the shopper charts (RegionChart, StoreTrendChart, MarketChart): dated
// series on a UTC time axis, money on the y axis, one tooltip per date listing every series
// ('label $value'). A null value leaves a gap in its line; nothing is interpolated. A
// value with no neighbour (a series' only day, or a day between gaps) is drawn as a point, since
// a line through one value draws nothing.
// Only chart modules import this file, and pages load those lazily, so nivo stays out of the
// first paint.
import { Box } from '@chakra-ui/react';
import { ResponsiveLine, type LineCustomSvgLayerProps, type LineSvgLayer, type SliceTooltipProps } from '@nivo/line';
import type { CartesianMarkerProps } from '@nivo/core';
import { chartTheme, money } from './chartTheme.ts';

export interface TimeSeries {
  id: string;
  color: string;
  data: ReadonlyArray<{ x: Date; y: number | null }>;
}

export interface TimeLineChartProps {
  series: readonly TimeSeries[];
  /** Describes the chart for screen readers (the figure itself is an image to them). */
  ariaLabel: string;
  /** How a date reads in the tooltip, e.g. 'Apr 7' or 'Apr 2025'. */
  formatDate: (date: Date) => string;
  /** x-axis ticks, e.g. 'every 7 days' or 'every 2 years'. */
  tickValues: string;
  formatTick: (date: Date) => string;
  precision: 'day' | 'month';
  markers?: readonly CartesianMarkerProps[];
  /** Extra values the y axis must include, e.g. a reference line's. */
  include?: readonly number[];
  /** The dates the x axis spans, when not just those of the data (a single day spans nothing). */
  xDomain?: readonly [Date, Date];
  height?: Record<string, string> | string;
}

function SliceTooltip({ slice, formatDate }: SliceTooltipProps<TimeSeries> & { formatDate: (date: Date) => string }) {
  const first = slice.points[0];
  return (
    <Box
      bg="bg.panel"
      color="fg"
      borderWidth="1px"
      borderColor="border"
      borderRadius="md"
      boxShadow="md"
      px="3"
      py="2"
      fontSize="xs"
    >
      {first && (
        <Box fontWeight="semibold" mb="1">
          {formatDate(first.data.x)}
        </Box>
      )}
      {slice.points.map((point) => (
        <Box key={point.id} display="flex" alignItems="center" gap="2" whiteSpace="nowrap">
          <Box
            as="span"
            aria-hidden
            width="2.5"
            height="2.5"
            borderRadius="full"
            style={{ background: point.seriesColor }}
          />
          <span>
            {point.seriesId} {money(Number(point.data.y))}
          </span>
        </Box>
      ))}
    </Box>
  );
}

/** Whether the series has a value at index i. */
function hasValue(data: readonly { data: { y: number | null } }[], i: number): boolean {
  const point = data[i];
  return point !== undefined && point.data.y !== null;
}

/** The values no line segment reaches, as dots of the series' colour. */
export function LonePoints({ series }: LineCustomSvgLayerProps<TimeSeries>) {
  return (
    <g>
      {series.flatMap((s) =>
        s.data.map((point, i) =>
          hasValue(s.data, i) && !hasValue(s.data, i - 1) && !hasValue(s.data, i + 1) ? (
            <circle
              key={`${s.id}:${i}`}
              cx={point.position.x}
              cy={point.position.y}
              r={5}
              fill={s.color}
              stroke="white"
              strokeWidth={1.5}
            />
          ) : null,
        ),
      )}
    </g>
  );
}

const LAYERS: readonly LineSvgLayer<TimeSeries>[] = [
  'grid',
  'markers',
  'axes',
  'areas',
  'crosshair',
  'lines',
  LonePoints,
  'slices',
  'points',
  'mesh',
  'legends',
];

export function TimeLineChart({
  series,
  ariaLabel,
  formatDate,
  tickValues,
  formatTick,
  precision,
  markers,
  include = [],
  xDomain,
  height = { base: '64', md: '72' },
}: TimeLineChartProps) {
  const values = [...series.flatMap((s) => s.data.map((d) => d.y)), ...include].filter((y): y is number => y !== null);
  const low = values.length ? Math.min(...values) : 0;
  const high = values.length ? Math.max(...values) : 1;
  const pad = Math.max((high - low) * 0.1, 0.05);
  return (
    <Box role="img" aria-label={ariaLabel} height={height} width="full" minW="0">
      <ResponsiveLine<TimeSeries>
        data={series}
        colors={(s) => s.color}
        xScale={{ type: 'time', useUTC: true, precision, ...(xDomain ? { min: xDomain[0], max: xDomain[1] } : {}) }}
        yScale={{ type: 'linear', min: Math.max(0, low - pad), max: high + pad }}
        margin={{ top: 16, right: 30, bottom: 36, left: 52 }}
        curve="monotoneX"
        lineWidth={2}
        enablePoints={false}
        enableGridX={false}
        axisBottom={{ tickValues, format: formatTick, tickSize: 4, tickPadding: 6 }}
        axisLeft={{ tickValues: 5, format: (value: number) => money(value), tickSize: 0, tickPadding: 8 }}
        enableSlices="x"
        sliceTooltip={(props) => <SliceTooltip {...props} formatDate={formatDate} />}
        markers={markers}
        layers={LAYERS}
        theme={chartTheme}
        animate={false}
        role="presentation"
      />
    </Box>
  );
}
