// A price card's line on what its store's locations charge for the card's combination today
// (src/shared/location-figures.ts), with the cheapest location one click away: that location's
// price history. A single location says nothing the card's own price does not, so it shows none.
import { HStack, Link, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { LuStore } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { cheapestPlace, locationFiguresText, type LocationFigures } from '#shared/location-figures.ts';
import { formatPrice } from '#shared/format.ts';
import { historyHref } from '#client/lib/links.ts';
import { SampleBadge } from '../SampleBadge.tsx';

/** The first letter upper-case on screen, while the text stays the words. */
export const SENTENCE_CASE = { '&::first-letter': { textTransform: 'uppercase' } } as const;

/** The cheapest location's price history ('Store:' when it is the only one). */
export function CheapestLocationLink({ figures, storeName }: { figures: LocationFigures; storeName: string }) {
  const { cheapest } = figures;
  return (
    <Link asChild color="brand.fg" fontWeight="medium" _hover={{ textDecoration: 'underline' }}>
      <RouterLink to={historyHref(cheapest.product_id, cheapest.location_id)}>
        {figures.locations === 1 ? 'Store' : 'Cheapest'}: {cheapestPlace(cheapest)}
        <VisuallyHidden>
          {` (${storeName} at ${formatPrice(cheapest.price_per_dozen)} a dozen: its price history)`}
        </VisuallyHidden>
      </RouterLink>
    </Link>
  );
}

export function LocationFiguresLine({ figures, storeName }: { figures: LocationFigures | null; storeName: string }) {
  if (!figures || figures.locations < 2) return null;
  return (
    <Stack gap="0.5" pt="1.5" textStyle="xs" color="fg.muted" data-testid="location-figures">
      <HStack gap="1.5" align="flex-start">
        <Text as="span" mt="0.5" flexShrink={0} aria-hidden>
          <LuStore />
        </Text>
        <Text css={SENTENCE_CASE}>{locationFiguresText(figures)}</Text>
        {figures.sample && <SampleBadge figure size="sm" />}
      </HStack>
      <HStack gap="1.5" pl="4.5">
        <CheapestLocationLink figures={figures} storeName={storeName} />
      </HStack>
    </Stack>
  );
}
