// A responsive grid of price cards for the store and compare pages: skeleton cards while the
// prices load, an empty-state message when there are none.
import { EmptyState, SimpleGrid, VisuallyHidden } from '@chakra-ui/react';
import { LuSearchX } from 'react-icons/lu';
import type { PriceEntry } from '#shared/types.ts';
import { PriceCard, PriceCardSkeleton } from '#client/components/price-card/PriceCard.tsx';

export const NO_PRICES_MESSAGE = 'No prices available for the selected filters.';

export interface PriceCardGridProps {
  entries: ReadonlyArray<PriceEntry & { history?: number[] }> | undefined;
  loading: boolean;
  /** How many skeleton cards stand in while loading. */
  placeholders?: number;
  label: string;
}

export function PriceCardGrid({ entries, loading, placeholders = 6, label }: PriceCardGridProps) {
  if (loading || !entries) {
    return (
      <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap={{ base: '4', lg: '5' }} role="status" aria-busy>
        <VisuallyHidden>Loading prices</VisuallyHidden>
        {Array.from({ length: placeholders }, (_, i) => (
          <PriceCardSkeleton key={i} />
        ))}
      </SimpleGrid>
    );
  }
  if (entries.length === 0) {
    return (
      <EmptyState.Root size="sm" borderWidth="1px" borderStyle="dashed" borderRadius="lg">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <LuSearchX />
          </EmptyState.Indicator>
          <EmptyState.Description color="fg">{NO_PRICES_MESSAGE}</EmptyState.Description>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  return (
    <SimpleGrid
      as="ul"
      aria-label={label}
      columns={{ base: 1, md: 2, lg: 3 }}
      gap={{ base: '4', lg: '5' }}
      listStyleType="none"
    >
      {entries.map((entry) => (
        <li key={entry.id}>
          <PriceCard entry={entry} />
        </li>
      ))}
    </SimpleGrid>
  );
}
