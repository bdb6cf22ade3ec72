// The 'Sample data' badge: on a price drawn from the sample catalogue or the demo's stand-in
// retailer, and on every figure that rests on such prices (`figure`). Its own module, so the
// dashboard's summary cards (first paint) use it without the price card's code.
import { Badge, type BadgeProps } from '@chakra-ui/react';

export function SampleBadge({ figure = false, size }: { figure?: boolean; size?: BadgeProps['size'] }) {
  return (
    <Badge
      colorPalette="amber"
      variant="subtle"
      flexShrink={0}
      size={size}
      title={
        figure
          ? 'Includes sample prices, not yet collected from the stores'
          : 'A seeded sample price, not yet collected from the store'
      }
    >
      Sample data
    </Badge>
  );
}
