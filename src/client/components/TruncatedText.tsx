// One line of text cut with an ellipsis when its box is too narrow. When it is cut, the full text
// shows in a tooltip on hover and on keyboard focus (the text then takes a tab stop); screen
// readers always read the full text, which is in the element whatever its width.
import { Portal, Text, Tooltip, type TextProps } from '@chakra-ui/react';
import { useOverflowsX } from '#client/lib/useOverflowsX.ts';

export interface TruncatedTextProps extends Omit<TextProps, 'children' | 'truncate'> {
  children: string;
}

export function TruncatedText({ children: text, ...props }: TruncatedTextProps) {
  const [ref, truncated] = useOverflowsX<HTMLParagraphElement>();
  const body = (
    <Text
      ref={ref}
      truncate
      tabIndex={truncated ? 0 : undefined}
      borderRadius="l1"
      _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '1px' }}
      {...props}
    >
      {text}
    </Text>
  );
  if (!truncated) return body;
  return (
    <Tooltip.Root openDelay={150} closeDelay={50} positioning={{ placement: 'top-start' }}>
      <Tooltip.Trigger asChild>{body}</Tooltip.Trigger>
      {/* Outside the table's scroll area, which would clip it. */}
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content maxW="sm" aria-hidden>
            {text}
          </Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
