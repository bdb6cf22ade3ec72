// The card and header of "Shelf, advertised and wholesale", and its placeholder, in a small module
// of their own: the dashboard shows the placeholder before the section's code and figures arrive.
// The placeholder is the section itself with its body laid out as it will be (the legend, the
// chart, lines of the section's usual wording, each as a skeleton of its size), so it takes the
// height the section will have at every width and nothing below it moves when the figures come.
import { Box, Card, chakra, Heading, Skeleton, Stack, Text, useSlotRecipe } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuChevronDown } from 'react-icons/lu';
import type { Region } from '#shared/vocabulary.ts';
import { RegionOptions } from '#client/components/VocabularyOptions.tsx';
import { ChartLegend } from '#client/components/charts/ChartLegend.tsx';
import { COMPARISON_COLORS } from '#client/components/charts/chartTheme.ts';
import { ChartPlaceholder } from '#client/components/charts/lazyCharts.tsx';

export const COMPARISON_CHART_HEIGHT = { base: '64', md: '72' };

export const SAMPLE_SHELF_NOTE =
  'No scraped shelf prices are held for this region and egg type yet: the shelf line is the sample catalogue, and the lead and outlook below are measured on it.';
export const SOURCES_NOTE =
  "Advertised prices are USDA's weekly retail feature report for the matching USDA region; wholesale is USDA's National Shell Egg Index (large white, caged). Official figures are shown beside EggWatch's, never mixed in.";
export const TABLE_SUMMARY = 'Table of the last 12 weeks';

/**
 * The section's region select, drawn with the theme's native select recipe (small size) on a plain
 * select element: Chakra's NativeSelect component would bring Ark's field code, and with it the
 * interactive components' whole chunk, into the dashboard's small slot chunk that draws the
 * placeholder (disabled there). The placeholder and the loaded section both use this one.
 */
function RegionSelect({ region, onRegion }: { region: Region; onRegion?: ((region: Region) => void) | undefined }) {
  const styles = useSlotRecipe({ key: 'nativeSelect' })({ size: 'sm', variant: 'outline' });
  const disabled = !onRegion;
  return (
    <Box css={styles.root} className="chakra-native-select__root" maxW="48">
      <chakra.select
        css={styles.field}
        className="chakra-native-select__field"
        aria-label="Region"
        value={region}
        disabled={disabled}
        onChange={(e) => onRegion?.(e.target.value as Region)}
      >
        <RegionOptions />
      </chakra.select>
      <Box css={styles.indicator} className="chakra-native-select__indicator" data-disabled={disabled ? '' : undefined}>
        <LuChevronDown />
      </Box>
    </Box>
  );
}

export function ComparisonFrame({
  region,
  onRegion,
  children,
}: {
  region: Region;
  /** Absent, the region cannot be changed yet (the placeholder). */
  onRegion?: (region: Region) => void;
  children: ReactNode;
}) {
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
          <RegionSelect region={region} onRegion={onRegion} />
        </Stack>
      </Card.Header>
      <Card.Body pt="2">{children}</Card.Body>
    </Card.Root>
  );
}

/**
 * The body while the figures load: the chart's skeleton where the chart goes, and around it the
 * legend and the lines the section usually shows (a lead, an outlook, USDA's newest advertised
 * price, the notes) as skeletons of their size, so the body is already as tall as it will be.
 */
export function ComparisonLoading() {
  // Each skeleton holds a line of the loaded section's length, unseen (visibility hidden: no
  // reader, screen reader or contrast check meets it), so it wraps as the line will at every
  // width; the figures in it are placeholders, never shown.
  const line = (text: string) => (
    <Skeleton aria-hidden width="fit-content" maxW="full">
      <Text visibility="hidden">{text}</Text>
    </Skeleton>
  );
  return (
    <Stack gap="3">
      <Skeleton aria-hidden width="fit-content" maxW="full" css={{ '& > *': { visibility: 'hidden' } }}>
        <ChartLegend
          label="Series"
          items={[
            { label: 'Shelf (EggWatch sample data)', color: COMPARISON_COLORS.shelf },
            { label: 'Advertised (USDA)', color: COMPARISON_COLORS.advertised },
            { label: 'Wholesale (USDA index)', color: COMPARISON_COLORS.wholesale },
            { label: 'Shelf outlook', color: COMPARISON_COLORS.outlook },
          ]}
        />
      </Skeleton>
      <ChartPlaceholder height={COMPARISON_CHART_HEIGHT} />
      <Stack gap="1" fontSize="sm">
        {line(SAMPLE_SHELF_NOTE)}
        {line('Shelf prices have followed wholesale by about 0 weeks (correlation 0.00 over 00 weeks).')}
        {line(
          'Outlook for the next 0 weeks: $0.00, $0.00, $0.00 a dozen (backtest error $0.00 a dozen against $0.00 for "no change", over 00 forecasts).',
        )}
        {line('USDA: advertised in the Northeast the week of 0000-00-00: $0.00 a dozen, 0,000 stores.')}
        {line(SOURCES_NOTE)}
      </Stack>
      <Skeleton aria-hidden width="fit-content" maxW="full">
        <Text as="span" visibility="hidden">
          {TABLE_SUMMARY}
        </Text>
      </Skeleton>
    </Stack>
  );
}

/** The section before its code or figures arrive. */
export function ComparisonPlaceholder({ region }: { region?: Region | undefined }) {
  return (
    <ComparisonFrame region={region ?? 'northeast'}>
      <ComparisonLoading />
    </ComparisonFrame>
  );
}
