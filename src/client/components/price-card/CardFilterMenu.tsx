// One of a price card's dropdown filters: a caption and icon on the trigger,
// a menu that closes on an outside click or Escape, and a pending choice cleared on every
// opening. On small screens an option applies on click; on larger ones an Apply button, disabled
// until an option is picked, applies it. Menus are at most 250 px tall, option lists 150 px.
import { Box, Button, HStack, Popover, Portal, Stack, Text, type ButtonProps } from '@chakra-ui/react';
import { useId, useLayoutEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import type { IconType } from 'react-icons';
import { LuCheck, LuChevronDown } from 'react-icons/lu';

export interface MenuOption<V extends string | number> {
  value: V;
  label: string;
}

export interface CardFilterMenuProps<V extends string | number> {
  /** The caption, e.g. 'Region'. */
  caption: string;
  icon: IconType;
  value: V;
  options: ReadonlyArray<MenuOption<V>>;
  onApply: (value: V) => void;
  /** Below 768 px an option applies on click; otherwise via the Apply button. */
  applyOnClick: boolean;
  /** Extra content above the options, e.g. the region menu's display toggle. */
  extra?: ReactNode;
  /** Context for screen readers, e.g. the store name: 'Region for Walmart'. */
  context?: string;
  /** Smaller trigger for table rows. */
  compact?: boolean;
  /** A shorter text for the trigger than the option's label, e.g. '12' for '12 eggs'. */
  triggerText?: (value: V) => string;
}

function Caption({ icon: Icon, caption }: { icon: IconType; caption: string }) {
  return (
    <HStack as="span" gap="1" textStyle="xs" color="fg.muted" aria-hidden>
      <Icon />
      {caption}
    </HStack>
  );
}

/** The trigger: the same button before the menu is set up (placeholder) and after. */
function TriggerButton({
  icon: Icon,
  label,
  text,
  compact,
  ...props
}: ButtonProps & { ref?: Ref<HTMLButtonElement>; icon: IconType; label: string; text: string; compact: boolean }) {
  return (
    <Button
      size={compact ? 'xs' : 'sm'}
      variant="outline"
      colorPalette="gray"
      justifyContent="space-between"
      width="full"
      minW="0"
      px="2"
      gap="1"
      fontWeight="medium"
      aria-label={label}
      {...props}
    >
      <HStack as="span" gap="1.5" minW="0">
        {compact && <Icon aria-hidden />}
        <Text as="span" truncate>
          {text}
        </Text>
      </HStack>
      <LuChevronDown aria-hidden />
    </Button>
  );
}

function PopoverMenu<V extends string | number>({
  caption,
  icon: Icon,
  value,
  options,
  onApply,
  applyOnClick,
  extra,
  context,
  compact = false,
  triggerText,
  openOnMount,
  focusOnMount,
}: CardFilterMenuProps<V> & { openOnMount: boolean; focusOnMount: boolean }) {
  const [open, setOpen] = useState(openOnMount);
  const triggerRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    // The placeholder trigger had keyboard focus: keep it on the real one.
    if (focusOnMount && !openOnMount) triggerRef.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on the first mount: the props say how the placeholder was left
  }, []);
  const [pending, setPending] = useState<V | null>(null);
  const listId = useId();
  const current = options.find((option) => option.value === value)?.label ?? String(value);
  const name = context ? `${caption} for ${context}` : caption;

  const apply = (choice: V) => {
    if (choice !== value) onApply(choice);
    setOpen(false);
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(details) => {
        // Opening clears any pending choice.
        if (details.open) setPending(null);
        setOpen(details.open);
      }}
      positioning={{ placement: 'bottom-start' }}
      lazyMount
      unmountOnExit
    >
      <Stack gap="1" minW="0" flex="1">
        {!compact && <Caption icon={Icon} caption={caption} />}
        <Popover.Trigger asChild>
          <TriggerButton
            ref={triggerRef}
            icon={Icon}
            label={`${name}: ${current}`}
            text={triggerText ? triggerText(value) : current}
            compact={compact}
          />
        </Popover.Trigger>
      </Stack>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="56" maxH="250px" overflowY="auto" aria-label={name}>
            <Popover.Body p="3">
              <Stack gap="2">
                <Text textStyle="sm" fontWeight="semibold">
                  {caption}
                </Text>
                {extra}
                <Box
                  id={listId}
                  role="group"
                  aria-label={`${caption} options`}
                  maxH="150px"
                  overflowY="auto"
                  borderWidth="1px"
                  borderColor="border"
                  borderRadius="md"
                  p="1"
                >
                  {options.map((option) => {
                    const chosen = pending === null ? option.value === value : option.value === pending;
                    return (
                      <Box key={String(option.value)}>
                        <Button
                          size="sm"
                          variant={chosen ? 'subtle' : 'ghost'}
                          colorPalette={chosen ? 'brand' : 'gray'}
                          width="full"
                          justifyContent="space-between"
                          fontWeight={chosen ? 'semibold' : 'normal'}
                          aria-pressed={chosen}
                          onClick={() => (applyOnClick ? apply(option.value) : setPending(option.value))}
                        >
                          {option.label}
                          {chosen && <LuCheck aria-hidden />}
                        </Button>
                      </Box>
                    );
                  })}
                </Box>
                {!applyOnClick && (
                  <Button
                    size="sm"
                    colorPalette="amber"
                    variant="solid"
                    disabled={pending === null}
                    onClick={() => pending !== null && apply(pending)}
                  >
                    Apply
                  </Button>
                )}
              </Stack>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

/**
 * A card has three of these and a page a dozen cards or more: each popover is a state machine
 * with its own effects, too much to set up for menus most visitors never open. Until a click
 * or keyboard focus reaches the trigger, a plain button with the same look and name stands in;
 * then the popover takes its place (opening at once after a click, keeping keyboard focus on the
 * trigger).
 */
export function CardFilterMenu<V extends string | number>(props: CardFilterMenuProps<V>) {
  const [armed, setArmed] = useState<{ openOnMount: boolean; focusOnMount: boolean } | null>(null);
  if (armed) return <PopoverMenu {...props} {...armed} />;
  const { caption, icon, value, options, context, compact = false, triggerText } = props;
  const current = options.find((option) => option.value === value)?.label ?? String(value);
  const name = context ? `${caption} for ${context}` : caption;
  return (
    <Stack gap="1" minW="0" flex="1">
      {!compact && <Caption icon={icon} caption={caption} />}
      <TriggerButton
        icon={icon}
        label={`${name}: ${current}`}
        text={triggerText ? triggerText(value) : current}
        compact={compact}
        aria-haspopup="dialog"
        aria-expanded={false}
        // Keyboard focus sets the menu up (a click focuses the button too, but must reach it whole).
        onFocus={(event) => {
          if (event.currentTarget.matches(':focus-visible')) setArmed({ openOnMount: false, focusOnMount: true });
        }}
        onClick={() => setArmed({ openOnMount: true, focusOnMount: true })}
      />
    </Stack>
  );
}
