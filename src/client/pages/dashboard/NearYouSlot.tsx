// Where the Near you section goes on the dashboard. Its code (NearYouSection.tsx, a chunk of its
// own) is no part of the first paint: it loads once the slot comes within 400 px of the screen
// or the page is idle after loading, whichever is first. Until then, and while it loads, a
// placeholder of the section's own layout holds its place, so nothing below it moves.
import { Box, Card, HStack, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { lazy, Suspense, useRef, useState } from 'react';
import { LuMapPin } from 'react-icons/lu';
import { useLocation } from 'react-router-dom';
import { ErrorBoundary } from '#client/components/ErrorBoundary.tsx';
import { useLoadWhenIdle } from '#client/lib/idle.ts';
import { useNearViewport } from '#client/lib/useNearViewport.ts';
import { NearPrompt } from './NearPrompt.tsx';
import { savedZip } from './nearUrlState.ts';

const NearYouSection = lazy(() =>
  import('./NearYouSection.tsx').then((module) => ({ default: module.NearYouSection })),
);

function NearYouPlaceholder({ zip }: { zip: boolean }) {
  return (
    <Card.Root as="section" aria-label="Near you" variant="outline">
      <Card.Header pb="3">
        <Heading as="h2" size="lg">
          <HStack gap="2">
            <LuMapPin aria-hidden />
            Near you
          </HStack>
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          Where a dozen is cheapest around a ZIP code today, and how each price moved since yesterday.
        </Text>
      </Card.Header>
      <Card.Body pt="0" gap="4">
        <Stack gap="4" role="status" aria-label="Loading Near you">
          <SimpleGrid columns={{ base: 2, lg: 4 }} gap={{ base: '3', md: '4' }}>
            {['ZIP code', 'Radius', 'Pack size', 'Egg type'].map((label) => (
              <Stack
                key={label}
                gap="1.5"
                gridColumn={label === 'ZIP code' || label === 'Egg type' ? { base: 'span 2', lg: 'auto' } : undefined}
              >
                <Text fontSize="sm" color="fg.muted">
                  {label}
                </Text>
                <Skeleton height="9" borderRadius="l2" />
              </Stack>
            ))}
          </SimpleGrid>
          {zip ? <Skeleton height="72" borderRadius="l2" /> : <NearPrompt />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

export function NearYouSlot() {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref, '400px');
  const [idle] = useLoadWhenIdle();
  // With a ZIP code in the URL, or one saved in Preferences, the section opens on its results;
  // without, on its prompt.
  const [saved] = useState(() => savedZip() !== null);
  const { search } = useLocation();
  const zip = saved || new URLSearchParams(search).has('zip');
  return (
    <Box ref={ref}>
      {near || idle ? (
        <ErrorBoundary title="Unable to load Near you">
          <Suspense fallback={<NearYouPlaceholder zip={zip} />}>
            <NearYouSection />
          </Suspense>
        </ErrorBoundary>
      ) : (
        <NearYouPlaceholder zip={zip} />
      )}
    </Box>
  );
}
