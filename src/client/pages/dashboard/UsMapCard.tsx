// The dashboard's compact map of egg prices by state (standard eggs): the map and its legend with
// a link to the full page (/map). Its own chunk, loaded when it comes near the screen: it is below
// the fold, so neither it nor nivo's map is part of the dashboard's first paint.
import { Card, Flex, Heading, Link, Skeleton, Text } from '@chakra-ui/react';
import { LuArrowRight } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { SampleBadge } from '#client/components/SampleBadge.tsx';
import { trpc } from '#client/lib/trpc.ts';
import { anySample } from '#client/pages/map/mapView.ts';
import { PriceMap } from '#client/pages/map/PriceMapParts.tsx';

export default function UsMapCard() {
  const query = trpc.prices.byState.useQuery({ egg_type: 'standard' });
  const priced = query.data?.states.filter((s) => s.median_per_dozen !== null).length ?? 0;
  return (
    <Card.Root as="section" aria-labelledby="us-map-heading" variant="outline">
      <Card.Header pb="2">
        <Flex justify="space-between" align="baseline" gap="3" wrap="wrap">
          <Heading as="h2" size="md" id="us-map-heading">
            Egg prices by state
          </Heading>
          {query.data && anySample(query.data.states) && <SampleBadge figure />}
        </Flex>
        <Text fontSize="sm" color="fg.muted">
          Today's median price of a dozen standard eggs
          {query.data ? (priced === 0 ? ': no state has prices today.' : `, ${priced} of ${query.data.states.length} states with prices.`) : '.'}
        </Text>
      </Card.Header>
      <Card.Body pt="2" gap="3">
        {query.isError ? (
          <ErrorCard title="Unable to load prices by state" message={query.error.message} onRetry={() => void query.refetch()} />
        ) : query.data ? (
          <PriceMap data={query.data} maxW="2xl" />
        ) : (
          <Skeleton height={{ base: '56', md: '80' }} borderRadius="l2" role="status" aria-label="Loading prices by state" />
        )}
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
