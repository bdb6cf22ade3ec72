// The dashboard's compact map of egg prices by state (standard eggs): the map and its legend with
// a link to the full page (/map). Its own chunk, loaded when it comes near the screen: it is below
// the fold, so neither it nor nivo's map is part of the dashboard's first paint.
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { SampleBadge } from '#client/components/SampleBadge.tsx';
import { trpc } from '#client/lib/trpc.ts';
import { anySample } from '#client/pages/map/mapView.ts';
import { PriceMap } from '#client/pages/map/PriceMapParts.tsx';
import { CARD_MAP_MAX_W, PriceMapFrame, PriceMapPlaceholder } from './PriceMapFrame.tsx';

export default function PriceMapCard() {
  const query = trpc.prices.map.useQuery({ egg_type: 'standard' });
  const priced = query.data?.states.filter((s) => s.median_per_dozen !== null).length ?? 0;
  return (
    <PriceMapFrame
      badge={query.data && anySample(query.data.states) && <SampleBadge figure />}
      summary={
        query.data
          ? priced === 0
            ? ': no state has prices today.'
            : `, ${priced} of ${query.data.states.length} states with prices.`
          : '.'
      }
    >
      {query.isError ? (
        <ErrorCard
          title="Unable to load prices by state"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : query.data ? (
        <PriceMap data={query.data} maxW={CARD_MAP_MAX_W} />
      ) : (
        <PriceMapPlaceholder />
      )}
    </PriceMapFrame>
  );
}
