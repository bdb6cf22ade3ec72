// "Shelf, advertised and wholesale": EggWatch's own shelf price, USDA's advertised price for the
// same region and egg type, and USDA's wholesale index on one weekly axis, with a table
// alternative, the measured lead of wholesale and an outlook only where its backtest beat "no
// change" (both errors printed either way). The compare page and the dashboard show this one component.
import { Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { Comparison } from '#shared/official.ts';
import type { EggType, Region } from '#shared/vocabulary.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { ChartLegend } from '#client/components/charts/ChartLegend.tsx';
import { COMPARISON_COLORS } from '#client/components/charts/chartTheme.ts';
import { ChartSlot, ComparisonChart } from '#client/components/charts/lazyCharts.tsx';
import { trpc } from '#client/lib/trpc.ts';
import { advertisedText, leadText, outlookText } from './comparisonView.ts';
import {
  COMPARISON_CHART_HEIGHT,
  ComparisonFrame,
  ComparisonLoading,
  SAMPLE_SHELF_NOTE,
  SOURCES_NOTE,
  TABLE_SUMMARY,
} from './ComparisonFrame.tsx';

const dollars = (v: number | null) => (v === null ? '–' : `$${v.toFixed(2)}`);

export function ShelfAdvertisedWholesale({
  eggType,
  region: given,
}: {
  eggType: EggType;
  region?: Region | undefined;
}) {
  const [region, setRegion] = useState<Region>(given ?? 'northeast');
  const data = trpc.official.comparison.useQuery({ region, eggType });
  const comparison = data.data;
  return (
    <ComparisonFrame region={region} onRegion={setRegion}>
      {data.isError ? (
        <ErrorCard
          title="Unable to load the comparison"
          message={data.error.message}
          onRetry={() => void data.refetch()}
        />
      ) : !comparison ? (
        <ComparisonLoading />
      ) : (
        <ComparisonBody comparison={comparison} />
      )}
    </ComparisonFrame>
  );
}

/**
 * The section's figures once loaded: the chart, the lead, the outlook (or "no outlook") with both
 * errors, and the table of the last 12 weeks; or the empty text when nothing is held.
 */
export function ComparisonBody({ comparison }: { comparison: Comparison }) {
  if (comparison.weeks.length === 0)
    return (
      <Text color="fg.muted">No shelf, advertised or wholesale figures are held for this region and egg type yet.</Text>
    );
  const recent = comparison.weeks
    .filter((w) => w.shelf !== null || w.advertised !== null || w.wholesale !== null)
    .slice(-12);
  return (
    <Stack gap="3">
      <ChartLegend
        label="Series"
        items={[
          ...(comparison.weeks.some((w) => w.shelf !== null)
            ? [
                {
                  label: comparison.shelfIsSample ? 'Shelf (EggWatch sample data)' : 'Shelf (EggWatch)',
                  color: COMPARISON_COLORS.shelf,
                },
              ]
            : []),
          ...(comparison.weeks.some((w) => w.advertised !== null)
            ? [{ label: 'Advertised (USDA)', color: COMPARISON_COLORS.advertised }]
            : []),
          ...(comparison.weeks.some((w) => w.wholesale !== null)
            ? [{ label: 'Wholesale (USDA index)', color: COMPARISON_COLORS.wholesale }]
            : []),
          ...(comparison.outlook?.shown ? [{ label: 'Shelf outlook', color: COMPARISON_COLORS.outlook }] : []),
        ]}
      />
      <ChartSlot height={COMPARISON_CHART_HEIGHT}>
        <ComparisonChart comparison={comparison} />
      </ChartSlot>
      <Stack gap="1" fontSize="sm">
        {comparison.shelfIsSample && <Text>{SAMPLE_SHELF_NOTE}</Text>}
        <Text>{leadText(comparison)}</Text>
        <Text>{outlookText(comparison)}</Text>
        {advertisedText(comparison) && <Text>USDA: {advertisedText(comparison)}.</Text>}
        <Text color="fg.muted">{SOURCES_NOTE}</Text>
      </Stack>
      <details>
        <summary>{TABLE_SUMMARY}</summary>
        <Table.ScrollArea mt="2">
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Week of</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Shelf</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Advertised</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Wholesale</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {recent.map((w) => (
                <Table.Row key={w.week}>
                  <Table.Cell>{w.week}</Table.Cell>
                  <Table.Cell textAlign="end">{dollars(w.shelf)}</Table.Cell>
                  <Table.Cell textAlign="end">{dollars(w.advertised)}</Table.Cell>
                  <Table.Cell textAlign="end">{dollars(w.wholesale)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      </details>
    </Stack>
  );
}
