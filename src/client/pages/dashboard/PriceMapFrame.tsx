// The dashboard's map card around its content: the heading, the summary line and the link to the
// full page. The slot's placeholder (PriceMapSlot, before the card's chunk loads) and the card's own
// loading state draw the same frame around a placeholder of the map and its legend at their
// loaded heights, so nothing below moves when the map arrives.
import { Card, Flex, Heading, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuArrowRight } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { ChartSkeleton } from '#client/components/charts/lazyCharts.tsx';
import { MAP_LEGEND_HEIGHT, mapAspect } from '#client/pages/map/mapView.ts';

/** The card's map is narrower than the map page's. */
export const CARD_MAP_MAX_W = '2xl';

export function PriceMapFrame({
  badge,
  summary,
  children,
}: {
  badge?: ReactNode;
  summary: string;
  children: ReactNode;
}) {
  return (
    <Card.Root as="section" aria-labelledby="us-map-heading" variant="outline">
      <Card.Header pb="2">
        <Flex justify="space-between" align="baseline" gap="3" wrap="wrap">
          <Heading as="h2" size="md" id="us-map-heading">
            Egg prices by state
          </Heading>
          {badge}
        </Flex>
        {/* Two lines on a phone, loaded or not: the count of states added when it loads wraps there. */}
        <Text fontSize="sm" color="fg.muted" minH={{ base: '2lh', sm: 'auto' }}>
          Today's median price of a dozen standard eggs{summary}
        </Text>
      </Card.Header>
      <Card.Body pt="2" gap="3">
        {children}
        <Link asChild color="brand.fg" fontWeight="medium" alignSelf="flex-start">
          <RouterLink to="/map">
            See every state and its cheapest stores
            <LuArrowRight aria-hidden />
          </RouterLink>
        </Link>
      </Card.Body>
    </Card.Root>
  );
}

/** The map and its legend while they load. */
export function PriceMapPlaceholder() {
  return (
    <Stack gap="3" role="status" aria-label="Loading prices by state">
      <ChartSkeleton aspect={mapAspect(CARD_MAP_MAX_W)} />
      <Skeleton height={MAP_LEGEND_HEIGHT} borderRadius="l2" />
    </Stack>
  );
}
