import { Box, Container, Flex, HStack, Icon, Link, Stack, Text } from '@chakra-ui/react';
import { LuEgg } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { COMPARE_LINKS } from '#client/lib/links.ts';

/**
 * The About links. One without a page yet stays a placeholder without a target, a button so it
 * stays keyboard reachable.
 */
export const ABOUT_LINKS: ReadonlyArray<{ label: string; href?: string }> = [
  { label: 'Data Sources' },
  { label: 'Privacy Policy', href: '/privacy' },
  { label: 'Terms of Service', href: '/terms' },
];

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <Box as="footer" borderTopWidth="1px" borderColor="border" bg="bg.subtle" mt="auto">
      <Container maxW="7xl" py="8">
        <Flex direction={{ base: 'column', md: 'row' }} gap="8" justify="space-between">
          <Stack gap="2" maxW="sm">
            <HStack gap="2" fontWeight="bold" fontSize="lg">
              <Icon color="brand.500" aria-hidden>
                <LuEgg />
              </Icon>
              <Text as="span">EggWatch</Text>
            </HStack>
            <Text fontSize="sm" color="fg.muted">
              Compare US grocery egg prices by type, store and region.
            </Text>
          </Stack>
          <Flex gap={{ base: '8', sm: '16' }} wrap="wrap">
            <Box as="nav" aria-label="Compare egg types">
              <Text fontSize="sm" fontWeight="semibold" mb="2">
                Compare
              </Text>
              <Stack as="ul" gap="1.5" listStyleType="none">
                {COMPARE_LINKS.map((link) => (
                  <li key={link.href}>
                    <Link asChild fontSize="sm" color="fg.muted" _hover={{ color: 'fg' }}>
                      <RouterLink to={link.href}>{link.label}</RouterLink>
                    </Link>
                  </li>
                ))}
              </Stack>
            </Box>
            <Box as="nav" aria-label="About EggWatch">
              <Text fontSize="sm" fontWeight="semibold" mb="2">
                About
              </Text>
              <Stack as="ul" gap="1.5" listStyleType="none">
                {ABOUT_LINKS.map((link) => (
                  <li key={link.label}>
                    <Link asChild fontSize="sm" color="fg.muted" _hover={{ color: 'fg' }}>
                      {link.href ? (
                        <RouterLink to={link.href}>{link.label}</RouterLink>
                      ) : (
                        <button type="button">{link.label}</button>
                      )}
                    </Link>
                  </li>
                ))}
              </Stack>
            </Box>
          </Flex>
        </Flex>
        <Text fontSize="sm" color="fg.muted" mt="8" pt="6" borderTopWidth="1px" borderColor="border">
          © {year} EggWatch. All data updated daily.
        </Text>
      </Container>
    </Box>
  );
}
