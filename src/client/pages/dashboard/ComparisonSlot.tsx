// Where the dashboard's "Shelf, advertised and wholesale" goes (the compare page's section, the same
// component): for the region and egg type the dashboard's filters apply (the Northeast and standard
// eggs when they name none), loaded with its query only when it comes within 300 px of the screen.
import { Box } from '@chakra-ui/react';
import { lazy, Suspense, useRef } from 'react';
import { ErrorBoundary } from '#client/components/ErrorBoundary.tsx';
import { ComparisonPlaceholder } from '#client/pages/compare/ComparisonFrame.tsx';
import { useNearViewport } from '#client/lib/useNearViewport.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import { useDashboardState } from './useDashboardState.ts';

const ShelfAdvertisedWholesale = lazy(() =>
  import('#client/pages/compare/ShelfAdvertisedWholesale.tsx').then((module) => ({
    default: module.ShelfAdvertisedWholesale,
  })),
);

/** The section's region and egg type from the dashboard's applied filters. */
export function comparisonScope(filters: { region: Region | 'all'; eggType: EggType | 'all' }): {
  region: Region | undefined;
  eggType: EggType;
} {
  return {
    region: filters.region === 'all' ? undefined : filters.region,
    eggType: filters.eggType === 'all' ? 'standard' : filters.eggType,
  };
}

export default function ComparisonSlot() {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref, '300px');
  const { state } = useDashboardState();
  const { region, eggType } = comparisonScope(state.filters);
  // (the section's own frame at the height it will have: nothing below it moves when it loads)
  const placeholder = <ComparisonPlaceholder region={region} />;
  return (
    <Box ref={ref}>
      <ErrorBoundary title="Unable to show shelf, advertised and wholesale prices">
        {near ? (
          <Suspense fallback={placeholder}>
            {/* A new filter starts the section on its region again. */}
            <ShelfAdvertisedWholesale key={`${region ?? ''}:${eggType}`} eggType={eggType} region={region} />
          </Suspense>
        ) : (
          placeholder
        )}
      </ErrorBoundary>
    </Box>
  );
}
