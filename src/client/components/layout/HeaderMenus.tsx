// The header's two menus: Egg Types on wider screens, and on phones one menu holding
// every header link. They are Chakra menus (zag's menu machine and floating-ui), which no first
// paint needs, so Header.tsx loads this module once the page is idle, or at once when the user
// reaches for a menu first; until then it shows the same trigger buttons (MenuTriggers.tsx).
import { Menu, Portal } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { COMPARE_LINKS } from '#client/lib/links.ts';
import { EggTypesButton, NavMenuButton } from './MenuTriggers.tsx';

export interface DeferredMenuProps {
  /** The user clicked the placeholder trigger: open as soon as the menu is here. */
  openOnMount: boolean;
  /** The placeholder trigger had keyboard focus: keep it on the real trigger. */
  focusOnMount: boolean;
}

/**
 * Takes over from the placeholder trigger on the first mount: keyboard focus moves to the real
 * trigger, and a click on the placeholder opens the menu. It opens a frame after mounting, with
 * focus on its trigger, as a click would: opened while mounting, the menu closed again at once,
 * seeing focus outside it (the clicked placeholder had just gone).
 */
function useTakeOver({ openOnMount, focusOnMount }: DeferredMenuProps) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (openOnMount || focusOnMount) triggerRef.current?.focus();
    if (!openOnMount) return undefined;
    const frame = requestAnimationFrame(() => setOpen(true));
    return () => cancelAnimationFrame(frame);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the take-over happens once, on the first mount: the props say how the placeholder was left
  }, []);
  return { triggerRef, open, onOpenChange: (details: { open: boolean }) => setOpen(details.open) };
}

/** One menu item per link, each a router link. */
function LinkItems({ links }: { links: ReadonlyArray<{ href: string; label: string }> }) {
  return links.map((link) => (
    <Menu.Item key={link.href} value={link.href} asChild>
      <RouterLink to={link.href}>{link.label}</RouterLink>
    </Menu.Item>
  ));
}

export function EggTypesMenu(intent: DeferredMenuProps) {
  const { triggerRef, open, onOpenChange } = useTakeOver(intent);
  return (
    <Menu.Root positioning={{ placement: 'bottom-start' }} open={open} onOpenChange={onOpenChange}>
      <Menu.Trigger asChild>
        <EggTypesButton ref={triggerRef} />
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="44">
            <LinkItems links={COMPARE_LINKS} />
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

/** Phones (< 768 px) get one menu button holding every header link. */
export function MobileNavMenu({ signedIn, ...intent }: DeferredMenuProps & { signedIn: boolean }) {
  const { triggerRef, open, onOpenChange } = useTakeOver(intent);
  const accountLinks = signedIn
    ? [
        { href: '/notifications/subscribe', label: 'Price Alerts' },
        { href: '/profile', label: 'My Account' },
      ]
    : [
        { href: '/auth', label: 'Login' },
        { href: '/signup', label: 'Sign Up' },
      ];
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} open={open} onOpenChange={onOpenChange}>
      <Menu.Trigger asChild>
        <NavMenuButton ref={triggerRef} />
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="56">
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel>Egg Types</Menu.ItemGroupLabel>
              <LinkItems links={COMPARE_LINKS} />
            </Menu.ItemGroup>
            <Menu.Separator />
            <LinkItems
              links={[
                { href: '/map', label: 'Prices by State' },
                { href: '/admin/login', label: 'Admin' },
                ...accountLinks,
              ]}
            />
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
