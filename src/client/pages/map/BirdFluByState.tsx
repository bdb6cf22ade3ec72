// Bird-flu detections by state on the map page: USDA APHIS's confirmed detections in commercial
// table-egg layer flocks over the last 12 months (the `aphis-layers:<state>` series summed), as a
// map of the layer hens affected and a table alternative, each row linked to APHIS's page.
import { Card, Heading, Link, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { OFFICIAL_SOURCE_INFO } from '#shared/official.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { ChartSkeleton, ChartSlot, UsStatesMap } from '#client/components/charts/lazyCharts.tsx';
import { trpc, type RouterOutputs } from '#client/lib/trpc.ts';
import { MapLegend } from './MapLegend.tsx';
import { mapAspect, NO_DATA_COLOR, stateName } from './mapView.ts';

export type DetectionRow = RouterOutputs['official']['detectionsByState'][number];

/** Light to dark red, one per quarter of the largest state's hens. */
export const DETECTION_COLORS = ['#fcbba1', '#fb6a4a', '#cb181d', '#67000d'] as const;
const SOURCE_LINK = OFFICIAL_SOURCE_INFO.aphis_hpai.link;

/** The first day of the month 12 months before `today`'s: the window's first week (a stable cache key all month). */
export function detectionsFrom(today: Date): string {
  const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 11, 1));
  return from.toISOString().slice(0, 10);
}

const hens = (n: number) => n.toLocaleString('en-US');

/** 1,500,000 as "1.5M", 250,000 as "250k": the legend's bounds. */
export function hensShort(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1).replace(/\.0$/, '')}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}k`;
  return String(Math.round(n));
}

const dayText = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });

/** The legend's steps: each colour with the hens it stands for (equal quarters of the largest). */
export function detectionSteps(max: number): Array<{ color: string; label: string }> {
  const step = max / DETECTION_COLORS.length;
  return DETECTION_COLORS.map((color, i) => ({
    color,
    label: i === 0 ? `Up to ${hensShort(step)}` : `${hensShort(step * i)} to ${hensShort(step * (i + 1))}`,
  }));
}

function DetectionsMap({ rows }: { rows: readonly DetectionRow[] }) {
  const max = Math.max(...rows.map((r) => r.birds));
  const byState = new Map(rows.map((r) => [r.state, r]));
  const items = [...detectionSteps(max), { color: NO_DATA_COLOR, label: 'No detection held' }];
  return (
    <Stack gap="3">
      <ChartSlot aspect={mapAspect()}>
        <UsStatesMap
          values={rows.map((r) => ({ state: r.state, value: r.birds }))}
          label={`Layer hens affected by bird flu by state: ${rows.length} state${rows.length === 1 ? '' : 's'} with detections, most in ${stateName(rows[0]!.state)} (${hens(rows[0]!.birds)})`}
          domain={[0, max]}
          colors={DETECTION_COLORS}
          unknownColor={NO_DATA_COLOR}
          valueFormat=","
          tooltip={(state) => {
            const row = byState.get(state);
            return (
              <>
                <Text fontWeight="semibold">{stateName(state)}</Text>
                <Text>
                  {row
                    ? `${hens(row.birds)} layer hens affected; latest week of ${dayText(row.latestWeek)}`
                    : 'No detection held'}
                </Text>
              </>
            );
          }}
        />
      </ChartSlot>
      <MapLegend
        id="bird-flu-legend"
        title="Layer hens affected"
        items={items.map(({ label, color }) => ({ label, background: color }))}
      />
    </Stack>
  );
}

function DetectionsTable({ rows }: { rows: readonly DetectionRow[] }) {
  return (
    <details>
      <summary>Table of detections by state</summary>
      <Table.ScrollArea mt="2">
        <Table.Root size="sm" aria-labelledby="bird-flu-heading">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>State</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Layer hens affected</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Flocks</Table.ColumnHeader>
              <Table.ColumnHeader>Latest week</Table.ColumnHeader>
              <Table.ColumnHeader>Source</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row key={row.state}>
                <Table.Cell>{stateName(row.state)}</Table.Cell>
                <Table.Cell textAlign="end">{hens(row.birds)}</Table.Cell>
                <Table.Cell textAlign="end">{row.detections > 0 ? hens(row.detections) : '–'}</Table.Cell>
                <Table.Cell>{dayText(row.latestWeek)}</Table.Cell>
                <Table.Cell>
                  <Link
                    href={SOURCE_LINK}
                    target="_blank"
                    rel="noreferrer"
                    color="brand.fg"
                    textDecoration="underline"
                    aria-label={`${stateName(row.state)}: the source, USDA APHIS`}
                  >
                    USDA APHIS
                  </Link>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </details>
  );
}

/** The section's body: loading (rows undefined), the error with Retry, the empty text, or the map and table. */
export function BirdFluContent({
  rows,
  error,
  onRetry,
}: {
  rows: readonly DetectionRow[] | undefined;
  error?: string | null | undefined;
  onRetry?: () => void;
}) {
  if (error) return <ErrorCard title="Unable to load bird-flu detections" message={error} onRetry={onRetry} />;
  if (!rows)
    return (
      <Stack gap="3" role="status" aria-label="Loading bird-flu detections">
        <ChartSkeleton aspect={mapAspect()} />
        <Skeleton height="8" borderRadius="l2" />
      </Stack>
    );
  if (rows.length === 0)
    return <Text>No bird-flu detections in commercial layer flocks are held for the last 12 months.</Text>;
  return (
    <Stack gap="3">
      <DetectionsMap rows={rows} />
      <DetectionsTable rows={rows} />
    </Stack>
  );
}

export function BirdFluByState() {
  const [from] = useState(() => detectionsFrom(new Date()));
  const query = trpc.official.detectionsByState.useQuery({ from });
  return (
    <Card.Root as="section" aria-labelledby="bird-flu-heading" variant="outline">
      <Card.Header pb="2">
        <Heading as="h2" size="md" id="bird-flu-heading">
          Bird-flu detections by state
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Layer hens affected in commercial table-egg flocks with confirmed bird flu (HPAI) since {dayText(from)}, by
          state.
        </Text>
      </Card.Header>
      <Card.Body pt="2" aria-busy={query.isLoading}>
        <Stack gap="3">
          <BirdFluContent
            rows={query.data}
            error={query.isError ? query.error.message : null}
            onRetry={() => void query.refetch()}
          />
          <Link href={SOURCE_LINK} target="_blank" rel="noreferrer" fontSize="sm" color="brand.fg">
            Source: USDA APHIS, confirmed HPAI detections in commercial and backyard flocks
          </Link>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
