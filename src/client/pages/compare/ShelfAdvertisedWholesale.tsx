// "Shelf, advertised and wholesale": EggWatch's own shelf price, USDA's advertised price for the
// same region and egg type, and USDA's wholesale index on one weekly axis, with a table
// alternative, the measured lead of wholesale and an outlook only where its backtest beat "no
// change" (both errors printed either way). The compare page and the dashboard show this one component.
import { Box, Card, Heading, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { Comparison } from '#shared/official.ts';
import { REGION_LABELS, REGIONS, type EggType, type Region } from '#shared/vocabulary.ts';
import { ErrorCard } from '#client/components/ErrorCard.tsx';
import { ChartLegend } from '#client/components/charts/ChartLegend.tsx';
import { COMPARISON_COLORS } from '#client/components/charts/chartTheme.ts';
import { ChartPlaceholder, ChartSlot, ComparisonChart } from '#client/components/charts/lazyCharts.tsx';
import { trpc } from '#client/lib/trpc.ts';
import { advertisedText, leadText, outlookText } from './comparisonView.ts';

const HEIGHT = { base: '64', md: '72' };
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
    <Card.Root as="section" aria-labelledby="saw-heading" variant="outline">
      <Card.Header pb="2">
        <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" gap="3">
          <Box>
            <Heading as="h2" size="md" id="saw-heading">
              Shelf, advertised and wholesale
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              EggWatch's shelf prices beside USDA's advertised retail prices and its wholesale index, week by week
            </Text>
          </Box>
          <NativeSelect.Root size="sm" maxW="48">
            <NativeSelect.Field
              aria-label="Region"
              value={region}
              onChange={(e) => setRegion(e.target.value as Region)}
            >
              {REGIONS.map((r) => (
                <option key={r} value={r}>
                  {REGION_LABELS[r]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Stack>
      </Card.Header>
      <Card.Body pt="2">
        {data.isError ? (
          <ErrorCard
            title="Unable to load the comparison"
            message={data.error.message}
            onRetry={() => void data.refetch()}
          />
        ) : !comparison ? (
          <ChartPlaceholder height={HEIGHT} />
        ) : (
          <ComparisonBody comparison={comparison} />
        )}
      </Card.Body>
    </Card.Root>
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
      <ChartSlot height={HEIGHT}>
        <ComparisonChart comparison={comparison} />
      </ChartSlot>
      <Stack gap="1" fontSize="sm">
        {comparison.shelfIsSample && (
          <Text>
            No scraped shelf prices are held for this region and egg type yet: the shelf line is the sample catalogue,
            and the lead and outlook below are measured on it.
          </Text>
        )}
        <Text>{leadText(comparison)}</Text>
        <Text>{outlookText(comparison)}</Text>
        {advertisedText(comparison) && <Text>USDA: {advertisedText(comparison)}.</Text>}
        <Text color="fg.muted">
          Advertised prices are USDA's weekly retail feature report for the matching USDA region; wholesale is USDA's
          National Shell Egg Index (large white, caged). Official figures are shown beside EggWatch's, never mixed in.
        </Text>
      </Stack>
      <details>
        <summary>Table of the last 12 weeks</summary>
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
