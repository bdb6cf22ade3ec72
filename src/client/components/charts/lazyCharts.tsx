// The shopper charts, loaded on demand so nivo is never part of the first paint, and the slot a
// page puts one in: a 'Loading chart' placeholder while its chunk loads, and a boundary titled
// 'Chart Error' if it fails to load or render.
import { Box, Skeleton, VisuallyHidden } from '@chakra-ui/react';
import { lazy, Suspense, useRef, type ComponentType, type ReactNode } from 'react';
import { ErrorBoundary } from '#client/components/ErrorBoundary.tsx';
import { useNearViewport } from '#client/lib/useNearViewport.ts';

/** The chart failure text, shown when a chart's code cannot be loaded. */
export const CHART_LOAD_ERROR = 'Unable to display chart. Please try refreshing the page.';

function lazyChart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() =>
    load().catch(() => {
      throw new Error(CHART_LOAD_ERROR);
    }),
  );
}

export const RegionChart = lazyChart(() => import('./RegionChart.tsx'));
export const StoreTrendChart = lazyChart(() => import('./StoreTrendChart.tsx'));
export const MarketChart = lazyChart(() => import('./MarketChart.tsx'));
export const HistoryChart = lazyChart(() => import('./HistoryChart.tsx'));
export const UsStatesMap = lazyChart(() => import('./UsStatesMap.tsx'));

/**
 * A chart's size: a height, or for a chart drawn at a fixed width over height (the US map), that
 * ratio and its widest width.
 */
export interface ChartSize {
  height?: Record<string, string> | string;
  aspect?: { ratio: number; maxW: string } | undefined;
}

export function ChartPlaceholder(size: ChartSize) {
  return (
    <Box role="status" position="relative">
      <VisuallyHidden>Loading chart</VisuallyHidden>
      <ChartSkeleton {...size} />
    </Box>
  );
}

/** A placeholder of a chart's size. */
export function ChartSkeleton({ height = { base: '64', md: '72' }, aspect }: ChartSize) {
  return aspect ? (
    <Skeleton
      width="full"
      maxW={aspect.maxW}
      mx="auto"
      style={{ aspectRatio: String(aspect.ratio) }}
      borderRadius="md"
    />
  ) : (
    <Skeleton height={height} width="full" borderRadius="md" />
  );
}

/**
 * Where a chart goes. The chart (nivo, a long task to draw on a phone) is loaded and drawn once
 * the slot comes within 200 px of the screen; until then, and while its code loads, the
 * 'Loading chart' placeholder of the same size holds its place.
 */
export function ChartSlot({
  children,
  resetKeys,
  ...size
}: ChartSize & { children: ReactNode; resetKeys?: readonly unknown[] }) {
  const slotRef = useRef<HTMLDivElement>(null);
  const near = useNearViewport(slotRef, '200px');
  return (
    <Box ref={slotRef}>
      <ErrorBoundary title="Chart Error" resetKeys={resetKeys}>
        {near ? (
          <Suspense fallback={<ChartPlaceholder {...size} />}>{children}</Suspense>
        ) : (
          <ChartPlaceholder {...size} />
        )}
      </ErrorBoundary>
    </Box>
  );
}
