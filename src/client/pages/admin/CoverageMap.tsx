// The Coverage tab's US map: each state coloured by the share of a retailer's known stores visited
// in the last 24 hours, drawn by the shared US states map.
import UsStatesMap from '#client/components/charts/UsStatesMap.tsx';
import { NO_STORES_COLOR, SHARE_COLORS, type stateRows } from './coverageView.ts';

export interface CoverageMapProps {
  rows: ReturnType<typeof stateRows>;
  label: string;
}

export default function CoverageMap({ rows, label }: CoverageMapProps) {
  return (
    <UsStatesMap
      values={rows.map((row) => ({ state: row.state, value: row.share }))}
      label={label}
      domain={[0, 1]}
      colors={SHARE_COLORS}
      unknownColor={NO_STORES_COLOR}
      valueFormat=".0%"
    />
  );
}
