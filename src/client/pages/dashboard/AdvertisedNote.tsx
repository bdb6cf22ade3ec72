// USDA's advertised price beside the shelf prices found: the newest week of USDA's retail feature
// report for the shopper's region (its matching USDA region) and egg type (standard when the
// search is for any type). Nothing when USDA's figures are not held (no key, or none yet).
import { Text } from '@chakra-ui/react';
import type { EggType, Region } from '#shared/vocabulary.ts';
import { EGG_TYPE_LABELS } from '#shared/vocabulary.ts';
import { trpc } from '#client/lib/trpc.ts';
import { advertisedText } from '../compare/comparisonView.ts';

export function AdvertisedNote({ region, eggType }: { region: Region; eggType: EggType }) {
  const comparison = trpc.official.comparison.useQuery({ region, eggType });
  const text = comparison.data ? advertisedText(comparison.data) : null;
  if (!text) return null;
  return (
    <Text textStyle="sm" color="fg.muted" data-testid="advertised-note">
      USDA, {EGG_TYPE_LABELS[eggType].toLowerCase()} eggs: {text}.
    </Text>
  );
}
