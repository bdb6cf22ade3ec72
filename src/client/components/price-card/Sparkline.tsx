// A card sparkline as a tiny inline SVG (no chart library): the real recent daily prices, y range
// from sparklineRange, line width 2, no points, axes, legend or tooltip, in the
// trend's colour over a light fill of it, so a level line does not read as a rule. With
// fewer than two days of prices there is no line to draw: a dash says so, where a flat line
// across the card would look like a divider.
import { Box, Text, type BoxProps } from '@chakra-ui/react';
import { sparklineAreaPath, sparklinePath } from './sparklinePath.ts';

const WIDTH = 100;
const HEIGHT = 32;

export interface SparklineProps extends Omit<BoxProps, 'children'> {
  values: readonly number[];
  /** A Chakra colour token for the line, e.g. 'green.fg'. */
  color: string;
  /** Describes the line for screen readers, e.g. 'Price over the last 7 days: ...'. */
  label: string;
  dashed?: boolean;
}

/** A line needs two days of prices. */
export function hasSparkline(values: readonly number[]): boolean {
  return values.filter(Number.isFinite).length >= 2;
}

export function Sparkline({ values, color, label, dashed = false, ...rest }: SparklineProps) {
  if (!hasSparkline(values)) {
    return (
      <Box
        role="img"
        aria-label={label}
        height="10"
        width="full"
        display="flex"
        alignItems="center"
        color="fg.muted"
        {...rest}
      >
        <Text as="span" aria-hidden fontSize="lg" lineHeight="1">
          —
        </Text>
      </Box>
    );
  }
  const path = sparklinePath(values, WIDTH, HEIGHT);
  const area = sparklineAreaPath(values, WIDTH, HEIGHT);
  return (
    <Box role="img" aria-label={label} height="10" width="full" color={color} {...rest}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        height="100%"
        preserveAspectRatio="none"
        aria-hidden
        focusable="false"
        style={{ overflow: 'visible' }}
      >
        {area && <path d={area} fill="currentColor" fillOpacity={0.12} stroke="none" />}
        {path && (
          <path
            d={path}
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeLinecap="round"
            strokeLinejoin="round"
            strokeDasharray={dashed ? '4 3' : undefined}
            vectorEffect="non-scaling-stroke"
          />
        )}
      </svg>
    </Box>
  );
}
