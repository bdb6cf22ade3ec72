// The Coverage tab's US map: each state coloured by the share of a retailer's known stores visited
// in the last 24 hours (nivo's geo choropleth). The state shapes are us-atlas's, bundled with this
// chunk (loaded on demand like the other charts): nothing is fetched from the network.
import { Choropleth } from '@nivo/geo';
import { ResponsiveWrapper } from '@nivo/core';
import { Box } from '@chakra-ui/react';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import statesTopology from 'us-atlas/states-10m.json';
import { chartTheme } from '#client/components/charts/chartTheme.ts';
import { NO_STORES_COLOR, SHARE_COLORS, statesForMap, STATE_NAMES, type stateRows } from './coverageView.ts';

const topology = statesTopology as unknown as Topology<{ states: GeometryCollection<{ name: string }> }>;
const STATES = statesForMap(feature(topology, topology.objects.states).features as Array<{ id?: string | number; geometry: { type: string; coordinates: unknown } | null }>);

/** Width over height of the lower 48 with the insets, in this projection. */
const ASPECT = 1.6;

export interface CoverageMapProps {
  rows: ReturnType<typeof stateRows>;
  label: string;
}

export default function CoverageMap({ rows, label }: CoverageMapProps) {
  const data = rows.map((row) => ({ id: row.state, value: row.share }));
  return (
    <Box role="img" aria-label={label} width="full" style={{ aspectRatio: String(ASPECT) }} maxW="3xl">
      <ResponsiveWrapper>
        {({ width, height }) => (
          <Choropleth
            width={width}
            height={height}
            features={STATES}
            data={data}
            domain={[0, 1]}
            colors={[...SHARE_COLORS]}
            unknownColor={NO_STORES_COLOR}
            label={(f: { id: string }) => STATE_NAMES[f.id] ?? f.id}
            valueFormat=".0%"
            projectionType="azimuthalEqualArea"
            projectionRotation={[96, -38, 0]}
            projectionScale={width * 1.15}
            projectionTranslation={[0.5, 0.48]}
            borderWidth={0.6}
            borderColor="#ffffff"
            isInteractive
            role="presentation"
            theme={chartTheme}
          />
        )}
      </ResponsiveWrapper>
    </Box>
  );
}
