// Where the dashboard's compact map by state goes: the card's frame around a placeholder until it comes within
// 300 px of the screen, then the card (its own chunk, with nivo's map) and, if that fails, an
// error card with Retry.
import { Box } from '@chakra-ui/react';
import { lazy, Suspense, useRef } from 'react';
import { ErrorBoundary } from '#client/components/ErrorBoundary.tsx';
import { useNearViewport } from '#client/lib/useNearViewport.ts';
import { PriceMapFrame, PriceMapPlaceholder } from './PriceMapFrame.tsx';

const PriceMapCard = lazy(() => import('./PriceMapCard.tsx'));

/** The card as it looks while its map loads. */
function PriceMapFallback() {
  return (
    <PriceMapFrame summary=".">
      <PriceMapPlaceholder />
    </PriceMapFrame>
  );
}

export default function PriceMapSlot() {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref, '300px');
  return (
    <Box ref={ref}>
      <ErrorBoundary title="Unable to show the map by state">
        {near ? (
          <Suspense fallback={<PriceMapFallback />}>
            <PriceMapCard />
          </Suspense>
        ) : (
          <PriceMapFallback />
        )}
      </ErrorBoundary>
    </Box>
  );
}
