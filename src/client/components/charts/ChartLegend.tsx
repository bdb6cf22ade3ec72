// An HTML legend for the charts: it wraps on narrow screens, stays readable in both colour modes
// and is read by screen readers as a list (nivo's SVG legends do none of that).
import { Box, HStack, Text } from '@chakra-ui/react';

export interface LegendItem {
  label: string;
  color: string;
  /** Drawn dashed, e.g. a reference line. */
  dashed?: boolean;
}

export function ChartLegend({ items, label }: { items: readonly LegendItem[]; label: string }) {
  return (
    <HStack as="ul" aria-label={label} gap="4" rowGap="1" wrap="wrap" listStyleType="none" fontSize="sm">
      {items.map((item) => (
        <HStack as="li" key={item.label} gap="1.5">
          <Box
            aria-hidden
            width="4"
            height="0"
            borderTopWidth="3px"
            borderTopStyle={item.dashed ? 'dashed' : 'solid'}
            style={{ borderTopColor: item.color }}
          />
          <Text as="span" color="fg">
            {item.label}
          </Text>
        </HStack>
      ))}
    </HStack>
  );
}
