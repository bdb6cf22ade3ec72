import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { lazy, startTransition, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { TrendChartCard } from '#client/components/charts/TrendChartCard.tsx';
import { afterPageIdle } from '#client/lib/idle.ts';
import { useNearViewport } from '#client/lib/useNearViewport.ts';
import { AdminControlsSlot } from './AdminControlsSlot.tsx';
import { EggPricesFallback } from './EggPricesFallback.tsx';
import { NearYouSlot } from './NearYouSlot.tsx';
import { SummaryCards } from './SummaryCards.tsx';

// The Filters panel and the Egg Prices list sit below the fold on phones and desktops, and carry
// most of the page's interactive code (price card menus, tooltips, the mobile filter drawer), so
// they are a chunk of their own; its download starts with this page, not after its first paint.
const loadEggPrices = () => import('./EggPricesSection.tsx');
const EggPricesSection = lazy(() => loadEggPrices().then((module) => ({ default: module.EggPricesSection })));
// Administrators only: shoppers never download it.
const DashboardScraperCard = lazy(() => import('./DashboardScraperCard.tsx'));

/**
 * Whether the Egg Prices list may render: once its place comes within 600 px of the screen, or
 * once the page has loaded and the browser is idle. It is more than half of the page's elements
 * and below the fold at every width (bench/frontend.ts traces what it costs), so a phone renders
 * the top of the page and its data first; the idle render is a transition React slices.
 */
function useShowPrices(ref: RefObject<HTMLDivElement | null>): boolean {
  const near = useNearViewport(ref, '600px');
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    // The chunk downloads meanwhile, so the list does not wait for it once it may render.
    void loadEggPrices().catch(() => undefined);
    return afterPageIdle(() => startTransition(() => setIdle(true)));
  }, []);
  return near || idle;
}

export default function DashboardPage() {
  const pricesRef = useRef<HTMLDivElement>(null);
  const showPrices = useShowPrices(pricesRef);
  return (
    <Stack gap={{ base: '6', md: '8' }}>
      <Box>
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          Egg Price Dashboard
        </Heading>
        <Text color="fg.muted" mt="1">
          Compare US grocery egg prices by type, store and region.
        </Text>
      </Box>
      <AdminControlsSlot>
        <DashboardScraperCard />
      </AdminControlsSlot>
      <Box as="section" aria-label="Market summary">
        <SummaryCards />
      </Box>
      <NearYouSlot />
      <TrendChartCard />
      {/* Below the fold the browser skips styling and laying the list out until it comes near. */}
      <Box ref={pricesRef} contentVisibility="auto" containIntrinsicSize="auto 1800px">
        {showPrices ? (
          <Suspense fallback={<EggPricesFallback />}>
            <EggPricesSection />
          </Suspense>
        ) : (
          <EggPricesFallback />
        )}
      </Box>
    </Stack>
  );
}
