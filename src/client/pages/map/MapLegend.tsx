// A map's legend, shared by the map by price and the map of bird-flu detections: its title, then
// one swatch and label per step, as a list the title names.
import { Box, HStack, Stack, Text } from '@chakra-ui/react';

export interface LegendItem {
  label: string;
  /** The swatch's CSS background: the step's colour, or a pattern. */
  background: string;
}

export function MapLegend({
  id,
  title,
  items,
  labelColor,
}: {
  /** The title's element id, which labels the list. */
  id: string;
  title: string;
  items: readonly LegendItem[];
  labelColor?: string;
}) {
  return (
    <Stack gap="1">
      <Text fontSize="sm" color="fg.muted" id={id}>
        {title}
      </Text>
      <HStack as="ul" aria-labelledby={id} gap="3" rowGap="1" wrap="wrap" listStyleType="none" fontSize="sm">
        {items.map((item) => (
          <HStack as="li" key={item.label} gap="1.5">
            <Box
              aria-hidden
              width="4"
              height="3"
              borderRadius="xs"
              borderWidth="1px"
              borderColor="border.emphasized"
              style={{ background: item.background }}
            />
            <Text as="span" color={labelColor}>
              {item.label}
            </Text>
          </HStack>
        ))}
      </HStack>
    </Stack>
  );
}
