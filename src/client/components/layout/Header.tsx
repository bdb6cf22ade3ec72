import { Box, Button, Container, Flex, HStack, Icon, IconButton, Link, Menu, Portal, Text } from '@chakra-ui/react';
import { LuBell, LuChevronDown, LuEgg, LuMenu, LuUser } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { ColorModeButton } from '#client/components/ColorMode.tsx';
import { COMPARE_LINKS } from '#client/lib/links.ts';
import { useSessionWatch } from '#client/lib/session.ts';

function Logo() {
  return (
    <Link asChild fontWeight="bold" fontSize="xl" color="fg" _hover={{ textDecoration: 'none', color: 'brand.fg' }} borderRadius="md">
      <RouterLink to="/" aria-label="EggWatch home">
        <Icon size="lg" color="brand.500" aria-hidden>
          <LuEgg />
        </Icon>
        <Text as="span">EggWatch</Text>
      </RouterLink>
    </Link>
  );
}

function EggTypesMenu() {
  return (
    <Menu.Root positioning={{ placement: 'bottom-start' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" colorPalette="gray" size="sm">
          Egg Types
          <LuChevronDown aria-hidden />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="44">
            {COMPARE_LINKS.map((link) => (
              <Menu.Item key={link.href} value={link.href} asChild>
                <RouterLink to={link.href}>{link.label}</RouterLink>
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

/** Bell with a red dot: the signed-in shortcut to price alerts (SPEC §2). */
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
      <EggTypesMenu />
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

/** Phones (< 768 px) get one menu button holding every header link. */
function MobileNav({ signedIn }: { signedIn: boolean }) {
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
    <Box as="nav" aria-label="Main" hideFrom="md">
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <IconButton aria-label="Open navigation menu" variant="outline" colorPalette="gray" size="sm">
            <LuMenu />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="56">
              <Menu.ItemGroup>
                <Menu.ItemGroupLabel>Egg Types</Menu.ItemGroupLabel>
                {COMPARE_LINKS.map((link) => (
                  <Menu.Item key={link.href} value={link.href} asChild>
                    <RouterLink to={link.href}>{link.label}</RouterLink>
                  </Menu.Item>
                ))}
              </Menu.ItemGroup>
              <Menu.Separator />
              <Menu.Item value="/admin/login" asChild>
                <RouterLink to="/admin/login">Admin</RouterLink>
              </Menu.Item>
              {accountLinks.map((link) => (
                <Menu.Item key={link.href} value={link.href} asChild>
                  <RouterLink to={link.href}>{link.label}</RouterLink>
                </Menu.Item>
              ))}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </Box>
  );
}

export function Header() {
  // SPEC §2/§4: the signed-in state is the stored marker, re-read when this tab signs in or out.
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
