import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { TrendChartCard } from '#client/components/charts/TrendChartCard.tsx';
import { AdminControlsSlot } from './AdminControlsSlot.tsx';
import { EggPricesSection } from './EggPricesSection.tsx';
import { SummaryCards } from './SummaryCards.tsx';

export default function DashboardPage() {
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
      <AdminControlsSlot />
      <Box as="section" aria-label="Market summary">
        <SummaryCards />
      </Box>
      <TrendChartCard />
      <EggPricesSection />
    </Stack>
  );
}
