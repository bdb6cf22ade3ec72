// The US map of the 50 states and DC, each coloured by a value (nivo's geo choropleth), shared by
// the admin Coverage tab and the shoppers' map by state. The shapes are us-atlas's, bundled with
// this chunk (loaded on demand like the other charts): nothing is fetched from the network. The
// map is one image with an accessible name; the pages beside it give the same figures as a table.
import { Choropleth, type ChoroplethBoundFeature } from '@nivo/geo';
import { ResponsiveWrapper } from '@nivo/core';
import { Box } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import statesTopology from 'us-atlas/states-10m.json';
import { chartTheme } from './chartTheme.ts';
import { statesForMap, STATE_NAMES, US_MAP_ASPECT, US_MAP_MAX_W } from './usStates.ts';

const topology = statesTopology as unknown as Topology<{ states: GeometryCollection<{ name: string }> }>;
const STATES = statesForMap(
  feature(topology, topology.objects.states).features as Array<{
    id?: string | number;
    geometry: { type: string; coordinates: unknown } | null;
  }>,
);

/** The state code of a drawn feature (its GeoJSON id, which nivo's types leave out). */
const featureState = (f: ChoroplethBoundFeature): string => String((f as unknown as { id: string | number }).id);

export interface UsStatesMapProps {
  /** One value per state code; a state left out (or null) is drawn in `unknownColor`. */
  values: ReadonlyArray<{ state: string; value: number | null }>;
  /** The map's accessible name, summarising what it shows. */
  label: string;
  domain: [number, number];
  colors: readonly string[];
  unknownColor: string;
  valueFormat?: string;
  /** The tooltip's content for a state (default: nivo's name and value). */
  tooltip?: (state: string) => ReactNode;
  onStateClick?: (state: string) => void;
  maxW?: string;
}

export default function UsStatesMap({
  values,
  label,
  domain,
  colors,
  unknownColor,
  valueFormat,
  tooltip,
  onStateClick,
  maxW = US_MAP_MAX_W,
}: UsStatesMapProps) {
  const data = values.flatMap((row) => (row.value === null ? [] : [{ id: row.state, value: row.value }]));
  return (
    <Box
      role="img"
      aria-label={label}
      width="full"
      style={{ aspectRatio: String(US_MAP_ASPECT) }}
      maxW={maxW}
      mx="auto"
    >
      <ResponsiveWrapper>
        {({ width, height }) => (
          <Choropleth
            width={width}
            height={height}
            features={STATES}
            data={data}
            domain={domain}
            colors={[...colors]}
            unknownColor={unknownColor}
            label={(f: { id: string }) => STATE_NAMES[f.id] ?? f.id}
            valueFormat={valueFormat}
            projectionType="azimuthalEqualArea"
            projectionRotation={[96, -38, 0]}
            projectionScale={width * 1.15}
            projectionTranslation={[0.5, 0.48]}
            borderWidth={0.6}
            borderColor="#ffffff"
            isInteractive
            role="presentation"
            theme={chartTheme}
            {...(tooltip
              ? {
                  tooltip: ({ feature: f }: { feature: ChoroplethBoundFeature }) => (
                    <Box
                      bg="bg"
                      color="fg"
                      borderWidth="1px"
                      borderRadius="md"
                      px="2"
                      py="1"
                      fontSize="sm"
                      boxShadow="md"
                      maxW="64"
                    >
                      {tooltip(featureState(f))}
                    </Box>
                  ),
                }
              : {})}
            {...(onStateClick ? { onClick: (f: ChoroplethBoundFeature) => onStateClick(featureState(f)) } : {})}
          />
        )}
      </ResponsiveWrapper>
    </Box>
  );
}
