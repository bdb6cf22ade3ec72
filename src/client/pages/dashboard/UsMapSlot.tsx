// Where the dashboard's compact map by state goes: the card's frame around a placeholder until it comes within
// 300 px of the screen, then the card (its own chunk, with nivo's map) and, if that fails, an
// error card with Retry.
import { Box } from '@chakra-ui/react';
import { lazy, Suspense, useRef } from 'react';
import { ErrorBoundary } from '#client/components/ErrorBoundary.tsx';
import { useNearViewport } from '#client/lib/useNearViewport.ts';
import { UsMapFrame, UsMapPlaceholder } from './UsMapFrame.tsx';

const UsMapCard = lazy(() => import('./UsMapCard.tsx'));

/** The card as it looks while its map loads. */
function UsMapFallback() {
  return (
    <UsMapFrame summary=".">
      <UsMapPlaceholder />
    </UsMapFrame>
  );
}

export default function UsMapSlot() {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref, '300px');
  return (
    <Box ref={ref}>
      <ErrorBoundary title="Unable to show the map by state">
        {near ? (
          <Suspense fallback={<UsMapFallback />}>
            <UsMapCard />
          </Suspense>
        ) : (
          <UsMapFallback />
        )}
      </ErrorBoundary>
    </Box>
  );
}
