// The store page's "What its stores charge today": per region, egg type and pack size under the
// page's filters, the median price per dozen across the store's locations with its range and how
// many locations (src/shared/location-figures.ts), and a link to the cheapest location's price.
import { Box, Button, HStack, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { locationFiguresText, type LocationFigures } from '#shared/location-figures.ts';
import { EGG_TYPE_LABELS, REGION_LABELS } from '#shared/vocabulary.ts';
import { SampleBadge } from '#client/components/SampleBadge.tsx';
import { CheapestLocationLink, SENTENCE_CASE } from '#client/components/price-card/LocationFiguresLine.tsx';

/** Rows shown before 'Show all'. */
const FIRST_ROWS = 6;
export const NO_LOCATION_FIGURES_MESSAGE = 'No store has a price of these eggs today.';

/** The combinations with the most locations first (what the section is for), else in the API's order. */
export function byLocations(figures: readonly LocationFigures[]): LocationFigures[] {
  return figures
    .map((f, i) => ({ f, i }))
    .sort((a, b) => b.f.locations - a.f.locations || a.i - b.i)
    .map(({ f }) => f);
}

export function StoreLocationFigures({
  storeName,
  figures: given,
  loading,
}: {
  storeName: string;
  figures: LocationFigures[] | undefined;
  loading: boolean;
}) {
  const [all, setAll] = useState(false);
  const figures = given && byLocations(given);
  const headingId = 'store-location-figures';
  return (
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" borderRadius="lg" p={{ base: '3', md: '4' }}>
      <Heading as="h2" size="md" id={headingId} mb="3">
        What its stores charge today
      </Heading>
      {loading || !figures ? (
        <Stack gap="3" role="status" aria-busy aria-label="Loading what its stores charge">
          <Skeleton height="4" width="64" />
          <Skeleton height="4" width="72" />
        </Stack>
      ) : figures.length === 0 ? (
        <Text color="fg.muted" textStyle="sm">
          {NO_LOCATION_FIGURES_MESSAGE}
        </Text>
      ) : (
        <Stack gap="3">
          <SimpleGrid
            as="ul"
            columns={{ base: 1, lg: 2 }}
            gap={{ base: '3', md: '4' }}
            listStyleType="none"
            aria-label={`What ${storeName}'s stores charge`}
          >
            {(all ? figures : figures.slice(0, FIRST_ROWS)).map((f) => (
              <Stack as="li" key={`${f.region}|${f.egg_type}|${f.count}`} gap="0.5" textStyle="sm">
                <HStack gap="2" wrap="wrap">
                  <Text fontWeight="semibold">
                    {REGION_LABELS[f.region]} · {EGG_TYPE_LABELS[f.egg_type]} · {f.count} eggs
                  </Text>
                  {f.sample && <SampleBadge figure size="sm" />}
                </HStack>
                <Text color="fg.muted" css={SENTENCE_CASE}>
                  {locationFiguresText(f)}
                </Text>
                <Box>
                  <CheapestLocationLink figures={f} storeName={storeName} />
                </Box>
              </Stack>
            ))}
          </SimpleGrid>
          {figures.length > FIRST_ROWS && (
            <Button variant="outline" size="sm" alignSelf="flex-start" onClick={() => setAll(!all)} aria-expanded={all}>
              {all ? 'Show fewer' : `Show all ${figures.length}`}
            </Button>
          )}
        </Stack>
      )}
    </Box>
  );
}
