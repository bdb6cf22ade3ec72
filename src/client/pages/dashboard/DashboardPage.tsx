import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { lazy, Suspense, useDeferredValue } from 'react';
import { TrendChartCard } from '#client/components/charts/TrendChartCard.tsx';
import { AdminControlsSlot } from './AdminControlsSlot.tsx';
import { EggPricesFallback } from './EggPricesFallback.tsx';
import { NearYouSlot } from './NearYouSlot.tsx';
import { SummaryCards } from './SummaryCards.tsx';

// The Filters panel and the Egg Prices list sit below the fold on phones and desktops, and carry
// most of the page's interactive code (price card menus, tooltips, the mobile filter drawer), so
// they are a chunk of their own; its download starts with this page, not after its first paint.
const loadEggPrices = () => import('./EggPricesSection.tsx');
const EggPricesSection = lazy(() => loadEggPrices().then((module) => ({ default: module.EggPricesSection })));
// The compact map by state (below the fold): its slot is a small chunk of its own, which loads
// the map's code only when it comes near the screen, so it adds nothing to the first paint.
const PriceMapSlot = lazy(() => import('./PriceMapSlot.tsx'));
// Shelf, advertised and wholesale (below the fold): like the map, a small chunk that loads the
// section only when it comes near the screen. Its placeholder (the section laid out as loaded)
// comes with that chunk, moments after the first paint, and is no part of it.
const ComparisonSlot = lazy(() => import('./ComparisonSlot.tsx'));
// Administrators only: shoppers never download it.
const DashboardScraperCard = lazy(() => import('./DashboardScraperCard.tsx'));

export default function DashboardPage() {
  // The list renders after the top of the page, in a background render React slices into short
  // tasks, rather than in the same long task as everything above it.
  const showPrices = useDeferredValue(true, false);
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
      <Suspense>
        <PriceMapSlot />
      </Suspense>
      {/* After the map: its table makes it taller than its placeholder, so nothing it pushes down
          waits to come near the screen. */}
      <Suspense>
        <ComparisonSlot />
      </Suspense>
      {/* Below the fold the browser skips styling and laying the list out until it comes near. */}
      <Box contentVisibility="auto" containIntrinsicSize="auto 1800px">
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
