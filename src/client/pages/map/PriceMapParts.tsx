// The map by state and its legend, shared by the /map page and the dashboard's compact card: the
// choropleth (its own chunk, see lazyCharts) coloured by today's medians, a tooltip with the
// change since last week, and the legend's dollar steps with the No data swatch.
import { Stack, Text } from '@chakra-ui/react';
import type { PriceMapResult } from '#shared/price-map.ts';
import { ChartSlot, UsStatesMap } from '#client/components/charts/lazyCharts.tsx';
import { MapLegend } from './MapLegend.tsx';
import {
  mapAspect,
  mapLabel,
  NO_DATA_COLOR,
  NO_DATA_TEXT,
  PRICE_COLORS,
  priceScale,
  tooltipLines,
  type PriceScale,
} from './mapView.ts';

/** The No data swatch's hatching, so it differs from the price steps by more than its colour. */
const NO_DATA_PATTERN = `repeating-linear-gradient(135deg, ${NO_DATA_COLOR} 0 3px, #a8a29e 3px 4px)`;

export function PriceMapLegend({ scale }: { scale: PriceScale | null }) {
  const items = [
    ...(scale?.steps ?? []).map((s) => ({ label: s.label, background: s.color })),
    { label: NO_DATA_TEXT, background: NO_DATA_PATTERN },
  ];
  return <MapLegend id="price-map-legend" title="Median price of a dozen today" items={items} labelColor="fg" />;
}

export function PriceMap({
  data,
  onStateClick,
  maxW,
}: {
  data: PriceMapResult;
  onStateClick?: (state: string) => void;
  maxW?: string;
}) {
  const scale = priceScale(data.states.map((s) => s.median_per_dozen));
  const byState = new Map(data.states.map((s) => [s.state, s]));
  return (
    <Stack gap="3">
      <ChartSlot aspect={mapAspect(maxW)} resetKeys={[data.egg_type]}>
        <UsStatesMap
          values={data.states.map((s) => ({ state: s.state, value: s.median_per_dozen }))}
          label={mapLabel(data)}
          domain={scale?.domain ?? [0, 1]}
          colors={PRICE_COLORS}
          unknownColor={NO_DATA_COLOR}
          valueFormat="$.2f"
          maxW={maxW}
          tooltip={(state) => {
            const figures = byState.get(state);
            if (!figures) return null;
            const { title, lines } = tooltipLines(figures);
            return (
              <>
                <Text fontWeight="semibold">{title}</Text>
                {lines.map((line) => (
                  <Text key={line}>{line}</Text>
                ))}
              </>
            );
          }}
          onStateClick={onStateClick}
        />
      </ChartSlot>
      <PriceMapLegend scale={scale} />
    </Stack>
  );
}
