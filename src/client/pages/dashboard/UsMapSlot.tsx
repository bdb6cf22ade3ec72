// Where the dashboard's compact map by state goes: a placeholder of its size until it comes within
// 300 px of the screen, then the card (its own chunk, with nivo's map) and, if that fails, an
// error card with Retry.
import { Box, Skeleton } from '@chakra-ui/react';
import { lazy, Suspense, useRef } from 'react';
import { ErrorBoundary } from '#client/components/ErrorBoundary.tsx';
import { useNearViewport } from '#client/lib/useNearViewport.ts';

const UsMapCard = lazy(() => import('./UsMapCard.tsx'));

function UsMapFallback() {
  return <Skeleton height={{ base: '80', md: '96' }} borderRadius="l3" role="status" aria-label="Loading prices by state" />;
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
