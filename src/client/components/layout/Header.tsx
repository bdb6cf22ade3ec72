import { Box, Button, Container, Flex, HStack, Icon, IconButton, Link, Text } from '@chakra-ui/react';
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { LuBell, LuEgg, LuUser } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { ColorModeButton } from '#client/components/ColorMode.tsx';
import { useLoadWhenIdle } from '#client/lib/idle.ts';
import { useSessionWatch } from '#client/lib/session.ts';
import type { DeferredMenuProps } from './HeaderMenus.tsx';
import { EggTypesButton, NavMenuButton } from './MenuTriggers.tsx';

/** Should the menus' chunk be missing (a newer build replaced it), the trigger reloads the page. */
function reloadingTrigger(Trigger: typeof EggTypesButton): ComponentType<DeferredMenuProps & { signedIn?: boolean }> {
  return function ReloadingTrigger() {
    return <Trigger aria-haspopup="menu" aria-expanded={false} onClick={() => window.location.reload()} />;
  };
}

// The menus themselves (zag's menu machine, floating-ui) are not needed for the first paint.
const loadMenus = () =>
  import('./HeaderMenus.tsx').catch(() => ({
    EggTypesMenu: reloadingTrigger(EggTypesButton),
    MobileNavMenu: reloadingTrigger(NavMenuButton),
  }));
const EggTypesMenu = lazy(() => loadMenus().then((menus) => ({ default: menus.EggTypesMenu })));
const MobileNavMenu = lazy(() => loadMenus().then((menus) => ({ default: menus.MobileNavMenu })));

function Logo() {
  return (
    <Link
      asChild
      fontWeight="bold"
      fontSize="xl"
      color="fg"
      _hover={{ textDecoration: 'none', color: 'brand.fg' }}
      borderRadius="md"
    >
      <RouterLink to="/" aria-label="EggWatch home">
        <Icon size="lg" color="brand.500" aria-hidden>
          <LuEgg />
        </Icon>
        <Text as="span">EggWatch</Text>
      </RouterLink>
    </Link>
  );
}

/**
 * A header menu that loads when the page is idle: until then (and while it loads) the same
 * trigger button stands in, with the menu semantics announced. Hovering or focusing it starts the
 * download; clicking it opens the menu as soon as it is there, and keyboard focus moves over.
 */
function DeferredMenu({
  placeholder: Placeholder,
  children,
}: {
  placeholder: typeof EggTypesButton;
  children: (intent: DeferredMenuProps) => ReactNode;
}) {
  const [ready, load] = useLoadWhenIdle();
  const [intent, setIntent] = useState<DeferredMenuProps>({ openOnMount: false, focusOnMount: false });
  const open = () => {
    setIntent({ openOnMount: true, focusOnMount: true });
    load();
  };
  const placeholder = (
    <Placeholder
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={load}
      onFocus={() => {
        setIntent((current) => ({ ...current, focusOnMount: true }));
        load();
      }}
      onBlur={() => setIntent((current) => ({ ...current, focusOnMount: false }))}
      // Pressed (pointer down) is when the menu should open: hovering has already started the
      // download, and the real menu can take the placeholder's place before the click completes.
      onPointerDown={open}
      // A keyboard press (Enter, Space) clicks without a pointer.
      onClick={open}
    />
  );
  if (!ready) return placeholder;
  return <Suspense fallback={placeholder}>{children(intent)}</Suspense>;
}

/** Bell with a red dot: the signed-in shortcut to price alerts. */
function PriceAlertsLink() {
  return (
    <IconButton asChild variant="ghost" colorPalette="gray" size="sm" aria-label="Price Alerts" title="Price Alerts">
      <RouterLink to="/notifications/subscribe">
        <Box position="relative" display="inline-flex">
          <LuBell aria-hidden />
          <Box
            position="absolute"
            top="-1px"
            right="-1px"
            boxSize="2"
            borderRadius="full"
            bg="red.solid"
            borderWidth="1px"
            borderColor="bg"
            aria-hidden
          />
        </Box>
      </RouterLink>
    </IconButton>
  );
}

function DesktopNav({ signedIn }: { signedIn: boolean }) {
  return (
    <HStack as="nav" aria-label="Main" gap="1" hideBelow="md">
      <DeferredMenu placeholder={EggTypesButton}>{(intent) => <EggTypesMenu {...intent} />}</DeferredMenu>
      <Button asChild variant="ghost" colorPalette="gray" size="sm">
        <RouterLink to="/map">Prices by State</RouterLink>
      </Button>
      <Button asChild variant="ghost" colorPalette="gray" size="sm">
        <RouterLink to="/admin/login">Admin</RouterLink>
      </Button>
      {signedIn ? (
        <>
          <PriceAlertsLink />
          <Button asChild variant="outline" size="sm">
            <RouterLink to="/profile">
              <LuUser aria-hidden />
              My Account
            </RouterLink>
          </Button>
        </>
      ) : (
        <>
          <Button asChild variant="ghost" colorPalette="gray" size="sm">
            <RouterLink to="/auth">Login</RouterLink>
          </Button>
          <Button asChild variant="solid" size="sm">
            <RouterLink to="/signup">Sign Up</RouterLink>
          </Button>
        </>
      )}
    </HStack>
  );
}

/** Phones (< 768 px) get one menu button holding every header link (HeaderMenus.tsx). */
function MobileNav({ signedIn }: { signedIn: boolean }) {
  return (
    <Box as="nav" aria-label="Main" hideFrom="md">
      <DeferredMenu placeholder={NavMenuButton}>
        {(intent) => <MobileNavMenu signedIn={signedIn} {...intent} />}
      </DeferredMenu>
    </Box>
  );
}

export function Header() {
  // The signed-in state is the stored marker, re-read when this tab signs in or out.
  const signedIn = useSessionWatch();
  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg/95"
      backdropFilter="saturate(180%) blur(8px)"
      borderBottomWidth="1px"
      borderColor="border"
    >
      <Container maxW="7xl">
        <Flex height="16" align="center" justify="space-between" gap="4">
          <Logo />
          <HStack gap="2">
            <DesktopNav signedIn={signedIn} />
            <ColorModeButton />
            <MobileNav signedIn={signedIn} />
          </HStack>
        </Flex>
      </Container>
    </Box>
  );
}
