// The header menus' trigger buttons, shared by the real menus (HeaderMenus.tsx, loaded later) and
// the placeholders the header shows until they are loaded, so both look and read the same.
import { Button, IconButton, type ButtonProps } from '@chakra-ui/react';
import type { Ref } from 'react';
import { LuChevronDown, LuMenu } from 'react-icons/lu';

export type TriggerProps = ButtonProps & { ref?: Ref<HTMLButtonElement> };

export function EggTypesButton(props: TriggerProps) {
  return (
    <Button variant="ghost" colorPalette="gray" size="sm" {...props}>
      Egg Types
      <LuChevronDown aria-hidden />
    </Button>
  );
}

export function NavMenuButton(props: TriggerProps) {
  return (
    <IconButton aria-label="Open navigation menu" variant="outline" colorPalette="gray" size="sm" {...props}>
      <LuMenu />
    </IconButton>
  );
}
