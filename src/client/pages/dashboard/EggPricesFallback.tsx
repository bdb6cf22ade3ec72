// What the dashboard shows in place of the Filters panel and the Egg Prices list while their code
// (EggPricesSection.tsx, a chunk of its own) loads: the section heading and card placeholders
// at the screen's page size, like the list's own loading state, so nothing jumps when it arrives.
import { Box, Heading, SimpleGrid, Skeleton, Stack } from '@chakra-ui/react';
import { usePageSize } from '#client/lib/useViewportWidth.ts';

export function EggPricesFallback() {
  const pageSize = usePageSize();
  return (
    <Stack gap="4">
      <Box as="section" aria-label="Egg Prices">
        <Heading as="h2" size="lg" mb="4">
          Egg Prices
        </Heading>
        <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4" role="status" aria-label="Loading prices">
          {Array.from({ length: pageSize }, (_, index) => (
            <Skeleton key={index} height="80" borderRadius="l3" />
          ))}
        </SimpleGrid>
      </Box>
    </Stack>
  );
}
